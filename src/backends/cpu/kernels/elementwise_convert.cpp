// Element type changes: convert, bitcast_convert, reduce_precision, and the
// complex part ops (real, imag, complex).
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/elementwise_util.h"
#include "backends/cpu/kernel_util.h"
#include "ir/float_bits.h"

namespace hlograph::cpu {
namespace {

using ew::LowMask;

// ---------------------------------------------------------------------------
// convert
//
// Two passes, so that each element type is dispatched once per pass: the
// source is read into a lossless canonical form (int64 for signed integers
// and bool, uint64 for unsigned, double for floats, complex<double>), which
// is then converted to the destination with XLA's rules:
//   - integer -> integer wraps; anything -> bool is "!= 0" (NaN is true);
//   - float -> integer truncates toward zero, saturates, and maps NaN to 0;
//   - integer -> float and float narrowing round to nearest even; bf16 is
//     reached through f32, as XLA emits it;
//   - complex -> real keeps the real part; real -> complex has zero imag.

// `u` as a double rounded to odd: exact below 2^53, otherwise the dropped
// bits are folded into the last kept bit so that a second rounding to a
// narrower format (at most 51 significand bits) is correctly rounded.
double UintToDoubleRoundOdd(uint64_t u) {
  if (u < (uint64_t{1} << 53)) return static_cast<double>(u);
  const int shift = 64 - std::countl_zero(u) - 53;
  uint64_t kept = u >> shift;
  if (u & LowMask(shift)) kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}

double IntToDoubleRoundOdd(int64_t s) {
  const uint64_t mag = s < 0 ? uint64_t{0} - static_cast<uint64_t>(s) : static_cast<uint64_t>(s);
  const double d = UintToDoubleRoundOdd(mag);
  return s < 0 ? -d : d;
}

enum class Canon { kSigned, kUnsigned, kFloat, kComplex };

Canon CanonOf(ir::ElementType e) {
  if (ir::IsComplex(e)) return Canon::kComplex;
  if (ir::IsFloat(e)) return Canon::kFloat;
  if (ir::IsUnsignedInteger(e)) return Canon::kUnsigned;
  return Canon::kSigned;  // signed integers and bool
}

// float -> integer of `bits` bits: truncate, saturate, NaN -> 0.
template <typename T>
T FloatToInt(double d, int bits) {
  if constexpr (std::is_signed_v<T>) {
    if (std::isnan(d)) return 0;
    const double lo = -std::ldexp(1.0, bits - 1);  // exact
    const double hi = std::ldexp(1.0, bits - 1);   // one past the maximum
    if (d <= lo) return ew::WrapBits<T>(uint64_t{1} << (bits - 1), bits);
    if (d >= hi) return ew::WrapBits<T>(LowMask(bits - 1), bits);
    return static_cast<T>(static_cast<int64_t>(std::trunc(d)));
  } else {
    if (std::isnan(d) || d <= 0) return 0;
    if (d >= std::ldexp(1.0, bits)) return static_cast<T>(LowMask(bits));
    return static_cast<T>(static_cast<uint64_t>(std::trunc(d)));
  }
}

// A narrow float from a value that is exact in double or rounded to odd.
template <typename T>
T NarrowFromDouble(double d) {
  if constexpr (std::is_same_v<T, BF16>) {
    return BF16{FloatToBf16(static_cast<float>(d))};
  } else {
    using Bits = decltype(T{}.bits);
    return T{static_cast<Bits>(ir::DoubleToFloatBits(d, T::kType))};
  }
}

// Destination T from a signed or unsigned integer `v` (S = int64/uint64).
template <typename T, typename S>
T FromInteger(S v, int bits) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (kIsInteger<T>) {
    return ew::WrapBits<T>(static_cast<uint64_t>(v), bits);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<T>(v);
  } else if constexpr (kIsComplex<T>) {
    using R = ew::RealOf<T>;
    return T(static_cast<R>(v), 0);
  } else if constexpr (std::is_same_v<T, BF16>) {
    return BF16{FloatToBf16(static_cast<float>(v))};
  } else {
    if constexpr (std::is_signed_v<S>) {
      return NarrowFromDouble<T>(IntToDoubleRoundOdd(v));
    } else {
      return NarrowFromDouble<T>(UintToDoubleRoundOdd(v));
    }
  }
}

template <typename T>
T FromDouble(double d, int bits) {
  if constexpr (std::is_same_v<T, bool>) {
    return d != 0;
  } else if constexpr (kIsInteger<T>) {
    return FloatToInt<T>(d, bits);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<T>(d);
  } else if constexpr (kIsComplex<T>) {
    using R = ew::RealOf<T>;
    return T(static_cast<R>(d), 0);
  } else {
    return NarrowFromDouble<T>(d);
  }
}

template <typename T>
T FromComplex(std::complex<double> z, int bits) {
  if constexpr (kIsComplex<T>) {
    using R = ew::RealOf<T>;
    return T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
  } else {
    return FromDouble<T>(z.real(), bits);
  }
}

template <typename S>
std::vector<S> ReadCanonical(const Tensor& in) {
  const int64_t n = in.num_elements();
  std::vector<S> values(static_cast<size_t>(n));
  DispatchElementType(in.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = in.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<S, std::complex<double>>) {
        if constexpr (kIsComplex<T>) values[i] = S(a[i].real(), a[i].imag());
      } else if constexpr (std::is_same_v<S, double>) {
        if constexpr (kIsFloat<T>) values[i] = static_cast<double>(Load<T>(a[i]));
      } else {
        if constexpr (std::is_integral_v<T>) values[i] = static_cast<S>(a[i]);
      }
    }
  });
  return values;
}

template <typename S>
void WriteFromCanonical(const std::vector<S>& values, Tensor& out) {
  const int64_t n = out.num_elements();
  const int bits = ir::BitWidth(out.element());
  DispatchElementType(out.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* r = out.mutable_data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<S, std::complex<double>>) {
        r[i] = FromComplex<T>(values[i], bits);
      } else if constexpr (std::is_same_v<S, double>) {
        r[i] = FromDouble<T>(values[i], bits);
      } else {
        r[i] = FromInteger<T>(values[i], bits);
      }
    }
  });
}

Status ConvertKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, out.num_elements()));
  if (in.element() == out.element()) {
    ctx.results.push_back(in.Reshaped(out.type()));
    return Status::Ok();
  }
  switch (CanonOf(in.element())) {
    case Canon::kSigned: WriteFromCanonical(ReadCanonical<int64_t>(in), out); break;
    case Canon::kUnsigned: WriteFromCanonical(ReadCanonical<uint64_t>(in), out); break;
    case Canon::kFloat: WriteFromCanonical(ReadCanonical<double>(in), out); break;
    case Canon::kComplex: WriteFromCanonical(ReadCanonical<std::complex<double>>(in), out); break;
  }
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// bitcast_convert: the operand's bits, element after element (little-endian
// within an element), reinterpreted as the result's elements. Types whose
// storage is exactly their bits share the buffer layout; the others (i1,
// sub-byte types, tf32) go through a packed bit stream.

bool StorageIsExactBits(ir::ElementType e) { return ir::BitWidth(e) == 8 * ir::StorageBytes(e); }

Status BitcastConvertKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const ir::ElementType from = in.element(), to = out.element();
  const int from_bits = ir::BitWidth(from), to_bits = ir::BitWidth(to);
  const int64_t total_bits = in.num_elements() * from_bits;
  if (total_bits != out.num_elements() * to_bits) {
    return ctx.Error("expects the operand and the result to hold the same number of bits");
  }
  if (StorageIsExactBits(from) && StorageIsExactBits(to)) {
    if (in.byte_size() != out.byte_size()) return ctx.Error("expects operand and result buffers of one size");
    if (out.byte_size() > 0) std::memcpy(out.mutable_bytes(), in.bytes(), out.byte_size());
    ctx.results.push_back(std::move(out));
    return Status::Ok();
  }
  // Neither side is complex here (complex types are byte-exact and pair only
  // with complex types), so every element fits in 64 bits.
  std::vector<uint8_t> stream(static_cast<size_t>((total_bits + 7) / 8), 0);
  const int in_bytes = ir::StorageBytes(from), out_bytes = ir::StorageBytes(to);
  const uint8_t* src = in.bytes();
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, src + i * in_bytes, static_cast<size_t>(in_bytes));
    v &= LowMask(from_bits);
    const int64_t at = i * from_bits;
    for (int k = 0; k < from_bits; ++k) {
      if ((v >> k) & 1) stream[static_cast<size_t>((at + k) / 8)] |= static_cast<uint8_t>(1u << ((at + k) % 8));
    }
  }
  const bool sign_extend = ir::IsSignedInteger(to);
  uint8_t* dst = out.mutable_bytes();
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    uint64_t v = 0;
    const int64_t at = i * to_bits;
    for (int k = 0; k < to_bits; ++k) {
      if ((stream[static_cast<size_t>((at + k) / 8)] >> ((at + k) % 8)) & 1) v |= uint64_t{1} << k;
    }
    if (sign_extend) v = static_cast<uint64_t>(ew::SignExtend(v, to_bits));
    std::memcpy(dst + i * out_bytes, &v, static_cast<size_t>(out_bytes));
  }
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// reduce_precision, on the operand's own bits as XLA does it: round the
// mantissa to nearest even, then send exponents beyond the target range to
// signed infinity and those at or below its smallest normal exponent to
// signed zero (denormals of the target are flushed). A NaN stays the same
// NaN.

template <typename U>
U ReducePrecisionBits(U x, int src_exponent_bits, int src_mantissa_bits, int64_t exponent_bits,
                      int64_t mantissa_bits) {
  const U sign_mask = U(U(1) << (src_exponent_bits + src_mantissa_bits));
  const U exp_mask = U(U(LowMask(src_exponent_bits)) << src_mantissa_bits);
  const U abs_bits = U(x & U(sign_mask - 1));
  const bool is_nan = abs_bits > exp_mask;
  U r = x;
  if (mantissa_bits < src_mantissa_bits) {
    const int drop = src_mantissa_bits - static_cast<int>(mantissa_bits);
    const U last_kept = U(U(1) << drop);
    const U bias = U(U(last_kept >> 1) - 1 + ((r >> drop) & 1));
    r = U(U(r + bias) & U(~U(last_kept - 1)));
  }
  if (exponent_bits < src_exponent_bits) {
    const int64_t src_bias = (int64_t{1} << (src_exponent_bits - 1)) - 1;
    const int64_t reduced_bias = (int64_t{1} << (exponent_bits - 1)) - 1;
    const uint64_t max_exp = static_cast<uint64_t>(src_bias + reduced_bias);
    const uint64_t min_exp = static_cast<uint64_t>(src_bias - reduced_bias);
    const uint64_t e = static_cast<uint64_t>(r & exp_mask);
    const U signed_zero = U(r & sign_mask);
    if (e > (max_exp << src_mantissa_bits)) {
      r = U(signed_zero | exp_mask);
    } else if (e <= (min_exp << src_mantissa_bits)) {
      r = signed_zero;
    }
  }
  return is_nan ? x : r;
}

template <typename Flt, typename U>
Flt ReducePrecisionOf(Flt v, int se, int sm, int64_t e, int64_t m) {
  U u;
  std::memcpy(&u, &v, sizeof(U));
  u = ReducePrecisionBits<U>(u, se, sm, e, m);
  std::memcpy(&v, &u, sizeof(U));
  return v;
}

Status ReducePrecisionKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = in.element();
  if (out.element() != e) return ctx.Error("expects the result element type to match the operand's");
  const int64_t exponent_bits = IntAttr(ctx.op, "exponent_bits", 64);
  const int64_t mantissa_bits = IntAttr(ctx.op, "mantissa_bits", 64);
  if (exponent_bits < 1 || mantissa_bits < 0) {
    return ctx.Error("expects exponent_bits >= 1 and mantissa_bits >= 0");
  }
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    const T* a = in.data<T>();
    T* r = out.mutable_data<T>();
    if constexpr (std::is_same_v<T, double>) {
      for (int64_t i = 0; i < n; ++i) r[i] = ReducePrecisionOf<double, uint64_t>(a[i], 11, 52, exponent_bits, mantissa_bits);
      return true;
    } else if constexpr (std::is_same_v<T, float>) {
      for (int64_t i = 0; i < n; ++i) r[i] = ReducePrecisionOf<float, uint32_t>(a[i], 8, 23, exponent_bits, mantissa_bits);
      return true;
    } else if constexpr (std::is_same_v<T, F16> || std::is_same_v<T, BF16>) {
      // IEEE-like 16-bit formats: work on their own bits.
      const int se = std::is_same_v<T, F16> ? 5 : 8;
      const int sm = std::is_same_v<T, F16> ? 10 : 7;
      for (int64_t i = 0; i < n; ++i) r[i] = T{ReducePrecisionBits<uint16_t>(a[i].bits, se, sm, exponent_bits, mantissa_bits)};
      return true;
    } else if constexpr (kIsNarrowFloat<T>) {
      // The f8/f6/f4 formats are widened as XLA does: to f16 when their
      // values fit (its denormals then round on f16's bits), else to f32.
      const auto format = ir::FloatFormatOf(e);
      if (format && format->exponent_bits <= 5) {
        for (int64_t i = 0; i < n; ++i) {
          const auto h = static_cast<uint16_t>(ir::DoubleToFloatBits(Load<T>(a[i]), ir::ElementType::kF16));
          const uint16_t reduced = ReducePrecisionBits<uint16_t>(h, 5, 10, exponent_bits, mantissa_bits);
          r[i] = Store<T>(static_cast<float>(ir::FloatBitsToDouble(reduced, ir::ElementType::kF16)));
        }
      } else {
        for (int64_t i = 0; i < n; ++i) {
          r[i] = Store<T>(ReducePrecisionOf<float, uint32_t>(Load<T>(a[i]), 8, 23, exponent_bits, mantissa_bits));
        }
      }
      return true;
    }
    return false;
  });
  if (!ok) return ew::Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// real / imag / complex

template <bool kImag>
Status PartKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = in.element();
  if (!ir::IsComplex(e)) {
    if (!ir::IsFloat(e) || out.element() != e) return ew::Unsupported(ctx, e);
    // The real part of a real number is itself, its imaginary part zero.
    if (!kImag) {
      ctx.results.push_back(in.Reshaped(out.type()));
    } else {
      DispatchElementType(e, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (kIsFloat<T>) {
          T* r = out.mutable_data<T>();
          for (int64_t i = 0; i < n; ++i) r[i] = Store<T>(0);
        }
      });
      ctx.results.push_back(std::move(out));
    }
    return Status::Ok();
  }
  if (out.element() != ir::ComplexPart(e)) return ctx.Error("expects the result to be the complex part type");
  DispatchElementType(e, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      using R = ew::RealOf<T>;
      const T* a = in.data<T>();
      R* r = out.mutable_data<R>();
      for (int64_t i = 0; i < n; ++i) r[i] = kImag ? a[i].imag() : a[i].real();
    }
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

Status ComplexKernel(KernelContext& ctx) {
  const Tensor& re = ctx.operand(0);
  const Tensor& im = ctx.operand(1);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = re.element();
  if (im.element() != e || !ir::ComplexOf(e) || *ir::ComplexOf(e) != out.element()) {
    return ctx.Error("expects f32 or f64 parts and the matching complex result");
  }
  DispatchElementType(e, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* a = re.data<T>();
      const T* b = im.data<T>();
      std::complex<T>* r = out.mutable_data<std::complex<T>>();
      for (int64_t i = 0; i < n; ++i) r[i] = std::complex<T>(a[i], b[i]);
    }
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

}  // namespace

namespace ew {

void RegisterConvertKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kConvert, &ConvertKernel);
  r.Register(ir::OpId::kBitcastConvert, &BitcastConvertKernel);
  r.Register(ir::OpId::kReducePrecision, &ReducePrecisionKernel);
  r.Register(ir::OpId::kReal, &PartKernel<false>);
  r.Register(ir::OpId::kImag, &PartKernel<true>);
  r.Register(ir::OpId::kComplex, &ComplexKernel);
}

}  // namespace ew
}  // namespace hlograph::cpu

// Shared machinery of the elementwise kernels (elementwise*.cpp,
// chlo_special.cpp): typed loops that dispatch on the element type once and
// then apply an op functor to every element.
//
// An op functor is a struct of static functions, one per element class it
// supports; a kernel built from it rejects the classes it lacks:
//   Bool(bool...)                       i1
//   Int(T..., int bits) -> uint64_t     integers; the result is a bit pattern
//                                       that the loop wraps to `bits`
//   Float(C...)                         floats, C = float or double (narrow
//                                       floats are computed in float)
//   Complex(std::complex<R>...)         complex
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "backends/cpu/element_types.h"
#include "backends/cpu/kernel.h"
#include "backends/cpu/tensor.h"
#include "ir/element_type.h"

namespace hlograph::cpu::ew {

// The low `bits` bits set.
inline uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// An integer's two's-complement bit pattern, widened to 64 bits.
template <typename T>
inline uint64_t Bits64(T v) {
  return static_cast<uint64_t>(v);
}

// A bit pattern as a `bits`-wide integer stored in T: sub-byte signed
// integers stay sign-extended and unsigned ones masked, as tensors store them.
template <typename T>
inline T WrapBits(uint64_t v, int bits) {
  v &= LowMask(bits);
  if constexpr (std::is_signed_v<T>) {
    if (bits < 64 && ((v >> (bits - 1)) & 1)) v |= ~LowMask(bits);
  }
  return static_cast<T>(v);
}

// The `bits`-wide pattern `v` read as a signed number.
inline int64_t SignExtend(uint64_t v, int bits) {
  v &= LowMask(bits);
  if (bits < 64 && ((v >> (bits - 1)) & 1)) v |= ~LowMask(bits);
  return static_cast<int64_t>(v);
}

template <typename T>
using RealOf = typename T::value_type;

std::string TypeName(ir::ElementType e);

// Fails unless every operand holds as many elements as the result (the
// verifier guarantees it; this keeps a mismatched call from reading past a
// buffer).
Status CheckCounts(const KernelContext& ctx, const std::vector<const Tensor*>& operands, int64_t n);

// An unsupported element type: the verifier normally rejects it first.
inline Status Unsupported(const KernelContext& ctx, ir::ElementType e) {
  return ctx.Error("does not support element type " + TypeName(e));
}

// Op's element functions, named only where a kernel keeps the call: in a
// generic lambda's discarded branch clang (14) looks Op::Name up as soon as
// Op is known, failing for the types an op does not take.
template <typename Op, typename... A>
auto CallBool(A... a) {
  return Op::Bool(a...);
}
template <typename Op, typename... A>
auto CallInt(A... a) {
  return Op::Int(a...);
}
template <typename Op, typename... A>
auto CallComplex(A... a) {
  return Op::Complex(a...);
}
template <typename Op, typename... A>
auto CallFloat(A... a) {
  return Op::Float(a...);
}

template <typename Op, typename T>
inline constexpr bool kUnaryBool = requires(bool x) { Op::Bool(x); };
template <typename Op, typename T>
inline constexpr bool kUnaryInt = requires(T x) { Op::Int(x, 8); };
template <typename Op, typename T>
inline constexpr bool kUnaryFloat = requires(ComputeType<T> x) { Op::Float(x); };
template <typename Op, typename T>
inline constexpr bool kUnaryComplex = requires(T x) { Op::Complex(x); };

// result[i] = Op(operand[i]) with the operand's element type.
template <typename Op>
Status UnaryKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = in.element();
  if (out.element() != e) return ctx.Error("expects the result element type to match the operand's");
  const int bits = ir::BitWidth(e);
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    const T* a = in.data<T>();
    T* r = out.mutable_data<T>();
    if constexpr (std::is_same_v<T, bool>) {
      if constexpr (kUnaryBool<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = CallBool<Op>(a[i]);
        return true;
      }
    } else if constexpr (kIsInteger<T>) {
      if constexpr (kUnaryInt<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = WrapBits<T>(CallInt<Op>(a[i], bits), bits);
        return true;
      }
    } else if constexpr (kIsComplex<T>) {
      if constexpr (kUnaryComplex<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = CallComplex<Op>(a[i]);
        return true;
      }
    } else if constexpr (kUnaryFloat<Op, T>) {
      for (int64_t i = 0; i < n; ++i) r[i] = Store<T>(CallFloat<Op>(Load<T>(a[i])));
      return true;
    }
    return false;
  });
  if (!ok) return Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

template <typename Op, typename T>
inline constexpr bool kBinaryBool = requires(bool x) { Op::Bool(x, x); };
template <typename Op, typename T>
inline constexpr bool kBinaryInt = requires(T x) { Op::Int(x, x, 8); };
template <typename Op, typename T>
inline constexpr bool kBinaryFloat = requires(ComputeType<T> x) { Op::Float(x, x); };
template <typename Op, typename T>
inline constexpr bool kBinaryComplex = requires(T x) { Op::Complex(x, x); };

// result[i] = Op(lhs[i], rhs[i]), all of one element type.
template <typename Op>
Status BinaryKernel(KernelContext& ctx) {
  const Tensor& lhs = ctx.operand(0);
  const Tensor& rhs = ctx.operand(1);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = lhs.element();
  if (rhs.element() != e || out.element() != e) {
    return ctx.Error("expects operands and result of one element type");
  }
  const int bits = ir::BitWidth(e);
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    const T* a = lhs.data<T>();
    const T* b = rhs.data<T>();
    T* r = out.mutable_data<T>();
    if constexpr (std::is_same_v<T, bool>) {
      if constexpr (kBinaryBool<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = CallBool<Op>(a[i], b[i]);
        return true;
      }
    } else if constexpr (kIsInteger<T>) {
      if constexpr (kBinaryInt<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = WrapBits<T>(CallInt<Op>(a[i], b[i], bits), bits);
        return true;
      }
    } else if constexpr (kIsComplex<T>) {
      if constexpr (kBinaryComplex<Op, T>) {
        for (int64_t i = 0; i < n; ++i) r[i] = CallComplex<Op>(a[i], b[i]);
        return true;
      }
    } else if constexpr (kBinaryFloat<Op, T>) {
      for (int64_t i = 0; i < n; ++i) r[i] = Store<T>(CallFloat<Op>(Load<T>(a[i]), Load<T>(b[i])));
      return true;
    }
    return false;
  });
  if (!ok) return Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// Float predicates (is_finite, is_inf, ...): result[i] = Op::Test(x) as i1.
template <typename Op>
Status FloatPredicateKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(CheckCounts(ctx, ctx.operands, n));
  if (out.element() != ir::ElementType::kI1) return ctx.Error("expects an i1 result");
  const ir::ElementType e = in.element();
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      const T* a = in.data<T>();
      bool* r = out.mutable_data<bool>();
      for (int64_t i = 0; i < n; ++i) r[i] = Op::Test(Load<T>(a[i]));
      return true;
    }
    return false;
  });
  if (!ok) return Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// The complex product as XLA:CPU computes it: the textbook formula (C++'s
// operator* adds Annex G infinity recovery that XLA does not do), with the
// multiply-adds LLVM contracts into fused ones on the host.
template <typename R>
inline std::complex<R> ComplexMul(std::complex<R> a, std::complex<R> b) {
  return {std::fma(a.real(), b.real(), -(a.imag() * b.imag())), std::fma(a.imag(), b.real(), a.real() * b.imag())};
}
std::complex<float> ComplexDiv(std::complex<float> a, std::complex<float> b);
std::complex<double> ComplexDiv(std::complex<double> a, std::complex<double> b);

// IEEE 754-2019 maximum/minimum: NaN wins, and +0 > -0.
template <typename C>
inline C FloatMax(C a, C b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename C>
inline C FloatMin(C a, C b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// Lexicographic (real, imag) order for complex maximum/minimum/clamp; a NaN
// in the deciding part is propagated.
template <typename R>
inline std::complex<R> ComplexMax(std::complex<R> a, std::complex<R> b) {
  if (std::isnan(a.real())) return a;
  if (std::isnan(b.real())) return b;
  if (a.real() != b.real()) return a.real() > b.real() ? a : b;
  if (std::isnan(a.imag())) return a;
  if (std::isnan(b.imag())) return b;
  return a.imag() >= b.imag() ? a : b;
}
template <typename R>
inline std::complex<R> ComplexMin(std::complex<R> a, std::complex<R> b) {
  if (std::isnan(a.real())) return a;
  if (std::isnan(b.real())) return b;
  if (a.real() != b.real()) return a.real() < b.real() ? a : b;
  if (std::isnan(a.imag())) return a;
  if (std::isnan(b.imag())) return b;
  return a.imag() <= b.imag() ? a : b;
}

// Registration of each file's kernels.
void RegisterMathKernels(KernelRegistry& r);
void RegisterConvertKernels(KernelRegistry& r);
void RegisterChloSpecialKernels(KernelRegistry& r);

}  // namespace hlograph::cpu::ew

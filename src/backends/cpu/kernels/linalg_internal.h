// Pieces shared by the linear-algebra kernels (linalg*.cpp, conv.cpp,
// fft.cpp, lapack_custom_calls.cpp): the type a contraction accumulates in,
// conversions into and out of it, strided permuting copies, and a GEMM that
// goes to the BLAS when it can.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/kernel.h"
#include "backends/cpu/tensor.h"

namespace hlograph::cpu::linalg {

// Contractions accumulate in a type picked from the result element type, as
// XLA:CPU does: narrow floats and f32 in float (bf16 x bf16 dots are
// upcast, summed in f32 and rounded once), f64 in double, complex in its own
// type, and integers (any widths, any signedness) in 64-bit wrapping
// arithmetic whose low bits equal the result type's own wrapping sum.
enum class AccKind { kF32, kF64, kC64, kC128, kInt };

inline AccKind AccKindFor(ir::ElementType result) {
  using E = ir::ElementType;
  switch (result) {
    case E::kF64: return AccKind::kF64;
    case E::kC64: return AccKind::kC64;
    case E::kC128: return AccKind::kC128;
    default: break;
  }
  if (ir::IsFloat(result)) return AccKind::kF32;
  return AccKind::kInt;
}

template <typename Fn>
decltype(auto) DispatchAcc(AccKind k, Fn&& fn) {
  switch (k) {
    case AccKind::kF32: return fn(Tag<float>{});
    case AccKind::kF64: return fn(Tag<double>{});
    case AccKind::kC64: return fn(Tag<std::complex<float>>{});
    case AccKind::kC128: return fn(Tag<std::complex<double>>{});
    case AccKind::kInt: break;
  }
  return fn(Tag<uint64_t>{});
}

// The accumulator type of result storage type R.
template <typename R>
auto AccTypeHelper() {
  if constexpr (kIsComplex<R>) {
    return R{};
  } else if constexpr (std::is_same_v<R, double>) {
    return double{};
  } else if constexpr (kIsFloat<R>) {
    return float{};
  } else {
    return uint64_t{};
  }
}
template <typename R>
using AccOf = decltype(AccTypeHelper<R>());

// Float to integer without undefined behaviour: NaN is 0, out-of-range
// values saturate (only reachable from unusual mixed-type IR).
inline uint64_t FloatToWrapped(double v) {
  if (!(v == v)) return 0;
  if (v >= 9.2233720368547758e18) return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (v <= -9.2233720368547758e18) return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
  return static_cast<uint64_t>(static_cast<int64_t>(v));
}

// One stored element of type T as accumulator type A. Integers are sign- or
// zero-extended by their own signedness, so the wrapped 64-bit product has
// the same low bits as the product in the result type.
template <typename A, typename T>
inline A ToAcc(T v) {
  if constexpr (std::is_same_v<A, uint64_t>) {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        return static_cast<uint64_t>(static_cast<int64_t>(v));
      } else {
        return static_cast<uint64_t>(v);
      }
    } else if constexpr (kIsComplex<T>) {
      return FloatToWrapped(static_cast<double>(v.real()));
    } else {
      return FloatToWrapped(static_cast<double>(Load(v)));
    }
  } else if constexpr (kIsComplex<A>) {
    using P = typename A::value_type;
    if constexpr (kIsComplex<T>) {
      return A(static_cast<P>(v.real()), static_cast<P>(v.imag()));
    } else if constexpr (std::is_integral_v<T>) {
      return A(static_cast<P>(v), P(0));
    } else {
      return A(static_cast<P>(Load(v)), P(0));
    }
  } else {
    if constexpr (kIsComplex<T>) {
      return static_cast<A>(v.real());
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<A>(v);
    } else {
      return static_cast<A>(Load(v));
    }
  }
}

// An accumulator value stored as R; only called with A == AccOf<R>.
template <typename R, typename A>
inline R FromAcc(A v) {
  if constexpr (std::is_same_v<R, bool>) {
    return v != A{};
  } else if constexpr (std::is_integral_v<R>) {
    if constexpr (std::is_same_v<A, uint64_t>) {
      return static_cast<R>(v);
    } else {
      return R{};
    }
  } else if constexpr (kIsComplex<R>) {
    if constexpr (kIsComplex<A>) {
      return R(v);
    } else {
      return R{};
    }
  } else if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double>) {
    return Store<R>(static_cast<ComputeType<R>>(v));
  } else {
    return R{};
  }
}

// Sub-byte integers are kept sign-extended (i2/i4) or masked (u2/u4) in
// their byte; wrapping sums need this applied once at the end.
void FixSubByteIntegers(Tensor& t);

// dst[i0, i1, ...] = convert(src[...]) where destination dim i is source dim
// perm[i] (reversed when reverse[perm[i]] is set); shape is the source shape.
template <typename S, typename D, typename Convert>
void PermuteCopy(const S* src, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm,
                 const std::vector<bool>& reverse, D* dst, Convert&& convert) {
  const size_t r = perm.size();
  if (r == 0) {
    dst[0] = convert(src[0]);
    return;
  }
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> dims(r), st(r);
  int64_t base = 0;
  int64_t total = 1;
  for (size_t i = 0; i < r; ++i) {
    const size_t p = static_cast<size_t>(perm[i]);
    dims[i] = shape[p];
    st[i] = strides[p];
    total *= dims[i];
    if (!reverse.empty() && reverse[p] && dims[i] > 0) {
      base += (dims[i] - 1) * st[i];
      st[i] = -st[i];
    }
  }
  if (total == 0) return;
  std::vector<int64_t> idx(r, 0);
  const int64_t inner = dims[r - 1];
  const int64_t inner_stride = st[r - 1];
  int64_t off = base;
  for (int64_t done = 0; done < total; done += inner) {
    const S* s = src + off;
    if (inner_stride == 1) {
      for (int64_t j = 0; j < inner; ++j) dst[j] = convert(s[j]);
    } else {
      for (int64_t j = 0; j < inner; ++j) dst[j] = convert(s[j * inner_stride]);
    }
    dst += inner;
    for (int64_t d = static_cast<int64_t>(r) - 2; d >= 0; --d) {
      const size_t du = static_cast<size_t>(d);
      off += st[du];
      if (++idx[du] < dims[du]) break;
      off -= st[du] * dims[du];
      idx[du] = 0;
    }
  }
}

// The elements of `t` converted to accumulator type A and permuted (see
// PermuteCopy).
template <typename A>
std::vector<A> GatherAs(const Tensor& t, const std::vector<int64_t>& perm, const std::vector<bool>& reverse = {}) {
  std::vector<A> out(static_cast<size_t>(t.num_elements()));
  if (out.empty()) return out;
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    PermuteCopy(t.data<T>(), t.shape(), perm, reverse, out.data(), [](T v) { return ToAcc<A>(v); });
  });
  return out;
}

// Writes accumulator values laid out as `shape` into `result`, whose dim i is
// dim perm[i] of that layout, converting to the result element type.
template <typename A>
void ScatterFromAcc(const A* src, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm, Tensor& result) {
  if (result.num_elements() == 0) return;
  DispatchElementType(result.element(), [&](auto tag) {
    using R = typename decltype(tag)::type;
    if constexpr (std::is_same_v<AccOf<R>, A>) {
      PermuteCopy(src, shape, perm, {}, result.mutable_data<R>(), [](A v) { return FromAcc<R>(v); });
    }
  });
  FixSubByteIntegers(result);
}

// c (m x n, row stride ldc) = op(a) * op(b), all row-major; op(a) is m x k,
// op(b) is k x n. lda/ldb are the row strides of a and b as stored.
// f32/f64/complex go to the BLAS; integer accumulators use a plain loop.
template <typename A>
void Gemm(int64_t m, int64_t n, int64_t k, const A* a, int64_t lda, bool trans_a, const A* b, int64_t ldb,
          bool trans_b, A* c, int64_t ldc);

extern template void Gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, bool, const float*, int64_t, bool,
                                 float*, int64_t);
extern template void Gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, bool, const double*, int64_t,
                                  bool, double*, int64_t);
extern template void Gemm<std::complex<float>>(int64_t, int64_t, int64_t, const std::complex<float>*, int64_t, bool,
                                               const std::complex<float>*, int64_t, bool, std::complex<float>*,
                                               int64_t);
extern template void Gemm<std::complex<double>>(int64_t, int64_t, int64_t, const std::complex<double>*, int64_t, bool,
                                                const std::complex<double>*, int64_t, bool, std::complex<double>*,
                                                int64_t);
extern template void Gemm<uint64_t>(int64_t, int64_t, int64_t, const uint64_t*, int64_t, bool, const uint64_t*,
                                    int64_t, bool, uint64_t*, int64_t);

// The registration of each file's kernels, called from RegisterLinalgKernels.
void RegisterConvKernels(KernelRegistry& r);
void RegisterFftKernels(KernelRegistry& r);
void RegisterFactorKernels(KernelRegistry& r);

}  // namespace hlograph::cpu::linalg

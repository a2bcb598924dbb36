// CHLO's special functions: erf, erfc, erf_inv, lgamma, digamma, polygamma,
// zeta, bessel_i1e (ir/scalar_math.h, the GPU's too, listed in
// ir/ops/scalar_function_ops.def) and next_after. Every type is computed in
// double and rounded once to the operand type, so f32 and narrower results
// are as close as the format allows; the f64 algorithms are accurate to a
// few ulp.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "backends/cpu/kernels/elementwise_util.h"
#include "ir/float_bits.h"
#include "ir/scalar_math.h"

namespace hlograph::cpu {
namespace {

// Element functors of the ops of scalar_function_ops.def: computed in
// double by the function of ir/scalar_math.h, rounded to the operand type.
template <double (*Fn)(double)>
struct ViaDouble1 {
  template <typename C>
  static C Float(C a) { return static_cast<C>(Fn(static_cast<double>(a))); }
};
template <double (*Fn)(double, double)>
struct ViaDouble2 {
  template <typename C>
  static C Float(C a, C b) { return static_cast<C>(Fn(static_cast<double>(a), static_cast<double>(b))); }
};

template <int Arity, auto Fn>
KernelFn ViaDoubleKernel() {
  if constexpr (Arity == 1) {
    return &ew::UnaryKernel<ViaDouble1<Fn>>;
  } else {
    return &ew::BinaryKernel<ViaDouble2<Fn>>;
  }
}

// next_after(x, y): the neighbour of x towards y in x's own format, found by
// stepping its bit pattern; NaN if either is NaN, y if they are equal, and
// the smallest denormal with y's sign when x is zero.
template <typename T>
T NextAfter(T x, T y, int width, bool has_sign, bool unsigned_zero) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return std::nextafter(x, y);
  } else {
    const float xv = Load<T>(x), yv = Load<T>(y);
    if (std::isnan(xv)) return x;
    if (std::isnan(yv)) return y;
    if (xv == yv) return y;
    using Bits = decltype(T{}.bits);
    const uint64_t sign = has_sign ? uint64_t{1} << (width - 1) : 0;
    uint64_t b = x.bits;
    if (!has_sign) {
      b = yv > xv ? b + 1 : b - 1;  // unsigned formats order like their bits
    } else if (xv == 0) {
      b = 1 | (std::signbit(yv) ? sign : 0);
    } else {
      // Sign-magnitude: the magnitude grows when moving away from zero.
      b = ((yv > xv) == (xv > 0)) ? b + 1 : b - 1;
      if (unsigned_zero && b == sign) b = 0;  // FNUZ: that pattern is NaN
    }
    return T{static_cast<Bits>(b & ew::LowMask(width))};
  }
}

Status NextAfterKernel(KernelContext& ctx) {
  const Tensor& lhs = ctx.operand(0);
  const Tensor& rhs = ctx.operand(1);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = lhs.element();
  if (rhs.element() != e || out.element() != e) return ctx.Error("expects operands and result of one element type");
  const int width = ir::BitWidth(e);
  const auto format = ir::FloatFormatOf(e);
  const bool has_sign = !format || format->has_sign;
  const bool unsigned_zero = format && format->unsigned_zero_nan;
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      const T* a = lhs.data<T>();
      const T* b = rhs.data<T>();
      T* r = out.mutable_data<T>();
      for (int64_t i = 0; i < n; ++i) r[i] = NextAfter<T>(a[i], b[i], width, has_sign, unsigned_zero);
      return true;
    }
    return false;
  });
  if (!ok) return ew::Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

}  // namespace

namespace ew {

void RegisterChloSpecialKernels(KernelRegistry& r) {
#define HLOGRAPH_SCALAR_FUNCTION(id, fn, arity) r.Register(ir::OpId::id, ViaDoubleKernel<arity, &scalar::fn>());
#include "ir/ops/scalar_function_ops.def"
#undef HLOGRAPH_SCALAR_FUNCTION
  r.Register(ir::OpId::kChloNextAfter, &NextAfterKernel);
}

}  // namespace ew
}  // namespace hlograph::cpu

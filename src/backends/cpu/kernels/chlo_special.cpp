// CHLO's special functions: erf, erfc, erf_inv, lgamma, digamma, polygamma,
// zeta, bessel_i1e and next_after. Every type is computed in double and
// rounded once to the operand type, so f32 and narrower results are as close
// as the format allows; the f64 algorithms are accurate to a few ulp.
#include <math.h>  // lgamma_r: std::lgamma writes the global signgam

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

#include "backends/cpu/kernels/elementwise_util.h"
#include "ir/float_bits.h"
#include "ir/scalar_math.h"

namespace hlograph::cpu {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;

double LogGamma(double x) {
#if defined(__GLIBC__)
  int sign;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

// erf^-1(y): Winitzki's closed-form estimate refined by Halley steps on
// erf(x) = y, or on erfc(x) = 1 - y where 1 - y would lose digits.
double ErfInv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return kNaN;
  if (y == 1) return kInf;
  if (y == -1) return -kInf;
  if (y == 0) return y;
  const double ay = std::fabs(y);
  const double a = 0.147;
  const double l = std::log((1 - ay) * (1 + ay));
  const double t = 2 / (kPi * a) + l / 2;
  double x = std::sqrt(std::sqrt(t * t - l / a) - t);
  const double two_over_sqrt_pi = 2 / std::sqrt(kPi);
  const bool use_erfc = ay > 0.5;
  const double target = use_erfc ? 1 - ay : ay;  // 1 - ay is exact here
  for (int i = 0; i < 6; ++i) {
    const double f = use_erfc ? std::erfc(x) - target : std::erf(x) - target;
    double df = two_over_sqrt_pi * std::exp(-x * x);
    if (use_erfc) df = -df;
    if (df == 0) break;
    // Halley: f'' = -2 x f' for both erf and erfc.
    const double dx = f / (df + x * f);
    x -= dx;
    if (std::fabs(dx) <= std::fabs(x) * 1e-17) break;
  }
  return std::copysign(x, y);
}

// Element functors: computed in double, rounded to the operand type.
#define HLOGRAPH_DOUBLE_UNARY(Name, fn)                                              \
  struct Name {                                                                      \
    template <typename C>                                                            \
    static C Float(C a) { return static_cast<C>(fn(static_cast<double>(a))); }       \
  };
HLOGRAPH_DOUBLE_UNARY(ErfOp, std::erf)
HLOGRAPH_DOUBLE_UNARY(ErfcOp, std::erfc)
HLOGRAPH_DOUBLE_UNARY(ErfInvOp, ErfInv)
HLOGRAPH_DOUBLE_UNARY(LgammaOp, LogGamma)
HLOGRAPH_DOUBLE_UNARY(DigammaOp, scalar::hlo_digamma)
HLOGRAPH_DOUBLE_UNARY(BesselI1eOp, scalar::hlo_bessel_i1e)
#undef HLOGRAPH_DOUBLE_UNARY

struct PolygammaOp {
  template <typename C>
  static C Float(C n, C x) { return static_cast<C>(scalar::hlo_polygamma(static_cast<double>(n), static_cast<double>(x))); }
};
struct ZetaOp {
  template <typename C>
  static C Float(C s, C q) { return static_cast<C>(scalar::hlo_zeta(static_cast<double>(s), static_cast<double>(q))); }
};

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
  r.Register(ir::OpId::kChloErf, &UnaryKernel<ErfOp>);
  r.Register(ir::OpId::kChloErfc, &UnaryKernel<ErfcOp>);
  r.Register(ir::OpId::kChloErfInv, &UnaryKernel<ErfInvOp>);
  r.Register(ir::OpId::kChloLgamma, &UnaryKernel<LgammaOp>);
  r.Register(ir::OpId::kChloDigamma, &UnaryKernel<DigammaOp>);
  r.Register(ir::OpId::kChloBesselI1e, &UnaryKernel<BesselI1eOp>);
  r.Register(ir::OpId::kChloPolygamma, &BinaryKernel<PolygammaOp>);
  r.Register(ir::OpId::kChloZeta, &BinaryKernel<ZetaOp>);
  r.Register(ir::OpId::kChloNextAfter, &NextAfterKernel);
}

}  // namespace ew
}  // namespace hlograph::cpu

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

// tan(pi x), exact in its argument reduction: tan has period 1 in x.
double TanPi(double x) {
  const double r = x - std::nearbyint(x);  // exact, in [-0.5, 0.5]
  return std::tan(kPi * r);
}

// psi(x) = d/dx log Gamma(x). At its poles XLA gives -inf for 0 (the limit
// from above) and NaN for -1, -2, ... and -inf.
double Digamma(double x) {
  if (std::isnan(x)) return x;
  if (x == kInf) return kInf;
  if (x == 0) return -kInf;
  if (x < 0 && x == std::floor(x)) return kNaN;
  double result = 0;
  if (x < 0.5) {
    // Reflection: psi(x) = psi(1 - x) - pi cot(pi x).
    result -= kPi / TanPi(x);
    x = 1 - x;
  }
  // Recurrence psi(x) = psi(x + 1) - 1/x up to where the asymptotic series
  // is accurate.
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // psi(x) ~ ln x - 1/(2x) - sum B_2k / (2k x^2k).
  const double inv = 1 / x, inv2 = inv * inv;
  const double tail =
      inv2 * (1.0 / 12 -
              inv2 * (1.0 / 120 -
                      inv2 * (1.0 / 252 -
                              inv2 * (1.0 / 240 - inv2 * (1.0 / 132 - inv2 * (691.0 / 32760 - inv2 / 12))))));
  return result + std::log(x) - 0.5 * inv - tail;
}

// Bernoulli numbers B_2, B_4, ..., B_24.
constexpr double kBernoulli[] = {1.0 / 6,         -1.0 / 30,       1.0 / 42,          -1.0 / 30,
                                 5.0 / 66,        -691.0 / 2730,   7.0 / 6,           -3617.0 / 510,
                                 43867.0 / 798,   -174611.0 / 330, 854513.0 / 138,    -236364091.0 / 2730};

// Hurwitz zeta(s, q) = sum_{k >= 0} (q + k)^-s, by direct summation until
// q + k is large, then the Euler-Maclaurin tail.
double Zeta(double s, double q) {
  // The special cases in XLA's order.
  if (std::isnan(s) || std::isnan(q) || s == kInf) return kNaN;
  if (s == 1) return kInf;
  if (q <= 0 && q == std::floor(q)) {
    // A term hits its pole: +inf from both sides for even s, no limit else.
    return std::fmod(s, 2) == 0 ? kInf : kNaN;
  }
  if (s < 1) return kNaN;
  if (q < 0 && s != std::floor(s)) return kNaN;  // (negative)^-s is not real
  // The tail series converges fast once a >> (s + 2M) / (2 pi).
  const double start = std::max(10.0, (s + 24) / kPi);
  // Non-integer q below -1e7 would need more terms than is reasonable.
  if (q < -1e7) return kNaN;
  double sum = 0;
  double a = q;
  for (int64_t k = 0; a < start; ++k, a = q + static_cast<double>(k)) {
    const double term = std::pow(a, -s);
    sum += term;
    if (a > 0 && std::fabs(term) <= std::fabs(sum) * 1e-17) return sum;
  }
  const double a_pow = std::pow(a, -s);
  double result = sum + a * a_pow / (s - 1) + 0.5 * a_pow;
  // Terms B_2j / (2j)! * s (s+1) ... (s+2j-2) * a^(-s-2j+1).
  double rising = s;              // s (s+1) ... (s+2j-2)
  double power = a_pow / a;       // a^(-s-2j+1)
  double factorial = 2;           // (2j)!
  for (int j = 1; j <= 12; ++j) {
    const double term = kBernoulli[j - 1] / factorial * rising * power;
    result += term;
    if (std::fabs(term) <= std::fabs(result) * 1e-17) break;
    rising *= (s + 2 * j - 1) * (s + 2 * j);
    power /= a * a;
    factorial *= (2 * j + 1) * (2 * j + 2);
  }
  return result;
}

// psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1.
double Polygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNaN;
  if (n < 0 || n != std::floor(n)) return kNaN;
  if (n == 0) return Digamma(x);
  const double sign = std::fmod(n, 2) == 1 ? 1 : -1;
  return sign * std::tgamma(n + 1) * Zeta(n + 1, x);
}

// exp(-|x|) I1(x): the power series sum (x/2)^(2k+1) / (k! (k+1)!) near 0,
// the asymptotic expansion e^x / sqrt(2 pi x) (1 - 3/(8x) - ...) far out.
double BesselI1e(double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double result;
  if (ax <= 25) {
    const double half = ax / 2, q = half * half;
    double term = half, sum = half;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<double>(k) * (k + 1));
      sum += term;
      if (term <= sum * 1e-17) break;
    }
    result = sum * std::exp(-ax);
  } else {
    if (ax == kInf) return std::copysign(0.0, x);
    // Coefficients of (8x)^-k: prod_{j=1..k} (4 - (2j-1)^2) / k!, alternating.
    const double inv8x = 1 / (8 * ax);
    double term = 1, sum = 1;
    for (int k = 1; k < 60; ++k) {
      const double odd = 2.0 * k - 1;
      const double next = -term * (4 - odd * odd) / k * inv8x;
      if (std::fabs(next) >= std::fabs(term)) break;  // the series starts to diverge
      term = next;
      sum += term;
      if (std::fabs(term) <= 1e-17) break;
    }
    result = sum / std::sqrt(2 * kPi * ax);
  }
  return std::copysign(result, x);
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
HLOGRAPH_DOUBLE_UNARY(DigammaOp, Digamma)
HLOGRAPH_DOUBLE_UNARY(BesselI1eOp, BesselI1e)
#undef HLOGRAPH_DOUBLE_UNARY

struct PolygammaOp {
  template <typename C>
  static C Float(C n, C x) { return static_cast<C>(Polygamma(static_cast<double>(n), static_cast<double>(x))); }
};
struct ZetaOp {
  template <typename C>
  static C Float(C s, C q) { return static_cast<C>(Zeta(static_cast<double>(s), static_cast<double>(q))); }
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
  r.Register("chlo.erf", &UnaryKernel<ErfOp>);
  r.Register("chlo.erfc", &UnaryKernel<ErfcOp>);
  r.Register("chlo.erf_inv", &UnaryKernel<ErfInvOp>);
  r.Register("chlo.lgamma", &UnaryKernel<LgammaOp>);
  r.Register("chlo.digamma", &UnaryKernel<DigammaOp>);
  r.Register("chlo.bessel_i1e", &UnaryKernel<BesselI1eOp>);
  r.Register("chlo.polygamma", &BinaryKernel<PolygammaOp>);
  r.Register("chlo.zeta", &BinaryKernel<ZetaOp>);
  r.Register("chlo.next_after", &NextAfterKernel);
}

}  // namespace ew
}  // namespace hlograph::cpu

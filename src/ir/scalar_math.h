// Scalar special functions written once for both backends: compiled into
// the CPU interpreter as C++, and embedded as text in the GPU kernels'
// prelude (NVRTC compiles the same lines; the build turns this file into
// a string: cmake/EmbedSource.cmake). Each computes in double; callers
// round once to the operand type. The GPU's results therefore follow the
// interpreter's algorithm, not a second one written to match it.
//
// Under NVRTC (__CUDACC_RTC__) the functions are __device__ and global;
// on the host they are in hlograph::scalar, with the <cmath> names they use.
#pragma once

#if defined(__CUDACC_RTC__)
#define HLO_SCALAR __device__ inline
#define HLO_SCALAR_INF __longlong_as_double(0x7ff0000000000000ll)
#define HLO_SCALAR_NAN __longlong_as_double(0x7ff8000000000000ll)
#else
#include <math.h>  // lgamma_r: std::lgamma writes the global signgam

#include <cmath>
#include <limits>
#define HLO_SCALAR inline
#define HLO_SCALAR_INF std::numeric_limits<double>::infinity()
#define HLO_SCALAR_NAN std::numeric_limits<double>::quiet_NaN()
namespace hlograph::scalar {
using std::copysign;
using std::erf;
using std::erfc;
using std::exp;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmod;
using std::isinf;
using std::isnan;
using std::log;
using std::pow;
using std::rint;
using std::sqrt;
using std::tan;
using std::tgamma;
#endif

#define HLO_SCALAR_PI 3.141592653589793238462643383279502884

// erf, erfc and log|Gamma|: the math library's (the host's lgamma_r, which
// leaves the global signgam alone; the device's lgamma has no such global).
HLO_SCALAR double hlo_erf(double x) { return erf(x); }
HLO_SCALAR double hlo_erfc(double x) { return erfc(x); }
HLO_SCALAR double hlo_lgamma(double x) {
#if defined(__CUDACC_RTC__) || !defined(__GLIBC__)
  return lgamma(x);
#else
  int sign;
  return ::lgamma_r(x, &sign);
#endif
}

// erf^-1(y): Winitzki's closed-form estimate refined by Halley steps on
// erf(x) = y, or on erfc(x) = 1 - y where 1 - y would lose digits.
HLO_SCALAR double hlo_erf_inv(double y) {
  if (isnan(y) || y < -1 || y > 1) return HLO_SCALAR_NAN;
  if (y == 1) return HLO_SCALAR_INF;
  if (y == -1) return -HLO_SCALAR_INF;
  if (y == 0) return y;
  const double ay = fabs(y);
  const double a = 0.147;
  const double l = log((1 - ay) * (1 + ay));
  const double t = 2 / (HLO_SCALAR_PI * a) + l / 2;
  double x = sqrt(sqrt(t * t - l / a) - t);
  const double two_over_sqrt_pi = 2 / sqrt(HLO_SCALAR_PI);
  const bool use_erfc = ay > 0.5;
  const double target = use_erfc ? 1 - ay : ay;  // 1 - ay is exact here
  for (int i = 0; i < 6; ++i) {
    const double f = use_erfc ? erfc(x) - target : erf(x) - target;
    double df = two_over_sqrt_pi * exp(-x * x);
    if (use_erfc) df = -df;
    if (df == 0) break;
    // Halley: f'' = -2 x f' for both erf and erfc.
    const double dx = f / (df + x * f);
    x -= dx;
    if (fabs(dx) <= fabs(x) * 1e-17) break;
  }
  return copysign(x, y);
}

// tan(pi x), exact in its argument reduction: tan has period 1 in x.
HLO_SCALAR double hlo_tan_pi(double x) { return tan(HLO_SCALAR_PI * (x - rint(x))); }

// psi(x) = d/dx log Gamma(x). At its poles XLA gives -inf for 0 (the limit
// from above) and NaN for -1, -2, ... and -inf.
HLO_SCALAR double hlo_digamma(double x) {
  if (isnan(x)) return x;
  if (isinf(x) && x > 0) return x;
  if (x == 0) return -HLO_SCALAR_INF;
  if (x < 0 && x == floor(x)) return HLO_SCALAR_NAN;
  double result = 0;
  if (x < 0.5) {
    // Reflection: psi(x) = psi(1 - x) - pi cot(pi x).
    result -= HLO_SCALAR_PI / hlo_tan_pi(x);
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
  return result + log(x) - 0.5 * inv - tail;
}

// Hurwitz zeta(s, q) = sum_{k >= 0} (q + k)^-s, by direct summation until
// q + k is large, then the Euler-Maclaurin tail.
HLO_SCALAR double hlo_zeta(double s, double q) {
  // Bernoulli numbers B_2, B_4, ..., B_24.
  const double bernoulli[12] = {1.0 / 6,        -1.0 / 30,       1.0 / 42,       -1.0 / 30,
                                5.0 / 66,       -691.0 / 2730,   7.0 / 6,        -3617.0 / 510,
                                43867.0 / 798,  -174611.0 / 330, 854513.0 / 138, -236364091.0 / 2730};
  // The special cases in XLA's order.
  if (isnan(s) || isnan(q) || (isinf(s) && s > 0)) return HLO_SCALAR_NAN;
  if (s == 1) return HLO_SCALAR_INF;
  if (q <= 0 && q == floor(q)) {
    // A term hits its pole: +inf from both sides for even s, no limit else.
    return fmod(s, 2.0) == 0 ? HLO_SCALAR_INF : HLO_SCALAR_NAN;
  }
  if (s < 1) return HLO_SCALAR_NAN;
  if (q < 0 && s != floor(s)) return HLO_SCALAR_NAN;  // (negative)^-s is not real
  // The tail series converges fast once a >> (s + 2M) / (2 pi).
  const double start = fmax(10.0, (s + 24) / HLO_SCALAR_PI);
  // Non-integer q below -1e7 would need more terms than is reasonable.
  if (q < -1e7) return HLO_SCALAR_NAN;
  double sum = 0;
  double a = q;
  for (long long k = 0; a < start; ++k, a = q + (double)k) {
    const double term = pow(a, -s);
    sum += term;
    if (a > 0 && fabs(term) <= fabs(sum) * 1e-17) return sum;
  }
  const double a_pow = pow(a, -s);
  double result = sum + a * a_pow / (s - 1) + 0.5 * a_pow;
  // Terms B_2j / (2j)! * s (s+1) ... (s+2j-2) * a^(-s-2j+1).
  double rising = s;         // s (s+1) ... (s+2j-2)
  double power = a_pow / a;  // a^(-s-2j+1)
  double factorial = 2;      // (2j)!
  for (int j = 1; j <= 12; ++j) {
    const double term = bernoulli[j - 1] / factorial * rising * power;
    result += term;
    if (fabs(term) <= fabs(result) * 1e-17) break;
    rising *= (s + 2 * j - 1) * (s + 2 * j);
    power /= a * a;
    factorial *= (2 * j + 1) * (2 * j + 2);
  }
  return result;
}

// psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1.
HLO_SCALAR double hlo_polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return HLO_SCALAR_NAN;
  if (n < 0 || n != floor(n)) return HLO_SCALAR_NAN;
  if (n == 0) return hlo_digamma(x);
  const double sign = fmod(n, 2.0) == 1 ? 1 : -1;
  return sign * tgamma(n + 1) * hlo_zeta(n + 1, x);
}

// exp(-|x|) I1(x): the power series sum (x/2)^(2k+1) / (k! (k+1)!) near 0,
// the asymptotic expansion e^x / sqrt(2 pi x) (1 - 3/(8x) - ...) far out.
HLO_SCALAR double hlo_bessel_i1e(double x) {
  if (isnan(x)) return x;
  const double ax = fabs(x);
  double result;
  if (ax <= 25) {
    const double half = ax / 2, q = half * half;
    double term = half, sum = half;
    for (int k = 1; k < 500; ++k) {
      term *= q / ((double)k * (k + 1));
      sum += term;
      if (term <= sum * 1e-17) break;
    }
    result = sum * exp(-ax);
  } else {
    if (isinf(ax)) return copysign(0.0, x);
    // Coefficients of (8x)^-k: prod_{j=1..k} (4 - (2j-1)^2) / k!, alternating.
    const double inv8x = 1 / (8 * ax);
    double term = 1, sum = 1;
    for (int k = 1; k < 60; ++k) {
      const double odd = 2.0 * k - 1;
      const double next = -term * (4 - odd * odd) / k * inv8x;
      if (fabs(next) >= fabs(term)) break;  // the series starts to diverge
      term = next;
      sum += term;
      if (fabs(term) <= 1e-17) break;
    }
    result = sum / sqrt(2 * HLO_SCALAR_PI * ax);
  }
  return copysign(result, x);
}

#undef HLO_SCALAR_PI
#undef HLO_SCALAR_NAN
#undef HLO_SCALAR_INF
#undef HLO_SCALAR

#if !defined(__CUDACC_RTC__)
}  // namespace hlograph::scalar
#endif

// The complex part of the kernel prelude: complex<f32>/complex<f64> values
// and the device functions of every complex elementwise op. The CPU
// interpreter computes with std::complex, whose arithmetic it spells out
// where XLA differs (multiplication, division, power) and whose functions
// forward to glibc (cexp, clog, csqrt, csin, ccos, ctan(h), ...); each
// function here follows the same algorithm, branch for branch, so special
// values (zeros, infinities, NaNs, overflow) come out as on the host. Every
// sum and product goes through the _rn intrinsics: nothing is contracted
// into a fused multiply-add that the host does not do.
#include <string>

#include "backends/gpu/codegen/elemental_internal.h"

namespace hlograph::gpu::elemental {
namespace {

constexpr const char* kComplexPrelude = R"PRELUDE(// ---- complex numbers -----------------------------------------

// As the interpreter stores them: the real part, then the imaginary part.
template <typename R> struct alignas(2 * sizeof(R)) hlo_complex { R re, im; };
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cplx(R re, R im) {
  hlo_complex<R> z;
  z.re = re;
  z.im = im;
  return z;
}

// The limits glibc's algorithms use, per real type.
template <typename R> struct hlo_real;
template <> struct hlo_real<float> {
  static constexpr int kExpLimit = 88;   // (int)((FLT_MAX_EXP - 1) * ln 2): exp() overflows beyond
  static constexpr int kTanhLimit = 44;  // half of it
  static constexpr int kMantDig = 24;
  static __device__ __forceinline__ float inf() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ float nan() { return __int_as_float(0x7fc00000); }
  static __device__ __forceinline__ float min() { return 0x1p-126f; }
  static __device__ __forceinline__ float max() { return 0x1.fffffep+127f; }
  static __device__ __forceinline__ float epsilon() { return 0x1p-23f; }
  static __device__ __forceinline__ float pi() { return 0x1.921fb6p+1f; }
  static __device__ __forceinline__ float ln2() { return 0x1.62e43p-1f; }
};
template <> struct hlo_real<double> {
  static constexpr int kExpLimit = 709;
  static constexpr int kTanhLimit = 354;
  static constexpr int kMantDig = 53;
  static __device__ __forceinline__ double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
  static __device__ __forceinline__ double nan() { return __longlong_as_double(0x7ff8000000000000ll); }
  static __device__ __forceinline__ double min() { return 0x1p-1022; }
  static __device__ __forceinline__ double max() { return 0x1.fffffffffffffp+1023; }
  static __device__ __forceinline__ double epsilon() { return 0x1p-52; }
  static __device__ __forceinline__ double pi() { return 0x1.921fb54442d18p+1; }
  static __device__ __forceinline__ double ln2() { return 0x1.62e42fefa39efp-1; }
};

// Correctly rounded steps that the compiler may not fuse.
__device__ __forceinline__ float hlo_radd(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double hlo_radd(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float hlo_rsub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double hlo_rsub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float hlo_rmul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double hlo_rmul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float hlo_rdiv(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double hlo_rdiv(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ float hlo_rfma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double hlo_rfma(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float hlo_rroot(float a) { return __fsqrt_rn(a); }
__device__ __forceinline__ double hlo_rroot(double a) { return __dsqrt_rn(a); }

// glibc's hypotf (std::abs and std::hypot of floats): the double sum of
// squares, rounded once; infinity wins over a quiet NaN.
__device__ __forceinline__ float hlo_hypot(float x, float y) {
  if (!isfinite(x) || !isfinite(y)) {
    const bool signaling =
        (isnan(x) && !(__float_as_uint(x) & 0x400000u)) || (isnan(y) && !(__float_as_uint(y) & 0x400000u));
    if ((isinf(x) || isinf(y)) && !signaling) return hlo_real<float>::inf();
    return x + y;
  }
  const double dx = x, dy = y;
  return (float)__dsqrt_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)));
}
// CUDA's hypot overflows to inf for results just below DBL_MAX; glibc's
// does not. Scaled by the larger part there.
__device__ __forceinline__ double hlo_hypot(double x, double y) {
  const double h = hypot(x, y);
  if (!isinf(h) || isinf(x) || isinf(y)) return h;
  const double m = fmax(fabs(x), fabs(y)), r = fmin(fabs(x), fabs(y)) / m;
  return m * sqrt(1.0 + r * r);
}

// sin and cos, with glibc's shortcut for angles below the smallest normal.
template <typename R> __device__ __forceinline__ void hlo_sincos_small(R x, R* s, R* c) {
  if (fabs(x) > hlo_real<R>::min()) {
    sincos(x, s, c);
  } else {
    *s = x;
    *c = (R)1;
  }
}

// ---- arithmetic -------------------------------------------------------------

template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cadd(hlo_complex<R> a, hlo_complex<R> b) {
  return hlo_cplx<R>(hlo_radd(a.re, b.re), hlo_radd(a.im, b.im));
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_csub(hlo_complex<R> a, hlo_complex<R> b) {
  return hlo_cplx<R>(hlo_rsub(a.re, b.re), hlo_rsub(a.im, b.im));
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cneg(hlo_complex<R> a) {
  return hlo_cplx<R>(-a.re, -a.im);
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cconj(hlo_complex<R> a) {
  return hlo_cplx<R>(a.re, -a.im);
}
// XLA's product: the textbook formula with its two multiply-adds fused.
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cmul(hlo_complex<R> a, hlo_complex<R> b) {
  return hlo_cplx<R>(hlo_rfma(a.re, b.re, -hlo_rmul(a.im, b.im)), hlo_rfma(a.im, b.re, hlo_rmul(a.re, b.im)));
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_csquare(hlo_complex<R> a) { return hlo_cmul(a, a); }
// Smith's division; when it gives NaN+NaNi, C99's recoveries for a zero or
// infinite divisor and an infinite dividend.
template <typename R> __device__ inline hlo_complex<R> hlo_cdiv(hlo_complex<R> a, hlo_complex<R> b) {
  const R ar = a.re, ai = a.im, br = b.re, bi = b.im;
  R cr, ci;
  if (fabs(br) < fabs(bi)) {
    const R ratio = hlo_rdiv(br, bi);
    const R denom = hlo_radd(bi, hlo_rmul(br, ratio));
    cr = hlo_rdiv(hlo_radd(hlo_rmul(ar, ratio), ai), denom);
    ci = hlo_rdiv(hlo_rsub(hlo_rmul(ai, ratio), ar), denom);
  } else {
    const R ratio = hlo_rdiv(bi, br);
    const R denom = hlo_radd(br, hlo_rmul(bi, ratio));
    cr = hlo_rdiv(hlo_radd(ar, hlo_rmul(ai, ratio)), denom);
    ci = hlo_rdiv(hlo_rsub(ai, hlo_rmul(ar, ratio)), denom);
  }
  if (!(isnan(cr) && isnan(ci))) return hlo_cplx<R>(cr, ci);
  const R inf = hlo_real<R>::inf();
  if (br == (R)0 && bi == (R)0 && (!isnan(ar) || !isnan(ai))) {
    const R s = copysign(inf, br);
    return hlo_cplx<R>(hlo_rmul(s, ar), hlo_rmul(s, ai));
  }
  if ((isinf(ar) || isinf(ai)) && isfinite(br) && isfinite(bi)) {
    const R xr = copysign(isinf(ar) ? (R)1 : (R)0, ar);
    const R xi = copysign(isinf(ai) ? (R)1 : (R)0, ai);
    return hlo_cplx<R>(hlo_rmul(inf, hlo_radd(hlo_rmul(xr, br), hlo_rmul(xi, bi))),
                       hlo_rmul(inf, hlo_rsub(hlo_rmul(xi, br), hlo_rmul(xr, bi))));
  }
  if (isfinite(ar) && isfinite(ai) && (isinf(br) || isinf(bi))) {
    const R yr = copysign(isinf(br) ? (R)1 : (R)0, br);
    const R yi = copysign(isinf(bi) ? (R)1 : (R)0, bi);
    return hlo_cplx<R>(hlo_rmul((R)0, hlo_radd(hlo_rmul(ar, yr), hlo_rmul(ai, yi))),
                       hlo_rmul((R)0, hlo_rsub(hlo_rmul(ai, yr), hlo_rmul(ar, yi))));
  }
  return hlo_cplx<R>(cr, ci);
}
template <typename R> __device__ __forceinline__ R hlo_cabs(hlo_complex<R> a) { return hlo_hypot(a.re, a.im); }

// Lexicographic (real, imaginary) order; a NaN in the deciding part wins.
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cmax(hlo_complex<R> a, hlo_complex<R> b) {
  if (isnan(a.re)) return a;
  if (isnan(b.re)) return b;
  if (a.re != b.re) return a.re > b.re ? a : b;
  if (isnan(a.im)) return a;
  if (isnan(b.im)) return b;
  return a.im >= b.im ? a : b;
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_cmin(hlo_complex<R> a, hlo_complex<R> b) {
  if (isnan(a.re)) return a;
  if (isnan(b.re)) return b;
  if (a.re != b.re) return a.re < b.re ? a : b;
  if (isnan(a.im)) return a;
  if (isnan(b.im)) return b;
  return a.im <= b.im ? a : b;
}
template <typename R>
__device__ __forceinline__ hlo_complex<R> hlo_cclamp(hlo_complex<R> lo, hlo_complex<R> x, hlo_complex<R> hi) {
  return hlo_cmin(hlo_cmax(x, lo), hi);
}
// compare: EQ/NE on both parts, the orderings lexicographic.
template <typename R> __device__ __forceinline__ bool hlo_ceq(hlo_complex<R> a, hlo_complex<R> b) {
  return a.re == b.re && a.im == b.im;
}
template <typename R> __device__ __forceinline__ bool hlo_cne(hlo_complex<R> a, hlo_complex<R> b) {
  return !(a.re == b.re && a.im == b.im);
}
template <typename R> __device__ __forceinline__ bool hlo_cge(hlo_complex<R> a, hlo_complex<R> b) {
  return a.re > b.re || (a.re == b.re && a.im >= b.im);
}
template <typename R> __device__ __forceinline__ bool hlo_cgt(hlo_complex<R> a, hlo_complex<R> b) {
  return a.re > b.re || (a.re == b.re && a.im > b.im);
}
template <typename R> __device__ __forceinline__ bool hlo_cle(hlo_complex<R> a, hlo_complex<R> b) {
  return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <typename R> __device__ __forceinline__ bool hlo_clt(hlo_complex<R> a, hlo_complex<R> b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}

// The raw bits of a complex<f32> (real part in the low word) and back.
__device__ __forceinline__ uint64_t hlo_c64_bits(hlo_complex<float> a) {
  return ((uint64_t)__float_as_uint(a.im) << 32) | (uint64_t)__float_as_uint(a.re);
}
__device__ __forceinline__ hlo_complex<float> hlo_c64_from_bits(uint64_t b) {
  return hlo_cplx<float>(__uint_as_float((uint32_t)b), __uint_as_float((uint32_t)(b >> 32)));
}

// convert between complex<f32> and complex<f64>: each part rounded on its own.
template <typename To, typename R> __device__ __forceinline__ hlo_complex<To> hlo_cconvert(hlo_complex<R> a) {
  return hlo_cplx<To>((To)a.re, (To)a.im);
}

// ---- glibc's complex functions ---------------------------------------------

// cexp: sincos of the imaginary part scaled by exp of the real part, which is
// split into steps of kExpLimit so that large finite results do not overflow early.
template <typename R> __device__ inline hlo_complex<R> hlo_cexp(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  R x = z.re;
  const R y = z.im;
  if (isfinite(x)) {
    if (!isfinite(y)) return hlo_cplx<R>(L::nan(), L::nan());
    const R t = (R)L::kExpLimit;
    R s, c;
    hlo_sincos_small(y, &s, &c);
    if (x > t) {
      const R exp_t = exp(t);
      x = hlo_rsub(x, t);
      s = hlo_rmul(s, exp_t);
      c = hlo_rmul(c, exp_t);
      if (x > t) {
        x = hlo_rsub(x, t);
        s = hlo_rmul(s, exp_t);
        c = hlo_rmul(c, exp_t);
      }
    }
    if (x > t) return hlo_cplx<R>(hlo_rmul(L::max(), c), hlo_rmul(L::max(), s));
    const R e = exp(x);
    return hlo_cplx<R>(hlo_rmul(e, c), hlo_rmul(e, s));
  }
  if (isinf(x)) {
    if (isfinite(y)) {
      const R value = signbit(x) ? (R)0 : L::inf();
      if (y == (R)0) return hlo_cplx<R>(value, y);
      R s, c;
      hlo_sincos_small(y, &s, &c);
      return hlo_cplx<R>(copysign(value, c), copysign(value, s));
    }
    if (!signbit(x)) return hlo_cplx<R>(L::inf(), hlo_rsub(y, y));
    return hlo_cplx<R>((R)0, copysign((R)0, y));
  }
  return hlo_cplx<R>(L::nan(), y == (R)0 ? y : L::nan());
}

// x^2 + y^2 - 1 without cancellation, for 1 > x >= y and x^2 + y^2 >= 0.5:
// in double for floats; for doubles, the exact products summed in order of
// magnitude with the rounding errors carried along.
__device__ __forceinline__ float hlo_x2y2m1(float x, float y) {
  const double dx = x, dy = y;
  return (float)__dadd_rn(__dmul_rn(__dsub_rn(dx, 1.0), __dadd_rn(dx, 1.0)), __dmul_rn(dy, dy));
}
__device__ inline double hlo_x2y2m1(double x, double y) {
  double v[5];
  v[1] = __dmul_rn(x, x);
  v[0] = __fma_rn(x, x, -v[1]);
  v[3] = __dmul_rn(y, y);
  v[2] = __fma_rn(y, y, -v[3]);
  v[4] = -1.0;
  // Sorts v[from..4] by magnitude (insertion sort; at most five values).
  auto sort = [&](int from) {
    for (int i = from + 1; i < 5; ++i) {
      const double key = v[i];
      int j = i - 1;
      while (j >= from && fabs(v[j]) > fabs(key)) {
        v[j + 1] = v[j];
        --j;
      }
      v[j + 1] = key;
    }
  };
  sort(0);
  for (int i = 0; i <= 3; ++i) {
    const double hi = __dadd_rn(v[i + 1], v[i]);
    const double lo = __dadd_rn(__dsub_rn(v[i + 1], hi), v[i]);
    v[i + 1] = hi;
    v[i] = lo;
    sort(i + 1);
  }
  return __dadd_rn(__dadd_rn(__dadd_rn(__dadd_rn(v[4], v[3]), v[2]), v[1]), v[0]);
}

// clog: log|z| computed so that it keeps its accuracy near |z| = 1 and at
// the ends of the range; the argument from atan2.
template <typename R> __device__ inline hlo_complex<R> hlo_clog(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  const R x = z.re, y = z.im;
  if (x == (R)0 && y == (R)0) {
    const R im = copysign(signbit(x) ? L::pi() : (R)0, y);
    return hlo_cplx<R>(hlo_rdiv((R)-1, fabs(x)), im);
  }
  if (isnan(x) || isnan(y)) return hlo_cplx<R>(isinf(x) || isinf(y) ? L::inf() : L::nan(), L::nan());
  R absx = fabs(x), absy = fabs(y);
  int scale = 0;
  if (absx < absy) {
    const R t = absx;
    absx = absy;
    absy = t;
  }
  if (absx > hlo_rdiv(L::max(), (R)2)) {
    scale = -1;
    absx = scalbn(absx, scale);
    absy = absy >= hlo_rmul(L::min(), (R)2) ? scalbn(absy, scale) : (R)0;
  } else if (absx < L::min() && absy < L::min()) {
    scale = L::kMantDig;
    absx = scalbn(absx, scale);
    absy = scalbn(absy, scale);
  }
  R re;
  if (absx == (R)1 && scale == 0) {
    re = hlo_rdiv(log1p(hlo_rmul(absy, absy)), (R)2);
  } else if (absx > (R)1 && absx < (R)2 && absy < (R)1 && scale == 0) {
    R d2m1 = hlo_rmul(hlo_rsub(absx, (R)1), hlo_radd(absx, (R)1));
    if (absy >= L::epsilon()) d2m1 = hlo_radd(d2m1, hlo_rmul(absy, absy));
    re = hlo_rdiv(log1p(d2m1), (R)2);
  } else if (absx < (R)1 && absx >= (R)0.5 && absy < hlo_rdiv(L::epsilon(), (R)2) && scale == 0) {
    re = hlo_rdiv(log1p(hlo_rmul(hlo_rsub(absx, (R)1), hlo_radd(absx, (R)1))), (R)2);
  } else if (absx < (R)1 && absx >= (R)0.5 && scale == 0 &&
             hlo_radd(hlo_rmul(absx, absx), hlo_rmul(absy, absy)) >= (R)0.5) {
    re = hlo_rdiv(log1p(hlo_x2y2m1(absx, absy)), (R)2);
  } else {
    re = hlo_rsub(log(hlo_hypot(absx, absy)), hlo_rmul((R)scale, L::ln2()));
  }
  return hlo_cplx<R>(re, atan2(y, x));
}

// csqrt: the half-angle formulas on |z| +- Re z, whichever does not cancel,
// with the operand scaled when |z| could overflow or lose its low bits.
template <typename R> __device__ inline hlo_complex<R> hlo_csqrt(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  R x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) return hlo_cplx<R>(L::inf(), y);
    if (isinf(x)) {
      if (x < (R)0) return hlo_cplx<R>(isnan(y) ? L::nan() : (R)0, copysign(L::inf(), y));
      return hlo_cplx<R>(x, isnan(y) ? L::nan() : copysign((R)0, y));
    }
    return hlo_cplx<R>(L::nan(), L::nan());
  }
  if (y == (R)0) {
    if (x < (R)0) return hlo_cplx<R>((R)0, copysign(hlo_rroot(-x), y));
    return hlo_cplx<R>(fabs(hlo_rroot(x)), copysign((R)0, y));
  }
  if (x == (R)0) {
    const R r = fabs(y) >= hlo_rmul((R)2, L::min()) ? hlo_rroot(hlo_rmul((R)0.5, fabs(y)))
                                                   : hlo_rmul((R)0.5, hlo_rroot(hlo_rmul((R)2, fabs(y))));
    return hlo_cplx<R>(r, copysign(r, y));
  }
  int scale = 0;
  if (fabs(x) > hlo_rdiv(L::max(), (R)4)) {
    scale = 1;
    x = scalbn(x, -2);
    y = scalbn(y, -2);
  } else if (fabs(y) > hlo_rdiv(L::max(), (R)4)) {
    scale = 1;
    x = fabs(x) >= hlo_rmul((R)4, L::min()) ? scalbn(x, -2) : (R)0;
    y = scalbn(y, -2);
  } else if (fabs(x) < hlo_rmul((R)2, L::min()) && fabs(y) < hlo_rmul((R)2, L::min())) {
    scale = -((L::kMantDig + 1) / 2);
    x = scalbn(x, -2 * scale);
    y = scalbn(y, -2 * scale);
  }
  const R d = hlo_hypot(x, y);
  R r, s;
  if (x > (R)0) {
    r = hlo_rroot(hlo_rmul((R)0.5, hlo_radd(d, x)));
    if (scale == 1 && fabs(y) < (R)1) {
      s = hlo_rdiv(y, r);
      r = scalbn(r, scale);
      scale = 0;
    } else {
      s = hlo_rmul((R)0.5, hlo_rdiv(y, r));
    }
  } else {
    s = hlo_rroot(hlo_rmul((R)0.5, hlo_rsub(d, x)));
    if (scale == 1 && fabs(y) < (R)1) {
      r = fabs(hlo_rdiv(y, s));
      s = scalbn(s, scale);
      scale = 0;
    } else {
      r = fabs(hlo_rmul((R)0.5, hlo_rdiv(y, s)));
    }
  }
  if (scale != 0) {
    r = scalbn(r, scale);
    s = scalbn(s, scale);
  }
  return hlo_cplx<R>(r, copysign(s, y));
}

// ccosh (and ccos(z) = ccosh(iz)): cosh and sinh of the real part times cos
// and sin of the imaginary part, exp split in steps where cosh would overflow.
template <typename R> __device__ inline hlo_complex<R> hlo_ccosh(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  const R x = z.re, y = z.im;
  if (isfinite(x)) {
    if (!isfinite(y)) return hlo_cplx<R>(hlo_rsub(y, y), x == (R)0 ? (R)0 : L::nan());
    const R t = (R)L::kExpLimit;
    R s, c;
    hlo_sincos_small(y, &s, &c);
    if (fabs(x) > t) {
      const R exp_t = exp(t);
      R rx = fabs(x);
      if (signbit(x)) s = -s;
      rx = hlo_rsub(rx, t);
      s = hlo_rmul(s, hlo_rdiv(exp_t, (R)2));
      c = hlo_rmul(c, hlo_rdiv(exp_t, (R)2));
      if (rx > t) {
        rx = hlo_rsub(rx, t);
        s = hlo_rmul(s, exp_t);
        c = hlo_rmul(c, exp_t);
      }
      if (rx > t) return hlo_cplx<R>(hlo_rmul(L::max(), c), hlo_rmul(L::max(), s));
      const R e = exp(rx);
      return hlo_cplx<R>(hlo_rmul(e, c), hlo_rmul(e, s));
    }
    return hlo_cplx<R>(hlo_rmul(cosh(x), c), hlo_rmul(sinh(x), s));
  }
  if (isinf(x)) {
    if (isfinite(y) && y != (R)0) {
      R s, c;
      hlo_sincos_small(y, &s, &c);
      return hlo_cplx<R>(copysign(L::inf(), c), hlo_rmul(copysign(L::inf(), s), copysign((R)1, x)));
    }
    if (y == (R)0) return hlo_cplx<R>(L::inf(), hlo_rmul(y, copysign((R)1, x)));
    return hlo_cplx<R>(L::inf(), hlo_rsub(y, y));
  }
  return hlo_cplx<R>(L::nan(), y == (R)0 ? y : L::nan());
}
template <typename R> __device__ __forceinline__ hlo_complex<R> hlo_ccos(hlo_complex<R> z) {
  return hlo_ccosh(hlo_cplx<R>(-z.im, z.re));
}

// csinh: as ccosh, with sinh and cosh swapped.
template <typename R> __device__ inline hlo_complex<R> hlo_csinh(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  const bool negate = signbit(z.re);
  const R x = fabs(z.re), y = z.im;
  if (isfinite(x)) {
    if (!isfinite(y)) {
      if (x == (R)0) return hlo_cplx<R>(negate ? (R)-0.0 : (R)0, hlo_rsub(y, y));
      return hlo_cplx<R>(L::nan(), L::nan());
    }
    const R t = (R)L::kExpLimit;
    R s, c;
    hlo_sincos_small(y, &s, &c);
    if (negate) c = -c;
    if (x > t) {
      const R exp_t = exp(t);
      R rx = hlo_rsub(x, t);
      s = hlo_rmul(s, hlo_rdiv(exp_t, (R)2));
      c = hlo_rmul(c, hlo_rdiv(exp_t, (R)2));
      if (rx > t) {
        rx = hlo_rsub(rx, t);
        s = hlo_rmul(s, exp_t);
        c = hlo_rmul(c, exp_t);
      }
      if (rx > t) return hlo_cplx<R>(hlo_rmul(L::max(), c), hlo_rmul(L::max(), s));
      const R e = exp(rx);
      return hlo_cplx<R>(hlo_rmul(e, c), hlo_rmul(e, s));
    }
    return hlo_cplx<R>(hlo_rmul(sinh(x), c), hlo_rmul(cosh(x), s));
  }
  if (isinf(x)) {
    if (isfinite(y) && y != (R)0) {
      R s, c;
      hlo_sincos_small(y, &s, &c);
      const R re = copysign(L::inf(), c);
      return hlo_cplx<R>(negate ? -re : re, copysign(L::inf(), s));
    }
    if (y == (R)0) return hlo_cplx<R>(negate ? -L::inf() : L::inf(), y);
    return hlo_cplx<R>(L::inf(), hlo_rsub(y, y));
  }
  return hlo_cplx<R>(L::nan(), y == (R)0 ? y : L::nan());
}

// csin: csinh's algorithm with the roles of the parts exchanged.
template <typename R> __device__ inline hlo_complex<R> hlo_csin(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  const bool negate = signbit(z.re);
  const R x = fabs(z.re), y = z.im;
  const R zero = negate ? (R)-0.0 : (R)0;
  if (isfinite(y)) {
    if (!isfinite(x)) {
      if (y == (R)0) return hlo_cplx<R>(hlo_rsub(x, x), y);
      return hlo_cplx<R>(L::nan(), L::nan());
    }
    const R t = (R)L::kExpLimit;
    R s, c;
    hlo_sincos_small(x, &s, &c);
    if (negate) s = -s;
    if (fabs(y) > t) {
      const R exp_t = exp(t);
      R iy = fabs(y);
      if (signbit(y)) c = -c;
      iy = hlo_rsub(iy, t);
      s = hlo_rmul(s, hlo_rdiv(exp_t, (R)2));
      c = hlo_rmul(c, hlo_rdiv(exp_t, (R)2));
      if (iy > t) {
        iy = hlo_rsub(iy, t);
        s = hlo_rmul(s, exp_t);
        c = hlo_rmul(c, exp_t);
      }
      if (iy > t) return hlo_cplx<R>(hlo_rmul(L::max(), s), hlo_rmul(L::max(), c));
      const R e = exp(iy);
      return hlo_cplx<R>(hlo_rmul(e, s), hlo_rmul(e, c));
    }
    return hlo_cplx<R>(hlo_rmul(cosh(y), s), hlo_rmul(sinh(y), c));
  }
  if (isinf(y)) {
    if (x == (R)0) return hlo_cplx<R>(zero, y);
    if (isfinite(x)) {
      R s, c;
      hlo_sincos_small(x, &s, &c);
      const R re = copysign(L::inf(), s), im = copysign(L::inf(), c);
      return hlo_cplx<R>(negate ? -re : re, signbit(y) ? -im : im);
    }
    return hlo_cplx<R>(hlo_rsub(x, x), L::inf());
  }
  return hlo_cplx<R>(x == (R)0 ? zero : L::nan(), L::nan());
}

// ctanh: (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y), with the
// limit +-1 + i 4 sin y cos y / e^(2|x|) where sinh^2 would overflow.
template <typename R> __device__ inline hlo_complex<R> hlo_ctanh(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  R x = z.re;
  const R y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(x)) {
      R im = copysign((R)0, y);
      if (isfinite(y) && fabs(y) > (R)1) {
        R s, c;
        sincos(y, &s, &c);
        im = copysign((R)0, hlo_rmul(s, c));
      }
      return hlo_cplx<R>(copysign((R)1, x), im);
    }
    if (y == (R)0) return z;
    return hlo_cplx<R>(x == (R)0 ? x : L::nan(), L::nan());
  }
  const R t = (R)L::kTanhLimit;
  R s, c;
  hlo_sincos_small(y, &s, &c);
  if (fabs(x) > t) {
    const R exp_2t = exp((R)(2 * L::kTanhLimit));
    R im = hlo_rmul(hlo_rmul((R)4, s), c);
    x = hlo_rsub(fabs(x), t);
    im = hlo_rdiv(im, exp_2t);
    im = x > t ? hlo_rdiv(im, exp_2t) : hlo_rdiv(im, exp(hlo_rmul((R)2, x)));
    return hlo_cplx<R>(copysign((R)1, z.re), im);
  }
  R sinhx = x, coshx = (R)1;
  if (fabs(x) > L::min()) {
    sinhx = sinh(x);
    coshx = cosh(x);
  }
  const R den = fabs(sinhx) > hlo_rmul(fabs(c), L::epsilon()) ? hlo_radd(hlo_rmul(sinhx, sinhx), hlo_rmul(c, c))
                                                              : hlo_rmul(c, c);
  return hlo_cplx<R>(hlo_rdiv(hlo_rmul(sinhx, coshx), den), hlo_rdiv(hlo_rmul(s, c), den));
}

// ctan: ctanh's algorithm with the roles of the parts exchanged.
template <typename R> __device__ inline hlo_complex<R> hlo_ctan(hlo_complex<R> z) {
  typedef hlo_real<R> L;
  const R x = z.re;
  R y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(y)) {
      R re = copysign((R)0, x);
      if (isfinite(x) && fabs(x) > (R)1) {
        R s, c;
        sincos(x, &s, &c);
        re = copysign((R)0, hlo_rmul(s, c));
      }
      return hlo_cplx<R>(re, copysign((R)1, y));
    }
    if (x == (R)0) return z;
    return hlo_cplx<R>(L::nan(), y == (R)0 ? y : L::nan());
  }
  const R t = (R)L::kTanhLimit;
  R s, c;
  hlo_sincos_small(x, &s, &c);
  if (fabs(y) > t) {
    const R exp_2t = exp((R)(2 * L::kTanhLimit));
    R re = hlo_rmul(hlo_rmul((R)4, s), c);
    y = hlo_rsub(fabs(y), t);
    re = hlo_rdiv(re, exp_2t);
    re = y > t ? hlo_rdiv(re, exp_2t) : hlo_rdiv(re, exp(hlo_rmul((R)2, y)));
    return hlo_cplx<R>(re, copysign((R)1, z.im));
  }
  R sinhy = y, coshy = (R)1;
  if (fabs(y) > L::min()) {
    sinhy = sinh(y);
    coshy = cosh(y);
  }
  const R den = fabs(sinhy) > hlo_rmul(fabs(c), L::epsilon()) ? hlo_radd(hlo_rmul(c, c), hlo_rmul(sinhy, sinhy))
                                                              : hlo_rmul(c, c);
  return hlo_cplx<R>(hlo_rdiv(hlo_rmul(s, c), den), hlo_rdiv(hlo_rmul(sinhy, coshy), den));
}

// ---- the interpreter's own complex formulas --------------------------------

// z^w = exp(w log z) without C99's special cases; 0^0 = 1, 0^w = 0 for Re w > 0.
template <typename R> __device__ inline hlo_complex<R> hlo_cpow(hlo_complex<R> a, hlo_complex<R> b) {
  if (a.re == (R)0 && a.im == (R)0) {
    if (b.re == (R)0 && b.im == (R)0) return hlo_cplx<R>((R)1, (R)0);
    if (b.re > (R)0) return hlo_cplx<R>((R)0, (R)0);
  }
  const R log_abs = log(hlo_hypot(a.re, a.im)), arg = atan2(a.im, a.re);
  const R re = hlo_rsub(hlo_rmul(b.re, log_abs), hlo_rmul(b.im, arg));
  const R im = hlo_radd(hlo_rmul(b.re, arg), hlo_rmul(b.im, log_abs));
  const R magnitude = exp(re);
  return hlo_cplx<R>(hlo_rmul(magnitude, cos(im)), hlo_rmul(magnitude, sin(im)));
}
// z / |z|, and 0 at 0.
template <typename R> __device__ inline hlo_complex<R> hlo_csign(hlo_complex<R> a) {
  const R m = hlo_hypot(a.re, a.im);
  if (m == (R)0) return hlo_cplx<R>((R)0, (R)0);
  return hlo_cplx<R>(hlo_rdiv(a.re, m), hlo_rdiv(a.im, m));
}
// e^z - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y.
template <typename R> __device__ inline hlo_complex<R> hlo_cexpm1(hlo_complex<R> a) {
  const R x = a.re, y = a.im;
  const R s = sin(hlo_rdiv(y, (R)2));
  return hlo_cplx<R>(hlo_rsub(hlo_rmul(expm1(x), cos(y)), hlo_rmul(hlo_rmul((R)2, s), s)), hlo_rmul(exp(x), sin(y)));
}
// log(1 + z): the real part through log1p near 0.
template <typename R> __device__ inline hlo_complex<R> hlo_clog1p(hlo_complex<R> a) {
  const R x = a.re, y = a.im;
  const R im = atan2(y, hlo_radd(x, (R)1));
  if (fabs(x) < (R)0.5 && fabs(y) < (R)0.5) {
    const R t = hlo_radd(hlo_rmul(x, hlo_radd((R)2, x)), hlo_rmul(y, y));
    return hlo_cplx<R>(hlo_rmul((R)0.5, log1p(t)), im);
  }
  return hlo_cplx<R>(log(hlo_hypot(hlo_radd(x, (R)1), y)), im);
}
// 1 / (1 + e^-z).
template <typename R> __device__ inline hlo_complex<R> hlo_clogistic(hlo_complex<R> a) {
  const hlo_complex<R> e = hlo_cexp(hlo_cneg(a));
  return hlo_cdiv(hlo_cplx<R>((R)1, (R)0), hlo_cplx<R>(hlo_radd((R)1, e.re), hlo_radd((R)0, e.im)));
}
template <typename R> __device__ inline hlo_complex<R> hlo_crsqrt(hlo_complex<R> a) {
  return hlo_cdiv(hlo_cplx<R>((R)1, (R)0), hlo_csqrt(a));
}
// The principal cube root: |z|^(1/3) at a third of the argument.
template <typename R> __device__ inline hlo_complex<R> hlo_ccbrt(hlo_complex<R> a) {
  const R r = cbrt(hlo_hypot(a.re, a.im));
  const R t = hlo_rdiv(atan2(a.im, a.re), (R)3);
  return hlo_cplx<R>(hlo_rmul(r, cos(t)), hlo_rmul(r, sin(t)));
}
)PRELUDE";

}  // namespace

const std::string& ComplexPrelude() {
  static const std::string* const prelude = new std::string(kComplexPrelude);
  return *prelude;
}

}  // namespace hlograph::gpu::elemental

// Elementwise arithmetic, logic and math of StableHLO (and the CHLO ops that
// are plain math): one functor per op, run by the typed loops of
// elementwise_util.h. Semantics follow XLA's CPU backend where the spec
// leaves a choice: integer division by zero gives -1 (all ones), x % 0 = x,
// INT_MIN / -1 = INT_MIN, shifts by the bit width or more saturate, float
// maximum/minimum propagate NaN.
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>

#include "backends/cpu/kernels/elementwise_util.h"

namespace hlograph::cpu {
namespace ew {

std::string TypeName(ir::ElementType e) { return std::string(ir::ElementTypeName(e)); }

Status CheckCounts(const KernelContext& ctx, const std::vector<const Tensor*>& operands, int64_t n) {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i]->type().IsTensor() && operands[i]->num_elements() != n) {
      return ctx.Error("operand " + std::to_string(i) + " has " + std::to_string(operands[i]->num_elements()) +
                       " elements, the result " + std::to_string(n));
    }
  }
  return Status::Ok();
}

namespace {

// Smith's division with the C99 recoveries for a zero or infinite divisor
// and an infinite dividend, applied only when the plain result is NaN+NaNi.
template <typename R>
std::complex<R> SmithDiv(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  R cr, ci;
  if (std::fabs(br) < std::fabs(bi)) {
    const R ratio = br / bi;
    const R denom = bi + br * ratio;
    cr = (ar * ratio + ai) / denom;
    ci = (ai * ratio - ar) / denom;
  } else {
    const R ratio = bi / br;
    const R denom = br + bi * ratio;
    cr = (ar + ai * ratio) / denom;
    ci = (ai - ar * ratio) / denom;
  }
  if (!(std::isnan(cr) && std::isnan(ci))) return {cr, ci};
  const R inf = std::numeric_limits<R>::infinity();
  if (br == 0 && bi == 0 && (!std::isnan(ar) || !std::isnan(ai))) {
    const R s = std::copysign(inf, br);
    return {s * ar, s * ai};
  }
  const bool a_inf = std::isinf(ar) || std::isinf(ai);
  const bool b_finite = std::isfinite(br) && std::isfinite(bi);
  if (a_inf && b_finite) {
    const R xr = std::copysign(std::isinf(ar) ? R(1) : R(0), ar);
    const R xi = std::copysign(std::isinf(ai) ? R(1) : R(0), ai);
    return {inf * (xr * br + xi * bi), inf * (xi * br - xr * bi)};
  }
  const bool a_finite = std::isfinite(ar) && std::isfinite(ai);
  const bool b_inf = std::isinf(br) || std::isinf(bi);
  if (a_finite && b_inf) {
    const R yr = std::copysign(std::isinf(br) ? R(1) : R(0), br);
    const R yi = std::copysign(std::isinf(bi) ? R(1) : R(0), bi);
    return {R(0) * (ar * yr + ai * yi), R(0) * (ai * yr - ar * yi)};
  }
  return {cr, ci};
}

}  // namespace

std::complex<float> ComplexDiv(std::complex<float> a, std::complex<float> b) { return SmithDiv(a, b); }
std::complex<double> ComplexDiv(std::complex<double> a, std::complex<double> b) { return SmithDiv(a, b); }

}  // namespace ew

namespace {

using ew::Bits64;
using ew::LowMask;
using ew::SignExtend;

// 128-bit products for chlo.mulhi (a GCC/Clang extension).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// ---------------------------------------------------------------------------
// Binary arithmetic.

struct AddOp {
  static bool Bool(bool a, bool b) { return a || b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) + Bits64(b); }
  template <typename C>
  static C Float(C a, C b) { return a + b; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return a + b; }
};

struct SubtractOp {
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) - Bits64(b); }
  template <typename C>
  static C Float(C a, C b) { return a - b; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return a - b; }
};

struct MultiplyOp {
  static bool Bool(bool a, bool b) { return a && b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) * Bits64(b); }
  template <typename C>
  static C Float(C a, C b) { return a * b; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return ew::ComplexMul(a, b); }
};

struct DivideOp {
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    if (b == 0) return ~uint64_t{0};  // XLA: x / 0 = -1 (all ones)
    if constexpr (std::is_signed_v<T>) {
      // INT_MIN / -1 wraps to INT_MIN; negating avoids the C++ overflow.
      if (b == -1) return uint64_t{0} - Bits64(a);
      return Bits64(static_cast<int64_t>(a) / static_cast<int64_t>(b));
    } else {
      return static_cast<uint64_t>(a) / static_cast<uint64_t>(b);
    }
  }
  template <typename C>
  static C Float(C a, C b) { return a / b; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return ew::ComplexDiv(a, b); }
};

struct RemainderOp {
  template <typename T>
  static uint64_t Int(T a, T b, int) {
    if (b == 0) return Bits64(a);  // XLA: x % 0 = x
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;  // INT_MIN % -1 = 0 without the C++ overflow
      return Bits64(static_cast<int64_t>(a) % static_cast<int64_t>(b));
    } else {
      return static_cast<uint64_t>(a) % static_cast<uint64_t>(b);
    }
  }
  // C fmod: the result has the sign of the dividend.
  template <typename C>
  static C Float(C a, C b) { return std::fmod(a, b); }
};

struct PowerOp {
  // Square-and-multiply over the exponent's low six bits, as XLA's CPU
  // backend emits it (so 3^64 = 3^0 = 1: the bits above are ignored). A
  // negative (signed) exponent gives 0 except for bases 1 and -1.
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    if constexpr (std::is_signed_v<T>) {
      const int64_t exponent = SignExtend(Bits64(b), bits);
      if (exponent < 0) {
        if (a == 1) return 1;
        if (a == -1) return (exponent & 1) ? ~uint64_t{0} : 1;
        return 0;
      }
    }
    uint64_t base = Bits64(a), acc = 1, e = Bits64(b);
    for (int i = 0; i < 6; ++i) {
      if (e & 1) acc *= base;
      base *= base;
      e >>= 1;
    }
    return acc;
  }
  template <typename C>
  static C Float(C a, C b) { return std::pow(a, b); }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) {
    if (a.real() == 0 && a.imag() == 0) {
      if (b.real() == 0 && b.imag() == 0) return {1, 0};
      if (b.real() > 0) return {0, 0};
    }
    // exp(b log a) computed the way XLA does, without C99's special cases
    // for infinities: an overflowing magnitude times sin(0) is NaN, not 0.
    const R log_abs = std::log(std::abs(a)), arg = std::arg(a);
    const R re = b.real() * log_abs - b.imag() * arg;
    const R im = b.real() * arg + b.imag() * log_abs;
    const R magnitude = std::exp(re);
    return {magnitude * std::cos(im), magnitude * std::sin(im)};
  }
};

struct MaximumOp {
  static bool Bool(bool a, bool b) { return a || b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a >= b ? a : b); }
  template <typename C>
  static C Float(C a, C b) { return ew::FloatMax(a, b); }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return ew::ComplexMax(a, b); }
};

struct MinimumOp {
  static bool Bool(bool a, bool b) { return a && b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a <= b ? a : b); }
  template <typename C>
  static C Float(C a, C b) { return ew::FloatMin(a, b); }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a, std::complex<R> b) { return ew::ComplexMin(a, b); }
};

struct Atan2Op {
  template <typename C>
  static C Float(C a, C b) { return std::atan2(a, b); }
  // atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)).
  template <typename R>
  static std::complex<R> Complex(std::complex<R> y, std::complex<R> x) {
    const std::complex<R> i(0, 1);
    const std::complex<R> num = x + i * y;
    return -i * std::log(num / std::sqrt(x * x + y * y));
  }
};

// ---------------------------------------------------------------------------
// Bitwise and shifts.

struct AndOp {
  static bool Bool(bool a, bool b) { return a && b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) & Bits64(b); }
};
struct OrOp {
  static bool Bool(bool a, bool b) { return a || b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) | Bits64(b); }
};
struct XorOp {
  static bool Bool(bool a, bool b) { return a != b; }
  template <typename T>
  static uint64_t Int(T a, T b, int) { return Bits64(a) ^ Bits64(b); }
};

// Shift amounts are read as unsigned `bits`-wide numbers, so a negative
// amount is as out of range as one >= bits.
struct ShiftLeftOp {
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    const uint64_t s = Bits64(b) & LowMask(bits);
    return s >= static_cast<uint64_t>(bits) ? 0 : Bits64(a) << s;
  }
};
struct ShiftRightLogicalOp {
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    const uint64_t s = Bits64(b) & LowMask(bits);
    return s >= static_cast<uint64_t>(bits) ? 0 : (Bits64(a) & LowMask(bits)) >> s;
  }
};
// Arithmetic: the operand's top bit is its sign, for unsigned types too.
struct ShiftRightArithmeticOp {
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    const uint64_t s = Bits64(b) & LowMask(bits);
    const int64_t v = SignExtend(Bits64(a), bits);
    if (s >= static_cast<uint64_t>(bits)) return v < 0 ? ~uint64_t{0} : 0;
    return static_cast<uint64_t>(v >> s);
  }
};

// chlo.mulhi: the high half of the double-width product.
struct MulHiOp {
  template <typename T>
  static uint64_t Int(T a, T b, int bits) {
    if constexpr (std::is_signed_v<T>) {
      const Int128 p = static_cast<Int128>(SignExtend(Bits64(a), bits)) * SignExtend(Bits64(b), bits);
      return static_cast<uint64_t>(p >> bits);
    } else {
      const UInt128 p = static_cast<UInt128>(Bits64(a) & LowMask(bits)) * (Bits64(b) & LowMask(bits));
      return static_cast<uint64_t>(p >> bits);
    }
  }
};

// ---------------------------------------------------------------------------
// Unary math.

struct NegateOp {
  template <typename T>
  static uint64_t Int(T a, int) { return uint64_t{0} - Bits64(a); }
  template <typename C>
  static C Float(C a) { return -a; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) { return {-a.real(), -a.imag()}; }
};

struct NotOp {
  static bool Bool(bool a) { return !a; }
  template <typename T>
  static uint64_t Int(T a, int) { return ~Bits64(a); }
};

struct PopcntOp {
  template <typename T>
  static uint64_t Int(T a, int bits) { return static_cast<uint64_t>(std::popcount(Bits64(a) & LowMask(bits))); }
};

struct ClzOp {
  template <typename T>
  static uint64_t Int(T a, int bits) {
    const uint64_t v = Bits64(a) & LowMask(bits);
    return static_cast<uint64_t>(std::countl_zero(v) - (64 - bits));
  }
};

struct SignOp {
  template <typename T>
  static uint64_t Int(T a, int) {
    if constexpr (std::is_signed_v<T>) {
      return a > 0 ? 1 : (a < 0 ? ~uint64_t{0} : 0);
    } else {
      return a != 0 ? 1 : 0;
    }
  }
  // NaN stays NaN, zeros keep their sign.
  template <typename C>
  static C Float(C a) {
    if (std::isnan(a)) return a;
    return std::copysign(a != 0 ? C(1) : C(0), a);
  }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) {
    const R m = std::hypot(a.real(), a.imag());
    if (m == 0) return {0, 0};
    return {a.real() / m, a.imag() / m};
  }
};

struct CeilOp {
  template <typename C>
  static C Float(C a) { return std::ceil(a); }
};
struct FloorOp {
  template <typename C>
  static C Float(C a) { return std::floor(a); }
};
struct RoundAfzOp {
  template <typename C>
  static C Float(C a) { return std::round(a); }
};
struct RoundEvenOp {
  // The default rounding mode is to nearest, ties to even.
  template <typename C>
  static C Float(C a) { return std::nearbyint(a); }
};

// Generic transcendental ops on reals and complex numbers.
#define HLOGRAPH_STD_UNARY(Name, fn)                                                 \
  struct Name {                                                                      \
    template <typename C>                                                            \
    static C Float(C a) { return std::fn(a); }                                       \
    template <typename R>                                                            \
    static std::complex<R> Complex(std::complex<R> a) { return std::fn(a); }         \
  };
HLOGRAPH_STD_UNARY(ExpOp, exp)
HLOGRAPH_STD_UNARY(LogOp, log)
HLOGRAPH_STD_UNARY(SqrtOp, sqrt)
HLOGRAPH_STD_UNARY(SinOp, sin)
HLOGRAPH_STD_UNARY(CosOp, cos)
HLOGRAPH_STD_UNARY(TanOp, tan)
HLOGRAPH_STD_UNARY(TanhOp, tanh)
HLOGRAPH_STD_UNARY(AsinOp, asin)
HLOGRAPH_STD_UNARY(AcosOp, acos)
HLOGRAPH_STD_UNARY(AtanOp, atan)
HLOGRAPH_STD_UNARY(SinhOp, sinh)
HLOGRAPH_STD_UNARY(CoshOp, cosh)
HLOGRAPH_STD_UNARY(AsinhOp, asinh)
HLOGRAPH_STD_UNARY(AcoshOp, acosh)
HLOGRAPH_STD_UNARY(AtanhOp, atanh)
#undef HLOGRAPH_STD_UNARY

struct Expm1Op {
  template <typename C>
  static C Float(C a) { return std::expm1(a); }
  // e^(x+iy) - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + i e^x sin y, which keeps
  // the real part accurate near 0.
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) {
    const R x = a.real(), y = a.imag();
    const R s = std::sin(y / 2);
    return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
  }
};

struct Log1pOp {
  template <typename C>
  static C Float(C a) { return std::log1p(a); }
  // log(1+z): real part 0.5 log1p(2x + x^2 + y^2) near 0, plain log far away.
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) {
    const R x = a.real(), y = a.imag();
    const R im = std::atan2(y, x + 1);
    if (std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5)) {
      return {R(0.5) * std::log1p(x * (2 + x) + y * y), im};
    }
    return {std::log(std::hypot(x + 1, y)), im};
  }
};

struct LogisticOp {
  // 1 / (1 + e^-x), written so that neither branch overflows.
  template <typename C>
  static C Float(C a) {
    if (std::isnan(a)) return a;
    if (a >= 0) return C(1) / (C(1) + std::exp(-a));
    const C e = std::exp(a);
    return e / (C(1) + e);
  }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) {
    return ew::ComplexDiv(std::complex<R>(1, 0), std::complex<R>(1, 0) + std::exp(-a));
  }
};

struct RsqrtOp {
  template <typename C>
  static C Float(C a) { return C(1) / std::sqrt(a); }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) { return ew::ComplexDiv(std::complex<R>(1, 0), std::sqrt(a)); }
};

struct CbrtOp {
  // libm's cbrt may be an ulp off even for perfect cubes; one Newton step in
  // extended precision (or double, for float) makes it correctly rounded in
  // all but the hardest cases.
  template <typename C>
  static C Float(C a) {
    if constexpr (std::is_same_v<C, float>) {
      return static_cast<float>(Float<double>(a));
    } else {
      const C r = std::cbrt(a);
      if (r == 0 || !std::isfinite(r)) return r;
      const long double lr = r;
      return static_cast<C>(lr - (lr * lr * lr - static_cast<long double>(a)) / (3 * lr * lr));
    }
  }
  // The principal root: |z|^(1/3) at a third of the argument.
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) {
    const R r = std::cbrt(std::hypot(a.real(), a.imag()));
    const R t = std::atan2(a.imag(), a.real()) / 3;
    return {r * std::cos(t), r * std::sin(t)};
  }
};

struct SquareOp {
  template <typename T>
  static uint64_t Int(T a, int) { return Bits64(a) * Bits64(a); }
  template <typename C>
  static C Float(C a) { return a * a; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) { return ew::ComplexMul(a, a); }
};

struct ConjOp {
  template <typename C>
  static C Float(C a) { return a; }
  template <typename R>
  static std::complex<R> Complex(std::complex<R> a) { return {a.real(), -a.imag()}; }
};

// ---------------------------------------------------------------------------
// Ops whose operand and result types differ, and the ternary ops.

// abs: |x| for signed integers (INT_MIN stays INT_MIN), floats, and complex
// (with a real result).
Status AbsKernel(KernelContext& ctx) {
  const Tensor& in = ctx.operand(0);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = in.element();
  const int bits = ir::BitWidth(e);
  const bool ok = DispatchElementType(e, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    const T* a = in.data<T>();
    if constexpr (kIsComplex<T>) {
      using R = ew::RealOf<T>;
      R* r = out.mutable_data<R>();
      for (int64_t i = 0; i < n; ++i) r[i] = std::hypot(a[i].real(), a[i].imag());
      return true;
    } else if constexpr (kIsInteger<T>) {
      T* r = out.mutable_data<T>();
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t v = Bits64(a[i]);
        r[i] = ew::WrapBits<T>(a[i] < 0 ? uint64_t{0} - v : v, bits);
      }
      return true;
    } else if constexpr (kIsFloat<T>) {
      T* r = out.mutable_data<T>();
      for (int64_t i = 0; i < n; ++i) r[i] = Store<T>(std::fabs(Load<T>(a[i])));
      return true;
    }
    return false;
  });
  if (!ok) return ew::Unsupported(ctx, e);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

struct IsFiniteOp {
  template <typename C>
  static bool Test(C x) { return std::isfinite(x); }
};
struct IsInfOp {
  template <typename C>
  static bool Test(C x) { return std::isinf(x); }
};
struct IsPosInfOp {
  template <typename C>
  static bool Test(C x) { return std::isinf(x) && x > 0; }
};
struct IsNegInfOp {
  template <typename C>
  static bool Test(C x) { return std::isinf(x) && x < 0; }
};

// Values of `t` broadcast from a scalar: element i is at i * stride.
struct Strided {
  const Tensor* t;
  int64_t stride;  // 0 for a scalar operand, else 1
};

Status GetStrided(const KernelContext& ctx, size_t index, int64_t n, Strided* s) {
  const Tensor& t = ctx.operand(index);
  if (t.num_elements() == n) {
    *s = {&t, 1};
  } else if (t.rank() == 0 && t.num_elements() == 1) {
    *s = {&t, 0};
  } else {
    return ctx.Error("operand " + std::to_string(index) + " is neither a scalar nor of the result's shape");
  }
  return Status::Ok();
}

// select(pred, on_true, on_false); pred is a scalar or of the result's shape.
Status SelectKernel(KernelContext& ctx) {
  const Tensor& pred = ctx.operand(0);
  const Tensor& on_true = ctx.operand(1);
  const Tensor& on_false = ctx.operand(2);
  const ir::Type& type = ctx.result_type(0);
  if (on_true.type() != type || on_false.type() != type) {
    return ctx.Error("expects on_true and on_false of the result type " + type.ToString());
  }
  if (pred.element() != ir::ElementType::kI1) return ctx.Error("expects an i1 pred");
  if (pred.rank() == 0 && pred.num_elements() == 1) {
    // Tensors are immutable values: picking one shares its buffer.
    ctx.results.push_back(pred.data<bool>()[0] ? on_true : on_false);
    return Status::Ok();
  }
  Tensor out(type);
  const int64_t n = out.num_elements();
  if (pred.num_elements() != n) return ctx.Error("expects pred to be a scalar or of the result's shape");
  const bool* p = pred.data<bool>();
  DispatchElementType(type.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = on_true.data<T>();
    const T* b = on_false.data<T>();
    T* r = out.mutable_data<T>();
    for (int64_t i = 0; i < n; ++i) r[i] = p[i] ? a[i] : b[i];
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// clamp(min, x, max) = minimum(maximum(x, min), max), with maximum/minimum's
// semantics (NaN propagates); min and max may be scalars.
Status ClampKernel(KernelContext& ctx) {
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  const ir::ElementType e = out.element();
  Strided lo, x, hi;
  HLOGRAPH_TRY(GetStrided(ctx, 0, n, &lo));
  HLOGRAPH_TRY(GetStrided(ctx, 1, n, &x));
  HLOGRAPH_TRY(GetStrided(ctx, 2, n, &hi));
  if (lo.t->element() != e || x.t->element() != e || hi.t->element() != e) {
    return ctx.Error("expects min, operand, max and result of one element type");
  }
  if (x.stride == 0 && n != 1) return ctx.Error("expects the operand to have the result's shape");
  DispatchElementType(e, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pl = lo.t->data<T>();
    const T* px = x.t->data<T>();
    const T* ph = hi.t->data<T>();
    T* r = out.mutable_data<T>();
    const int64_t sl = lo.stride, sh = hi.stride;
    for (int64_t i = 0; i < n; ++i) {
      const T l = pl[i * sl], v = px[i], h = ph[i * sh];
      if constexpr (std::is_same_v<T, bool>) {
        r[i] = (v || l) && h;
      } else if constexpr (kIsInteger<T>) {
        const T m = v >= l ? v : l;
        r[i] = m <= h ? m : h;
      } else if constexpr (kIsComplex<T>) {
        r[i] = ew::ComplexMin(ew::ComplexMax(v, l), h);
      } else {
        r[i] = Store<T>(ew::FloatMin(ew::FloatMax(Load<T>(v), Load<T>(l)), Load<T>(h)));
      }
    }
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// compare

enum class Direction { kEq, kNe, kGe, kGt, kLe, kLt };

std::string EnumValue(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::EnumAttr>();
  return a ? a->value : std::string();
}

// Applies `dir` to keys that are totally ordered by their own <, ==.
template <typename GetA, typename GetB>
void CompareKeys(Direction dir, int64_t n, GetA ka, GetB kb, bool* r) {
  switch (dir) {
    case Direction::kEq: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) == kb(i); break;
    case Direction::kNe: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) != kb(i); break;
    case Direction::kGe: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) >= kb(i); break;
    case Direction::kGt: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) > kb(i); break;
    case Direction::kLe: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) <= kb(i); break;
    case Direction::kLt: for (int64_t i = 0; i < n; ++i) r[i] = ka(i) < kb(i); break;
  }
}

// The raw bits of a float element.
template <typename T>
uint64_t FloatBits(T v) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  } else {
    return static_cast<uint64_t>(v.bits);
  }
}

// TOTALORDER: the sign-magnitude bits mapped to an unsigned key, so that
// -NaN < -inf < ... < -0 < +0 < ... < inf < NaN. In the FNUZ formats the
// "-0" pattern is their only NaN; XLA orders it below everything.
inline uint64_t TotalOrderKey(uint64_t bits, int width, bool has_sign, bool nan_is_negative_zero) {
  const uint64_t mask = LowMask(width);
  bits &= mask;
  if (!has_sign) return bits;
  const uint64_t sign = uint64_t{1} << (width - 1);
  if (nan_is_negative_zero) {
    if (bits == sign) return 0;
    return 1 + ((bits & sign) ? (~bits & mask) : (bits | sign));
  }
  return (bits & sign) ? (~bits & mask) : (bits | sign);
}

Status CompareKernel(KernelContext& ctx) {
  const Tensor& lhs = ctx.operand(0);
  const Tensor& rhs = ctx.operand(1);
  Tensor out(ctx.result_type(0));
  const int64_t n = out.num_elements();
  HLOGRAPH_TRY(ew::CheckCounts(ctx, ctx.operands, n));
  const ir::ElementType e = lhs.element();
  if (rhs.element() != e || out.element() != ir::ElementType::kI1) {
    return ctx.Error("expects operands of one element type and an i1 result");
  }
  const std::string dir_name = EnumValue(ctx.op, "comparison_direction");
  Direction dir;
  if (dir_name == "EQ") dir = Direction::kEq;
  else if (dir_name == "NE") dir = Direction::kNe;
  else if (dir_name == "GE") dir = Direction::kGe;
  else if (dir_name == "GT") dir = Direction::kGt;
  else if (dir_name == "LE") dir = Direction::kLe;
  else if (dir_name == "LT") dir = Direction::kLt;
  else return ctx.Error("has an unknown comparison_direction '" + dir_name + "'");
  const std::string compare_type = EnumValue(ctx.op, "compare_type");
  const bool total_order = compare_type == "TOTALORDER";
  if (total_order && !ir::IsFloat(e)) return ctx.Error("expects TOTALORDER only for float operands");
  const int width = ir::BitWidth(e);
  const auto format = ir::FloatFormatOf(e);
  const bool has_sign = !format || format->has_sign;
  const bool nan_is_negative_zero = format && format->unsigned_zero_nan;
  bool* r = out.mutable_data<bool>();
  DispatchElementType(e, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = lhs.data<T>();
    const T* b = rhs.data<T>();
    if constexpr (kIsComplex<T>) {
      // EQ/NE on both parts; the orderings are lexicographic on (re, im).
      for (int64_t i = 0; i < n; ++i) {
        const auto x = a[i], y = b[i];
        const bool re_eq = x.real() == y.real();
        switch (dir) {
          case Direction::kEq: r[i] = re_eq && x.imag() == y.imag(); break;
          case Direction::kNe: r[i] = !(re_eq && x.imag() == y.imag()); break;
          case Direction::kGe: r[i] = x.real() > y.real() || (re_eq && x.imag() >= y.imag()); break;
          case Direction::kGt: r[i] = x.real() > y.real() || (re_eq && x.imag() > y.imag()); break;
          case Direction::kLe: r[i] = x.real() < y.real() || (re_eq && x.imag() <= y.imag()); break;
          case Direction::kLt: r[i] = x.real() < y.real() || (re_eq && x.imag() < y.imag()); break;
        }
      }
    } else if constexpr (kIsFloat<T>) {
      if (total_order) {
        auto key_a = [&](int64_t i) { return TotalOrderKey(FloatBits(a[i]), width, has_sign, nan_is_negative_zero); };
        auto key_b = [&](int64_t i) { return TotalOrderKey(FloatBits(b[i]), width, has_sign, nan_is_negative_zero); };
        CompareKeys(dir, n, key_a, key_b, r);
      } else {
        // IEEE quiet comparisons: NaN is unordered, so only NE holds.
        CompareKeys(dir, n, [&](int64_t i) { return Load<T>(a[i]); }, [&](int64_t i) { return Load<T>(b[i]); }, r);
      }
    } else {
      CompareKeys(dir, n, [&](int64_t i) { return a[i]; }, [&](int64_t i) { return b[i]; }, r);
    }
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

}  // namespace

namespace ew {

void RegisterMathKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kAdd, &BinaryKernel<AddOp>);
  r.Register(ir::OpId::kSubtract, &BinaryKernel<SubtractOp>);
  r.Register(ir::OpId::kMultiply, &BinaryKernel<MultiplyOp>);
  r.Register(ir::OpId::kDivide, &BinaryKernel<DivideOp>);
  r.Register(ir::OpId::kRemainder, &BinaryKernel<RemainderOp>);
  r.Register(ir::OpId::kPower, &BinaryKernel<PowerOp>);
  r.Register(ir::OpId::kMaximum, &BinaryKernel<MaximumOp>);
  r.Register(ir::OpId::kMinimum, &BinaryKernel<MinimumOp>);
  r.Register(ir::OpId::kAtan2, &BinaryKernel<Atan2Op>);
  r.Register(ir::OpId::kAnd, &BinaryKernel<AndOp>);
  r.Register(ir::OpId::kOr, &BinaryKernel<OrOp>);
  r.Register(ir::OpId::kXor, &BinaryKernel<XorOp>);
  r.Register(ir::OpId::kShiftLeft, &BinaryKernel<ShiftLeftOp>);
  r.Register(ir::OpId::kShiftRightLogical, &BinaryKernel<ShiftRightLogicalOp>);
  r.Register(ir::OpId::kShiftRightArithmetic, &BinaryKernel<ShiftRightArithmeticOp>);
  r.Register(ir::OpId::kChloMulhi, &BinaryKernel<MulHiOp>);

  r.Register(ir::OpId::kNegate, &UnaryKernel<NegateOp>);
  r.Register(ir::OpId::kNot, &UnaryKernel<NotOp>);
  r.Register(ir::OpId::kPopcnt, &UnaryKernel<PopcntOp>);
  r.Register(ir::OpId::kCountLeadingZeros, &UnaryKernel<ClzOp>);
  r.Register(ir::OpId::kSign, &UnaryKernel<SignOp>);
  r.Register(ir::OpId::kCeil, &UnaryKernel<CeilOp>);
  r.Register(ir::OpId::kFloor, &UnaryKernel<FloorOp>);
  r.Register(ir::OpId::kRoundNearestAfz, &UnaryKernel<RoundAfzOp>);
  r.Register(ir::OpId::kRoundNearestEven, &UnaryKernel<RoundEvenOp>);
  r.Register(ir::OpId::kExponential, &UnaryKernel<ExpOp>);
  r.Register(ir::OpId::kExponentialMinusOne, &UnaryKernel<Expm1Op>);
  r.Register(ir::OpId::kLog, &UnaryKernel<LogOp>);
  r.Register(ir::OpId::kLogPlusOne, &UnaryKernel<Log1pOp>);
  r.Register(ir::OpId::kLogistic, &UnaryKernel<LogisticOp>);
  r.Register(ir::OpId::kSqrt, &UnaryKernel<SqrtOp>);
  r.Register(ir::OpId::kRsqrt, &UnaryKernel<RsqrtOp>);
  r.Register(ir::OpId::kCbrt, &UnaryKernel<CbrtOp>);
  r.Register(ir::OpId::kSine, &UnaryKernel<SinOp>);
  r.Register(ir::OpId::kCosine, &UnaryKernel<CosOp>);
  r.Register(ir::OpId::kTan, &UnaryKernel<TanOp>);
  r.Register(ir::OpId::kTanh, &UnaryKernel<TanhOp>);
  r.Register(ir::OpId::kAbs, &AbsKernel);
  r.Register(ir::OpId::kIsFinite, &FloatPredicateKernel<IsFiniteOp>);
  r.Register(ir::OpId::kSelect, &SelectKernel);
  r.Register(ir::OpId::kClamp, &ClampKernel);
  r.Register(ir::OpId::kCompare, &CompareKernel);

  r.Register(ir::OpId::kChloTan, &UnaryKernel<TanOp>);
  r.Register(ir::OpId::kChloAsin, &UnaryKernel<AsinOp>);
  r.Register(ir::OpId::kChloAcos, &UnaryKernel<AcosOp>);
  r.Register(ir::OpId::kChloAtan, &UnaryKernel<AtanOp>);
  r.Register(ir::OpId::kChloSinh, &UnaryKernel<SinhOp>);
  r.Register(ir::OpId::kChloCosh, &UnaryKernel<CoshOp>);
  r.Register(ir::OpId::kChloAsinh, &UnaryKernel<AsinhOp>);
  r.Register(ir::OpId::kChloAcosh, &UnaryKernel<AcoshOp>);
  r.Register(ir::OpId::kChloAtanh, &UnaryKernel<AtanhOp>);
  r.Register(ir::OpId::kChloSquare, &UnaryKernel<SquareOp>);
  r.Register(ir::OpId::kChloConj, &UnaryKernel<ConjOp>);
  r.Register(ir::OpId::kChloIsInf, &FloatPredicateKernel<IsInfOp>);
  r.Register(ir::OpId::kChloIsPosInf, &FloatPredicateKernel<IsPosInfOp>);
  r.Register(ir::OpId::kChloIsNegInf, &FloatPredicateKernel<IsNegInfOp>);
}

}  // namespace ew

void RegisterElementwiseKernels(KernelRegistry& r) {
  ew::RegisterMathKernels(r);
  ew::RegisterConvertKernels(r);
  ew::RegisterChloSpecialKernels(r);
}

}  // namespace hlograph::cpu

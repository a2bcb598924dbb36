// The narrow-float part of the kernel prelude: the f8 formats, stored as
// one byte and computed in float. Decoding and encoding are ports of
// ir::FloatBitsToDouble / ir::DoubleToFloatBits (what the CPU interpreter
// loads and stores with): round to nearest even, infinities or NaN or
// saturation on overflow as each format has them, NaNs with their sign and
// payload where the format keeps them. The format constants are generated
// from ir::FloatFormatOf, so the two backends cannot disagree on them.
#include <cctype>
#include <string>

#include "backends/gpu/codegen/elemental_internal.h"
#include "ir/element_type.h"

namespace hlograph::gpu::elemental {

using E = ir::ElementType;

namespace {

constexpr const char* kNarrowHelpers = R"PRELUDE(// ---- narrow floats (f8) --------------------------------------

// A format's rules (ir::FloatFormat) as constants.
template <int E, int M, int BIAS, bool INF, bool NAN_, bool NAN_ALL_ONES, bool NAN_NEG_ZERO, bool SIGNED>
struct hlo_narrow_format {
  static constexpr int kExp = E, kMan = M, kBias = BIAS;
  static constexpr bool kInf = INF, kNan = NAN_, kNanAllOnes = NAN_ALL_ONES, kNanNegZero = NAN_NEG_ZERO;
  static constexpr bool kSigned = SIGNED;
  static constexpr uint32_t kExpAll = (1u << E) - 1u, kManAll = (1u << M) - 1u;
  static constexpr uint32_t kSignBit = SIGNED ? 1u << (E + M) : 0u;
};

// The format's NaN, as the interpreter stores it.
template <typename F> __device__ __forceinline__ uint32_t hlo_narrow_nan() {
  if (F::kNanNegZero) return 1u << (F::kExp + F::kMan);
  if (F::kNanAllOnes) return (1u << (F::kExp + F::kMan)) - 1u;
  if (F::kNan) return (F::kExpAll << F::kMan) | ((1u << F::kMan) >> 1);
  return 0u;
}

// The float of the same value. A NaN keeps its sign and payload at the top
// of the mantissa, as the interpreter's widening to double does (an empty
// payload becomes the quiet bit); the FNUZ NaN is the positive quiet NaN.
template <typename F> __device__ __forceinline__ float hlo_narrow_to_float(uint32_t bits) {
  const bool neg = F::kSigned && ((bits >> (F::kExp + F::kMan)) & 1u);
  const uint32_t e = (bits >> F::kMan) & F::kExpAll, m = bits & F::kManAll;
  const uint32_t sign = neg ? 0x80000000u : 0u;
  if (F::kNanNegZero && neg && e == 0u && m == 0u) return __uint_as_float(0x7fc00000u);
  if ((F::kInf && e == F::kExpAll && m != 0u) || (F::kNanAllOnes && e == F::kExpAll && m == F::kManAll)) {
    const uint32_t payload = (m << 23) >> F::kMan;
    return __uint_as_float(sign | 0x7f800000u | (payload != 0u ? payload : 0x400000u));
  }
  if (F::kInf && e == F::kExpAll) return __uint_as_float(sign | 0x7f800000u);
  float magnitude;
  if (F::kMan == 0) {
    magnitude = ldexpf(1.0f, (int)e - F::kBias);
  } else if (e == 0u) {
    magnitude = ldexpf((float)m, 1 - F::kBias - F::kMan);
  } else {
    magnitude = ldexpf((float)(m | (1u << F::kMan)), (int)e - F::kBias - F::kMan);
  }
  return neg ? -magnitude : magnitude;
}

// The bits of `x` rounded to nearest even; beyond the largest finite value
// infinity, else NaN, else (formats with neither) saturation. A negative
// value in an unsigned format is NaN; FNUZ formats have no -0.
template <typename F> __device__ inline uint32_t hlo_narrow_from_double(double x) {
  const uint32_t nan_bits = hlo_narrow_nan<F>();
  if (isnan(x)) return nan_bits;
  const bool neg = signbit(x);
  if (neg && !F::kSigned) return nan_bits;
  const uint32_t sign = neg ? F::kSignBit : 0u;
  uint32_t max_e = F::kExpAll, max_m = F::kManAll;
  if (F::kInf) {
    max_e = F::kExpAll - 1u;
  } else if (F::kNanAllOnes) {
    if (F::kMan > 0) {
      max_m = F::kManAll - 1u;
    } else {
      max_e = F::kExpAll - 1u;
    }
  }
  const uint32_t overflow = F::kInf ? (sign | (F::kExpAll << F::kMan))
                                    : (F::kNan ? nan_bits : (sign | (max_e << F::kMan) | max_m));
  const double a = fabs(x);
  if (isinf(a)) return overflow;
  if (a == 0.0) return F::kNanNegZero ? 0u : sign;
  if (F::kMan == 0) {
    // Powers of two only: the nearer one, ties to the even exponent field.
    int exp2_floor;
    const double frac = frexp(a, &exp2_floor);
    int e2 = exp2_floor - 1;
    const double down = frac * 2.0 - 1.0, up = 2.0 - frac * 2.0;
    if (up < down || (up == down && ((e2 + F::kBias) & 1))) ++e2;
    int field = e2 + F::kBias;
    if (field < 0) field = 0;
    if ((uint32_t)field > max_e) return overflow;
    return (uint32_t)field;
  }
  int exp2;
  frexp(a, &exp2);
  int e_unbiased = exp2 - 1;
  const int e_min = 1 - F::kBias;
  const bool subnormal = e_unbiased < e_min;
  const int quantum_exp = (subnormal ? e_min : e_unbiased) - F::kMan;
  uint64_t q = (uint64_t)rint(ldexp(a, -quantum_exp));
  uint32_t e_field, m_field;
  if (subnormal) {
    if (q >= (1ull << F::kMan)) {
      e_field = 1u;
      m_field = (uint32_t)(q - (1ull << F::kMan));
    } else {
      e_field = 0u;
      m_field = (uint32_t)q;
    }
  } else {
    if (q >= (2ull << F::kMan)) {
      q >>= 1;
      ++e_unbiased;
    }
    e_field = (uint32_t)(e_unbiased + F::kBias);
    m_field = (uint32_t)(q - (1ull << F::kMan));
  }
  if (e_field > max_e || (e_field == max_e && m_field > max_m)) return overflow;
  if (F::kNanNegZero && e_field == 0u && m_field == 0u) return 0u;
  return sign | (e_field << F::kMan) | m_field;
}

// An op's float result rounded to the format, as the interpreter stores
// every op's result (and reads it back).
template <typename F> __device__ __forceinline__ float hlo_narrow_round(double x) {
  return hlo_narrow_to_float<F>(hlo_narrow_from_double<F>(x));
}

// The stored bits of a value: hlo_narrow_to_float inverted, so a NaN keeps
// the sign and payload it was loaded with (bitcasts and TOTALORDER see the
// bits); any other value is encoded.
template <typename F> __device__ __forceinline__ uint8_t hlo_narrow_bits(float x) {
  if (isnan(x)) {
    if (F::kNanNegZero || !F::kNan) return (uint8_t)hlo_narrow_nan<F>();
    const uint32_t u = __float_as_uint(x);
    const uint32_t sign = (u >> 31) ? F::kSignBit : 0u;
    if (F::kNanAllOnes) return (uint8_t)(sign | (F::kExpAll << F::kMan) | F::kManAll);
    const uint32_t payload = ((u & 0x7fffffu) >> (23 - F::kMan)) & F::kManAll;
    return (uint8_t)(sign | (F::kExpAll << F::kMan) | (payload != 0u ? payload : ((1u << F::kMan) >> 1)));
  }
  return (uint8_t)hlo_narrow_from_double<F>((double)x);
}

// Widening to f32 and f64 exactly as the interpreter does: through the
// decoded double, whose NaN the conversion to float makes quiet.
__device__ __forceinline__ float hlo_narrow_widen_float(float x) {
  return isnan(x) ? __uint_as_float(__float_as_uint(x) | 0x400000u) : x;
}
__device__ __forceinline__ double hlo_narrow_widen_double(float x) {
  if (!isnan(x)) return (double)x;
  const uint32_t u = __float_as_uint(x);
  return __longlong_as_double(
      (long long)(((uint64_t)(u >> 31) << 63) | 0x7ff0000000000000ull | ((uint64_t)(u & 0x7fffffu) << 29)));
}

// An integer as a double rounded to odd: exact below 2^53, else the dropped
// bits folded into the last kept one, so that rounding it once more to a
// narrow format is correct.
__device__ __forceinline__ double hlo_u64_to_double_odd(uint64_t u) {
  if (u < (1ull << 53)) return (double)u;
  const int shift = 64 - __clzll((long long)u) - 53;
  uint64_t kept = u >> shift;
  if (u & ((1ull << shift) - 1ull)) kept |= 1ull;
  return ldexp((double)kept, shift);
}
__device__ __forceinline__ double hlo_i64_to_double_odd(int64_t s) {
  const double d = hlo_u64_to_double_odd(s < 0 ? 0ull - (uint64_t)s : (uint64_t)s);
  return s < 0 ? -d : d;
}

// TOTALORDER keys on the stored bits (the FNUZ NaN, "-0", below everything).
template <typename F> __device__ __forceinline__ uint32_t hlo_narrow_total_order_key(float x) {
  const uint32_t bits = hlo_narrow_bits<F>(x);
  if (!F::kSigned) return bits;
  const uint32_t sign = 1u << (F::kExp + F::kMan), mask = (sign << 1) - 1u;
  const uint32_t key = (bits & sign) ? (~bits & mask) : (bits | sign);
  if (F::kNanNegZero) return bits == sign ? 0u : 1u + key;
  return key;
}

// next_after by stepping the stored bits.
template <typename F> __device__ inline float hlo_narrow_next_after(float x, float y) {
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return y;
  uint32_t b = hlo_narrow_bits<F>(x);
  if (!F::kSigned) {
    b = y > x ? b + 1u : b - 1u;  // unsigned formats order like their bits
  } else if (x == 0.0f) {
    b = 1u | (signbit(y) ? F::kSignBit : 0u);
  } else {
    b = ((y > x) == (x > 0.0f)) ? b + 1u : b - 1u;
    if (F::kNanNegZero && b == F::kSignBit) b = 0u;
  }
  return hlo_narrow_to_float<F>(b & 0xffu);
}
)PRELUDE";

const E kNarrowTypes[] = {E::kF8E3M4, E::kF8E4M3, E::kF8E4M3FN, E::kF8E4M3FNUZ, E::kF8E4M3B11FNUZ,
                          E::kF8E5M2, E::kF8E5M2FNUZ, E::kF8E8M0FNU};

const char* Bool(bool b) { return b ? "true" : "false"; }

// "typedef hlo_narrow_format<4, 3, 7, ...> hlo_f8e4m3fn;" for each format.
std::string FormatTypedefs() {
  std::string s = "\n// The formats, from ir::FloatFormatOf.\n";
  for (E t : kNarrowTypes) {
    const ir::FloatFormat f = *ir::FloatFormatOf(t);
    s += "typedef hlo_narrow_format<" + std::to_string(f.exponent_bits) + ", " + std::to_string(f.mantissa_bits) +
         ", " + std::to_string(f.bias) + ", " + Bool(f.has_inf) + ", " + Bool(f.has_nan) + ", " +
         Bool(f.nan_is_all_ones_only) + ", " + Bool(f.unsigned_zero_nan) + ", " + Bool(f.has_sign) + "> " +
         NarrowFormatName(t) + ";\n";
  }
  return s;
}

}  // namespace

bool IsNarrowFormat(E t) {
  for (E n : kNarrowTypes) {
    if (n == t) return true;
  }
  return false;
}

std::string NarrowFormatName(E t) {
  std::string name = "hlo_";
  for (char c : ir::ElementTypeName(t)) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

const std::string& NarrowFloatPrelude() {
  static const std::string* const prelude = new std::string(std::string(kNarrowHelpers) + FormatTypedefs());
  return *prelude;
}

}  // namespace hlograph::gpu::elemental

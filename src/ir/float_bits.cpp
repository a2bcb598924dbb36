#include "ir/float_bits.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace hlograph::ir {
namespace {

uint64_t Mask(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

double DecodeNarrow(uint64_t bits, const FloatFormat& f) {
  const int e_bits = f.exponent_bits, m_bits = f.mantissa_bits;
  const bool neg = f.has_sign && ((bits >> (e_bits + m_bits)) & 1);
  const uint64_t e = (bits >> m_bits) & Mask(e_bits);
  const uint64_t m = bits & Mask(m_bits);
  const uint64_t e_max = Mask(e_bits);
  // A NaN keeps its sign and payload (mantissa at the top of the double's),
  // so that total-order comparisons on the decoded value match the bits'.
  auto nan = [&](uint64_t payload) {
    uint64_t d = (uint64_t{neg} << 63) | (0x7FFull << 52) | (m_bits > 0 ? payload << (52 - m_bits) : 0);
    if ((d & Mask(52)) == 0) d |= 1ull << 51;
    double r;
    std::memcpy(&r, &d, sizeof r);
    return r;
  };
  if (f.unsigned_zero_nan && neg && e == 0 && m == 0) return std::numeric_limits<double>::quiet_NaN();
  if (f.has_inf && e == e_max) return m == 0 ? (neg ? -INFINITY : INFINITY) : nan(m);
  if (f.nan_is_all_ones_only && e == e_max && m == Mask(m_bits)) return nan(m);
  double mag;
  if (m_bits == 0) {
    mag = std::ldexp(1.0, static_cast<int>(e) - f.bias);
  } else if (e == 0) {
    mag = std::ldexp(static_cast<double>(m), 1 - f.bias - m_bits);
  } else {
    mag = std::ldexp(static_cast<double>(m | (1ull << m_bits)), static_cast<int>(e) - f.bias - m_bits);
  }
  return neg ? -mag : mag;
}

uint64_t NanBits(const FloatFormat& f) {
  const int e_bits = f.exponent_bits, m_bits = f.mantissa_bits;
  if (f.unsigned_zero_nan) return 1ull << (e_bits + m_bits);
  if (f.nan_is_all_ones_only) return Mask(e_bits + m_bits);
  if (f.has_nan) return (Mask(e_bits) << m_bits) | (m_bits > 0 ? 1ull << (m_bits - 1) : 0);
  return 0;  // no NaN in the format (f4/f6): 0 is as good as anything
}

// The largest finite magnitude, as (exponent field, mantissa).
void MaxFinite(const FloatFormat& f, uint64_t* e, uint64_t* m) {
  const uint64_t e_max = Mask(f.exponent_bits);
  if (f.has_inf) {
    *e = e_max - 1;
    *m = Mask(f.mantissa_bits);
  } else if (f.nan_is_all_ones_only) {
    *e = e_max;
    *m = Mask(f.mantissa_bits) - (f.mantissa_bits > 0 ? 1 : 0);
    if (f.mantissa_bits == 0) *e = e_max - 1;
  } else {
    *e = e_max;
    *m = Mask(f.mantissa_bits);
  }
}

uint64_t EncodeNarrow(double x, const FloatFormat& f) {
  const int e_bits = f.exponent_bits, m_bits = f.mantissa_bits;
  const uint64_t sign_bit = f.has_sign ? (1ull << (e_bits + m_bits)) : 0;
  if (std::isnan(x)) return NanBits(f);
  const bool neg = std::signbit(x);
  if (neg && !f.has_sign) return NanBits(f);
  const uint64_t sign = neg ? sign_bit : 0;
  uint64_t max_e, max_m;
  MaxFinite(f, &max_e, &max_m);
  auto overflow = [&]() -> uint64_t {
    if (f.has_inf) return sign | (Mask(e_bits) << m_bits);
    if (f.has_nan) return NanBits(f);
    return sign | (max_e << m_bits) | max_m;  // saturate where nothing else exists
  };
  double a = std::fabs(x);
  if (std::isinf(a)) return overflow();
  if (a == 0) return f.unsigned_zero_nan ? 0 : sign;
  if (m_bits == 0) {  // powers of two only (E8M0): the nearer of the two around `a`
    int exp2_floor;
    double frac = std::frexp(a, &exp2_floor);  // a = frac * 2^exp2_floor, frac in [0.5, 1)
    int e2 = exp2_floor - 1;                     // 2^e2 <= a < 2^(e2+1)
    // a - 2^e2 against 2^(e2+1) - a, i.e. frac*2 - 1 against 2 - frac*2;
    // ties go to the even field.
    const double down = frac * 2 - 1, up = 2 - frac * 2;
    if (up < down || (up == down && ((e2 + f.bias) & 1))) ++e2;
    int64_t field = e2 + f.bias;
    if (field < 0) field = 0;
    if (static_cast<uint64_t>(field) > max_e) return overflow();
    return static_cast<uint64_t>(field);
  }
  int exp2;
  std::frexp(a, &exp2);  // a = frac * 2^exp2, frac in [0.5, 1)
  int e_unbiased = exp2 - 1;
  const int e_min = 1 - f.bias;
  bool subnormal = e_unbiased < e_min;
  int quantum_exp = (subnormal ? e_min : e_unbiased) - m_bits;
  double r = std::nearbyint(std::ldexp(a, -quantum_exp));  // ties to even
  uint64_t q = static_cast<uint64_t>(r);
  uint64_t e_field, m_field;
  if (subnormal) {
    if (q >= (1ull << m_bits)) {
      e_field = 1;
      m_field = q - (1ull << m_bits);
    } else {
      e_field = 0;
      m_field = q;
    }
  } else {
    if (q >= (2ull << m_bits)) {
      q >>= 1;
      ++e_unbiased;
    }
    e_field = static_cast<uint64_t>(e_unbiased + f.bias);
    m_field = q - (1ull << m_bits);
  }
  if (e_field > max_e || (e_field == max_e && m_field > max_m)) return overflow();
  if (f.unsigned_zero_nan && e_field == 0 && m_field == 0) return 0;
  return sign | (e_field << m_bits) | m_field;
}

}  // namespace

double FloatBitsToDouble(uint64_t bits, ElementType t) {
  if (t == ElementType::kF64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (t == ElementType::kF32) {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  auto fmt = FloatFormatOf(t);
  return fmt ? DecodeNarrow(bits, *fmt) : 0.0;
}

uint64_t DoubleToFloatBits(double value, ElementType t) {
  if (t == ElementType::kF64) {
    uint64_t b;
    std::memcpy(&b, &value, 8);
    return b;
  }
  if (t == ElementType::kF32) {
    float f = static_cast<float>(value);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  auto fmt = FloatFormatOf(t);
  return fmt ? EncodeNarrow(value, *fmt) : 0;
}

bool ParseFloatLiteral(std::string_view text, ElementType t, uint64_t* bits) {
  std::string s(text);
  if (s.empty()) return false;
  const char* begin = s.c_str();
  char* end = nullptr;
  if (t == ElementType::kF32) {
    float f = std::strtof(begin, &end);
    if (end != begin + s.size()) return false;
    uint32_t b;
    std::memcpy(&b, &f, 4);
    *bits = b;
    return true;
  }
  double d = std::strtod(begin, &end);
  if (end != begin + s.size()) return false;
  *bits = DoubleToFloatBits(d, t);
  return true;
}

}  // namespace hlograph::ir

#include "ir/printing_utils.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ir/float_bits.h"

namespace hlograph::ir {

std::string QuoteString(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "\"";
}

bool IsBareIdentifier(std::string_view s) {
  if (s.empty()) return false;
  if (!std::isalpha(static_cast<unsigned char>(s[0])) && s[0] != '_') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$' && c != '.') return false;
  }
  return true;
}

std::string SymbolName(std::string_view name) {
  return IsBareIdentifier(name) ? std::string(name) : QuoteString(name);
}

namespace {

// Just enough of an unsigned big integer for exact float-to-decimal
// conversion: multiply by small numbers, shift, divide by 10.
class BigUint {
 public:
  explicit BigUint(uint64_t v) {
    while (v) {
      limbs_.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
  }
  bool IsZero() const { return limbs_.empty(); }
  void MulSmall(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t& l : limbs_) {
      uint64_t p = uint64_t{l} * m + carry;
      l = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
  }
  void ShiftLeft(int bits) {
    for (; bits >= 32; bits -= 32) limbs_.insert(limbs_.begin(), 0u);
    if (bits > 0) MulSmall(1u << bits);
  }
  uint32_t DivSmall(uint32_t d) {  // returns the remainder
    uint64_t rem = 0;
    for (size_t i = limbs_.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs_[i];
      limbs_[i] = static_cast<uint32_t>(cur / d);
      rem = cur % d;
    }
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
    return static_cast<uint32_t>(rem);
  }
  unsigned ActiveBits() const {
    if (limbs_.empty()) return 0;
    unsigned top = 32 - static_cast<unsigned>(__builtin_clz(limbs_.back()));
    return static_cast<unsigned>(limbs_.size() - 1) * 32 + top;
  }

 private:
  std::vector<uint32_t> limbs_;
};

// Rounds a reversed digit buffer (least significant first) to `precision`
// digits, half up, as LLVM's APFloat does.
void AdjustDigits(std::string& digits, int& exp, unsigned precision) {
  const unsigned n = static_cast<unsigned>(digits.size());
  if (n <= precision) return;
  unsigned first = n - precision;
  if (digits[first - 1] < '5') {
    while (first < n && digits[first] == '0') ++first;
    exp += static_cast<int>(first);
    digits.erase(0, first);
    return;
  }
  for (unsigned i = first; i != n; ++i) {
    if (digits[i] == '9') {
      ++first;
    } else {
      ++digits[i];
      break;
    }
  }
  exp += static_cast<int>(first);
  if (first == n) {
    digits = "1";
    return;
  }
  digits.erase(0, first);
}

// APFloat::toString's algorithm: exact decimal digits of a finite nonzero
// value, cut to `format_precision` digits (0: enough to round-trip), laid
// out plainly or in scientific notation.
std::string ApFloatToString(uint64_t bits, ElementType t, unsigned format_precision, unsigned max_padding,
                            bool truncate_zero) {
  const FloatFormat f = *FloatFormatOf(t);
  const int m_bits = f.mantissa_bits;
  const bool negative = f.has_sign && ((bits >> (f.exponent_bits + m_bits)) & 1);
  const uint64_t e = (bits >> m_bits) & ((1ull << f.exponent_bits) - 1);
  const uint64_t m = bits & ((1ull << m_bits) - 1);
  const unsigned precision_bits = static_cast<unsigned>(m_bits + 1);
  std::string out = negative ? "-" : "";
  uint64_t significand;
  int exp;
  if (m_bits == 0) {
    significand = 1;
    exp = static_cast<int>(e) - f.bias;
  } else if (e == 0) {
    significand = m;
    exp = 1 - f.bias - m_bits;
  } else {
    significand = m | (1ull << m_bits);
    exp = static_cast<int>(e) - f.bias - m_bits;
  }
  if (significand == 0) {
    if (!max_padding) {
      if (truncate_zero) return out + "0.0E+0";
      return out + "0.0" + std::string(format_precision > 1 ? format_precision - 1 : 0, '0') + "e+00";
    }
    return out + "0";
  }
  if (!format_precision) format_precision = 2 + precision_bits * 59 / 196;
  const int trailing = __builtin_ctzll(significand);
  significand >>= trailing;
  exp += trailing;
  BigUint value(significand);
  if (exp > 0) {
    value.ShiftLeft(exp);
    exp = 0;
  } else if (exp < 0) {
    for (int i = 0; i < -exp; ++i) value.MulSmall(5);  // N * 2^-e == N * 5^e * 10^-e
  }
  // First a coarse cut in binary (a truncating division), then digits.
  const unsigned active = value.ActiveBits();
  const unsigned bits_required = (format_precision * 196 + 58) / 59;
  if (active > bits_required) {
    unsigned tens = (active - bits_required) * 59 / 196;
    exp += static_cast<int>(tens);
    for (unsigned i = 0; i < tens; ++i) value.DivSmall(10);
  }
  std::string digits;  // least significant first
  bool in_trail = true;
  while (!value.IsZero()) {
    uint32_t d = value.DivSmall(10);
    if (in_trail && d == 0) {
      ++exp;
    } else {
      digits.push_back(static_cast<char>('0' + d));
      in_trail = false;
    }
  }
  AdjustDigits(digits, exp, format_precision);
  const unsigned n = static_cast<unsigned>(digits.size());
  bool scientific;
  if (!max_padding) {
    scientific = true;
  } else if (exp >= 0) {
    scientific = static_cast<unsigned>(exp) > max_padding || n + static_cast<unsigned>(exp) > format_precision;
  } else {
    int msd = exp + static_cast<int>(n - 1);
    scientific = msd < 0 && static_cast<unsigned>(-msd) > max_padding;
  }
  if (scientific) {
    exp += static_cast<int>(n - 1);
    out += digits[n - 1];
    out += '.';
    if (n == 1 && truncate_zero) {
      out += '0';
    } else {
      for (unsigned i = 1; i != n; ++i) out += digits[n - 1 - i];
    }
    if (!truncate_zero && format_precision > n - 1) out.append(format_precision - n + 1, '0');
    out += truncate_zero ? 'E' : 'e';
    out += exp >= 0 ? '+' : '-';
    std::string e_digits = std::to_string(exp < 0 ? -exp : exp);
    if (!truncate_zero && e_digits.size() < 2) e_digits = "0" + e_digits;
    return out + e_digits;
  }
  if (exp >= 0) {
    for (unsigned i = 0; i != n; ++i) out += digits[n - 1 - i];
    return out + std::string(static_cast<size_t>(exp), '0');
  }
  const int whole = exp + static_cast<int>(n);
  unsigned i = 0;
  if (whole > 0) {
    for (; i != static_cast<unsigned>(whole); ++i) out += digits[n - i - 1];
    out += '.';
  } else {
    out += "0.";
    out.append(static_cast<size_t>(-whole), '0');
  }
  for (; i != n; ++i) out += digits[n - i - 1];
  return out;
}

}  // namespace

std::string FormatFloatBits(uint64_t bits, ElementType t) {
  // MLIR's rule: six-digit scientific notation when it reads back exactly,
  // else the shortest round-tripping form, else the bits in hex (NaN, inf).
  const double v = FloatBitsToDouble(bits, t);
  if (std::isfinite(v) && FloatFormatOf(t)) {
    std::string s = ApFloatToString(bits, t, 6, 0, false);
    uint64_t back = 0;
    if (ParseFloatLiteral(s, t, &back) && back == bits) return s;
    s = ApFloatToString(bits, t, 0, 3, true);
    if (s.find('.') != std::string::npos && ParseFloatLiteral(s, t, &back) && back == bits) return s;
  }
  char hex[24];
  std::snprintf(hex, sizeof(hex), "0x%llX", static_cast<unsigned long long>(bits));
  return hex;
}

}  // namespace hlograph::ir

// The elementwise ops whose result element type differs from their
// operands' (convert, bitcast_convert, compare) and reduce_precision, with
// the CPU interpreter's rules (src/backends/cpu/kernels/elementwise*.cpp).
#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/gpu/codegen/elemental_internal.h"
#include "ir/attribute.h"

namespace hlograph::gpu::elemental {
namespace {

using E = ir::ElementType;

std::string Cast(E t, const std::string& x) { return "((" + CType(t) + ")" + x + ")"; }

// `x`, an integer or bool of type `from`, as `to` (a float).
std::string IntToFloat(E from, E to, const std::string& x) {
  if (IsNarrowFormat(to)) {
    // Through a double rounded to odd, so that rounding once more is exact.
    const std::string odd =
        ir::IsUnsignedInteger(from) ? "hlo_u64_to_double_odd((uint64_t)" : "hlo_i64_to_double_odd((int64_t)";
    return "hlo_narrow_round<" + NarrowFormatName(to) + ">(" + odd + x + "))";
  }
  switch (to) {
    case E::kF32:
    case E::kF64: return Cast(to, x);  // one rounding from the integer's value
    // Correctly rounded: exact in double below 2^53, infinity above 2^17.
    case E::kF16: return "hlo_f16_from_double((double)" + x + ")";
    // Through f32, as XLA emits it (and the interpreter matches).
    default: return from == E::kI1 ? "((float)" + x + ")" : "hlo_round_bf16((float)" + x + ")";
  }
}

std::string FloatToFloat(E from, E to, const std::string& x) {
  const bool from_float = from != E::kF64;  // f32, f16, bf16, f8 compute in float
  // To f8: one rounding from the exact value (any float is exact in double).
  if (IsNarrowFormat(to)) return "hlo_narrow_round<" + NarrowFormatName(to) + ">(" + x + ")";
  // From f8 to f32/f64 as the interpreter widens (NaN payloads included).
  if (IsNarrowFormat(from) && to == E::kF32) return "hlo_narrow_widen_float(" + x + ")";
  if (IsNarrowFormat(from) && to == E::kF64) return "hlo_narrow_widen_double(" + x + ")";
  switch (to) {
    case E::kF32: return from_float ? x : "((float)" + x + ")";
    case E::kF64: return "((double)" + x + ")";
    case E::kF16:
      // f64 -> f16 rounds once (cvt.rn.f16.f64), not through f32.
      if (from == E::kF64) return "hlo_f16_from_double(" + x + ")";
      return "hlo_round_f16(" + x + ")";  // exact from f16, rounded from f32/bf16
    default:  // bf16: f64 goes through f32 as in XLA and the interpreter
      if (from == E::kF64) return "hlo_round_bf16((float)" + x + ")";
      return "hlo_round_bf16(" + x + ")";
  }
}

std::string UnsignedOf(int bits) {
  switch (bits) {
    case 8: return "uint8_t";
    case 16: return "uint16_t";
    case 32: return "uint32_t";
    default: return "uint64_t";
  }
}

// The bits of `x` (compute type of `t`) as an unsigned integer of t's width.
std::string BitsOf(E t, const std::string& x) {
  switch (t) {
    case E::kF32: return "__float_as_uint(" + x + ")";
    case E::kF64: return "((uint64_t)__double_as_longlong(" + x + "))";
    case E::kF16: return "hlo_f16_bits(" + x + ")";
    case E::kBF16: return "hlo_bf16_bits(" + x + ")";
    case E::kC64: return "hlo_c64_bits(" + x + ")";
    default:
      if (IsNarrowFormat(t)) return "hlo_narrow_bits<" + NarrowFormatName(t) + ">(" + x + ")";
      return "((" + UnsignedOf(ir::BitWidth(t)) + ")" + x + ")";
  }
}

// The compute-type value of `t` whose bits are `b` (an unsigned integer of
// t's width).
std::string FromBits(E t, const std::string& b) {
  switch (t) {
    case E::kF32: return "__uint_as_float(" + b + ")";
    case E::kF64: return "__longlong_as_double((long long)" + b + ")";
    case E::kF16: return "hlo_f16_from_bits(" + b + ")";
    case E::kBF16: return "hlo_bf16_from_bits(" + b + ")";
    case E::kC64: return "hlo_c64_from_bits(" + b + ")";
    default:
      if (IsNarrowFormat(t)) return "hlo_narrow_to_float<" + NarrowFormatName(t) + ">(" + b + ")";
      return Cast(t, b);
  }
}

std::string EnumValue(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::EnumAttr>();
  return a ? a->value : std::string();
}

}  // namespace

std::string Convert(E from, E to, const std::string& x) {
  if (from == to) return x;
  const Class fc = ClassOf(from), tc = ClassOf(to);
  // complex -> complex converts both parts; complex -> real keeps the real
  // part (converted by its own rules); real -> complex has a zero imaginary part.
  if (fc == Class::kComplex && tc == Class::kComplex) {
    return "hlo_cconvert<" + CType(ir::ComplexPart(to)) + ">(" + x + ")";
  }
  if (fc == Class::kComplex) return Convert(ir::ComplexPart(from), to, "(" + x + ").re");
  if (tc == Class::kComplex) {
    const E part = ir::ComplexPart(to);
    return "hlo_cplx<" + CType(part) + ">(" + Convert(from, part, x) + ", " + (part == E::kF64 ? "0.0" : "0.0f") + ")";
  }
  if (tc == Class::kBool) return "(" + x + " != 0)";  // NaN is true
  if (fc == Class::kFloat) {
    if (tc == Class::kFloat) return FloatToFloat(from, to, x);
    // Truncate toward zero, saturate, NaN -> 0.
    const std::string fn = tc == Class::kSigned ? "hlo_float_to_signed" : "hlo_float_to_unsigned";
    return Cast(to, fn + "<" + CType(from) + ">(" + x + ", " + std::to_string(ir::BitWidth(to)) + ")");
  }
  // From bool or an integer.
  if (tc == Class::kFloat) return IntToFloat(from, to, x);
  return Cast(to, x);  // integers wrap (C++ conversions are modular); bool is 0/1
}

StatusOr<std::string> ConvertExpr(const OpView& v) { return Convert(v.in[0], v.out, v.arg(0)); }

StatusOr<std::string> BitcastConvertExpr(const OpView& v) {
  const E from = v.in[0], to = v.out;
  if (ir::BitWidth(from) != ir::BitWidth(to)) {
    return v.Error("between element types of different widths (" + TypeName(from) + " -> " + TypeName(to) +
                   ") is not elementwise");
  }
  if (from == to) return v.arg(0);
  return FromBits(to, BitsOf(from, v.arg(0)));
}

StatusOr<std::string> ReducePrecisionExpr(const OpView& v) {
  const E t = v.in[0];
  if (ClassOf(t) != Class::kFloat) return v.NotDefinedFor(t);
  if (v.out != t) return v.Error("expects the result element type to match the operand's");
  const auto* e_attr = v.op.attr("exponent_bits").as<ir::IntegerAttr>();
  const auto* m_attr = v.op.attr("mantissa_bits").as<ir::IntegerAttr>();
  const int64_t exponent_bits = e_attr ? e_attr->value : 64;
  const int64_t mantissa_bits = m_attr ? m_attr->value : 64;
  if (exponent_bits < 1 || mantissa_bits < 0) return v.Error("expects exponent_bits >= 1 and mantissa_bits >= 0");
  int src_e = 8, src_m = 23;
  std::string fn = "hlo_reduce_precision";
  if (t == E::kF64) {
    src_e = 11, src_m = 52;
  } else if (t == E::kF16) {
    src_e = 5, src_m = 10, fn = "hlo_reduce_precision_f16";
  } else if (t == E::kBF16) {
    fn = "hlo_reduce_precision_bf16";
  } else if (IsNarrowFormat(t) && ir::FloatFormatOf(t)->exponent_bits <= 5) {
    // f8 is widened as XLA does: to f16 when its exponents fit, else to f32.
    src_e = 5, src_m = 10, fn = "hlo_reduce_precision_f16";
  }
  // Nothing to drop: the algorithm returns its input.
  if (exponent_bits >= src_e && mantissa_bits >= src_m) return v.arg(0);
  const int64_t e = std::min<int64_t>(exponent_bits, src_e), m = std::min<int64_t>(mantissa_bits, src_m);
  const std::string r = fn + "(" + v.arg(0) + ", " + std::to_string(e) + ", " + std::to_string(m) + ")";
  return IsNarrowFormat(t) ? "hlo_narrow_round<" + NarrowFormatName(t) + ">(" + r + ")" : r;
}

StatusOr<std::string> CompareExpr(const OpView& v) {
  const E t = v.in[0];
  if (v.in[1] != t || v.out != E::kI1) return v.Error("expects operands of one element type and an i1 result");
  const std::string dir = EnumValue(v.op, "comparison_direction");
  std::string cmp;
  if (dir == "EQ") cmp = "==";
  else if (dir == "NE") cmp = "!=";
  else if (dir == "GE") cmp = ">=";
  else if (dir == "GT") cmp = ">";
  else if (dir == "LE") cmp = "<=";
  else if (dir == "LT") cmp = "<";
  else return v.Error("has an unknown comparison_direction '" + dir + "'");
  const std::string compare_type = EnumValue(v.op, "compare_type");
  if (compare_type == "TOTALORDER") {
    if (ClassOf(t) != Class::kFloat) return v.Error("expects TOTALORDER only for float operands");
    // f8: keys of the stored bits, with the FNUZ formats' NaN at the bottom.
    if (IsNarrowFormat(t)) {
      const std::string key = "hlo_narrow_total_order_key<" + NarrowFormatName(t) + ">";
      return "(" + key + "(" + v.arg(0) + ") " + cmp + " " + key + "(" + v.arg(1) + "))";
    }
    // Keys of f16/bf16 values computed on their float widening, which
    // preserves the order (and NaNs' signs).
    return "(hlo_total_order_key(" + v.arg(0) + ") " + cmp + " hlo_total_order_key(" + v.arg(1) + "))";
  }
  // Complex: EQ/NE on both parts, the orderings lexicographic.
  if (ClassOf(t) == Class::kComplex) {
    const char* fn = dir == "EQ"   ? "hlo_ceq"
                     : dir == "NE" ? "hlo_cne"
                     : dir == "GE" ? "hlo_cge"
                     : dir == "GT" ? "hlo_cgt"
                     : dir == "LE" ? "hlo_cle"
                                   : "hlo_clt";
    return std::string(fn) + "(" + v.arg(0) + ", " + v.arg(1) + ")";
  }
  // FLOAT (IEEE: NaN unordered), SIGNED, UNSIGNED: the element type's own
  // order, as the interpreter.
  return "(" + v.arg(0) + " " + cmp + " " + v.arg(1) + ")";
}

}  // namespace hlograph::gpu::elemental

namespace hlograph::gpu {

std::string BitsExpr(ir::ElementType t, const std::string& x) { return elemental::BitsOf(t, x); }
std::string FromBitsExpr(ir::ElementType t, const std::string& bits) { return elemental::FromBits(t, bits); }
std::string UnsignedType(int bits) { return elemental::UnsignedOf(bits); }

}  // namespace hlograph::gpu

#include "backends/gpu/plan/elementwise_support.h"

namespace hlograph::gpu {

using E = ir::ElementType;

bool IsSupportedElementType(E t) {
  switch (t) {
    case E::kI1:
    case E::kI8:
    case E::kI16:
    case E::kI32:
    case E::kI64:
    case E::kU8:
    case E::kU16:
    case E::kU32:
    case E::kU64:
    case E::kF16:
    case E::kBF16:
    case E::kF32:
    case E::kF64:
    case E::kC64:
    case E::kC128:
    case E::kF8E3M4:
    case E::kF8E4M3:
    case E::kF8E4M3FN:
    case E::kF8E4M3FNUZ:
    case E::kF8E4M3B11FNUZ:
    case E::kF8E5M2:
    case E::kF8E5M2FNUZ:
    case E::kF8E8M0FNU: return true;
    default: return false;
  }
}

const std::set<std::string>& ElementwiseOpNames() {
  static const std::set<std::string>* const names = new std::set<std::string>{
      // Arithmetic, bits, comparisons and conversions.
      "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.bitcast_convert",
      "stablehlo.cbrt", "stablehlo.clamp", "stablehlo.compare", "stablehlo.complex", "stablehlo.convert",
      "stablehlo.count_leading_zeros", "stablehlo.divide", "stablehlo.imag", "stablehlo.is_finite",
      "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate",
      "stablehlo.not", "stablehlo.or", "stablehlo.popcnt", "stablehlo.power", "stablehlo.real",
      "stablehlo.reduce_precision", "stablehlo.remainder", "stablehlo.rsqrt", "stablehlo.select",
      "stablehlo.shift_left", "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical", "stablehlo.sign",
      "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.xor",
      // Math functions, and roundings exact on their operand.
      "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one",
      "stablehlo.sine", "stablehlo.cosine", "stablehlo.tan", "stablehlo.tanh", "stablehlo.ceil", "stablehlo.floor",
      "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
      // CHLO.
      "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan", "chlo.atanh", "chlo.bessel_i1e",
      "chlo.conj", "chlo.cosh",
      "chlo.digamma", "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf", "chlo.is_neg_inf", "chlo.is_pos_inf",
      "chlo.lgamma", "chlo.mulhi", "chlo.next_after", "chlo.polygamma", "chlo.sinh", "chlo.square", "chlo.tan",
      "chlo.zeta"};
  return *names;
}

bool HasComplexTranslation(const std::string& name) {
  static const std::set<std::string>* const names = new std::set<std::string>{
      "stablehlo.abs", "stablehlo.add", "stablehlo.bitcast_convert", "stablehlo.cbrt", "stablehlo.clamp",
      "stablehlo.compare", "stablehlo.convert", "stablehlo.cosine", "stablehlo.divide", "stablehlo.exponential",
      "stablehlo.exponential_minus_one", "stablehlo.imag", "stablehlo.log", "stablehlo.log_plus_one",
      "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate",
      "stablehlo.power", "stablehlo.real", "stablehlo.rsqrt", "stablehlo.select", "stablehlo.sign", "stablehlo.sine",
      "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh", "chlo.conj", "chlo.cosh",
      "chlo.sinh", "chlo.square", "chlo.tan"};
  return names->count(name) > 0;
}

bool IsElementwise(const ir::Operation& op) {
  const std::string& name = op.name();
  if (!ElementwiseOpNames().count(name)) return false;
  // Complex ops without a translation yet (asin, atan2, ...) are refused
  // when the program is planned, not when its kernels are emitted.
  if (op.num_operands() > 0 && op.operand(0)->type().IsTensor() && ir::IsComplex(op.operand(0)->type().element()) &&
      !HasComplexTranslation(name)) {
    return false;
  }
  if (name == "stablehlo.bitcast_convert") {
    if (op.num_operands() != 1 || op.num_results() != 1 || !op.operand(0)->type().IsTensor() ||
        !op.result(0)->type().IsTensor()) {
      return false;
    }
    return ir::BitWidth(op.operand(0)->type().element()) == ir::BitWidth(op.result(0)->type().element());
  }
  return true;
}

}  // namespace hlograph::gpu

// Elementwise ops: the unary/binary math of StableHLO and CHLO, conversions,
// select, clamp, compare and reduce_precision.
#include <algorithm>
#include <string_view>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// Ops without a declaration in elementwise_ops.def keep their type and
// accept any element type.
constexpr ElementwiseOp kDefaultRule = {OpId::kNumOps, "", 1, kAnyClass, ResultRule::kSame, 0};

const ElementwiseOp& FindRule(const Operation& op) {
  const ElementwiseOp* declared = FindElementwiseOp(op.id());
  return declared != nullptr ? *declared : kDefaultRule;
}

// bitcast_convert: equal widths keep the shape; a narrower result gains a
// trailing dimension of the width ratio; a wider one consumes it.
Status CheckBitcast(const Type& operand, const Type& result) {
  if (IsComplex(operand.element()) != IsComplex(result.element())) {
    return Err("expects the operand and the result to be both complex or both not complex, got ", operand, " and ",
               result);
  }
  const int from = BitWidth(operand.element());
  const int to = BitWidth(result.element());
  std::vector<int64_t> want = operand.shape();
  if (to < from || to > from) {
    const int wide = std::max(from, to);
    const int narrow = std::min(from, to);
    if (wide % narrow != 0) {
      return Err("expects element bit widths that divide each other, got ", operand, " and ", result);
    }
    const int64_t ratio = wide / narrow;
    if (to < from) {
      want.push_back(ratio);
    } else {
      if (want.empty() || want.back() != ratio) {
        return Err("expects the operand's last dimension to be ", ratio,
                   " (the ratio of the result's to the operand's bit width), got ", operand);
      }
      want.pop_back();
    }
  }
  return ExpectShape(result, want, "the result");
}

Status CheckResult(ResultRule rule, const Type& operand, const Type& result) {
  switch (rule) {
    case ResultRule::kSame:
      return ExpectType(result, operand, "the result");
    case ResultRule::kPredicate:
      return ExpectType(result, operand.WithElement(ElementType::kI1), "the result");
    case ResultRule::kRealPart: {
      if (operand.IsQuantized()) return ExpectType(result, operand, "the result");
      const ElementType e = operand.element();
      return ExpectType(result, operand.WithElement(IsComplex(e) ? ComplexPart(e) : e), "the result");
    }
    case ResultRule::kComplexOf: {
      std::optional<ElementType> c = ComplexOf(operand.element());
      if (!c) return Err("expects operands of element type f32 or f64, got ", operand);
      return ExpectType(result, operand.WithElement(*c), "the result");
    }
    case ResultRule::kConvert:
      return ExpectSameShape(operand, "the operand", result, "the result");
    case ResultRule::kBitcast:
      return CheckBitcast(operand, result);
  }
  return Status::Ok();
}

// `t` is a scalar, or has the shape of `ref` (select's pred, clamp's bounds).
Status ExpectScalarOrSameShape(const Type& t, std::string_view what, const Type& ref, std::string_view ref_what) {
  HLOGRAPH_TRY(ExpectTensor(t, what));
  if (t.rank() == 0) return Status::Ok();
  if (t.shape() != ref.shape()) {
    return Err("expects ", what, " to be a scalar or to have the shape of ", ref_what, ", got ", t, " and ", ref);
  }
  return Status::Ok();
}

// The compare_type values allowed for an element type.
std::vector<std::string_view> CompareTypesFor(ElementType e) {
  if (IsSignedInteger(e)) return {"SIGNED"};
  if (IsUnsignedInteger(e) || IsBool(e)) return {"UNSIGNED"};
  if (IsFloat(e)) return {"FLOAT", "TOTALORDER"};
  return {"FLOAT"};
}

}  // namespace

Status Elementwise(const Operation& op) {
  const ElementwiseOp& rule = FindRule(op);
  const std::vector<Type> operands = op.OperandTypes();
  if (operands.empty()) return Err("expects at least one operand");
  if (op.num_results() != 1) return Err("expects one result, got ", op.num_results());
  HLOGRAPH_TRY(ExpectTensors(operands, "operand"));
  HLOGRAPH_TRY(ExpectAllSameType(operands, "operands"));
  for (const Type& t : operands) {
    if (t.IsQuantized() != operands[0].IsQuantized()) {
      return Err("expects the operands to be all quantized or all not quantized, got ", operands[0], " and ", t);
    }
  }
  const Type& operand = operands[0];
  HLOGRAPH_TRY(ExpectElementClass(operand, rule.operand_classes, operands.size() == 1 ? "the operand" : "each operand"));
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(result, "the result"));
  HLOGRAPH_TRY(CheckResult(rule.result, operand, result));
  if (op.id() == OpId::kUniformQuantize) {
    // (C1) a quantized result whose expressed type is the operand's
    // element type (a float operand) or expressed type (requantization).
    if (!result.IsQuantized()) return Err("expects the result to be a tensor of a quantized type, got ", result);
    if (result.quant()->expressed != operand.ExpressedElement()) {
      return Err("expects the result's expressed type to be ", ElementTypeName(operand.ExpressedElement()),
                 " (the operand's ", operand.IsQuantized() ? "expressed type" : "element type", "), got ", result);
    }
  } else if (op.id() == OpId::kUniformDequantize) {
    // (C2) element_type(result) = expressed_type(operand).
    if (!operand.IsQuantized()) return Err("expects the operand to be a tensor of a quantized type, got ", operand);
    if (result.IsQuantized() || result.element() != operand.quant()->expressed) {
      return Err("expects the result to have element type ", ElementTypeName(operand.quant()->expressed),
                 " (the operand's expressed type), got ", result);
    }
  } else if (operand.IsQuantized() != result.IsQuantized() && rule.result != ResultRule::kBitcast &&
             rule.result != ResultRule::kPredicate) {
    return Err("expects the operand and the result to be both quantized or both not quantized, got ", operand,
               " and ", result);
  }
  return Status::Ok();
}

Status Select(const Operation& op) {
  const Type& pred = OperandType(op, 0);
  const Type& on_true = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectElement(pred, ElementType::kI1, "pred"));
  HLOGRAPH_TRY(ExpectTensor(on_true, "on_true"));
  HLOGRAPH_TRY(ExpectScalarOrSameShape(pred, "pred", on_true, "on_true"));
  HLOGRAPH_TRY(ExpectType(OperandType(op, 2), on_true, "on_false"));
  return ExpectType(ResultType(op, 0), on_true, "the result");
}

Status Clamp(const Operation& op) {
  const Type& min = OperandType(op, 0);
  const Type& operand = OperandType(op, 1);
  const Type& max = OperandType(op, 2);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectScalarOrSameShape(min, "min", operand, "the operand"));
  HLOGRAPH_TRY(ExpectScalarOrSameShape(max, "max", operand, "the operand"));
  HLOGRAPH_TRY(ExpectSameElement(min, "min", operand, "the operand"));
  HLOGRAPH_TRY(ExpectSameElement(max, "max", operand, "the operand"));
  return ExpectType(ResultType(op, 0), operand, "the result");
}

Status Compare(const Operation& op) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectSameElement(lhs, "lhs", rhs, "rhs"));
  HLOGRAPH_TRY(ExpectSameShape(lhs, "lhs", rhs, "rhs"));
  HLOGRAPH_TRY(ExpectType(ResultType(op, 0), lhs.WithElement(ElementType::kI1), "the result"));
  const std::string compare_type = EnumAttrValue(op, "compare_type");
  if (compare_type.empty() || compare_type == "NOTYPE") return Status::Ok();
  // Quantized operands compare as their expressed (float) values.
  const std::vector<std::string_view> allowed = CompareTypesFor(lhs.ExpressedElement());
  for (std::string_view a : allowed) {
    if (a == compare_type) return Status::Ok();
  }
  std::string allowed_text;
  for (size_t i = 0; i < allowed.size(); ++i) allowed_text += Str(i ? " or " : "", allowed[i]);
  return Err("expects compare_type ", allowed_text, " for element type ", ElementTypeName(lhs.ExpressedElement()), ", got ",
             compare_type);
}

Status ReducePrecision(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(operand, kFloatClass, "the operand"));
  HLOGRAPH_TRY(ExpectType(ResultType(op, 0), operand, "the result"));
  const IntegerAttr* exponent_bits = nullptr;
  const IntegerAttr* mantissa_bits = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "exponent_bits", exponent_bits));
  HLOGRAPH_TRY(RequireAttr(op, "mantissa_bits", mantissa_bits));
  if (exponent_bits->value < 1) return Err("expects exponent_bits to be at least 1, got ", exponent_bits->value);
  if (mantissa_bits->value < 0) return Err("expects mantissa_bits to be non-negative, got ", mantissa_bits->value);
  return Status::Ok();
}

}  // namespace hlograph::ir::verify

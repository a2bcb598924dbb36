// Constants, iota, tuples and tokens, random numbers, CHLO's top_k and the
// check dialect.
#include <string_view>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// A dense elements attribute stores one element (splat) or all of them.
Status ExpectConsistentStorage(const DenseElementsAttr& value) {
  if (!value.type.IsTensor()) return Err("expects value to have a tensor type, got ", value.type);
  const int64_t stored = value.NumStoredElements();
  std::optional<int64_t> bytes = CheckedMul(stored, DenseElementBytes(value.type.element()));
  if (!bytes || static_cast<uint64_t>(*bytes) != value.bytes.size()) {
    return Err("expects value to store ", stored, " element(s) of ", value.type, ", got ", value.bytes.size(),
               " bytes");
  }
  return Status::Ok();
}

// The integers of a constant operand, when `v` is produced by
// stablehlo.constant; null otherwise.
std::optional<std::vector<int64_t>> ConstantInts(const Value& v) {
  const Operation* def = v.defining_op();
  if (def == nullptr || def->id() != OpId::kConstant) return std::nullopt;
  const auto* value = AttrAs<DenseElementsAttr>(*def, "value");
  return value ? IntElements(*value) : std::nullopt;
}

// The number of state bits each rng_algorithm accepts (any for DEFAULT).
std::vector<int64_t> StateBitsFor(std::string_view algorithm) {
  if (algorithm == "THREE_FRY") return {128};
  if (algorithm == "PHILOX") return {128, 192};
  return {};
}

}  // namespace

Status Constant(const Operation& op) {
  const DenseElementsAttr* value = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "value", value));
  HLOGRAPH_TRY(ExpectConsistentStorage(*value));
  return ExpectType(ResultType(op, 0), value->type, "the result");
}

Status Iota(const Operation& op) {
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(result, kIntClass | kFloatClass | kComplexClass, "the result"));
  return ExpectIndexInRange(IntAttr(op, "iota_dimension").value_or(-1), 0, result.rank(), "iota_dimension");
}

Status Tuple(const Operation& op) {
  return ExpectType(ResultType(op, 0), Type::Tuple(op.OperandTypes()), "the result");
}

Status GetTupleElement(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  if (!operand.IsTuple()) return Err("expects the operand to be a tuple, got ", operand);
  const auto size = static_cast<int64_t>(operand.tuple_elements().size());
  const int64_t index = IntAttr(op, "index").value_or(-1);
  HLOGRAPH_TRY(ExpectIndexInRange(index, 0, size, "index"));
  return ExpectType(ResultType(op, 0), operand.tuple_elements()[static_cast<size_t>(index)], "the result");
}

Status AfterAll(const Operation& op) {
  for (size_t i = 0; i < op.num_operands(); ++i) {
    if (!OperandType(op, i).IsToken()) return Err("expects operand ", i, " to be a token, got ", OperandType(op, i));
  }
  return ExpectType(ResultType(op, 0), Type::Token(), "the result");
}

Status OptimizationBarrier(const Operation& op) {
  return ExpectTypes(op.ResultTypes(), op.OperandTypes(), "the results");
}

Status Rng(const Operation& op) {
  const Type& a = OperandType(op, 0);
  const Type& b = OperandType(op, 1);
  const Type& shape = OperandType(op, 2);
  const Type& result = ResultType(op, 0);
  const bool normal = EnumAttrValue(op, "rng_distribution") == "NORMAL";
  const uint8_t classes = normal ? uint8_t{kFloatClass} : uint8_t{kBoolClass | kIntClass | kFloatClass};
  HLOGRAPH_TRY(ExpectElementClass(result, classes, normal ? "the result of a NORMAL rng" : "the result"));
  HLOGRAPH_TRY(ExpectType(a, ScalarType(result.element()), "a"));
  HLOGRAPH_TRY(ExpectType(b, ScalarType(result.element()), "b"));
  HLOGRAPH_TRY(ExpectRank(shape, 1, "the shape operand"));
  HLOGRAPH_TRY(ExpectElementClass(shape, kIntClass, "the shape operand"));
  if (shape.dim(0) != result.rank()) {
    return Err("expects the shape operand to have ", result.rank(), " entries (the result's rank), got ", shape);
  }
  std::optional<std::vector<int64_t>> dims = ConstantInts(*op.operand(2));
  if (dims && *dims != result.shape()) {
    return Err("expects the result to have the shape ", *dims, " given by the shape operand, got ", result);
  }
  return Status::Ok();
}

Status RngBitGenerator(const Operation& op) {
  const Type& state = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectRank(state, 1, "the initial state"));
  if (state.element() != ElementType::kU64 && state.element() != ElementType::kU32) {
    return Err("expects the initial state to have element type ui64 or ui32, got ", state);
  }
  HLOGRAPH_TRY(ExpectType(ResultType(op, 0), state, "the output state"));
  HLOGRAPH_TRY(ExpectElementClass(ResultType(op, 1), kIntClass | kFloatClass, "the output"));
  const std::string algorithm = EnumAttrValue(op, "rng_algorithm");
  const std::vector<int64_t> allowed = StateBitsFor(algorithm);
  std::optional<int64_t> bits = CheckedMul(state.dim(0), BitWidth(state.element()));
  if (!allowed.empty() && (!bits || !Contains(allowed, *bits))) {
    return Err("expects a ", algorithm, " state of ", DimsStr(allowed), " bits, got ", state);
  }
  return Status::Ok();
}

Status TopK(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(operand, kIntClass | kFloatClass, "the operand"));
  HLOGRAPH_TRY(ExpectMinRank(operand, 1, "the operand"));
  const int64_t last = operand.dim(operand.rank() - 1);
  const int64_t k = IntAttr(op, "k").value_or(-1);
  if (k < 0 || k > last) return Err("expects k to be in [0, ", last, "] (the operand's last dimension), got ", k);
  std::vector<int64_t> shape = operand.shape();
  shape.back() = k;
  HLOGRAPH_TRY(ExpectType(ResultType(op, 0), operand.WithShape(shape), "the values"));
  return ExpectType(ResultType(op, 1), Type::Tensor(ElementType::kI32, shape), "the indices");
}

Status CheckCompare(const Operation& op) {
  HLOGRAPH_TRY(ExpectTensor(OperandType(op, 0), "the actual value"));
  HLOGRAPH_TRY(ExpectType(OperandType(op, 1), OperandType(op, 0), "the expected value (the actual value's type)"));
  const std::optional<int64_t> max_ulps = IntAttr(op, "max_ulp_difference");
  const int64_t min_ulps = IntAttr(op, "min_ulp_difference").value_or(0);
  if (max_ulps && *max_ulps < 0) return Err("expects max_ulp_difference to be non-negative, got ", *max_ulps);
  if (min_ulps < 0 || (max_ulps && min_ulps > *max_ulps)) {
    return Err("expects min_ulp_difference to be in [0, max_ulp_difference], got ", min_ulps);
  }
  return Status::Ok();
}

Status CheckCompareConst(const Operation& op) {
  const DenseElementsAttr* value = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "value", value));
  HLOGRAPH_TRY(ExpectConsistentStorage(*value));
  return ExpectType(OperandType(op, 0), value->type, "the operand (the type of value)");
}

}  // namespace hlograph::ir::verify

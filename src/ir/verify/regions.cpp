// Ops with regions: reductions, windows, sort, map and control flow.
#include <string_view>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// The operands of reduce and reduce_window: N inputs, then N init values.
struct InputsAndInits {
  std::vector<Type> inputs, inits;
  std::vector<Type> elements;  // scalars of the inputs' element types
};

// Splits the operands and checks (C1)-(C3) of reduce/reduce_window: inputs of
// one shape, init values that are scalars of the inputs' element types.
StatusOr<InputsAndInits> SplitInputsAndInits(const Operation& op) {
  const std::vector<Type> all = op.OperandTypes();
  if (all.empty() || all.size() % 2 != 0) {
    return Err("expects N inputs followed by N init values (an even, positive number of operands), got ", all.size());
  }
  InputsAndInits s;
  const auto half = static_cast<std::ptrdiff_t>(all.size() / 2);
  s.inputs.assign(all.begin(), all.begin() + half);
  s.inits.assign(all.begin() + half, all.end());
  HLOGRAPH_TRY(ExpectTensors(s.inputs, "input"));
  for (size_t k = 0; k < s.inputs.size(); ++k) {
    HLOGRAPH_TRY(ExpectSameShape(s.inputs[k], Str("input ", k), s.inputs[0], "input 0"));
    HLOGRAPH_TRY(ExpectType(s.inits[k], ScalarOf(s.inputs[k]), Str("init value ", k)));
    s.elements.push_back(ScalarOf(s.inputs[k]));
  }
  return s;
}

// Results of `elements`' types, all of `shape`.
Status ExpectResultsOfShape(const Operation& op, const std::vector<Type>& elements,
                            const std::vector<int64_t>& shape) {
  std::vector<Type> want;
  for (const Type& e : elements) want.push_back(e.WithShape(shape));
  return ExpectTypes(op.ResultTypes(), want, "the results");
}

// Window dims of reduce_window / select_and_scatter for an input of `rank`.
StatusOr<std::vector<WindowDim>> ReadWindows(const Operation& op, int64_t rank, bool has_dilations) {
  constexpr std::string_view kRank = "the input rank";
  HLOGRAPH_ASSIGN(const std::vector<int64_t> sizes, WindowAttr(op, "window_dimensions", rank, kRank));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> strides, WindowAttr(op, "window_strides", rank, kRank));
  std::vector<int64_t> base(sizes.size(), 1), dilations(sizes.size(), 1);
  if (has_dilations) {
    HLOGRAPH_ASSIGN(base, WindowAttr(op, "base_dilations", rank, kRank));
    HLOGRAPH_ASSIGN(dilations, WindowAttr(op, "window_dilations", rank, kRank));
  }
  HLOGRAPH_ASSIGN(const Padding padding, PaddingAttr(op, "padding", rank));
  std::vector<WindowDim> windows;
  for (size_t i = 0; i < sizes.size(); ++i) {
    windows.push_back({sizes[i], strides[i], padding[i].first, padding[i].second, base[i], dilations[i]});
  }
  return windows;
}

// Region `index` takes no arguments and returns `results` (if and case).
Status ExpectBranch(const Operation& op, size_t index, std::string_view what) {
  return ExpectRegionSignature(op, index, {}, op.ResultTypes(), what);
}

}  // namespace

Status Reduce(const Operation& op) {
  HLOGRAPH_ASSIGN(const InputsAndInits s, SplitInputsAndInits(op));
  const std::vector<int64_t> dims = I64ArrayAttr(op, "dimensions");
  HLOGRAPH_TRY(ExpectDimList(dims, s.inputs[0].rank(), "dimensions"));
  HLOGRAPH_TRY(ExpectResultsOfShape(op, s.elements, DropDims(s.inputs[0].shape(), dims)));
  return ExpectReducerRegion(op, 0, s.elements, "the body");
}

Status ReduceWindow(const Operation& op) {
  HLOGRAPH_ASSIGN(const InputsAndInits s, SplitInputsAndInits(op));
  HLOGRAPH_ASSIGN(const std::vector<WindowDim> windows, ReadWindows(op, s.inputs[0].rank(), /*has_dilations=*/true));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, WindowedShape(s.inputs[0].shape(), windows));
  HLOGRAPH_TRY(ExpectResultsOfShape(op, s.elements, shape));
  return ExpectReducerRegion(op, 0, s.elements, "the body");
}

Status SelectAndScatter(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& source = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectSameElement(source, "the source", operand, "the operand"));
  HLOGRAPH_TRY(ExpectType(OperandType(op, 2), ScalarOf(operand), "the init value"));
  HLOGRAPH_ASSIGN(const std::vector<WindowDim> windows, ReadWindows(op, operand.rank(), /*has_dilations=*/false));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, WindowedShape(operand.shape(), windows));
  HLOGRAPH_TRY(ExpectShape(source, shape, "the source (one element per window)"));
  const Type scalar = ScalarOf(operand);
  HLOGRAPH_TRY(ExpectRegionSignature(op, 0, {scalar, scalar}, {ScalarType(ElementType::kI1)}, "the select region"));
  HLOGRAPH_TRY(ExpectReducerRegion(op, 1, {ScalarOf(operand)}, "the scatter region"));
  return ExpectType(ResultType(op, 0), operand, "the result");
}

Status Sort(const Operation& op) {
  const std::vector<Type> inputs = op.OperandTypes();
  if (inputs.empty()) return Err("expects at least one input");
  HLOGRAPH_TRY(ExpectTensors(inputs, "input"));
  for (size_t k = 1; k < inputs.size(); ++k) {
    HLOGRAPH_TRY(ExpectSameShape(inputs[k], Str("input ", k), inputs[0], "input 0"));
  }
  HLOGRAPH_TRY(ExpectTypes(op.ResultTypes(), inputs, "the results"));
  const int64_t rank = inputs[0].rank();
  HLOGRAPH_TRY(ExpectIndexInRange(IntAttr(op, "dimension").value_or(-1), -rank, rank, "dimension"));
  std::vector<Type> args;
  for (const Type& t : inputs) args.insert(args.end(), 2, ScalarOf(t));
  return ExpectRegionSignature(op, 0, args, {ScalarType(ElementType::kI1)}, "the comparator");
}

Status Map(const Operation& op) {
  const std::vector<Type> inputs = op.OperandTypes();
  if (inputs.empty()) return Err("expects at least one input");
  HLOGRAPH_TRY(ExpectTensors(inputs, "input"));
  const Type& result = ResultType(op, 0);
  for (size_t k = 0; k < inputs.size(); ++k) {
    HLOGRAPH_TRY(ExpectSameShape(inputs[k], Str("input ", k), result, "the result"));
  }
  const std::vector<int64_t> dims = I64ArrayAttr(op, "dimensions");
  std::vector<int64_t> all_dims;
  for (int64_t d = 0; d < result.rank(); ++d) all_dims.push_back(d);
  if (dims != all_dims) return Err("expects dimensions to be ", all_dims, " (every dimension), got ", dims);
  return ExpectRegionSignature(op, 0, ScalarTypesOf(inputs), {ScalarOf(result)}, "the computation");
}

Status While(const Operation& op) {
  const std::vector<Type> operands = op.OperandTypes();
  HLOGRAPH_TRY(ExpectTypes(op.ResultTypes(), operands, "the results"));
  HLOGRAPH_TRY(ExpectRegionSignature(op, 0, operands, {ScalarType(ElementType::kI1)}, "the condition"));
  return ExpectRegionSignature(op, 1, operands, operands, "the body");
}

Status If(const Operation& op) {
  HLOGRAPH_TRY(ExpectType(OperandType(op, 0), ScalarType(ElementType::kI1), "pred"));
  HLOGRAPH_TRY(ExpectBranch(op, 0, "the true branch"));
  return ExpectBranch(op, 1, "the false branch");
}

Status Case(const Operation& op) {
  HLOGRAPH_TRY(ExpectType(OperandType(op, 0), ScalarType(ElementType::kI32), "the index"));
  if (op.num_regions() == 0) return Err("expects at least one branch");
  for (size_t i = 0; i < op.num_regions(); ++i) {
    HLOGRAPH_TRY(ExpectBranch(op, i, Str("branch ", i)));
  }
  return Status::Ok();
}

}  // namespace hlograph::ir::verify

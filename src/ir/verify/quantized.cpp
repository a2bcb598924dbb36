// Checks for quantized tensors (!quant.uniform element types), run on every
// op: before its own verifier, per-axis parameters fit the tensor and only
// ops that take per-axis tensors have them; after it, ops that move data
// keep the quantization parameters, ops with a body keep its element type,
// uniform_quantize/dequantize and the quantized forms of dot_general and
// convolution follow the StableHLO spec's constraints.
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

Status CheckPerAxis(const Type& t, const std::string& what) {
  if (t.IsTuple()) {
    for (size_t i = 0; i < t.tuple_elements().size(); ++i) {
      HLOGRAPH_TRY(CheckPerAxis(t.tuple_elements()[i], Str(what, " element ", i)));
    }
    return Status::Ok();
  }
  if (!t.IsQuantized() || !t.quant()->PerAxis()) return Status::Ok();
  const QuantParams& q = *t.quant();
  if (q.quantized_dimension >= t.rank()) {
    return Err("expects the quantization dimension of ", what, " to be less than its rank ", t.rank(), ", got ",
               static_cast<int64_t>(q.quantized_dimension), " in ", t);
  }
  const int64_t size = t.dim(q.quantized_dimension);
  if (static_cast<int64_t>(q.scales.size()) != size) {
    return Err("expects ", what, " to have ", size, " scales and zero points (the size of its quantization dimension ",
               static_cast<int64_t>(q.quantized_dimension), "), got ", static_cast<int64_t>(q.scales.size()), " in ",
               t);
  }
  return Status::Ok();
}

// The operands that carry data (not indices or predicates) of the ops that
// move elements without computing on them.
std::vector<size_t> DataOperands(const Operation& op) {
  const OpId n = op.id();
  if (n == OpId::kReshape || n == OpId::kTranspose || n == OpId::kBroadcastInDim ||
      n == OpId::kSlice || n == OpId::kReverse || n == OpId::kDynamicSlice ||
      n == OpId::kGather || n == OpId::kBroadcast) {
    return {0};
  }
  if (n == OpId::kPad || n == OpId::kDynamicUpdateSlice) return {0, 1};
  if (n == OpId::kSelect) return {1, 2};
  if (n == OpId::kConcatenate) {
    std::vector<size_t> all;
    for (size_t i = 0; i < op.num_operands(); ++i) all.push_back(i);
    return all;
  }
  return {};
}

// The same storage, expressed type, scales and zero points (the
// quantization dimension may move); a broadcast operand with one scale may
// give each result slice that scale.
Status ExpectSameQuantization(const Type& t, std::string_view what, const Type& result, bool broadcast) {
  if (t.IsQuantized() != result.IsQuantized()) {
    return Err("expects ", what, " and the result to be both quantized or both not quantized, got ", t, " and ",
               result);
  }
  if (!t.IsQuantized()) return Status::Ok();
  const QuantParams& a = *t.quant();
  const QuantParams& b = *result.quant();
  bool same = a.SameStorageAndExpressed(b) && a.PerAxis() == b.PerAxis();
  if (same && a.scales.size() == b.scales.size()) {
    same = a.scales == b.scales && a.zero_points == b.zero_points;
  } else if (same && broadcast && a.scales.size() == 1) {
    for (size_t i = 0; i < b.scales.size(); ++i) {
      same = same && b.scales[i] == a.scales[0] && b.zero_points[i] == a.zero_points[0];
    }
  } else {
    same = false;
  }
  if (!same) {
    return Err("expects ", what, " and the result to have the same quantization parameters, got ", t, " and ",
               result);
  }
  return Status::Ok();
}

// dot_general (C14-C20) and convolution: quantized lhs and rhs give a
// quantized result; a float lhs with a quantized rhs (hybrid) gives a float
// result of the rhs's expressed type.
Status CheckQuantizedContraction(const Operation& op, const std::vector<int64_t>& rhs_contracting,
                                 int64_t rhs_output_feature, int64_t result_feature) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  if (!lhs.IsQuantized() && !rhs.IsQuantized() && !result.IsQuantized()) return Status::Ok();
  if (lhs.IsQuantized() != (result.IsQuantized() && rhs.IsQuantized())) {
    return Err("expects a quantized lhs exactly when the rhs and the result are quantized, got ", lhs, ", ", rhs,
               " and ", result);
  }
  if (!rhs.IsQuantized()) return Err("expects the rhs to be quantized when the result is, got ", rhs);
  const QuantParams& r = *rhs.quant();
  // dot_general (C15): the rhs's zero points are 0 (convolution has no such rule).
  if (rhs_output_feature < 0) {
    for (int64_t z : r.zero_points) {
      if (z != 0) return Err("expects the rhs's zero points to be 0, got ", z, " in ", rhs);
    }
  }
  if (result_feature >= 0 && result.IsQuantized() && result.quant()->PerAxis() &&
      result.quant()->quantized_dimension != result_feature) {
    return Err("expects the result's quantization dimension to be its output feature dimension ", result_feature,
               ", got ", static_cast<int64_t>(result.quant()->quantized_dimension));
  }
  if (r.PerAxis()) {
    if (rhs_output_feature >= 0 && r.quantized_dimension != rhs_output_feature) {
      return Err("expects the rhs's quantization dimension to be its kernel output feature dimension ",
                 rhs_output_feature, ", got ", static_cast<int64_t>(r.quantized_dimension));
    }
    if (Contains(rhs_contracting, r.quantized_dimension)) {
      return Err("expects the rhs's quantization dimension ", static_cast<int64_t>(r.quantized_dimension),
                 " not to be one of its contracting dimensions ", rhs_contracting);
    }
  }
  if (lhs.IsQuantized()) {
    const QuantParams& l = *lhs.quant();
    if (l.PerAxis()) return Err("expects the lhs to be quantized per tensor, got ", lhs);
    if (l.storage != r.storage) {
      return Err("expects the lhs and the rhs to have the same storage type, got ", lhs, " and ", rhs);
    }
    if (l.expressed != r.expressed || result.quant()->expressed != r.expressed) {
      return Err("expects the lhs, the rhs and the result to have the same expressed type, got ", lhs, ", ", rhs,
                 " and ", result);
    }
    if (!r.PerAxis() && result.quant()->PerAxis()) {
      return Err("expects a result quantized per tensor when the rhs is, got ", result);
    }
    return Status::Ok();
  }
  if (lhs.element() != r.expressed || result.element() != r.expressed || result.IsQuantized()) {
    return Err("expects the lhs and the result of a hybrid op to have element type ", ElementTypeName(r.expressed),
               " (the rhs's expressed type), got ", lhs, " and ", result);
  }
  return Status::Ok();
}

// StableHLO ops that take per-axis quantized tensors (the others take
// integer, float, complex or per-tensor quantized ones).
bool TakesPerAxis(std::string_view name) {
  if (name.substr(0, 10) != "stablehlo.") return true;  // func, check, sdy, chlo: any tensor
  static constexpr std::string_view kOps[] = {
      "constant", "add", "infeed", "outfeed", "send", "recv", "if", "case", "while", "get_tuple_element", "tuple",
      "bitcast_convert", "broadcast", "broadcast_in_dim", "composite", "convolution", "dot", "dot_general",
      "get_dimension_size", "reshape", "transpose", "return", "uniform_quantize", "uniform_dequantize", "custom_call",
      "dynamic_broadcast_in_dim", "dynamic_reshape",
  };
  name.remove_prefix(10);
  return std::find(std::begin(kOps), std::end(kOps), name) != std::end(kOps);
}

bool IsPerAxis(const Type& t) { return t.IsQuantized() && t.quant()->PerAxis(); }

// broadcast_in_dim (C6) and reshape (C3) move the quantization dimension
// with the data.
Status CheckMovedQuantizationDimension(const Operation& op) {
  if (op.num_operands() < 1 || op.num_results() != 1) return Status::Ok();
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  if (!IsPerAxis(operand) || !IsPerAxis(result)) return Status::Ok();
  const int64_t from = operand.quant()->quantized_dimension;
  const int64_t to = result.quant()->quantized_dimension;
  if (from >= operand.rank() || to >= result.rank()) return Status::Ok();
  if (op.id() == OpId::kBroadcastInDim) {
    const std::vector<int64_t> dims = I64ArrayAttr(op, "broadcast_dimensions");
    if (from < static_cast<int64_t>(dims.size()) && dims[static_cast<size_t>(from)] != to) {
      return Err("expects the result's quantization dimension to be broadcast_dimensions[", from, "] = ",
                 dims[static_cast<size_t>(from)], ", got ", to);
    }
  } else if (op.id() == OpId::kReshape) {
    if (operand.dim(from) != result.dim(to)) {
      return Err("expects the quantization dimensions of the operand and the result to have the same size, got ",
                 operand, " and ", result);
    }
    int64_t before_operand = 1, before_result = 1;
    for (int64_t d = 0; d < from; ++d) before_operand *= operand.dim(d);
    for (int64_t d = 0; d < to; ++d) before_result *= result.dim(d);
    if (before_operand != before_result) {
      return Err("expects the product of the dimensions before the quantization dimension to match between the "
                 "operand and the result, got ", before_operand, " and ", before_result);
    }
  }
  return Status::Ok();
}

// Ops with a body that computes on their elements: the body's arguments
// have exactly the inputs' element types (scale and zero point included),
// and the spec gives the init values, updates, source and results that
// type too (reduce C2/C8, reduce_window C3/C16, scatter C6/C25,
// select_and_scatter C1/C3/C12, sort: the inputs' types). The ops' own
// verifiers compare quantized types by storage and expressed type only.
Status CheckBodyOpElements(const Operation& op) {
  struct Typed {
    const Type* type;
    std::string what;
  };
  std::vector<std::vector<Typed>> groups;  // each group shares one element type
  const OpId n = op.id();
  const size_t operands = op.num_operands();
  const size_t results = op.num_results();
  if ((n == OpId::kReduce || n == OpId::kReduceWindow) && operands == 2 * results) {
    for (size_t k = 0; k < results; ++k) {
      groups.push_back({{&OperandType(op, k), Str("input ", k)},
                        {&OperandType(op, results + k), Str("init value ", k)},
                        {&ResultType(op, k), Str("result ", k)}});
    }
  } else if (n == OpId::kScatter && operands == 2 * results + 1) {
    for (size_t k = 0; k < results; ++k) {
      groups.push_back({{&OperandType(op, k), Str("input ", k)},
                        {&OperandType(op, results + 1 + k), Str("update ", k)},
                        {&ResultType(op, k), Str("result ", k)}});
    }
  } else if (n == OpId::kSelectAndScatter && operands == 3 && results == 1) {
    groups.push_back({{&OperandType(op, 0), "the operand"},
                      {&OperandType(op, 1), "the source"},
                      {&OperandType(op, 2), "the init value"},
                      {&ResultType(op, 0), "the result"}});
  } else if (n == OpId::kSort && operands == results) {
    for (size_t k = 0; k < results; ++k) {
      groups.push_back({{&OperandType(op, k), Str("input ", k)}, {&ResultType(op, k), Str("result ", k)}});
    }
  }
  for (const std::vector<Typed>& g : groups) {
    const Type& first = *g[0].type;
    for (size_t i = 1; i < g.size(); ++i) {
      const Type& t = *g[i].type;
      if (!first.IsQuantized() && !t.IsQuantized()) continue;
      if (!first.IsTensor() || !t.IsTensor() || first.WithShape({}) != t.WithShape({})) {
        return Err("expects ", g[i].what, " to have the element type of ", g[0].what,
                   " (its body computes on that type, quantization parameters included), got ", t, " and ", first);
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status QuantizedParameters(const Operation& op) {
  for (size_t i = 0; i < op.num_operands(); ++i) HLOGRAPH_TRY(CheckPerAxis(OperandType(op, i), Str("operand ", i)));
  for (size_t i = 0; i < op.num_results(); ++i) HLOGRAPH_TRY(CheckPerAxis(ResultType(op, i), Str("result ", i)));
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (size_t i = 0; i < block->num_arguments(); ++i) {
        HLOGRAPH_TRY(CheckPerAxis(block->argument(i)->type(), Str("block argument ", i)));
      }
    }
  }
  if (TakesPerAxis(op.name())) return Status::Ok();
  for (size_t i = 0; i < op.num_operands(); ++i) {
    if (IsPerAxis(OperandType(op, i))) {
      return Err("does not take per-axis quantized tensors, got operand ", i, " of type ", OperandType(op, i));
    }
  }
  for (size_t i = 0; i < op.num_results(); ++i) {
    if (IsPerAxis(ResultType(op, i))) {
      return Err("does not take per-axis quantized tensors, got result ", i, " of type ", ResultType(op, i));
    }
  }
  return Status::Ok();
}

Status QuantizedTypes(const Operation& op) {
  bool any = false;
  for (size_t i = 0; i < op.num_operands(); ++i) any = any || OperandType(op, i).IsQuantized();
  for (size_t i = 0; i < op.num_results(); ++i) any = any || ResultType(op, i).IsQuantized();
  if (!any) return Status::Ok();
  HLOGRAPH_TRY(CheckMovedQuantizationDimension(op));
  HLOGRAPH_TRY(CheckBodyOpElements(op));
  const std::vector<size_t> data = DataOperands(op);
  const bool broadcast = op.id() == OpId::kBroadcastInDim;
  for (size_t i : data) {
    if (i >= op.num_operands() || op.num_results() != 1) break;
    HLOGRAPH_TRY(ExpectSameQuantization(OperandType(op, i), Str("operand ", i), ResultType(op, 0), broadcast));
  }
  if (op.id() == OpId::kDotGeneral && op.num_operands() == 2 && op.num_results() == 1) {
    const auto* dn = AttrAs<DotDimsAttr>(op, "dot_dimension_numbers");
    return CheckQuantizedContraction(op, dn ? dn->rhs_contracting : std::vector<int64_t>{}, -1, -1);
  }
  if (op.id() == OpId::kDot && op.num_operands() == 2 && op.num_results() == 1) {
    return CheckQuantizedContraction(op, {0}, -1, -1);
  }
  if (op.id() == OpId::kConvolution && op.num_operands() == 2 && op.num_results() == 1) {
    const auto* dn = AttrAs<ConvDimsAttr>(op, "dimension_numbers");
    if (!dn) return Status::Ok();
    return CheckQuantizedContraction(op, {dn->kernel_input_feature}, dn->kernel_output_feature, dn->output_feature);
  }
  return Status::Ok();
}

}  // namespace hlograph::ir::verify

// chlo.scan: N inputs of one shape scanned along `dimension` with M
// carries. The body takes a slice of each input (the input's shape
// without `dimension`) and the carries, and returns a slice of each output
// and the next carries; the results are the N outputs (the inputs' shape)
// and the M final carries.
#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// The [N, M] split of `name` (operandSegmentSizes or resultSegmentSizes).
StatusOr<std::pair<size_t, size_t>> Split(const Operation& op, const std::string& name, size_t total,
                                          std::string_view of_what) {
  const auto* split = AttrAs<DenseArrayAttr>(op, name);
  if (split == nullptr || split->type != ElementType::kI32 || split->values.size() != 2) {
    return Err("expects ", name, " to be array<i32: N, M> (", of_what == "operands" ? "inputs, then initial carries"
                                                                                    : "outputs, then final carries",
               ")");
  }
  const int64_t n = split->values[0], m = split->values[1];
  if (n < 1 || m < 0 || static_cast<uint64_t>(n) + static_cast<uint64_t>(m) != total) {
    return Err("expects ", name, " [", n, ", ", m, "] to split its ", total, " ", of_what,
               " into at least one input and any number of carries");
  }
  return std::pair<size_t, size_t>{static_cast<size_t>(n), static_cast<size_t>(m)};
}

}  // namespace

Status Scan(const Operation& op) {
  HLOGRAPH_ASSIGN(const auto operands, Split(op, "operandSegmentSizes", op.num_operands(), "operands"));
  HLOGRAPH_ASSIGN(const auto results, Split(op, "resultSegmentSizes", op.num_results(), "results"));
  const auto [n, m] = operands;
  if (results != operands) {
    return Err("expects one output per input and one final carry per initial carry (resultSegmentSizes [", n, ", ",
               m, "]), got [", results.first, ", ", results.second, "]");
  }
  const std::vector<Type> types = op.OperandTypes();
  HLOGRAPH_TRY(ExpectTensors(types, "operand"));
  const Type& first = types[0];
  HLOGRAPH_TRY(ExpectMinRank(first, 1, "input 0"));
  for (size_t k = 1; k < n; ++k) HLOGRAPH_TRY(ExpectSameShape(types[k], Str("input ", k), first, "input 0"));
  const int64_t dimension = IntAttr(op, "dimension").value_or(-1);
  HLOGRAPH_TRY(ExpectIndexInRange(dimension, 0, first.rank(), "dimension"));
  if (const std::optional<int64_t> size = IntAttr(op, "scan_dim_size"); size && *size != first.dim(dimension)) {
    return Err("expects scan_dim_size to be ", first.dim(dimension), " (dimension ", dimension, " of the inputs), got ",
               *size);
  }
  const std::vector<int64_t> slice = DropDims(first.shape(), {dimension});
  std::vector<Type> args, returned;
  for (size_t k = 0; k < n; ++k) args.push_back(types[k].WithShape(slice));  // quantization kept
  for (size_t k = 0; k < m; ++k) {
    HLOGRAPH_TRY(ExpectShape(types[n + k], slice, Str("initial carry ", k, " (the inputs' shape without dimension ",
                                                     dimension, ")")));
    args.push_back(types[n + k]);
  }
  // The outputs' element types are the body's; their shape is the inputs'.
  const std::vector<Type> result_types = op.ResultTypes();
  HLOGRAPH_TRY(ExpectTensors(result_types, "result"));
  for (size_t k = 0; k < n; ++k) {
    HLOGRAPH_TRY(ExpectShape(result_types[k], first.shape(), Str("output ", k, " (the inputs' shape)")));
    returned.push_back(result_types[k].WithShape(slice));
  }
  for (size_t k = 0; k < m; ++k) {
    HLOGRAPH_TRY(ExpectType(result_types[n + k], types[n + k], Str("final carry ", k, " (its initial carry's type)")));
    returned.push_back(types[n + k]);
  }
  return ExpectRegionSignature(op, 0, args, returned, "the body");
}

}  // namespace hlograph::ir::verify

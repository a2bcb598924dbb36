// Data movement: broadcasts, reshapes, transposes, slices, concatenation,
// padding, gather and scatter.
#include <algorithm>
#include <string_view>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// Operands [first, first + count) are the start indices of a dynamic slice:
// `count` rank-0 integer tensors, all of one type.
Status ExpectStartIndices(const Operation& op, size_t first, int64_t count) {
  const auto given = static_cast<int64_t>(op.num_operands()) - static_cast<int64_t>(first);
  if (given != count) return Err("expects ", count, " start indices (the operand's rank), got ", given);
  for (size_t i = first; i < op.num_operands(); ++i) {
    const Type& t = OperandType(op, i);
    HLOGRAPH_TRY(ExpectRank(t, 0, Str("start index ", i - first)));
    HLOGRAPH_TRY(ExpectElementClass(t, kIntClass, Str("start index ", i - first)));
    HLOGRAPH_TRY(ExpectType(t, OperandType(op, first), Str("start index ", i - first, " (like start index 0)")));
  }
  return Status::Ok();
}

// The dimension lists gather and scatter share, under their two spellings.
struct IndexingDims {
  std::vector<int64_t> window;            // offset_dims / update_window_dims
  std::vector<int64_t> collapsed;         // collapsed_slice_dims / inserted_window_dims
  std::vector<int64_t> operand_batching;  // operand_batching_dims / input_batching_dims
  std::vector<int64_t> indices_batching;  // start_indices_batching_dims / scatter_indices_batching_dims
  std::vector<int64_t> index_map;         // start_index_map / scatter_dims_to_operand_dims
  int64_t index_vector_dim = 0;
};

struct IndexingNames {
  std::string_view window, collapsed, operand_batching, indices_batching, index_map, operand, indices;
  std::string_view windowed;  // the tensor the window dims index: gather's result, scatter's updates
};

constexpr IndexingNames kGatherNames = {
    "offset_dims",     "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
    "start_index_map", "the operand",          "start_indices",         "the result"};
constexpr IndexingNames kScatterNames = {
    "update_window_dims",           "inserted_window_dims", "input_batching_dims", "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims", "the inputs",           "scatter_indices",     "the updates"};

// The shape of the index tensor without its index vector dimension: the
// batch of start indices.
std::vector<int64_t> IndexBatchShape(const Type& indices, int64_t index_vector_dim) {
  std::vector<int64_t> shape = indices.shape();
  if (index_vector_dim < indices.rank()) shape.erase(shape.begin() + index_vector_dim);
  return shape;
}

Status CheckIndexVectorDim(const Type& indices, const IndexingDims& d, const IndexingNames& n) {
  if (d.index_vector_dim < 0 || d.index_vector_dim > indices.rank()) {
    return Err("expects index_vector_dim to be in [0, ", indices.rank(), "] (the rank of ", n.indices, "), got ",
               d.index_vector_dim);
  }
  return Status::Ok();
}

// collapsed_slice_dims / inserted_window_dims and the operand's batching dims.
Status CheckOperandSideDims(const Type& operand, const IndexingDims& d, const IndexingNames& n) {
  HLOGRAPH_TRY(ExpectUnique(Concat(d.collapsed, d.operand_batching), Str(n.collapsed, " and ", n.operand_batching)));
  HLOGRAPH_TRY(ExpectSorted(d.collapsed, n.collapsed));
  HLOGRAPH_TRY(ExpectInRange(d.collapsed, 0, operand.rank(), n.collapsed));
  HLOGRAPH_TRY(ExpectSorted(d.operand_batching, n.operand_batching));
  return ExpectInRange(d.operand_batching, 0, operand.rank(), n.operand_batching);
}

// The batching dims of the index tensor and their pairing with the operand's.
Status CheckBatchingPairs(const Type& operand, const Type& indices, const IndexingDims& d, const IndexingNames& n) {
  HLOGRAPH_TRY(ExpectDimList(d.indices_batching, indices.rank(), n.indices_batching));
  if (Contains(d.indices_batching, d.index_vector_dim)) {
    return Err("expects index_vector_dim not to be in ", n.indices_batching, ", got ", d.index_vector_dim);
  }
  if (d.operand_batching.size() != d.indices_batching.size()) {
    return Err("expects ", n.operand_batching, " and ", n.indices_batching, " to have the same size, got ",
               d.operand_batching.size(), " and ", d.indices_batching.size());
  }
  for (size_t i = 0; i < d.operand_batching.size(); ++i) {
    const int64_t a = operand.dim(d.operand_batching[i]);
    const int64_t b = indices.dim(d.indices_batching[i]);
    if (a != b) {
      return Err("expects batching dimension ", d.operand_batching[i], " of ", n.operand, " and dimension ",
                 d.indices_batching[i], " of ", n.indices, " to have the same size, got ", a, " and ", b);
    }
  }
  return Status::Ok();
}

// start_index_map / scatter_dims_to_operand_dims.
Status CheckIndexMap(const Type& operand, const Type& indices, const IndexingDims& d, const IndexingNames& n) {
  const int64_t vector_size = d.index_vector_dim < indices.rank() ? indices.dim(d.index_vector_dim) : 1;
  HLOGRAPH_TRY(ExpectSize(d.index_map, vector_size, n.index_map, "the size of the index vector"));
  HLOGRAPH_TRY(ExpectUnique(Concat(d.index_map, d.operand_batching), Str(n.index_map, " and ", n.operand_batching)));
  return ExpectInRange(d.index_map, 0, operand.rank(), n.index_map);
}

// offset_dims / update_window_dims: sorted, unique dims of the windowed
// tensor, which has one more dim per batch dim of the indices; together with
// the collapsed and batching dims they account for the operand's dims.
Status CheckWindowDims(const Type& operand, const Type& indices, const Type& windowed, const IndexingDims& d,
                       const IndexingNames& n) {
  HLOGRAPH_TRY(ExpectUnique(d.window, n.window));
  HLOGRAPH_TRY(ExpectSorted(d.window, n.window));
  HLOGRAPH_TRY(ExpectInRange(d.window, 0, windowed.rank(), n.window));
  const size_t operand_rank = d.window.size() + d.collapsed.size() + d.operand_batching.size();
  if (operand.rank() != static_cast<int64_t>(operand_rank)) {
    return Err("expects ", n.operand, " to have rank ", operand_rank, " (the sizes of ", n.window, ", ", n.collapsed,
               " and ", n.operand_batching, "), got ", operand);
  }
  const size_t windowed_rank = d.window.size() + IndexBatchShape(indices, d.index_vector_dim).size();
  if (windowed.rank() != static_cast<int64_t>(windowed_rank)) {
    return Err("expects ", n.windowed, " to have rank ", windowed_rank, " (the size of ", n.window,
               " plus the batch dimensions of ", n.indices, "), got ", windowed);
  }
  return Status::Ok();
}

// Everything gather and scatter check alike about how indices address the
// operand and how windows are laid out.
Status CheckIndexing(const Type& operand, const Type& indices, const Type& windowed, const IndexingDims& d,
                     const IndexingNames& n) {
  HLOGRAPH_TRY(CheckIndexVectorDim(indices, d, n));
  HLOGRAPH_TRY(CheckOperandSideDims(operand, d, n));
  HLOGRAPH_TRY(CheckBatchingPairs(operand, indices, d, n));
  HLOGRAPH_TRY(CheckIndexMap(operand, indices, d, n));
  return CheckWindowDims(operand, indices, windowed, d, n);
}

// Interleaves window sizes (at `window_axes`) and batch sizes (elsewhere)
// into a shape of rank size(window_axes) + size(batch_sizes).
StatusOr<std::vector<int64_t>> Combine(const std::vector<int64_t>& window_axes,
                                       const std::vector<int64_t>& window_sizes,
                                       const std::vector<int64_t>& batch_sizes) {
  if (window_axes.size() != window_sizes.size()) {
    return Err("expects ", window_axes.size(), " window dimensions, got ", window_sizes.size());
  }
  const auto rank = static_cast<int64_t>(window_axes.size() + batch_sizes.size());
  std::vector<int64_t> out;
  size_t w = 0, b = 0;
  for (int64_t axis = 0; axis < rank; ++axis) {
    const bool is_window = Contains(window_axes, axis);
    if (is_window ? w >= window_sizes.size() : b >= batch_sizes.size()) {
      return Err("expects every window dimension to be below rank ", rank, ", got ", window_axes);
    }
    out.push_back(is_window ? window_sizes[w++] : batch_sizes[b++]);
  }
  return out;
}

struct ScatterOperands {
  std::vector<Type> inputs, updates;
  Type indices;
};

StatusOr<ScatterOperands> SplitScatterOperands(const Operation& op) {
  const size_t n = op.num_operands();
  if (n < 3 || n % 2 == 0) {
    return Err("expects N inputs, the scatter indices and N updates (an odd number of at least 3 operands), got ", n);
  }
  const std::vector<Type> all = op.OperandTypes();
  const size_t count = (n - 1) / 2;
  ScatterOperands s;
  s.inputs.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(count));
  s.indices = all[count];
  s.updates.assign(all.begin() + static_cast<std::ptrdiff_t>(count + 1), all.end());
  return s;
}

// scatter's (C1), (C3), (C5), (C6): shapes and element types of the operands.
Status CheckScatterOperands(const ScatterOperands& s) {
  HLOGRAPH_TRY(ExpectTensors(s.inputs, "input"));
  HLOGRAPH_TRY(ExpectTensors(s.updates, "update"));
  HLOGRAPH_TRY(ExpectElementClass(s.indices, kIntClass, "scatter_indices"));
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    HLOGRAPH_TRY(ExpectSameShape(s.inputs[i], Str("input ", i), s.inputs[0], "input 0"));
    HLOGRAPH_TRY(ExpectSameShape(s.updates[i], Str("update ", i), s.updates[0], "update 0"));
    HLOGRAPH_TRY(ExpectSameElement(s.updates[i], Str("update ", i), s.inputs[i], Str("input ", i)));
  }
  return Status::Ok();
}

// scatter's (C4): the updates' shape against the inputs and the indices.
Status CheckScatterUpdateShape(const ScatterOperands& s, const IndexingDims& d) {
  const Type& update = s.updates[0];
  const std::vector<int64_t> batch = IndexBatchShape(s.indices, d.index_vector_dim);
  const std::vector<int64_t> bounds = DropDims(s.inputs[0].shape(), Concat(d.collapsed, d.operand_batching));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> combined, Combine(d.window, bounds, batch));
  for (int64_t axis = 0; axis < update.rank(); ++axis) {
    const int64_t want = combined[static_cast<size_t>(axis)];
    if (Contains(d.window, axis)) {
      if (update.dim(axis) > want) {
        return Err("expects dimension ", axis, " of the updates to be at most ", want,
                   " (the matching window dimension of the inputs), got ", update);
      }
    } else if (update.dim(axis) != want) {
      return Err("expects dimension ", axis, " of the updates to be ", want,
                 " (the matching dimension of scatter_indices), got ", update);
    }
  }
  return Status::Ok();
}

}  // namespace

Status BroadcastInDim(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectSameElement(operand, "the operand", result, "the result"));
  const std::vector<int64_t> dims = I64ArrayAttr(op, "broadcast_dimensions");
  HLOGRAPH_TRY(ExpectSize(dims, operand.rank(), "broadcast_dimensions", "the operand's rank"));
  HLOGRAPH_TRY(ExpectDimList(dims, result.rank(), "broadcast_dimensions"));
  for (int64_t j = 0; j < operand.rank(); ++j) {
    const int64_t target = dims[static_cast<size_t>(j)];
    if (operand.dim(j) != 1 && operand.dim(j) != result.dim(target)) {
      return Err("expects dimension ", j, " of the operand to be 1 or ", result.dim(target), " (dimension ", target,
                 " of the result), got ", operand);
    }
  }
  return Status::Ok();
}

Status Broadcast(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  const std::vector<int64_t> sizes = I64ArrayAttr(op, "broadcast_sizes");
  HLOGRAPH_TRY(ExpectAllNonNegative(sizes, "broadcast_sizes"));
  return ExpectType(ResultType(op, 0), operand.WithShape(Concat(sizes, operand.shape())), "the result");
}

Status Reshape(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectSameElement(operand, "the operand", result, "the result"));
  if (operand.NumElements() != result.NumElements()) {
    return Err("expects the result to have as many elements as the operand (", operand.NumElements(), "), got ",
               result);
  }
  return Status::Ok();
}

Status Transpose(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  const std::vector<int64_t> perm = I64ArrayAttr(op, "permutation");
  HLOGRAPH_TRY(ExpectSize(perm, operand.rank(), "permutation", "the operand's rank"));
  if (!IsPermutation(perm))
    return Err("expects permutation to be a permutation of [0, ", operand.rank(), "), got ", perm);
  return ExpectType(ResultType(op, 0), operand.WithShape(PickDims(operand.shape(), perm)), "the result");
}

Status Reverse(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectDimList(I64ArrayAttr(op, "dimensions"), operand.rank(), "dimensions"));
  return ExpectType(ResultType(op, 0), operand, "the result");
}

Status Slice(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  const std::vector<int64_t> start = I64ArrayAttr(op, "start_indices");
  const std::vector<int64_t> limit = I64ArrayAttr(op, "limit_indices");
  const std::vector<int64_t> strides = I64ArrayAttr(op, "strides");
  HLOGRAPH_TRY(ExpectSize(start, operand.rank(), "start_indices", "the operand's rank"));
  HLOGRAPH_TRY(ExpectSize(limit, operand.rank(), "limit_indices", "the operand's rank"));
  HLOGRAPH_TRY(ExpectSize(strides, operand.rank(), "strides", "the operand's rank"));
  HLOGRAPH_TRY(ExpectAllPositive(strides, "strides"));
  std::vector<int64_t> shape;
  for (size_t d = 0; d < start.size(); ++d) {
    const int64_t dim = operand.dim(static_cast<int64_t>(d));
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > dim) {
      return Err("expects 0 <= start <= limit <= ", dim, " in dimension ", d, ", got start ", start[d], " and limit ",
                 limit[d]);
    }
    const int64_t extent = limit[d] - start[d];
    shape.push_back(extent == 0 ? 0 : (extent - 1) / strides[d] + 1);
  }
  return ExpectType(ResultType(op, 0), operand.WithShape(shape), "the result");
}

Status DynamicSlice(const Operation& op) {
  if (op.num_operands() == 0) return Err("expects an operand and its start indices");
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectStartIndices(op, 1, operand.rank()));
  const std::vector<int64_t> sizes = I64ArrayAttr(op, "slice_sizes");
  HLOGRAPH_TRY(ExpectSize(sizes, operand.rank(), "slice_sizes", "the operand's rank"));
  for (int64_t k = 0; k < operand.rank(); ++k) {
    const int64_t size = sizes[static_cast<size_t>(k)];
    if (size < 0 || size > operand.dim(k)) {
      return Err("expects slice_sizes[", k, "] to be in [0, ", operand.dim(k), "], got ", size);
    }
  }
  return ExpectType(ResultType(op, 0), operand.WithShape(sizes), "the result");
}

Status DynamicUpdateSlice(const Operation& op) {
  if (op.num_operands() < 2) return Err("expects an operand, an update and start indices");
  const Type& operand = OperandType(op, 0);
  const Type& update = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectType(ResultType(op, 0), operand, "the result"));
  HLOGRAPH_TRY(ExpectSameElement(update, "the update", operand, "the operand"));
  HLOGRAPH_TRY(ExpectRank(update, operand.rank(), "the update"));
  HLOGRAPH_TRY(ExpectStartIndices(op, 2, operand.rank()));
  for (int64_t k = 0; k < operand.rank(); ++k) {
    if (update.dim(k) > operand.dim(k)) {
      return Err("expects dimension ", k, " of the update to be at most ", operand.dim(k), ", got ", update);
    }
  }
  return Status::Ok();
}

Status Concatenate(const Operation& op) {
  const std::vector<Type> inputs = op.OperandTypes();
  if (inputs.empty()) return Err("expects at least one input");
  HLOGRAPH_TRY(ExpectTensors(inputs, "input"));
  const Type& first = inputs[0];
  const int64_t dim = IntAttr(op, "dimension").value_or(-1);
  HLOGRAPH_TRY(ExpectIndexInRange(dim, 0, first.rank(), "dimension"));
  std::vector<int64_t> shape = first.shape();
  auto& total = shape[static_cast<size_t>(dim)];
  for (size_t k = 1; k < inputs.size(); ++k) {
    const Type& t = inputs[k];
    HLOGRAPH_TRY(ExpectSameElement(t, Str("input ", k), first, "input 0"));
    if (t.rank() != first.rank() || DropDims(t.shape(), {dim}) != DropDims(first.shape(), {dim})) {
      return Err("expects input ", k, " to have the shape of input 0 except in dimension ", dim, ", got ", t, " and ",
                 first);
    }
    std::optional<int64_t> sum = CheckedAdd(total, t.dim(dim));
    if (!sum) return Err("expects the concatenated dimension size not to overflow");
    total = *sum;
  }
  return ExpectType(ResultType(op, 0), first.WithShape(shape), "the result");
}

Status Pad(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectRank(OperandType(op, 1), 0, "the padding value"));
  HLOGRAPH_TRY(ExpectSameElement(OperandType(op, 1), "the padding value", operand, "the operand"));
  const std::vector<int64_t> low = I64ArrayAttr(op, "edge_padding_low");
  const std::vector<int64_t> high = I64ArrayAttr(op, "edge_padding_high");
  const std::vector<int64_t> interior = I64ArrayAttr(op, "interior_padding");
  HLOGRAPH_TRY(ExpectSize(low, operand.rank(), "edge_padding_low", "the operand's rank"));
  HLOGRAPH_TRY(ExpectSize(high, operand.rank(), "edge_padding_high", "the operand's rank"));
  HLOGRAPH_TRY(ExpectSize(interior, operand.rank(), "interior_padding", "the operand's rank"));
  HLOGRAPH_TRY(ExpectAllNonNegative(interior, "interior_padding"));
  std::vector<int64_t> shape;
  for (size_t i = 0; i < low.size(); ++i) {
    const int64_t d = operand.dim(static_cast<int64_t>(i));
    std::optional<int64_t> size = CheckedMul(std::max<int64_t>(d - 1, 0), interior[i]);
    if (size) size = CheckedAdd(*size, d);
    if (size) size = CheckedAdd(*size, low[i]);
    if (size) size = CheckedAdd(*size, high[i]);
    if (!size) return Err("expects the padded size of dimension ", i, " not to overflow");
    if (*size < 0) return Err("expects the padded size of dimension ", i, " to be non-negative, got ", *size);
    shape.push_back(*size);
  }
  return ExpectType(ResultType(op, 0), operand.WithShape(shape), "the result");
}

Status Gather(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& indices = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectElementClass(indices, kIntClass, "start_indices"));
  HLOGRAPH_TRY(ExpectSameElement(result, "the result", operand, "the operand"));
  const GatherDimsAttr* dn = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "dimension_numbers", dn));
  const IndexingDims d{dn->offset_dims,           dn->collapsed_slice_dims,
                       dn->operand_batching_dims, dn->start_indices_batching_dims,
                       dn->start_index_map,       dn->index_vector_dim};
  HLOGRAPH_TRY(CheckIndexing(operand, indices, result, d, kGatherNames));
  const std::vector<int64_t> sizes = I64ArrayAttr(op, "slice_sizes");
  HLOGRAPH_TRY(ExpectSize(sizes, operand.rank(), "slice_sizes", "the operand's rank"));
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const int64_t size = sizes[static_cast<size_t>(i)];
    const int64_t bound =
        Contains(Concat(d.collapsed, d.operand_batching), i) ? std::min<int64_t>(1, operand.dim(i)) : operand.dim(i);
    if (size < 0 || size > bound) {
      return Err("expects slice_sizes[", i, "] to be in [0, ", bound, "], got ", size);
    }
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> shape,
                Combine(d.window, DropDims(sizes, Concat(d.collapsed, d.operand_batching)),
                        IndexBatchShape(indices, d.index_vector_dim)));
  return ExpectShape(result, shape, "the result");
}

Status Scatter(const Operation& op) {
  HLOGRAPH_ASSIGN(const ScatterOperands s, SplitScatterOperands(op));
  HLOGRAPH_TRY(CheckScatterOperands(s));
  const ScatterDimsAttr* dn = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "scatter_dimension_numbers", dn));
  const IndexingDims d{dn->update_window_dims,           dn->inserted_window_dims,
                       dn->input_batching_dims,          dn->scatter_indices_batching_dims,
                       dn->scatter_dims_to_operand_dims, dn->index_vector_dim};
  HLOGRAPH_TRY(CheckIndexing(s.inputs[0], s.indices, s.updates[0], d, kScatterNames));
  HLOGRAPH_TRY(CheckScatterUpdateShape(s, d));
  std::vector<Type> elements;
  for (const Type& t : s.inputs) elements.push_back(ScalarOf(t));
  HLOGRAPH_TRY(ExpectReducerRegion(op, 0, elements, "update_computation"));
  return ExpectTypes(op.ResultTypes(), s.inputs, "the results");
}

Status GetDimensionSize(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectTensor(operand, "the operand"));
  HLOGRAPH_TRY(ExpectIndexInRange(IntAttr(op, "dimension").value_or(-1), 0, operand.rank(), "dimension"));
  return ExpectType(ResultType(op, 0), ScalarType(ElementType::kI32), "the result");
}

}  // namespace hlograph::ir::verify

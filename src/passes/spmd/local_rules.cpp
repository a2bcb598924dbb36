// Ops that read along some dims only (slice, dynamic_slice,
// dynamic_update_slice, concatenate, pad, reverse, sort, reduce_window;
// fft, cholesky and triangular_solve along their trailing dims):
// along every other dim an element of the result
// depends on the operands' elements at its own index, so those dims keep
// their pieces and each device computes its piece alone. The dims the op
// reads along are made whole first.
#include <algorithm>
#include <cstring>

#include "ir/attribute.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

DeviceSharding WholeAlong(DeviceSharding s, const std::vector<size_t>& dims) {
  for (size_t d : dims) s = s.Without(d);
  return s;
}

std::vector<int64_t> Ints(const ir::Operation& op, const char* name) {
  const auto* a = op.attr(name).as<ir::DenseArrayAttr>();
  return a != nullptr ? a->values : std::vector<int64_t>{};
}

// The rank-`rank` operands laid out as `target`; the others (scalars: a
// pad value, reduce_window's inits) whole.
StatusOr<Operands> LayOut(Emitter& e, const Operands& operands, size_t rank, const DeviceSharding& target) {
  Operands moved;
  for (ir::Value* v : operands) {
    const size_t r = v->type().IsTensor() ? v->type().shape().size() : 0;
    const DeviceSharding want = r == rank ? target : DeviceSharding::Replicated(r, e.devices());
    HLOGRAPH_ASSIGN(ir::Value * m, e.Reshard(v, want));
    moved.push_back(m);
  }
  return moved;
}

// `op` on the operands with `read` whole, the rest as the operands' layout
// the op takes (LayoutToTake) has them.
Results Local(Emitter& e, const ir::Operation& op, const Operands& operands, const std::vector<size_t>& read) {
  if (RegionsReadFromOutside(op)) return ComputeWhole(e, op, operands);
  const size_t rank = op.result(0)->type().shape().size();
  const DeviceSharding target =
      LayoutToTake(e, operands, rank, [&](const DeviceSharding& s) { return WholeAlong(s, read); });
  HLOGRAPH_ASSIGN(const Operands moved, LayOut(e, operands, rank, target));
  return EmitAt(e, op, moved, target);
}

}  // namespace

Results Slice(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t> start = Ints(op, "start_indices"), limit = Ints(op, "limit_indices"),
                             strides = Ints(op, "strides");
  const std::vector<int64_t>& shape = op.operand(0)->type().shape();
  if (start.size() != shape.size() || limit.size() != shape.size()) return ComputeWhole(e, op, operands);
  std::vector<size_t> read;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool all = start[d] == 0 && limit[d] == shape[d] && (d >= strides.size() || strides[d] == 1);
    if (!all) read.push_back(d);
  }
  HLOGRAPH_ASSIGN(std::vector<ir::Value*> results, Local(e, op, operands, read));
  // The dims taken whole end at the piece's end.
  ir::Operation* local = results[0]->defining_op();
  std::vector<int64_t> local_limit = limit;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (std::find(read.begin(), read.end(), d) == read.end()) local_limit[d] = results[0]->type().shape()[d];
  }
  local->SetAttr("limit_indices", ir::MakeI64Array(local_limit));
  return results;
}

Results DynamicSlice(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t> sizes = Ints(op, "slice_sizes");
  const std::vector<int64_t>& shape = op.operand(0)->type().shape();
  if (sizes.size() != shape.size()) return ComputeWhole(e, op, operands);
  // A dim taken whole has its start clamped to 0 whatever the index: each
  // piece is its own slice there.
  std::vector<size_t> read;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (sizes[d] != shape[d]) read.push_back(d);
  }
  HLOGRAPH_ASSIGN(std::vector<ir::Value*> results, Local(e, op, operands, read));
  results[0]->defining_op()->SetAttr("slice_sizes", ir::MakeI64Array(results[0]->type().shape()));
  return results;
}

Results DynamicUpdateSlice(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t>& shape = op.operand(0)->type().shape();
  const std::vector<int64_t>& update = op.operand(1)->type().shape();
  // Where the update spans the dim its start is clamped to 0: the pieces of
  // the update go into the same pieces of the operand.
  std::vector<size_t> read;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d >= update.size() || update[d] != shape[d]) read.push_back(d);
  }
  return Local(e, op, operands, read);
}

Results Concatenate(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dim = op.attr("dimension").as<ir::IntegerAttr>();
  if (dim == nullptr) return ComputeWhole(e, op, operands);
  return Local(e, op, operands, {static_cast<size_t>(dim->value)});
}

Results Pad(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t> low = Ints(op, "edge_padding_low"), high = Ints(op, "edge_padding_high"),
                             interior = Ints(op, "interior_padding");
  const size_t rank = op.result(0)->type().shape().size();
  if (low.size() != rank || high.size() != rank || interior.size() != rank) return ComputeWhole(e, op, operands);
  std::vector<size_t> read;
  for (size_t d = 0; d < rank; ++d) {
    if (low[d] != 0 || high[d] != 0 || interior[d] != 0) read.push_back(d);
  }
  return Local(e, op, operands, read);
}

Results Reverse(Emitter& e, const ir::Operation& op, const Operands& operands) {
  std::vector<size_t> read;
  for (int64_t d : Ints(op, "dimensions")) read.push_back(static_cast<size_t>(d));
  return Local(e, op, operands, read);
}

Results Sort(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dim = op.attr("dimension").as<ir::IntegerAttr>();
  const int64_t rank = static_cast<int64_t>(op.result(0)->type().shape().size());
  int64_t d = dim != nullptr ? dim->value : -1;  // the last dim when not given
  if (d < 0) d += rank;
  return Local(e, op, operands, {static_cast<size_t>(d)});
}

Results ReduceWindow(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t> window = Ints(op, "window_dimensions"), strides = Ints(op, "window_strides"),
                             base = Ints(op, "base_dilations"), dilations = Ints(op, "window_dilations");
  const size_t rank = op.result(0)->type().shape().size();
  if (window.size() != rank) return ComputeWhole(e, op, operands);
  std::vector<int64_t> padding(2 * rank, 0);
  if (const auto* p = op.attr("padding").as<ir::DenseElementsAttr>()) {
    const size_t stored = static_cast<size_t>(p->NumStoredElements());
    if (p->type.element() != ir::ElementType::kI64 || (!p->splat && stored != 2 * rank) ||
        p->bytes.size() < stored * sizeof(int64_t)) {
      return ComputeWhole(e, op, operands);
    }
    for (size_t i = 0; i < 2 * rank; ++i) {
      std::memcpy(&padding[i], p->bytes.data() + (p->splat ? 0 : i) * sizeof(int64_t), sizeof(int64_t));
    }
  }
  const auto one = [](const std::vector<int64_t>& v, size_t d) { return d >= v.size() || v[d] == 1; };
  std::vector<size_t> read;
  for (size_t d = 0; d < rank; ++d) {
    const bool spans = window[d] != 1 || !one(strides, d) || !one(base, d) || !one(dilations, d) ||
                       padding[2 * d] != 0 || padding[2 * d + 1] != 0;
    if (spans) read.push_back(d);
  }
  return Local(e, op, operands, read);
}

Results AlongTrailingDims(Emitter& e, const ir::Operation& op, const Operands& operands, size_t dims) {
  const size_t rank = op.result(0)->type().shape().size();
  if (dims > rank) return ComputeWhole(e, op, operands);
  std::vector<size_t> read;
  for (size_t d = rank - dims; d < rank; ++d) read.push_back(d);
  return Local(e, op, operands, read);
}

}  // namespace hlograph::passes::spmd

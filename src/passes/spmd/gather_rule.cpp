// gather as data parallelism uses it (an embedding lookup: a table, a
// batch of indices): each device looks its own indices up in the whole
// operand, so the result's batch dims keep the indices' pieces. An operand
// dim every slice takes whole (no index into it) may stay cut too: its
// pieces go to the result's matching offset dim. The index vector and the
// batching dims of a batched gather are made whole.
#include <algorithm>

#include "ir/attribute.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

bool Has(const std::vector<int64_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), static_cast<int64_t>(x)) != v.end();
}

void CopyDim(DeviceSharding& to, size_t dim, const DeviceSharding& from, size_t from_dim) {
  to.counts[dim] = from.counts[from_dim];
  for (size_t k = 0; k < to.tiles.size(); ++k) to.tiles[k][dim] = from.tiles[k][from_dim];
}

struct Plan {
  DeviceSharding operand, indices, out;
};

// The result's sharding from the operand's and the indices' (already
// whole where they must be).
DeviceSharding ResultOf(const ir::GatherDimsAttr& g, const DeviceSharding& operand, const DeviceSharding& indices,
                        size_t rank, int64_t devices) {
  DeviceSharding out = DeviceSharding::Replicated(rank, devices);
  size_t index_dim = 0, operand_dim = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (Has(g.offset_dims, d)) {
      while (Has(g.collapsed_slice_dims, operand_dim) || Has(g.operand_batching_dims, operand_dim)) ++operand_dim;
      CopyDim(out, d, operand, operand_dim++);
    } else {
      if (index_dim == static_cast<size_t>(g.index_vector_dim)) ++index_dim;
      CopyDim(out, d, indices, index_dim++);
    }
  }
  return out;
}

}  // namespace

Results Gather(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* g = op.attr("dimension_numbers").as<ir::GatherDimsAttr>();
  const auto* sizes = op.attr("slice_sizes").as<ir::DenseArrayAttr>();
  if (g == nullptr || sizes == nullptr) return ComputeWhole(e, op, operands);
  const std::vector<int64_t>& operand_shape = op.operand(0)->type().shape();
  const size_t rank = op.result(0)->type().shape().size();
  DeviceSharding indices = e.ShardingOf(operands[1]);
  if (static_cast<size_t>(g->index_vector_dim) < indices.rank()) {
    indices = indices.Without(static_cast<size_t>(g->index_vector_dim));
  }
  for (int64_t d : g->start_indices_batching_dims) indices = indices.Without(static_cast<size_t>(d));
  // Operand dims taken whole by every slice keep their pieces.
  DeviceSharding operand = e.ShardingOf(operands[0]);
  for (size_t d = 0; d < operand.rank(); ++d) {
    const bool passes = !Has(g->start_index_map, d) && !Has(g->collapsed_slice_dims, d) &&
                        !Has(g->operand_batching_dims, d) && sizes->values[d] == operand_shape[d];
    if (!passes) operand = operand.Without(d);
  }
  DeviceSharding out = ResultOf(*g, operand, indices, rank, e.devices());
  if (!out.Valid()) {  // the two cut over the same devices: the operand gathered
    operand = DeviceSharding::Replicated(operand.rank(), e.devices());
    out = ResultOf(*g, operand, indices, rank, e.devices());
  }
  if (!out.Valid()) return ComputeWhole(e, op, operands);
  HLOGRAPH_ASSIGN(ir::Value * table, e.Reshard(operands[0], operand));
  HLOGRAPH_ASSIGN(ir::Value * at, e.Reshard(operands[1], indices));
  HLOGRAPH_ASSIGN(std::vector<ir::Value*> results, EmitAt(e, op, {table, at}, out));
  std::vector<int64_t> local_sizes = sizes->values;
  for (size_t d = 0; d < operand.rank(); ++d) local_sizes[d] /= operand.counts[d];
  results[0]->defining_op()->SetAttr("slice_sizes", ir::MakeI64Array(local_sizes));
  return results;
}

}  // namespace hlograph::passes::spmd

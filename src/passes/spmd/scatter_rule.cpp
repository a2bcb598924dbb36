// scatter adding updates that are cut along their batch (scatter) dims, as
// the gradient of an embedding lookup is: each device adds its own updates
// into zeros of the operand's whole shape, the devices' sums are added by
// all_reduce, and the operand is added last, so every update is counted
// once. A scatter (of any body: adding, replacing, ...) into an operand
// cut along the dim its indices select (a table cut by rows) keeps the
// operand's pieces instead: each device scatters all the updates into its
// piece with the indices shifted by the piece's offset, and those that
// fall outside it are dropped, as the scatter drops any out of bounds;
// chosen when moving the updates costs fewer bytes than the operand (a
// batched scatter too: the gradient of take_along_axis on logits cut along
// the vocabulary).
// Other scatters run whole.
#include <algorithm>

#include "ir/attribute.h"
#include "ir/fold_body.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

bool Has(const std::vector<int64_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), static_cast<int64_t>(x)) != v.end();
}

// Pairs (indices dim, updates dim) of the scatter's batch dims.
std::vector<std::pair<size_t, size_t>> BatchDims(const ir::ScatterDimsAttr& s, size_t indices_rank,
                                                 size_t updates_rank) {
  std::vector<std::pair<size_t, size_t>> pairs;
  size_t i = 0;
  for (size_t u = 0; u < updates_rank; ++u) {
    if (Has(s.update_window_dims, u)) continue;
    if (i == static_cast<size_t>(s.index_vector_dim)) ++i;
    if (i >= indices_rank) break;
    pairs.emplace_back(i++, u);
  }
  return pairs;
}

// The scatter's body adds the update to the operand's element.
bool AddsUpdates(const ir::Operation& scatter) {
  const ir::Operation* fold = ir::FoldOfBody(scatter);
  return fold != nullptr && fold->id() == ir::OpId::kAdd;
}

// The bytes of `op`'s operand `i` as the program has it (not a piece).
int64_t Bytes(const ir::Operation& op, size_t i) { return op.operand(i)->type().StorageBytes(); }

// The scatter on the operand's pieces along its cut dim `dim`, which the
// single index component selects with update windows of one element
// there: every device scatters all the updates, the indices shifted by its
// piece's offset. Null when the scatter is not of that form.
Results ScatterIntoPieces(Emitter& e, const ir::Operation& op, const Operands& operands,
                          const ir::ScatterDimsAttr& dims) {
  const DeviceSharding& so = e.ShardingOf(operands[0]);
  const std::optional<size_t> cut = IndexedCutDim(so, dims.scatter_dims_to_operand_dims, dims.inserted_window_dims,
                                                  operands[1]->type(), dims.index_vector_dim);
  if (!cut || Bytes(op, 1) + Bytes(op, 2) > 2 * Bytes(op, 0)) {
    return Status::Error("not a scatter into the operand's pieces");
  }
  const size_t dim = *cut;
  const DeviceSharding pieces = so.OnlyAlong(dim);
  HLOGRAPH_ASSIGN(ir::Value * base, e.Reshard(operands[0], pieces));
  HLOGRAPH_ASSIGN(ir::Value * at, e.Reshard(operands[1], e.Whole(operands[1])));
  HLOGRAPH_ASSIGN(ir::Value * add, e.Reshard(operands[2], e.Whole(operands[2])));
  ir::Value* shifted = ShiftedIntoPiece(e, at, pieces, dim, base->type().dim(static_cast<int64_t>(dim)));
  ir::Operation* copy = e.Copy(op, {base, shifted, add}, {base->type()});
  e.SetSharding(copy->result(0), pieces);
  return std::vector<ir::Value*>{copy->result(0)};
}

}  // namespace

Results Scatter(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dims = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (dims == nullptr || operands.size() != 3 || op.num_regions() != 1 || RegionsReadFromOutside(op)) {
    return ComputeWhole(e, op, operands);
  }
  if (Results pieces = ScatterIntoPieces(e, op, operands, *dims); pieces.ok()) return pieces;
  if (!AddsUpdates(op) || !dims->input_batching_dims.empty()) return ComputeWhole(e, op, operands);
  const size_t indices_rank = operands[1]->type().shape().size();
  const size_t updates_rank = operands[2]->type().shape().size();
  const auto pairs = BatchDims(*dims, indices_rank, updates_rank);
  // The batch dims cut as the indices or as the updates cut them, whichever
  // is more divided; every other dim whole.
  DeviceSharding from_indices = DeviceSharding::Replicated(indices_rank, e.devices());
  DeviceSharding from_updates = DeviceSharding::Replicated(updates_rank, e.devices());
  const DeviceSharding& si = e.ShardingOf(operands[1]);
  const DeviceSharding& su = e.ShardingOf(operands[2]);
  DeviceSharding indices = from_indices, updates = from_updates;
  for (auto [i, u] : pairs) {
    from_indices.counts[i] = si.counts[i];
    from_updates.counts[u] = su.counts[u];
    for (size_t k = 0; k < from_indices.tiles.size(); ++k) {
      from_indices.tiles[k][i] = si.tiles[k][i];
      from_updates.tiles[k][u] = su.tiles[k][u];
    }
  }
  const bool by_indices = from_indices.Pieces() >= from_updates.Pieces();
  for (auto [i, u] : pairs) {
    const DeviceSharding& src = by_indices ? from_indices : from_updates;
    const size_t at = by_indices ? i : u;
    indices.counts[i] = updates.counts[u] = src.counts[at];
    for (size_t k = 0; k < indices.tiles.size(); ++k) indices.tiles[k][i] = updates.tiles[k][u] = src.tiles[k][at];
  }
  std::vector<size_t> cut;
  for (auto [i, u] : pairs) {
    if (indices.counts[i] > 1) cut.push_back(i);
  }
  if (cut.empty() || !indices.Valid()) return ComputeWhole(e, op, operands);
  HLOGRAPH_ASSIGN(const auto groups, indices.GroupsAlong(cut));
  HLOGRAPH_ASSIGN(ir::Value * at, e.Reshard(operands[1], indices));
  HLOGRAPH_ASSIGN(ir::Value * add, e.Reshard(operands[2], updates));
  HLOGRAPH_ASSIGN(ir::Value * base,
                  e.Reshard(operands[0], e.Whole(operands[0])));
  const ir::Type& type = op.result(0)->type();
  ir::Value* zeros =
      e.Here().Splat(type, std::vector<uint8_t>(static_cast<size_t>(ir::StorageBytes(type.element())), 0));
  ir::Value* partial = e.Copy(op, {zeros, at, add}, {type})->result(0);
  ir::Value* sum = e.AllReduce(partial, groups, nullptr);
  ir::Value* result = e.Here().Binary(ir::OpId::kAdd, base, sum);
  e.SetSharding(result, DeviceSharding::Replicated(type.shape().size(), e.devices()));
  return std::vector<ir::Value*>{result};
}

}  // namespace hlograph::passes::spmd

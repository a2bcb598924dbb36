// gather as data parallelism uses it (an embedding lookup: a table, a
// batch of indices): each device looks its own indices up in the whole
// operand, so the result's batch dims keep the indices' pieces. An operand
// dim every slice takes whole (no index into it) may stay cut too: its
// pieces go to the result's matching offset dim. The index vector and the
// batching dims of a batched gather are made whole. A table cut along the
// dim the indices select (a vocabulary cut by rows) stays cut when that
// moves fewer bytes than gathering it: each device looks every index up in
// its rows (shifted by its piece's offset), zeros where the row is not
// its, and the devices' results are added (all_reduce).
#include <algorithm>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "passes/op_builder.h"
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

ir::Attribute Direction(const char* d) { return ir::MakeEnum("comparison_direction", d); }

// The lookup into the table's pieces along its cut dim `dim`, which the
// single index component selects with one-element slices (a vocabulary's
// rows; the labels' logits of a cross-entropy, batched); an error when the
// gather is not of that form or gathering the table costs less.
Results GatherFromPieces(Emitter& e, const ir::Operation& op, const Operands& operands, const ir::GatherDimsAttr& g,
                         const std::vector<int64_t>& slice_sizes) {
  const DeviceSharding& so = e.ShardingOf(operands[0]);
  const ir::Type& type = op.result(0)->type();
  const size_t vector_dim = static_cast<size_t>(g.index_vector_dim);
  const bool implicit_vector = vector_dim >= operands[1]->type().shape().size();
  const std::optional<size_t> cut =
      IndexedCutDim(so, g.start_index_map, g.collapsed_slice_dims, operands[1]->type(), g.index_vector_dim);
  if (!cut || slice_sizes[*cut] != 1 || 2 * type.StorageBytes() >= op.operand(0)->type().StorageBytes()) {
    return Status::Error("not a lookup into the table's pieces");
  }
  const size_t dim = *cut;
  const DeviceSharding pieces = so.OnlyAlong(dim);
  // The indices keep the pieces of their batch dims where other devices
  // than the table's rows cut them (a 2-D mesh): the result is cut as they
  // are, and the devices holding the same indices but other rows add
  // their results. Else the indices are made whole.
  DeviceSharding at = e.ShardingOf(operands[1]);
  if (!implicit_vector) at = at.Without(vector_dim);
  // The result's pieces and, as a last dim, the table's rows' pieces.
  const auto with_rows_of = [&](DeviceSharding s) {
    s.counts.push_back(pieces.counts[dim]);
    for (size_t k = 0; k < s.tiles.size(); ++k) s.tiles[k].push_back(pieces.tiles[k][dim]);
    return s;
  };
  DeviceSharding out = ResultOf(g, e.Whole(operands[0]), at, type.shape().size(), e.devices());
  DeviceSharding with_rows = with_rows_of(out);
  // A batched lookup (take_along_axis) reads its batch dims whole.
  if (!out.Valid() || !with_rows.Valid() || !g.operand_batching_dims.empty()) {
    at = e.Whole(operands[1]);
    out = e.Whole(op.result(0));
    with_rows = with_rows_of(out);
  }
  HLOGRAPH_ASSIGN(const auto groups, with_rows.GroupsAlong({out.rank()}));
  HLOGRAPH_ASSIGN(ir::Value * table, e.Reshard(operands[0], pieces));
  HLOGRAPH_ASSIGN(ir::Value * ids, e.Reshard(operands[1], at));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> out_shape, out.LocalShape(type.shape()));
  const ir::Type local_type = type.WithShape(out_shape);
  const int64_t rows = op.operand(0)->type().dim(static_cast<int64_t>(dim));  // the global table's
  const int64_t local = table->type().dim(static_cast<int64_t>(dim));
  const ir::Type& ids_type = ids->type();
  const auto splat = [&](OpBuilder& with, int64_t x) {
    return with.Splat(ids_type, IntegerBytes(ids_type.element(), x));
  };
  // The start index as the gather clamps it, then this device's row.
  OpBuilder clamp = e.Here();
  ir::Value* start = clamp.Add(ir::OpId::kClamp, {splat(clamp, 0), ids, splat(clamp, rows - 1)}, ids_type);
  e.SetSharding(start, e.ShardingOf(ids));
  ir::Value* shifted = ShiftedIntoPiece(e, start, pieces, dim, local);
  OpBuilder b = e.Here();  // after the shift's ops
  const ir::Type pred = ids_type.WithElement(ir::ElementType::kI1);
  ir::Value* above = b.Add(ir::OpId::kCompare, {shifted, splat(b, 0)}, pred,
                           {{"comparison_direction", Direction("GE")}});
  ir::Value* below = b.Add(ir::OpId::kCompare, {shifted, splat(b, local)}, pred,
                           {{"comparison_direction", Direction("LT")}});
  ir::Value* mine = b.Binary(ir::OpId::kAnd, above, below);
  ir::Value* row = b.Add(ir::OpId::kClamp, {splat(b, 0), shifted, splat(b, local - 1)}, ids_type);
  // The lookup as it was (one row along `dim`, every other dim whole), on
  // the piece; inserted through `b` so the ops after it follow it.
  ir::ValueMap map;
  std::unique_ptr<ir::Operation> lookup = ir::CloneOperation(op, map);
  lookup->SetOperand(0, table);
  lookup->SetOperand(1, row);
  lookup->RemoveAttr("mhlo.sharding");
  lookup->RemoveAttr("sdy.sharding");
  lookup->result(0)->set_type(local_type);
  ir::Value* found = b.Insert(std::move(lookup))->result(0);
  // `mine` over the result: its batch dims are the indices' (the index
  // vector dim dropped), the offset dims the slices'.
  std::vector<int64_t> batch_shape, batch_dims;
  for (size_t d = 0; d < ids_type.shape().size(); ++d) {
    if (implicit_vector || d != vector_dim) batch_shape.push_back(ids_type.dim(static_cast<int64_t>(d)));
  }
  for (size_t d = 0; d < type.shape().size(); ++d) {
    if (!Has(g.offset_dims, d)) batch_dims.push_back(static_cast<int64_t>(d));
  }
  ir::Value* flat = b.Add(ir::OpId::kReshape, {mine}, ir::Type::Tensor(ir::ElementType::kI1, batch_shape));
  ir::Value* mask = b.BroadcastInDim(flat, local_type.WithElement(ir::ElementType::kI1), batch_dims);
  ir::Value* zeros =
      b.Splat(local_type, std::vector<uint8_t>(static_cast<size_t>(ir::StorageBytes(type.element())), 0));
  ir::Value* partial = b.Add(ir::OpId::kSelect, {mask, found, zeros}, local_type);
  e.SetSharding(partial, out);
  ir::Value* sum = e.AllReduce(partial, groups, nullptr);
  e.SetSharding(sum, out);
  return std::vector<ir::Value*>{sum};
}

}  // namespace

Results Gather(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* g = op.attr("dimension_numbers").as<ir::GatherDimsAttr>();
  const auto* sizes = op.attr("slice_sizes").as<ir::DenseArrayAttr>();
  if (g == nullptr || sizes == nullptr) return ComputeWhole(e, op, operands);
  if (Results pieces = GatherFromPieces(e, op, operands, *g, sizes->values); pieces.ok()) return pieces;
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

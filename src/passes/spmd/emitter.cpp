#include "passes/spmd/emitter.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/op_def.h"

namespace hlograph::passes::spmd {
namespace {

// `^bb0(%a: tensor<e>, %b: tensor<e>): return %a + %b`.
void AddBody(ir::Operation& op, ir::ElementType e, const ir::Operation& origin) {
  ir::Block* b = op.AddRegion()->AddBlock();
  const ir::Type scalar = ir::Type::Tensor(e, {});
  ir::Value* x = b->AddArgument(scalar);
  ir::Value* y = b->AddArgument(scalar);
  auto add = std::make_unique<ir::Operation>(ir::LookupOp(ir::OpId::kAdd), origin.pos());
  add->AddOperand(x);
  add->AddOperand(y);
  ir::Value* sum = add->AddResult(scalar);
  b->Append(std::move(add));
  auto ret = std::make_unique<ir::Operation>(ir::LookupOp(ir::OpId::kReturn), origin.pos());
  ret->AddOperand(sum);
  b->Append(std::move(ret));
}

std::vector<int64_t> Scaled(std::vector<int64_t> shape, size_t dim, int64_t by) {
  shape[dim] *= by;
  return shape;
}

}  // namespace

const DeviceSharding& Emitter::ShardingOf(const ir::Value* v) {
  auto it = shardings_.find(v);
  if (it != shardings_.end()) return it->second;
  // Values made outside the rules (constants, offsets) are whole everywhere.
  const size_t rank = v->type().IsTensor() ? v->type().shape().size() : 0;
  return shardings_.emplace(v, DeviceSharding::Replicated(rank, devices_)).first->second;
}

Emitter::Scope::Scope(Emitter& e, ir::Block& block)
    : e_(e), block_(e.block_), moved_(e.moved_), partition_(e.partition_) {
  e_.block_ = &block;
  e_.scopes_.push_back(this);
}

Emitter::Scope::~Scope() {
  e_.scopes_.pop_back();
  e_.block_ = block_;
  e_.moved_ = std::move(moved_);
  e_.partition_ = partition_;
}

void Emitter::Scope::Swap() {
  std::swap(e_.block_, block_);
  std::swap(e_.moved_, moved_);
  std::swap(e_.partition_, partition_);
}

ir::Operation* Emitter::Copy(const ir::Operation& op, const std::vector<ir::Value*>& operands,
                             const std::vector<ir::Type>& types) {
  ir::ValueMap map;
  std::unique_ptr<ir::Operation> copy = ir::CloneOperation(op, map);
  for (size_t i = 0; i < operands.size(); ++i) copy->SetOperand(i, operands[i]);
  for (size_t i = 0; i < types.size(); ++i) copy->result(i)->set_type(types[i]);
  copy->RemoveAttr("mhlo.sharding");
  copy->RemoveAttr("sdy.sharding");
  return block_->Append(std::move(copy));
}

ir::Operation* Emitter::Collective(ir::OpId id, ir::Value* v, const ir::Type& type,
                                   const std::vector<std::vector<int64_t>>& groups) {
  OpBuilder b = Here();
  std::unique_ptr<ir::Operation> op = b.New(id);
  op->AddOperand(v);
  op->AddResult(type);
  op->SetAttr("replica_groups", ir::MakeI64Matrix(groups));
  // Partitions of one replica: a channel and the groups' ids as global ids.
  op->SetAttr("channel_handle", ir::Attribute::Make(ir::ChannelHandleAttr{next_channel_++, 1}));
  op->SetAttr("use_global_device_ids", ir::Attribute::Make(ir::UnitAttr{}));
  ++counts_[std::string(op->def().short_name())];
  return b.Insert(std::move(op));
}

StatusOr<ir::Value*> Emitter::AllGather(ir::Value* v, size_t dim) {
  const DeviceSharding& s = ShardingOf(v);
  HLOGRAPH_ASSIGN(const auto groups, s.GroupsAlong({dim}));
  const ir::Type type = v->type().WithShape(Scaled(v->type().shape(), dim, s.counts[dim]));
  ir::Operation* op = Collective(ir::OpId::kAllGather, v, type, groups);
  op->SetAttr("all_gather_dim", ir::MakeI64(static_cast<int64_t>(dim)));
  SetSharding(op->result(0), s.Without(dim));
  return op->result(0);
}

ir::Value* Emitter::WithHalo(ir::Value* v, size_t dim, int64_t low, int64_t high) {
  const DeviceSharding s = ShardingOf(v);
  const std::vector<int64_t> shape = v->type().shape();
  const int64_t piece = shape[dim];
  // Device k's partner `step` pieces along `dim`: the device holding that
  // piece and the same pieces of the other dims, the same one of those
  // when several hold them (replicas).
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  for (size_t k = 0; k < s.tiles.size(); ++k) holders[s.tiles[k]].push_back(static_cast<int64_t>(k));
  const auto pairs = [&](int64_t step) {
    std::vector<std::vector<int64_t>> out;
    for (const auto& [tile, devices] : holders) {
      std::vector<int64_t> next = tile;
      next[dim] += step;
      const auto it = holders.find(next);
      if (it == holders.end()) continue;
      for (size_t j = 0; j < devices.size() && j < it->second.size(); ++j) out.push_back({devices[j], it->second[j]});
    }
    return out;
  };
  const auto slice = [&](int64_t from, int64_t to) {
    std::vector<int64_t> start(shape.size(), 0), limit = shape;
    start[dim] = from;
    limit[dim] = to;
    std::vector<int64_t> sliced = shape;
    sliced[dim] = to - from;
    return Here().Add(ir::OpId::kSlice, {v}, v->type().WithShape(sliced),
                      {{"start_indices", ir::MakeI64Array(start)}, {"limit_indices", ir::MakeI64Array(limit)},
                       {"strides", ir::MakeI64Array(std::vector<int64_t>(shape.size(), 1))}});
  };
  const auto permute = [&](ir::Value* part, int64_t step) {
    OpBuilder b = Here();
    std::unique_ptr<ir::Operation> op = b.New(ir::OpId::kCollectivePermute);
    op->AddOperand(part);
    op->AddResult(part->type());
    op->SetAttr("source_target_pairs", ir::MakeI64Matrix(pairs(step)));
    op->SetAttr("channel_handle", ir::Attribute::Make(ir::ChannelHandleAttr{next_channel_++, 1}));
    ++counts_[std::string(op->def().short_name())];
    return b.Insert(std::move(op))->result(0);
  };
  std::vector<ir::Value*> parts;
  if (low > 0) parts.push_back(permute(slice(piece - low, piece), 1));  // the piece before's end, sent on
  parts.push_back(v);
  if (high > 0) parts.push_back(permute(slice(0, high), -1));  // the piece after's start, sent back
  if (parts.size() == 1) return v;
  std::vector<int64_t> joined = shape;
  joined[dim] += low + high;
  return Here().Add(ir::OpId::kConcatenate, parts, v->type().WithShape(joined),
                    {{"dimension", ir::MakeI64(static_cast<int64_t>(dim))}});
}

int64_t Emitter::AllToAllTarget(ir::Value* v, size_t from, const DeviceSharding& target) {
  const DeviceSharding& s = ShardingOf(v);
  const int64_t n = s.counts[from];
  for (size_t to = 0; to < s.rank(); ++to) {
    if (to == from || s.counts[to] != 1 || !target.SameOnDim(to, s, from)) continue;
    if (v->type().shape()[to] % n == 0) return static_cast<int64_t>(to);
  }
  return -1;
}

StatusOr<ir::Value*> Emitter::AllToAll(ir::Value* v, size_t from, size_t to) {
  const DeviceSharding& s = ShardingOf(v);
  HLOGRAPH_ASSIGN(const auto groups, s.GroupsAlong({from}));
  const int64_t n = s.counts[from];
  std::vector<int64_t> shape = v->type().shape();
  shape[from] *= n;
  shape[to] /= n;
  ir::Operation* op = Collective(ir::OpId::kAllToAll, v, v->type().WithShape(shape), groups);
  // all_to_all's groups are partition ids already (its channel says so).
  op->RemoveAttr("use_global_device_ids");
  op->SetAttr("split_dimension", ir::MakeI64(static_cast<int64_t>(to)));
  op->SetAttr("concat_dimension", ir::MakeI64(static_cast<int64_t>(from)));
  op->SetAttr("split_count", ir::MakeI64(n));
  // Member k of a group sends its j-th piece of `to` to member j and
  // joins what it receives along `from` in the members' order: the whole
  // of `from`, piece k of `to`.
  DeviceSharding moved = s.Without(from);
  moved.counts[to] = n;
  for (size_t d = 0; d < moved.tiles.size(); ++d) moved.tiles[d][to] = s.tiles[d][from];
  SetSharding(op->result(0), moved);
  return op->result(0);
}

ir::Value* Emitter::AllReduce(ir::Value* v, const std::vector<std::vector<int64_t>>& groups, const ir::Region* body) {
  ir::Operation* op = Collective(ir::OpId::kAllReduce, v, v->type(), groups);
  if (body != nullptr) {
    ir::ValueMap map;
    ir::CloneRegion(*body, *op->AddRegion(), map);
  } else {
    AddBody(*op, v->type().element(), *origin_);
  }
  SetSharding(op->result(0), ShardingOf(v));
  return op->result(0);
}

ir::Value* Emitter::ReduceScatter(ir::Value* v, const std::vector<std::vector<int64_t>>& groups, size_t dim,
                                  const DeviceSharding& result) {
  std::vector<int64_t> shape = v->type().shape();
  shape[dim] /= static_cast<int64_t>(groups.empty() ? 1 : groups[0].size());
  ir::Operation* op = Collective(ir::OpId::kReduceScatter, v, v->type().WithShape(shape), groups);
  op->SetAttr("scatter_dimension", ir::MakeI64(static_cast<int64_t>(dim)));
  AddBody(*op, v->type().element(), *origin_);
  SetSharding(op->result(0), result);
  return op->result(0);
}

ir::Value* Emitter::Offset(const DeviceSharding& target, size_t dim, int64_t local_size) {
  OpBuilder b = Here();
  const ir::Type i32 = ir::Type::Tensor(ir::ElementType::kI32, {});
  if (partition_ == nullptr) {
    ir::Value* id = b.Add(ir::OpId::kPartitionId, {}, ir::Type::Tensor(ir::ElementType::kU32, {}));
    partition_ = b.Convert(id, ir::ElementType::kI32);
  }
  std::vector<uint8_t> bytes;
  for (const auto& tile : target.tiles) {
    const auto e = IntegerBytes(ir::ElementType::kI32, tile[dim] * local_size);
    bytes.insert(bytes.end(), e.begin(), e.end());
  }
  ir::Value* table = b.Dense(ir::Type::Tensor(ir::ElementType::kI32, {devices_}), std::move(bytes));
  ir::Value* slot = b.Add(ir::OpId::kDynamicSlice, {table, partition_}, ir::Type::Tensor(ir::ElementType::kI32, {1}),
                          {{"slice_sizes", ir::MakeI64Array({1})}});
  return b.Add(ir::OpId::kReshape, {slot}, i32);
}

ir::Value* Emitter::Remake(ir::Value* v, const ir::Type& type, const DeviceSharding& target) {
  const ir::Operation* def = v->defining_op();
  if (def == nullptr || def->parent_block() != block_) return nullptr;
  OpBuilder b = Here();
  if (def->id() == ir::OpId::kConstant) {
    const auto* value = def->attr("value").as<ir::DenseElementsAttr>();
    if (value == nullptr || !value->splat) return nullptr;
    ir::Value* c = b.Splat(type, value->bytes);
    SetSharding(c, target);
    return c;
  }
  if (def->id() == ir::OpId::kIota) return RemakeIota(*def, type, target);
  if (def->id() != ir::OpId::kBroadcastInDim && Remakeable(v, 0)) {
    // Values computed from remakeable ones only (an iota scaled, a mask
    // from two iotas): the op again on their pieces.
    std::vector<ir::Value*> pieces;
    for (ir::Value* operand : def->operands()) {
      auto piece = Reshard(operand, target);
      if (!piece.ok()) return nullptr;
      pieces.push_back(*piece);
    }
    ir::Value* r = Copy(*def, pieces, {type})->result(0);
    SetSharding(r, target);
    return r;
  }
  if (def->id() != ir::OpId::kBroadcastInDim) return nullptr;
  const auto* dims = def->attr("broadcast_dimensions").as<ir::DenseArrayAttr>();
  if (dims == nullptr) return nullptr;
  // The operand cut as `target` cuts the dims it spans (those it
  // stretches from size 1 stay whole), then broadcast at the piece's size:
  // each device broadcasts its piece of the (smaller) operand.
  ir::Value* operand = def->operand(0);
  DeviceSharding inner = ShardingOf(operand);
  for (size_t i = 0; i < dims->values.size(); ++i) {
    const auto d = static_cast<size_t>(dims->values[i]);
    if (type.shape()[d] == v->type().shape()[d]) continue;  // not cut here
    if (operand->type().shape()[i] == 1) continue;
    if (operand->type().shape()[i] != v->type().shape()[d] || inner.counts[i] != 1) return nullptr;
    inner.counts[i] = target.counts[d];
    for (size_t k = 0; k < inner.tiles.size(); ++k) inner.tiles[k][i] = target.tiles[k][d];
  }
  auto piece = Reshard(operand, inner);
  if (!piece.ok()) return nullptr;
  ir::Value* r = Here().BroadcastInDim(*piece, type, dims->values);
  SetSharding(r, target);
  return r;
}

bool Emitter::Remakeable(const ir::Value* v, int depth) const {
  const ir::Operation* def = v->defining_op();
  if (def == nullptr || def->parent_block() != block_ || depth > 8 || def->num_results() != 1) return false;
  if (def->id() == ir::OpId::kIota || def->id() == ir::OpId::kBroadcastInDim) return true;
  if (def->id() == ir::OpId::kConstant) {
    const auto* value = def->attr("value").as<ir::DenseElementsAttr>();
    return value != nullptr && value->splat;
  }
  // Per element: the elementwise ops, and select and clamp (their operands
  // of the result's shape, checked below).
  const bool per_element =
      def->def().Has(ir::kElementwise) || def->id() == ir::OpId::kSelect || def->id() == ir::OpId::kClamp;
  if (!per_element) return false;
  for (const ir::Value* operand : def->operands()) {
    if (operand->type().shape() != v->type().shape() || !Remakeable(operand, depth + 1)) return false;
  }
  return true;
}

ir::Value* Emitter::RemakeIota(const ir::Operation& iota, const ir::Type& type, const DeviceSharding& target) {
  const auto* dim_attr = iota.attr("iota_dimension").as<ir::IntegerAttr>();
  const ir::ElementType e = type.element();
  if (dim_attr == nullptr || !(ir::IsInteger(e) || ir::IsFloat(e))) return nullptr;
  const auto dim = static_cast<size_t>(dim_attr->value);
  OpBuilder b = Here();
  ir::Value* r = b.Add(ir::OpId::kIota, {}, type, {{"iota_dimension", ir::MakeI64(dim_attr->value)}});
  if (target.counts[dim] > 1) {
    // Counting from the piece's first index.
    ir::Value* start = Offset(target, dim, type.shape()[dim]);
    ir::Value* offset = Here().Convert(start, e);
    OpBuilder after = Here();
    r = after.Binary(ir::OpId::kAdd, r, after.BroadcastInDim(offset, type, {}));
  }
  SetSharding(r, target);
  return r;
}

StatusOr<ir::Value*> Emitter::Slice(ir::Value* v, const DeviceSharding& target) {
  std::vector<int64_t> local = v->type().shape();
  std::vector<size_t> cut;
  for (size_t k = 0; k < local.size(); ++k) {
    if (ShardingOf(v).counts[k] != target.counts[k]) {
      if (local[k] % target.counts[k] != 0) {
        return Status::Error("dimension " + std::to_string(k) + " of size " + std::to_string(local[k]) +
                             " does not divide into " + std::to_string(target.counts[k]) + " pieces");
      }
      local[k] /= target.counts[k];
      cut.push_back(k);
    }
  }
  const ir::Type type = v->type().WithShape(local);
  if (ir::Value* remade = Remake(v, type, target)) return remade;
  std::vector<ir::Value*> operands{v};
  ir::Value* zero = nullptr;
  for (size_t k = 0; k < local.size(); ++k) {
    if (std::find(cut.begin(), cut.end(), k) != cut.end()) {
      operands.push_back(Offset(target, k, local[k]));
    } else {
      if (zero == nullptr) {
        zero = Here().Splat(ir::Type::Tensor(ir::ElementType::kI32, {}), IntegerBytes(ir::ElementType::kI32, 0));
      }
      operands.push_back(zero);
    }
  }
  ir::Value* r = Here().Add(ir::OpId::kDynamicSlice, operands, type, {{"slice_sizes", ir::MakeI64Array(local)}});
  ++counts_["dynamic_slice"];
  SetSharding(r, target);
  return r;
}

bool Emitter::FromOutsideTheLoop(const ir::Value* v) const {
  const ir::Block* home = v->defining_op() != nullptr ? v->defining_op()->parent_block() : v->owner_block();
  return !scopes_.empty() && home != block_;
}

StatusOr<ir::Value*> Emitter::Reshard(ir::Value* v, const DeviceSharding& target) {
  if (!v->type().IsTensor() || ShardingOf(v) == target) return v;
  if (ShardingOf(v).rank() != target.rank()) return Status::Error("a sharding of another rank");
  if (FromOutsideTheLoop(v)) {
    // Made outside the op whose region this is (a loop's weights): moved
    // in the enclosing block, before the op, once rather than per
    // iteration.
    Scope* outer = scopes_.back();
    outer->Swap();
    scopes_.pop_back();
    StatusOr<ir::Value*> moved = Reshard(v, target);
    scopes_.push_back(outer);
    outer->Swap();
    return moved;
  }
  // A value read by several ops laid out the same way is moved once.
  auto key = std::make_pair(static_cast<const ir::Value*>(v), target.ToHlo());
  if (auto it = moved_.find(key); it != moved_.end()) return it->second;
  HLOGRAPH_ASSIGN(ir::Value * r, Move(v, target));
  moved_.emplace(std::move(key), r);
  return r;
}

StatusOr<ir::Value*> Emitter::Move(ir::Value* v, const DeviceSharding& target) {
  // A cut that only moves to another dim goes there directly: each device
  // sends and receives one piece of its own instead of gathering the whole.
  for (size_t k = 0; k < target.rank(); ++k) {
    const DeviceSharding& s = ShardingOf(v);
    if (s.counts[k] == 1 || s.SameOnDim(k, target, k)) continue;
    const int64_t to = AllToAllTarget(v, k, target);
    if (to >= 0) {
      HLOGRAPH_ASSIGN(v, AllToAll(v, k, static_cast<size_t>(to)));
    }
  }
  for (size_t k = 0; k < target.rank(); ++k) {
    const DeviceSharding& s = ShardingOf(v);
    if (s.counts[k] > 1 && !s.SameOnDim(k, target, k)) {
      HLOGRAPH_ASSIGN(v, AllGather(v, k));
    }
  }
  if (ShardingOf(v) == target) return v;
  return Slice(v, target);
}

}  // namespace hlograph::passes::spmd

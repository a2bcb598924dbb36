// The rules of ops that only move or combine elements in place:
// elementwise ops, broadcast_in_dim, transpose, reshape.
#include <optional>

#include "ir/attribute.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

// The op's results at their local shapes under `s`.
StatusOr<std::vector<ir::Type>> LocalTypes(const ir::Operation& op, const DeviceSharding& s) {
  std::vector<ir::Type> types;
  for (const auto& r : op.results()) {
    HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, s.LocalShape(r->type().shape()));
    types.push_back(r->type().WithShape(shape));
  }
  return types;
}

}  // namespace

Results EmitAt(Emitter& e, const ir::Operation& op, const Operands& operands, const DeviceSharding& s) {
  HLOGRAPH_ASSIGN(const std::vector<ir::Type> types, LocalTypes(op, s));
  ir::Operation* copy = e.Copy(op, operands, types);
  std::vector<ir::Value*> results;
  for (const auto& r : copy->results()) {
    e.SetSharding(r.get(), s);
    results.push_back(r.get());
  }
  return results;
}

std::string Describe(Emitter& e, const ir::Operation& op, const Operands& operands) {
  // Bytecode has no text positions: the producer's location (the Python
  // line JAX traced) then says where.
  std::string s = "'" + op.name() + "'";
  if (op.pos().valid()) {
    s += " at " + op.pos().ToString();
  } else if (op.loc() && !op.loc()->Describe().empty()) {
    s += " at " + op.loc()->Describe();
  }
  std::string shardings;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i]->type().IsTensor() || e.ShardingOf(operands[i]).IsReplicated()) continue;
    shardings += (shardings.empty() ? "" : ", ") + std::string("operand ") + std::to_string(i) + " sharded " +
                 e.ShardingOf(operands[i]).ToHlo();
  }
  return s + (shardings.empty() ? " (operands replicated)" : " (" + shardings + ")");
}

DeviceSharding LayoutToTake(Emitter& e, const Operands& operands, size_t rank,
                            const std::function<DeviceSharding(DeviceSharding)>& as_read) {
  std::optional<DeviceSharding> best;
  bool best_inside = false;
  for (ir::Value* v : operands) {
    if (!v->type().IsTensor() || v->type().shape().size() != rank) continue;
    DeviceSharding s = as_read(e.ShardingOf(v));
    const bool inside = !e.FromOutsideTheLoop(v);
    if (!best || (inside && !best_inside) || (inside == best_inside && s.Pieces() > best->Pieces())) {
      best = std::move(s);
      best_inside = inside;
    }
  }
  return best ? *best : DeviceSharding::Replicated(rank, e.devices());
}

Results Elementwise(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const size_t rank = op.result(0)->type().shape().size();
  const DeviceSharding target = LayoutToTake(e, operands, rank, [](DeviceSharding s) { return s; });
  Operands moved;
  for (ir::Value* v : operands) {
    if (v->type().shape().size() != rank) {  // a scalar of select or clamp
      moved.push_back(v);
      continue;
    }
    HLOGRAPH_ASSIGN(ir::Value * r, e.Reshard(v, target));
    moved.push_back(r);
  }
  return EmitAt(e, op, moved, target);
}

Results BroadcastInDim(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dims = op.attr("broadcast_dimensions").as<ir::DenseArrayAttr>();
  if (dims == nullptr) return Status::Error("broadcast_in_dim without broadcast_dimensions");
  const DeviceSharding& in = e.ShardingOf(operands[0]);
  const ir::Type& result = op.result(0)->type();
  DeviceSharding out = DeviceSharding::Replicated(result.shape().size(), e.devices());
  for (size_t i = 0; i < dims->values.size(); ++i) {
    const auto d = static_cast<size_t>(dims->values[i]);
    if (in.counts[i] == 1) continue;
    // A dim of size 1 stretched cannot be cut: in.counts[i] > 1 means it keeps its size.
    out.counts[d] = in.counts[i];
    for (size_t k = 0; k < out.tiles.size(); ++k) out.tiles[k][d] = in.tiles[k][i];
  }
  return EmitAt(e, op, operands, out);
}

Results Transpose(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* perm = op.attr("permutation").as<ir::DenseArrayAttr>();
  if (perm == nullptr) return Status::Error("transpose without permutation");
  const DeviceSharding& in = e.ShardingOf(operands[0]);
  DeviceSharding out = DeviceSharding::Replicated(perm->values.size(), e.devices());
  for (size_t i = 0; i < perm->values.size(); ++i) {
    const auto from = static_cast<size_t>(perm->values[i]);
    out.counts[i] = in.counts[from];
    for (size_t k = 0; k < out.tiles.size(); ++k) out.tiles[k][i] = in.tiles[k][from];
  }
  return EmitAt(e, op, operands, out);
}

namespace {

// The dims of a reshape that map onto each other: runs of input and output
// dims of equal products (size-1 dims join the run before them).
struct DimGroup {
  std::vector<size_t> in, out;
};

std::vector<DimGroup> ReshapeGroups(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
  std::vector<DimGroup> groups;
  size_t i = 0, j = 0;
  while (i < in.size() || j < out.size()) {
    DimGroup g;
    int64_t a = 1, b = 1;
    if (i < in.size()) a *= in[i], g.in.push_back(i++);
    if (j < out.size()) b *= out[j], g.out.push_back(j++);
    while (a != b) {
      if (a < b && i < in.size()) {
        a *= in[i];
        g.in.push_back(i++);
      } else if (b < a && j < out.size()) {
        b *= out[j];
        g.out.push_back(j++);
      } else {
        return {};  // sizes of 0, or shapes of other sizes
      }
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

// The first dim of `dims` longer than 1.
std::optional<size_t> Leading(const std::vector<size_t>& dims, const std::vector<int64_t>& shape) {
  for (size_t d : dims) {
    if (shape[d] > 1) return d;
  }
  return std::nullopt;
}

}  // namespace

Results Reshape(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const std::vector<int64_t>& global_in = op.operand(0)->type().shape();
  const std::vector<int64_t>& global_out = op.result(0)->type().shape();
  const std::vector<DimGroup> groups = ReshapeGroups(global_in, global_out);
  if (groups.empty() && !global_in.empty() && !global_out.empty()) return ComputeWhole(e, op, operands);
  DeviceSharding keep = e.ShardingOf(operands[0]);
  DeviceSharding out = DeviceSharding::Replicated(global_out.size(), e.devices());
  for (const DimGroup& g : groups) {
    const std::optional<size_t> lead_in = Leading(g.in, global_in);
    const std::optional<size_t> lead_out = Leading(g.out, global_out);
    for (size_t d : g.in) {
      if (keep.counts[d] == 1) continue;
      const bool carried = lead_in && d == *lead_in && lead_out && global_out[*lead_out] % keep.counts[d] == 0;
      if (!carried) {
        keep = keep.Without(d);
        continue;
      }
      out.counts[*lead_out] = keep.counts[d];
      for (size_t k = 0; k < out.tiles.size(); ++k) out.tiles[k][*lead_out] = keep.tiles[k][d];
    }
  }
  HLOGRAPH_ASSIGN(ir::Value * moved, e.Reshard(operands[0], keep));
  return EmitAt(e, op, {moved}, out);
}

}  // namespace hlograph::passes::spmd

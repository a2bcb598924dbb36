// reduce: each device reduces its piece; where a reduced dim is cut, the
// pieces' results are combined across the devices holding its pieces.
#include <algorithm>

#include "ir/attribute.h"
#include "ir/fold_body.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {

namespace {

// Whether combining the devices' results, each folded from `init`, gives
// what one fold from `init` gives: max, min, and, or fold it in once more
// harmlessly; a sum needs 0, a product 1.
bool InitFoldsTwice(ir::OpId combiner, const ir::Value* init) {
  using ir::OpId;
  if (combiner == OpId::kMaximum || combiner == OpId::kMinimum || combiner == OpId::kAnd || combiner == OpId::kOr) {
    return true;
  }
  return (combiner == OpId::kAdd || combiner == OpId::kMultiply) && ir::IsFoldIdentity(combiner, init);
}

}  // namespace

Results Reduce(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dims_attr = op.attr("dimensions").as<ir::DenseArrayAttr>();
  if (dims_attr == nullptr || op.num_regions() != 1) return ComputeWhole(e, op, operands);
  std::vector<size_t> reduced;
  for (int64_t d : dims_attr->values) reduced.push_back(static_cast<size_t>(d));
  const size_t n = operands.size() / 2;
  DeviceSharding in = e.ShardingOf(operands[0]);
  std::vector<size_t> cut;
  for (size_t d : reduced) {
    if (in.counts[d] > 1) cut.push_back(d);
  }
  const ir::Operation* combiner = n == 1 ? ir::FoldOfBody(op) : nullptr;
  const bool combine = !cut.empty() && combiner != nullptr && InitFoldsTwice(combiner->id(), operands[1]);
  if (!combine) {
    for (size_t d : cut) in = in.Without(d);  // each device reduces whole rows
    cut.clear();
  }
  Operands moved;
  for (size_t k = 0; k < n; ++k) {
    HLOGRAPH_ASSIGN(ir::Value * v, e.Reshard(operands[k], in));
    moved.push_back(v);
  }
  for (size_t k = n; k < operands.size(); ++k) {
    HLOGRAPH_ASSIGN(ir::Value * v, e.Reshard(operands[k], DeviceSharding::Replicated(0, e.devices())));
    moved.push_back(v);
  }
  // The result keeps the pieces of the dims that stay.
  DeviceSharding out = DeviceSharding::Replicated(0, e.devices());
  for (size_t d = 0; d < in.rank(); ++d) {
    if (std::find(reduced.begin(), reduced.end(), d) != reduced.end()) continue;
    out.counts.push_back(in.counts[d]);
    for (size_t k = 0; k < out.tiles.size(); ++k) out.tiles[k].push_back(in.tiles[k][d]);
  }
  std::vector<ir::Type> types;
  for (const auto& r : op.results()) {
    HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, out.LocalShape(r->type().shape()));
    types.push_back(r->type().WithShape(shape));
  }
  ir::Operation* copy = e.Copy(op, moved, types);
  std::vector<ir::Value*> results;
  for (const auto& r : copy->results()) {
    e.SetSharding(r.get(), out);
    results.push_back(r.get());
  }
  if (!cut.empty()) {
    HLOGRAPH_ASSIGN(const auto groups, in.GroupsAlong(cut));
    results[0] = e.AllReduce(results[0], groups, &op.region(0));
  }
  return results;
}

}  // namespace hlograph::passes::spmd

// convolution, seen as a dot: the input's batch dim and the kernel's output
// features are free dims whose pieces the result keeps; the input features
// and the kernel's input features are contracted, so cut alike on both
// sides they leave each device a partial sum, added by all_reduce. That is
// a data-parallel weight gradient: JAX contracts the batch there by naming
// the activations' batch dim their feature dim. Spatial dims are windows
// and stay whole. With feature or batch groups the features (and with
// batch groups the batch) are made whole: their pieces would mix groups.
#include "ir/attribute.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

void CopyDim(DeviceSharding& to, size_t dim, const DeviceSharding& from, size_t from_dim) {
  to.counts[dim] = from.counts[from_dim];
  for (size_t k = 0; k < to.tiles.size(); ++k) to.tiles[k][dim] = from.tiles[k][from_dim];
}

int64_t IntOr(const ir::Operation& op, const char* name, int64_t otherwise) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a != nullptr ? a->value : otherwise;
}

struct Plan {
  DeviceSharding lhs, rhs, out, partial;
  int64_t pieces = 1;  // of the contraction
};

Plan Make(DeviceSharding lhs, DeviceSharding rhs, const ir::ConvDimsAttr& d, size_t out_rank, bool grouped,
          bool batch_grouped, int64_t devices) {
  for (int64_t s : d.input_spatial) lhs = lhs.Without(static_cast<size_t>(s));
  for (int64_t s : d.kernel_spatial) rhs = rhs.Without(static_cast<size_t>(s));
  const auto lb = static_cast<size_t>(d.input_batch), lf = static_cast<size_t>(d.input_feature);
  const auto ki = static_cast<size_t>(d.kernel_input_feature), ko = static_cast<size_t>(d.kernel_output_feature);
  if (batch_grouped) lhs = lhs.Without(lb);
  if (grouped) {
    lhs = lhs.Without(lf);
    rhs = rhs.Without(ki).Without(ko);
  } else if (lhs.counts[lf] > 1) {
    CopyDim(rhs, ki, lhs, lf);
  } else {
    CopyDim(lhs, lf, rhs, ki);
  }
  Plan p{lhs, rhs, DeviceSharding::Replicated(out_rank, devices), {}, lhs.counts[lf]};
  CopyDim(p.out, static_cast<size_t>(d.output_batch), lhs, lb);
  CopyDim(p.out, static_cast<size_t>(d.output_feature), rhs, ko);
  p.partial = p.out;
  p.partial.counts.push_back(lhs.counts[lf]);
  for (size_t k = 0; k < p.partial.tiles.size(); ++k) p.partial.tiles[k].push_back(lhs.tiles[k][lf]);
  return p;
}

bool Workable(const Plan& p) { return p.lhs.Valid() && p.rhs.Valid() && p.partial.Valid(); }

}  // namespace

Results Convolution(Emitter& e, const ir::Operation& op, const Operands& operands) {
  const auto* dims = op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (dims == nullptr || operands.size() != 2) return ComputeWhole(e, op, operands);
  const bool grouped = IntOr(op, "feature_group_count", 1) != 1 || IntOr(op, "batch_group_count", 1) != 1;
  const bool batch_grouped = IntOr(op, "batch_group_count", 1) != 1;
  const size_t out_rank = op.result(0)->type().shape().size();
  const DeviceSharding lhs = e.ShardingOf(operands[0]);
  const DeviceSharding rhs = e.ShardingOf(operands[1]);
  const auto ko = static_cast<size_t>(dims->kernel_output_feature);
  const auto lf = static_cast<size_t>(dims->input_feature), ki = static_cast<size_t>(dims->kernel_input_feature);
  // From most to least divided work: each fallback gathers more.
  Plan plan = Make(lhs, rhs, *dims, out_rank, grouped, batch_grouped, e.devices());
  if (!Workable(plan)) plan = Make(lhs, rhs.Without(ko), *dims, out_rank, grouped, batch_grouped, e.devices());
  if (!Workable(plan)) {
    plan = Make(lhs.Without(lf), rhs.Without(ko).Without(ki), *dims, out_rank, grouped, batch_grouped, e.devices());
  }
  if (!Workable(plan)) return ComputeWhole(e, op, operands);
  HLOGRAPH_ASSIGN(ir::Value * l, e.Reshard(operands[0], plan.lhs));
  HLOGRAPH_ASSIGN(ir::Value * r, e.Reshard(operands[1], plan.rhs));
  HLOGRAPH_ASSIGN(std::vector<ir::Value*> results, EmitAt(e, op, {l, r}, plan.out));
  if (plan.pieces == 1) return results;
  HLOGRAPH_ASSIGN(const auto groups, plan.partial.GroupsAlong({out_rank}));
  return std::vector<ir::Value*>{e.AllReduce(results[0], groups, nullptr)};
}

}  // namespace hlograph::passes::spmd

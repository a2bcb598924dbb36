// convolution, seen as a dot: the input's batch dim and the kernel's output
// features are free dims whose pieces the result keeps; the input features
// and the kernel's input features are contracted, so cut alike on both
// sides they leave each device a partial sum, added by all_reduce. That is
// a data-parallel weight gradient: JAX contracts the batch there by naming
// the activations' batch dim their feature dim. A spatial dim keeps its
// cut where each piece can be convolved alone once it has its halo (the
// edges of the pieces beside it, collective_permute): dilations 1, the
// padding summing to the window less the stride (the output the input's
// length over the stride, cut alike: "SAME"), pieces a whole number of
// strides, each side's padding at most a piece; or, where the kernel's
// spatial dim is cut alike and as long (a weight gradient: the output's
// gradient as the kernel), each device sums its rows' part of the whole
// output, added by all_reduce. Other spatial dims are made whole. With feature or batch groups the
// features (and with batch groups the batch) are made whole: their pieces
// would mix groups.
#include <algorithm>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"
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

// A spatial dim whose cut the convolution keeps (the comment above).
// `contracted`: the kernel's is cut alike and as long (a weight gradient,
// the output gradient as the kernel): each device sums over its rows, a
// partial sum of the whole (small) output, added with the others.
struct Halo {
  size_t spatial = 0;  // which of the window's dims
  size_t input = 0, kernel = 0, output = 0;
  int64_t low = 0, high = 0;
  bool contracted = false;
};

std::vector<Halo> Halos(const ir::Operation& op, const ir::ConvDimsAttr& d, const DeviceSharding& lhs,
                        const DeviceSharding& rhs) {
  const auto n = static_cast<int64_t>(d.input_spatial.size());
  namespace v = ir::verify;
  const auto strides = v::WindowAttr(op, "window_strides", n, "the spatial rank");
  const auto lhs_dilation = v::WindowAttr(op, "lhs_dilation", n, "the spatial rank");
  const auto rhs_dilation = v::WindowAttr(op, "rhs_dilation", n, "the spatial rank");
  const auto padding = v::PaddingAttr(op, "padding", n);
  const auto* reversal = op.attr("window_reversal").as<ir::DenseArrayAttr>();
  std::vector<Halo> halos;
  if (!strides.ok() || !lhs_dilation.ok() || !rhs_dilation.ok() || !padding.ok()) return halos;
  const ir::Type& input = op.operand(0)->type();
  const ir::Type& kernel = op.operand(1)->type();
  for (size_t i = 0; i < d.input_spatial.size(); ++i) {
    Halo h{i,
           static_cast<size_t>(d.input_spatial[i]),
           static_cast<size_t>(d.kernel_spatial[i]),
           static_cast<size_t>(d.output_spatial[i]),
           (*padding)[i].first,
           (*padding)[i].second,
           rhs.counts[static_cast<size_t>(d.kernel_spatial[i])] > 1};
    const int64_t pieces = lhs.counts[h.input], length = input.dim(d.input_spatial[i]);
    const int64_t window = kernel.dim(d.kernel_spatial[i]), stride = (*strides)[i];
    const int64_t output = op.result(0)->type().dim(d.output_spatial[i]);
    const bool reversed = reversal != nullptr && i < reversal->values.size() && reversal->values[i] != 0;
    if (pieces < 2 || stride < 1 || length % pieces != 0 || (*lhs_dilation)[i] != 1 || (*rhs_dilation)[i] != 1 ||
        reversed || h.low < 0 || h.high < 0 || h.low > length / pieces || h.high > length / pieces) {
      continue;
    }
    // A piece of the input, with its halos, makes its piece of the output:
    // the output 1/stride as long, each piece a whole number of strides.
    const bool pieces_out = !h.contracted && (length / pieces) % stride == 0 && output == length / stride &&
                            h.low + h.high == window - stride;
    // Or, against the kernel's piece of as many rows, a partial sum of the
    // whole output.
    const bool summed = h.contracted && stride == 1 && window == length && rhs.SameOnDim(h.kernel, lhs, h.input) &&
                        output == h.low + h.high + 1;
    if (pieces_out || summed) halos.push_back(h);
  }
  return halos;
}

bool Kept(const std::vector<Halo>& halos, int64_t input_dim) {
  for (const Halo& h : halos) {
    if (h.input == static_cast<size_t>(input_dim)) return true;
  }
  return false;
}

// `conv` without padding along the halos' dims: the halos stand for it.
void DropPadding(ir::Operation& conv, const std::vector<Halo>& halos, int64_t spatial) {
  auto padding = ir::verify::PaddingAttr(conv, "padding", spatial);
  if (!padding.ok()) return;
  std::vector<std::vector<int64_t>> rows;
  for (const auto& [low, high] : *padding) rows.push_back({low, high});
  for (const Halo& h : halos) rows[h.spatial] = {0, 0};
  conv.SetAttr("padding", ir::MakeI64Matrix(rows));
}

Plan Make(DeviceSharding lhs, DeviceSharding rhs, const ir::ConvDimsAttr& d, size_t out_rank, bool grouped,
          bool batch_grouped, int64_t devices, const std::vector<Halo>& halos) {
  for (int64_t s : d.input_spatial) {
    if (!Kept(halos, s)) lhs = lhs.Without(static_cast<size_t>(s));
  }
  for (int64_t s : d.kernel_spatial) {
    const bool contracted = std::any_of(halos.begin(), halos.end(), [&](const Halo& h) {
      return h.contracted && h.kernel == static_cast<size_t>(s);
    });
    if (!contracted) rhs = rhs.Without(static_cast<size_t>(s));
  }
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
  Plan p{lhs, rhs, DeviceSharding::Replicated(out_rank, devices), {}, 1};
  CopyDim(p.out, static_cast<size_t>(d.output_batch), lhs, lb);
  CopyDim(p.out, static_cast<size_t>(d.output_feature), rhs, ko);
  // The contraction's piece each device sums: of the features, and of
  // the spatial dims the kernel is cut along (row-major over them).
  std::vector<size_t> contracted = {lf};
  for (const Halo& h : halos) {
    if (h.contracted) {
      contracted.push_back(h.input);
    } else {
      CopyDim(p.out, h.output, lhs, h.input);
    }
  }
  p.partial = p.out;
  p.partial.counts.push_back(1);
  for (auto& t : p.partial.tiles) t.push_back(0);
  for (size_t c : contracted) {
    p.pieces *= lhs.counts[c];
    p.partial.counts.back() = p.pieces;
    for (size_t k = 0; k < p.partial.tiles.size(); ++k) {
      p.partial.tiles[k].back() = p.partial.tiles[k].back() * lhs.counts[c] + lhs.tiles[k][c];
    }
  }
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
  const std::vector<Halo> halos = Halos(op, *dims, lhs, rhs);
  const auto make = [&](const DeviceSharding& l, const DeviceSharding& r) {
    Plan p = Make(l, r, *dims, out_rank, grouped, batch_grouped, e.devices(), halos);
    if (!Workable(p) && !halos.empty()) p = Make(l, r, *dims, out_rank, grouped, batch_grouped, e.devices(), {});
    return p;
  };
  Plan plan = make(lhs, rhs);
  if (!Workable(plan)) plan = make(lhs, rhs.Without(ko));
  if (!Workable(plan)) plan = make(lhs.Without(lf), rhs.Without(ko).Without(ki));
  if (!Workable(plan)) return ComputeWhole(e, op, operands);
  std::vector<Halo> kept;
  for (const Halo& h : halos) {
    if (plan.lhs.counts[h.input] > 1) kept.push_back(h);
  }
  HLOGRAPH_ASSIGN(ir::Value * l, e.Reshard(operands[0], plan.lhs));
  HLOGRAPH_ASSIGN(ir::Value * r, e.Reshard(operands[1], plan.rhs));
  for (const Halo& h : kept) l = e.WithHalo(l, h.input, h.low, h.high);
  HLOGRAPH_ASSIGN(std::vector<ir::Value*> results, EmitAt(e, op, {l, r}, plan.out));
  if (!kept.empty()) DropPadding(*results[0]->defining_op(), kept, static_cast<int64_t>(dims->input_spatial.size()));
  if (plan.pieces == 1) return results;
  HLOGRAPH_ASSIGN(const auto groups, plan.partial.GroupsAlong({out_rank}));
  return std::vector<ir::Value*>{e.AllReduce(results[0], groups, nullptr)};
}

}  // namespace hlograph::passes::spmd

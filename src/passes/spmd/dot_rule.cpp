// dot_general. Each device multiplies its pieces, so a batch or contracting
// dim must be cut alike on both sides (the side not cut is sliced to
// match). Free dims keep their pieces in the result, unless the two sides'
// pieces would leave some block of the result on no device (both cut over
// the same devices): then the rhs's, and if need be the lhs's, are
// gathered. A cut contraction leaves each device a partial sum, added over
// the devices holding the contraction's pieces.
#include <algorithm>

#include "ir/attribute.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

std::vector<size_t> FreeDims(size_t rank, const std::vector<int64_t>& batch, const std::vector<int64_t>& contracting) {
  std::vector<size_t> free;
  for (size_t d = 0; d < rank; ++d) {
    const auto i = static_cast<int64_t>(d);
    if (std::find(batch.begin(), batch.end(), i) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), i) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

// `s` with dim `dim` cut as `from`'s dim `from_dim`.
void CopyDim(DeviceSharding& s, size_t dim, const DeviceSharding& from, size_t from_dim) {
  s.counts[dim] = from.counts[from_dim];
  for (size_t k = 0; k < s.tiles.size(); ++k) s.tiles[k][dim] = from.tiles[k][from_dim];
}

void Append(DeviceSharding& s, const DeviceSharding& from, size_t dim) {
  s.counts.push_back(from.counts[dim]);
  for (size_t k = 0; k < s.tiles.size(); ++k) s.tiles[k].push_back(from.tiles[k][dim]);
}

struct Plan {
  DeviceSharding lhs, rhs;
  // The result's sharding, and with one more dim: the piece of the
  // contraction each device holds (its partial sum's place).
  DeviceSharding out, partial;
  int64_t pieces = 1;  // of the contraction
};

Plan Make(const DeviceSharding& lhs, const DeviceSharding& rhs, const ir::DotDimsAttr& dims, int64_t devices) {
  Plan p{lhs, rhs, DeviceSharding::Replicated(0, devices), DeviceSharding::Replicated(0, devices), 1};
  const auto lfree = FreeDims(lhs.rank(), dims.lhs_batching, dims.lhs_contracting);
  const auto rfree = FreeDims(rhs.rank(), dims.rhs_batching, dims.rhs_contracting);
  for (size_t i = 0; i < dims.lhs_batching.size(); ++i) Append(p.out, lhs, static_cast<size_t>(dims.lhs_batching[i]));
  for (size_t d : lfree) Append(p.out, lhs, d);
  for (size_t d : rfree) Append(p.out, rhs, d);
  p.partial = p.out;
  // The contraction's piece, row-major over the contracting dims.
  p.partial.counts.push_back(1);
  for (auto& t : p.partial.tiles) t.push_back(0);
  for (int64_t c : dims.lhs_contracting) {
    const auto d = static_cast<size_t>(c);
    p.pieces *= lhs.counts[d];
    p.partial.counts.back() = p.pieces;
    for (size_t k = 0; k < p.partial.tiles.size(); ++k) {
      p.partial.tiles[k].back() = p.partial.tiles[k].back() * lhs.counts[d] + lhs.tiles[k][d];
    }
  }
  return p;
}

// The operands' shardings with every batch and contracting pair cut alike.
void Match(DeviceSharding& lhs, DeviceSharding& rhs, const std::vector<int64_t>& l, const std::vector<int64_t>& r) {
  for (size_t i = 0; i < l.size(); ++i) {
    const auto a = static_cast<size_t>(l[i]);
    const auto b = static_cast<size_t>(r[i]);
    if (lhs.SameOnDim(a, rhs, b)) continue;
    if (lhs.counts[a] > 1) {
      CopyDim(rhs, b, lhs, a);
    } else {
      CopyDim(lhs, a, rhs, b);
    }
  }
}

bool Workable(const Plan& p) { return p.lhs.Valid() && p.rhs.Valid() && p.partial.Valid(); }

DeviceSharding Gathered(DeviceSharding s, const std::vector<size_t>& dims) {
  for (size_t d : dims) s = s.Without(d);
  return s;
}

std::vector<size_t> AsSizes(const std::vector<int64_t>& v) { return std::vector<size_t>(v.begin(), v.end()); }

}  // namespace

Results DotGeneral(Emitter& e, const ir::Operation& op, const Operands& operands, const DeviceSharding* wanted) {
  const auto* dims = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dims == nullptr) return ComputeWhole(e, op, operands);
  DeviceSharding lhs = e.ShardingOf(operands[0]);
  DeviceSharding rhs = e.ShardingOf(operands[1]);
  const auto lfree = FreeDims(lhs.rank(), dims->lhs_batching, dims->lhs_contracting);
  const auto rfree = FreeDims(rhs.rank(), dims->rhs_batching, dims->rhs_contracting);
  // From most to least divided work: each fallback gathers more.
  const auto attempt = [&](DeviceSharding l, DeviceSharding r) {
    Match(l, r, dims->lhs_batching, dims->rhs_batching);
    Match(l, r, dims->lhs_contracting, dims->rhs_contracting);
    return Make(l, r, *dims, e.devices());
  };
  Plan plan = attempt(lhs, rhs);
  if (!Workable(plan)) plan = attempt(lhs, Gathered(rhs, rfree));
  if (!Workable(plan)) plan = attempt(Gathered(lhs, lfree), Gathered(rhs, rfree));
  if (!Workable(plan)) {
    plan = attempt(Gathered(Gathered(lhs, lfree), AsSizes(dims->lhs_contracting)),
                   Gathered(Gathered(rhs, rfree), AsSizes(dims->rhs_contracting)));
  }
  if (!Workable(plan)) return ComputeWhole(e, op, operands);
  HLOGRAPH_ASSIGN(ir::Value * l, e.Reshard(operands[0], plan.lhs));
  HLOGRAPH_ASSIGN(ir::Value * r, e.Reshard(operands[1], plan.rhs));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, plan.out.LocalShape(op.result(0)->type().shape()));
  ir::Value* result = e.Copy(op, {l, r}, {op.result(0)->type().WithShape(shape)})->result(0);
  e.SetSharding(result, plan.out);
  if (plan.pieces == 1) return std::vector<ir::Value*>{result};
  HLOGRAPH_ASSIGN(auto groups, plan.partial.GroupsAlong({plan.out.rank()}));
  // Summed straight into the pieces `wanted` asks for, when it cuts one
  // dim the result has whole into as many pieces as there are partial sums,
  // each group's members one piece each.
  for (size_t j = 0; wanted != nullptr && wanted->rank() == plan.out.rank() && j < plan.out.rank(); ++j) {
    if (plan.out.counts[j] != 1 || wanted->counts[j] != plan.pieces || shape[j] % plan.pieces != 0) continue;
    bool fits = true;
    for (size_t k = 0; k < plan.out.rank(); ++k) fits = fits && (k == j || wanted->SameOnDim(k, plan.out, k));
    auto ordered = groups;
    for (auto& g : ordered) {
      std::vector<int64_t> by_piece(g.size(), -1);
      for (int64_t d : g) {
        const int64_t piece = wanted->tiles[static_cast<size_t>(d)][j];
        if (by_piece[static_cast<size_t>(piece)] != -1) fits = false;
        by_piece[static_cast<size_t>(piece)] = d;
      }
      g = by_piece;
    }
    if (fits) return std::vector<ir::Value*>{e.ReduceScatter(result, ordered, j, *wanted)};
  }
  return std::vector<ir::Value*>{e.AllReduce(result, groups, nullptr)};
}

}  // namespace hlograph::passes::spmd

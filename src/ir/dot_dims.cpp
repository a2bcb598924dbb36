#include "ir/dot_dims.h"

#include <algorithm>

#include "ir/attribute.h"

namespace hlograph::ir {

std::vector<int64_t> DotFreeDims(int64_t rank, const std::vector<int64_t>& batching,
                                 const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batching.begin(), batching.end(), d) == batching.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

DotShape DotShapeOf(const Operation& dot) {
  DotShape d;
  const auto* dn = dot.attr("dot_dimension_numbers").as<DotDimsAttr>();
  if (dn == nullptr || dot.num_operands() < 2) return d;
  const Type& lhs = dot.operand(0)->type();
  const Type& rhs = dot.operand(1)->type();
  d.lhs_free = DotFreeDims(lhs.rank(), dn->lhs_batching, dn->lhs_contracting);
  d.rhs_free = DotFreeDims(rhs.rank(), dn->rhs_batching, dn->rhs_contracting);
  for (int64_t x : dn->lhs_batching) d.batch *= lhs.dim(x);
  for (int64_t x : d.lhs_free) d.m *= lhs.dim(x);
  for (int64_t x : d.rhs_free) d.n *= rhs.dim(x);
  for (int64_t x : dn->lhs_contracting) d.k *= lhs.dim(x);
  return d;
}

int64_t ResultDimOfRhsDim(const Operation& op, int64_t rhs_dim) {
  if (op.id() == OpId::kConvolution) {
    const auto* dn = op.attr("dimension_numbers").as<ConvDimsAttr>();
    return dn && rhs_dim == dn->kernel_output_feature ? dn->output_feature : -1;
  }
  const int64_t lhs_rank = op.operand(0)->type().rank(), rhs_rank = op.operand(1)->type().rank();
  if (op.id() == OpId::kDot) return rhs_rank == 2 && rhs_dim == 1 ? lhs_rank - 1 : -1;
  const auto* dn = op.attr("dot_dimension_numbers").as<DotDimsAttr>();
  if (!dn) return -1;
  for (size_t j = 0; j < dn->rhs_batching.size(); ++j) {
    if (dn->rhs_batching[j] == rhs_dim) return static_cast<int64_t>(j);
  }
  if (std::count(dn->rhs_contracting.begin(), dn->rhs_contracting.end(), rhs_dim)) return -1;
  const std::vector<int64_t> rhs_free = DotFreeDims(rhs_rank, dn->rhs_batching, dn->rhs_contracting);
  const int64_t lhs_free = lhs_rank - static_cast<int64_t>(dn->lhs_batching.size() + dn->lhs_contracting.size());
  const int64_t index = std::find(rhs_free.begin(), rhs_free.end(), rhs_dim) - rhs_free.begin();
  return static_cast<int64_t>(dn->lhs_batching.size()) + lhs_free + index;
}

}  // namespace hlograph::ir

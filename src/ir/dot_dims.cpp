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

}  // namespace hlograph::ir

// A dot_general's dims by role: the batch dims (paired), each operand's free
// dims (the result's middle and last dims, in order) and the contracting
// dims (paired). One place for the CPU kernel, the GPU lowering and the
// generated kernels.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/operation.h"

namespace hlograph::ir {

// The dims of a rank-`rank` operand in neither `batching` nor `contracting`,
// ascending: its free dims, in the order the result holds them.
std::vector<int64_t> DotFreeDims(int64_t rank, const std::vector<int64_t>& batching,
                                 const std::vector<int64_t>& contracting);

// out[batch, m, n] = sum over k of lhs[batch, m, k] * rhs[batch, k, n], each
// of batch, m, n and k the product of its dims' extents.
struct DotShape {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  std::vector<int64_t> lhs_free, rhs_free;  // operand dims, in the result's order
};

// The shape of a stablehlo.dot_general (all 1 without dot_dimension_numbers).
DotShape DotShapeOf(const Operation& dot);

// The result dim that rhs dim `rhs_dim` of a dot_general, dot or
// convolution becomes (a per-axis quantized weight's channel in the
// result), or -1 when it is contracted (or not the kernel's output
// feature).
int64_t ResultDimOfRhsDim(const Operation& op, int64_t rhs_dim);

}  // namespace hlograph::ir

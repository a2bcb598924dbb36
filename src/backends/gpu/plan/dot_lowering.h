// stablehlo.dot_general as a GEMM: the batch, free and contracting dims of
// each operand must be laid out as [batch][m][k] or [batch][k][m] (lhs) and
// [batch][k][n] or [batch][n][k] (rhs) for cuBLASLt; otherwise the operand
// is first permuted into that layout by a transpose kernel.
#pragma once

#include <vector>

#include "backends/gpu/runtime/gemm.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct DotLowering {
  GemmConfig config;
  // Empty when the operand can be used as it is; else the dims of the
  // operand in the order the GEMM needs (output dim i = operand dim p[i]).
  std::vector<int64_t> lhs_permutation, rhs_permutation;
};

// Errors are phrased to follow "'stablehlo.dot_general' op ".
StatusOr<DotLowering> LowerDot(const ir::Operation& op);

}  // namespace hlograph::gpu

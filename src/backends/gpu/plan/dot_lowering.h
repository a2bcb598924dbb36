// stablehlo.dot_general as a GEMM: the batch, free and contracting dims of
// each operand must be laid out as [batch][m][k] or [batch][k][m] (lhs) and
// [batch][k][n] or [batch][n][k] (rhs) for cuBLASLt; otherwise the operand
// is first permuted into that layout by a transpose kernel. The 8-bit
// products (i8, f8) take only [batch][m][k] x [batch][n][k]
// (TakesKMajorOperands). A product cuBLASLt does not take (other integer
// types, mixed types, unaligned 8-bit shapes) is an error here; the op
// classes send it to the direct product kernel instead.
#pragma once

#include <vector>

#include "backends/gpu/plan/gemm_config.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct DotLowering {
  GemmConfig config;
  // Empty when the operand can be used as it is; else the dims of the
  // operand in the order the GEMM needs (output dim i = operand dim p[i]).
  std::vector<int64_t> lhs_permutation, rhs_permutation;
};

// The precision a dot_general or convolution asks for: DEFAULT and HIGH
// mean TF32 for f32 on this hardware, as in XLA; HIGHEST (or an explicit
// f32 algorithm) means full f32. HLOGRAPH_GPU_TF32=0 makes every f32
// product full f32 (as jax_default_matmul_precision=highest does).
GemmPrecision PrecisionOf(const ir::Operation& op);

// Errors are phrased to follow "'stablehlo.dot_general' op ".
StatusOr<DotLowering> LowerDot(const ir::Operation& op);

}  // namespace hlograph::gpu

// Bias and relu after a product, computed by cuBLASLt's epilogue instead of
// a kernel of their own (as XLA's GEMM rewriter does): a dot_general whose
// only use is `+ bias[j]` (a vector along the output's last dimension,
// broadcast over its rows), optionally followed by max(., 0). An f8
// product's only use `* s` (s a broadcast scalar: the operands' per-tensor
// scales), optionally converted to bf16 or f16, is cuBLASLt's scale of A
// and its D type.
#pragma once

#include <vector>

#include "backends/gpu/plan/gemm_config.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct EpilogueMatch {
  GemmEpilogue epilogue = GemmEpilogue::kNone;
  const ir::Value* bias = nullptr;              // n elements, bias[j] at j (kScale: the scalar)
  std::vector<const ir::Operation*> absorbed;   // the add, then the maximum
  const ir::Value* result = nullptr;            // what the GEMM's output holds
};

// The epilogue `dot` can take; kNone when the pattern is not there or the
// product (batched, other types) cannot have one.
EpilogueMatch MatchEpilogue(const ir::Operation& dot, const GemmConfig& config);

}  // namespace hlograph::gpu

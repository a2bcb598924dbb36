#include "backends/gpu/plan/gemm_epilogue.h"

#include <algorithm>

#include "backends/gpu/plan/epilogue_patterns.h"

namespace hlograph::gpu {

EpilogueMatch MatchEpilogue(const ir::Operation& dot, const GemmConfig& config) {
  EpilogueMatch m;
  const ir::Value* d = dot.result(0);
  const ir::ElementType out = config.out_type;
  const bool types = out == ir::ElementType::kF32 || out == ir::ElementType::kBF16 || out == ir::ElementType::kF16;
  // (The 8-bit products run without cuBLASLt's epilogues here.)
  if (config.batch != 1 || !types || TakesKMajorOperands(config.lhs_type, config.rhs_type) || d->type().rank() != 2 || d->type().dim(0) != config.m ||
      d->type().dim(1) != config.n) {
    return m;
  }
  const ir::Operation* add = SoleUser(d);
  if (!add || add->name() != "stablehlo.add") return m;
  const ir::Value* other = OtherOperand(*add, d);
  const ir::Value* bias = other ? VectorAlong(other, 1) : nullptr;
  if (!bias || bias->type().element() != out) return m;
  m.epilogue = GemmEpilogue::kBias;
  m.bias = bias;
  m.absorbed = {add};
  m.result = add->result(0);
  const ir::Operation* max = SoleUser(add->result(0));
  if (max && max->name() == "stablehlo.maximum") {
    const ir::Value* zero = OtherOperand(*max, add->result(0));
    if (zero && IsZero(zero)) {
      m.epilogue = GemmEpilogue::kBiasRelu;
      m.absorbed.push_back(max);
      m.result = max->result(0);
    }
  }
  return m;
}

}  // namespace hlograph::gpu

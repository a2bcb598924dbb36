#include "backends/gpu/plan/gemm_epilogue.h"

#include <algorithm>

#include "backends/gpu/plan/epilogue_patterns.h"

namespace hlograph::gpu {

namespace {

// s when `v` is s broadcast from rank 0 (or s itself, of one element).
const ir::Value* BroadcastScalar(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  if (def != nullptr && def->id() == ir::OpId::kBroadcastInDim && def->operand(0)->type().rank() == 0) {
    return def->operand(0);
  }
  return v->type().NumElements() == 1 ? v : nullptr;
}

// product * s (f32 scalar), then optionally a convert to bf16/f16.
EpilogueMatch MatchScale(const ir::Operation& dot) {
  EpilogueMatch m;
  const ir::Value* d = dot.result(0);
  if (d->type().element() != ir::ElementType::kF32) return m;
  const ir::Operation* mul = SoleUser(d);
  if (!mul || mul->id() != ir::OpId::kMultiply) return m;
  const ir::Value* other = OtherOperand(*mul, d);
  const ir::Value* scale = other ? BroadcastScalar(other) : nullptr;
  if (!scale || scale->type().element() != ir::ElementType::kF32 || scale->type().rank() != 0) return m;
  m.epilogue = GemmEpilogue::kScale;
  m.bias = scale;
  m.absorbed = {mul};
  m.result = mul->result(0);
  const ir::Operation* convert = SoleUser(mul->result(0));
  if (convert && convert->id() == ir::OpId::kConvert) {
    const ir::ElementType to = convert->result(0)->type().element();
    if (to == ir::ElementType::kBF16 || to == ir::ElementType::kF16) {
      m.absorbed.push_back(convert);
      m.result = convert->result(0);
    }
  }
  return m;
}

}  // namespace

EpilogueMatch MatchEpilogue(const ir::Operation& dot, const GemmConfig& config) {
  if (ir::IsFloat(config.lhs_type) && TakesKMajorOperands(config.lhs_type, config.rhs_type)) return MatchScale(dot);
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
  if (!add || add->id() != ir::OpId::kAdd) return m;
  const ir::Value* other = OtherOperand(*add, d);
  const ir::Value* bias = other ? VectorAlong(other, 1) : nullptr;
  if (!bias || bias->type().element() != out) return m;
  m.epilogue = GemmEpilogue::kBias;
  m.bias = bias;
  m.absorbed = {add};
  m.result = add->result(0);
  const ir::Operation* max = SoleUser(add->result(0));
  if (max && max->id() == ir::OpId::kMaximum) {
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

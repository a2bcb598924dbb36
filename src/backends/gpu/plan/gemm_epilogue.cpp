#include "backends/gpu/plan/gemm_epilogue.h"

#include <algorithm>

#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

void ForEachOperand(const ir::Operation& op, const ir::Value* v, int& uses) {
  for (const ir::Value* o : op.operands()) uses += o == v;
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& inner : block->operations()) ForEachOperand(*inner, v, uses);
    }
  }
}

// The value holding bias[j] contiguously, if `v` (of rank `rank`) is
// bias[j] broadcast along every dimension but the last (of size n).
const ir::Value* RowVector(const ir::Value* v, int64_t n) {
  int64_t axis = v->type().rank() - 1;
  for (;;) {
    const ir::Type& t = v->type();
    if (axis < 0 || t.dim(axis) != n) return nullptr;
    const ir::Operation* def = v->defining_op();
    if (t.NumElements() == n) {
      // The other dims are 1: contiguous. Reshapes of it (a broadcast
      // adding unit dims too) are the same bytes: read the original.
      while (def && (def->name() == "stablehlo.reshape" || def->name() == "stablehlo.broadcast_in_dim") &&
             def->operand(0)->type().NumElements() == n) {
        v = def->operand(0);
        def = v->defining_op();
      }
      return v;
    }
    if (!def || def->name() != "stablehlo.broadcast_in_dim") return nullptr;
    const auto* dims = def->attr("broadcast_dimensions").as<ir::DenseArrayAttr>();
    if (!dims) return nullptr;
    const auto at = std::find(dims->values.begin(), dims->values.end(), axis);
    if (at == dims->values.end()) return nullptr;
    v = def->operand(0);
    axis = at - dims->values.begin();
  }
}

// Whether `v` is a splat +0 (a constant, maybe broadcast).
bool IsZero(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  while (def && def->name() == "stablehlo.broadcast_in_dim") def = def->operand(0)->defining_op();
  if (!def || def->name() != "stablehlo.constant") return false;
  const auto* value = def->attr("value").as<ir::DenseElementsAttr>();
  if (!value || !(value->splat || value->type.NumElements() == 1)) return false;
  return std::all_of(value->bytes.begin(), value->bytes.end(), [](uint8_t b) { return b == 0; });
}

const ir::Value* OtherOperand(const ir::Operation& op, const ir::Value* v) {
  if (op.num_operands() != 2) return nullptr;
  if (op.operand(0) == v && op.operand(1) != v) return op.operand(1);
  if (op.operand(1) == v && op.operand(0) != v) return op.operand(0);
  return nullptr;
}

}  // namespace

const ir::Operation* SoleUser(const ir::Value* v) {
  const ir::Block* block = v->IsBlockArgument() ? v->owner_block() : v->defining_op()->parent_block();
  const ir::Operation* found = nullptr;
  int total = 0;
  for (const auto& op : block->operations()) {
    int uses = 0;
    ForEachOperand(*op, v, uses);
    if (uses > 0) found = op.get();
    total += uses;
  }
  return total == 1 ? found : nullptr;
}

EpilogueMatch MatchEpilogue(const ir::Operation& dot, const GemmConfig& config) {
  EpilogueMatch m;
  const ir::Value* d = dot.result(0);
  const ir::ElementType out = config.out_type;
  const bool types = out == ir::ElementType::kF32 || out == ir::ElementType::kBF16 || out == ir::ElementType::kF16;
  if (config.batch != 1 || !types || d->type().rank() != 2 || d->type().dim(0) != config.m ||
      d->type().dim(1) != config.n) {
    return m;
  }
  const ir::Operation* add = SoleUser(d);
  if (!add || add->name() != "stablehlo.add") return m;
  const ir::Value* other = OtherOperand(*add, d);
  const ir::Value* bias = other ? RowVector(other, config.n) : nullptr;
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

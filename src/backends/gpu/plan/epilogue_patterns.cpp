#include "backends/gpu/plan/epilogue_patterns.h"

#include <algorithm>

#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

void CountUses(const ir::Operation& op, const ir::Value* v, int& uses) {
  for (const ir::Value* o : op.operands()) uses += o == v;
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& inner : block->operations()) CountUses(*inner, v, uses);
    }
  }
}

}  // namespace

const ir::Operation* SoleUser(const ir::Value* v) {
  const ir::Block* block = v->IsBlockArgument() ? v->owner_block() : v->defining_op()->parent_block();
  const ir::Operation* found = nullptr;
  int total = 0;
  for (const auto& op : block->operations()) {
    int uses = 0;
    CountUses(*op, v, uses);
    if (uses > 0) found = op.get();
    total += uses;
  }
  return total == 1 ? found : nullptr;
}

const ir::Value* OtherOperand(const ir::Operation& op, const ir::Value* v) {
  if (op.num_operands() != 2) return nullptr;
  if (op.operand(0) == v && op.operand(1) != v) return op.operand(1);
  if (op.operand(1) == v && op.operand(0) != v) return op.operand(0);
  return nullptr;
}

bool IsZero(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  while (def && def->id() == ir::OpId::kBroadcastInDim) def = def->operand(0)->defining_op();
  if (!def || def->id() != ir::OpId::kConstant) return false;
  const auto* value = def->attr("value").as<ir::DenseElementsAttr>();
  if (!value || !(value->splat || value->type.NumElements() == 1)) return false;
  return std::all_of(value->bytes.begin(), value->bytes.end(), [](uint8_t b) { return b == 0; });
}

const ir::Value* VectorAlong(const ir::Value* v, int64_t axis) {
  if (axis < 0 || axis >= v->type().rank()) return nullptr;
  const int64_t n = v->type().dim(axis);
  for (;;) {
    const ir::Type& t = v->type();
    if (axis < 0 || t.dim(axis) != n) return nullptr;
    const ir::Operation* def = v->defining_op();
    if (t.NumElements() == n) {
      // The other dims are 1: contiguous. Reshapes of it (a broadcast
      // adding unit dims too) are the same bytes: read the original.
      while (def && (def->id() == ir::OpId::kReshape || def->id() == ir::OpId::kBroadcastInDim) &&
             def->operand(0)->type().NumElements() == n) {
        v = def->operand(0);
        def = v->defining_op();
      }
      return v;
    }
    if (!def || def->id() != ir::OpId::kBroadcastInDim) return nullptr;
    const auto* dims = def->attr("broadcast_dimensions").as<ir::DenseArrayAttr>();
    if (!dims) return nullptr;
    const auto at = std::find(dims->values.begin(), dims->values.end(), axis);
    if (at == dims->values.end()) return nullptr;
    v = def->operand(0);
    axis = at - dims->values.begin();
  }
}

}  // namespace hlograph::gpu

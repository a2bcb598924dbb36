#include "passes/replace_uses.h"

namespace hlograph::passes {

void ReplaceUses(ir::Block& block, const ir::Value* from, ir::Value* to) {
  for (const auto& op : block.operations()) {
    for (size_t i = 0; i < op->num_operands(); ++i) {
      if (op->operand(i) == from) op->SetOperand(i, to);
    }
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) ReplaceUses(*b, from, to);
    }
  }
}

}  // namespace hlograph::passes

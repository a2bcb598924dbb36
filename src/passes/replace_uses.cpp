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

int RewriteOps(ir::Block& block, ir::Block& root, const OpRewrite& rewrite) {
  int rewritten = 0;
  for (size_t i = 0; i < block.operations().size(); ++i) {
    ir::Operation* op = block.operations()[i].get();
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) rewritten += RewriteOps(*b, root, rewrite);
    }
    const size_t before = block.operations().size();
    ir::Value* replacement = rewrite(block, i, *op);
    i += block.operations().size() - before;  // at op again, past what was inserted
    if (replacement == nullptr) continue;
    ReplaceUses(root, op->result(0), replacement);
    block.Remove(op);
    --i;
    ++rewritten;
  }
  return rewritten;
}

}  // namespace hlograph::passes

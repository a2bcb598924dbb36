#include "passes/sink_constants.h"

#include "ir/attribute.h"
#include "ir/clone.h"

namespace hlograph::passes {
namespace {

bool IsScalarConstant(const ir::Operation& op) {
  if (op.id() != ir::OpId::kConstant || op.num_results() != 1) return false;
  const auto* value = op.attr("value").as<ir::DenseElementsAttr>();
  return value && value->type.NumElements() == 1;
}

bool IsControlFlow(const ir::Operation& op) {
  using ir::OpId;
  const OpId id = op.id();
  return id == OpId::kFuncFunc || id == OpId::kWhile || id == OpId::kCase || id == OpId::kIf || id == OpId::kModule;
}

// Gives `block` its own copy of each outside scalar constant its ops read.
void SinkInto(ir::Block& block) {
  ir::ValueMap copies;
  for (size_t i = 0; i < block.operations().size(); ++i) {
    ir::Operation& op = *block.operations()[i];
    for (size_t k = 0; k < op.num_operands(); ++k) {
      ir::Value* v = op.operand(k);
      const ir::Operation* def = v->defining_op();
      if (def == nullptr || def->parent_block() == &block || !IsScalarConstant(*def)) continue;
      auto it = copies.find(v);
      if (it == copies.end()) {
        ir::ValueMap fresh;
        ir::Operation* copy = block.Insert(0, ir::CloneOperation(*def, fresh));
        ++i;  // `op` moved one place down
        it = copies.emplace(v, copy->result(0)).first;
      }
      op.SetOperand(k, it->second);
    }
  }
}

void Walk(ir::Operation& op) {
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      if (!IsControlFlow(op)) SinkInto(*block);
      for (const auto& inner : block->operations()) Walk(*inner);
    }
  }
}

}  // namespace

void SinkConstantsIntoBodies(ir::Module& module) {
  for (const auto& op : module.body().operations()) Walk(*op);
}

}  // namespace hlograph::passes

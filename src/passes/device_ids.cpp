#include "passes/device_ids.h"

#include <vector>

#include "passes/op_builder.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

// The ops of `block` and of the regions within. The constant goes before
// the op it replaces, in its block: its users are there or in regions within.
void Rewrite(ir::Block& block, int64_t replica, int64_t partition) {
  for (size_t i = 0; i < block.operations().size(); ++i) {
    ir::Operation* op = block.operations()[i].get();
    for (const auto& region : op->regions()) {
      for (const auto& inner : region->blocks()) Rewrite(*inner, replica, partition);
    }
    const bool is_replica = op->id() == ir::OpId::kReplicaId;
    if (!is_replica && op->id() != ir::OpId::kPartitionId) continue;
    if (op->num_results() != 1) continue;
    OpBuilder build(block, i, *op);
    const ir::Type type = op->result(0)->type();
    ir::Value* id = build.Splat(type, IntegerBytes(type.element(), is_replica ? replica : partition));
    ReplaceUses(block, op->result(0), id);
    i = build.position();  // the constant went before the op, now at i + 1
    block.Remove(block.operations()[i].get());
    --i;
  }
}

}  // namespace

void ReplaceDeviceIds(ir::Module& module, int64_t replica, int64_t partition) {
  ForEachFunctionBody(module, [&](ir::Block& body) { Rewrite(body, replica, partition); });
}

}  // namespace hlograph::passes

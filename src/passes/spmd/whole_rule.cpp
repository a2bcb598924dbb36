// Ops no rule divides run whole: every device gathers the operands and
// computes the op as the unpartitioned program does. That is only the same
// program when the op's value cannot depend on the device or have effects.
#include "ir/attribute.h"
#include "ir/op_def.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {
namespace {

// Why `op` cannot run whole on every device, or "".
std::string Refusal(const ir::Operation& op) {
  using ir::OpId;
  static constexpr OpId kDeviceDependent[] = {
      OpId::kPartitionId,       OpId::kReplicaId,           OpId::kAllGather,       OpId::kAllReduce,
      OpId::kReduceScatter,     OpId::kAllToAll,            OpId::kCollectivePermute,
      OpId::kCollectiveBroadcast, OpId::kCrossReplicaSum,   OpId::kRng,             OpId::kSdyManualComputation};
  for (OpId id : kDeviceDependent) {
    if (op.id() == id) return "its value depends on the device";
  }
  if (op.def().Has(ir::kHasSideEffect)) return "it has effects";
  if (op.id() == ir::OpId::kCustomCall) {
    const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
    const auto* effect = op.attr("has_side_effect").as<ir::BoolAttr>();
    if (effect != nullptr && effect->value) return "it has effects";
    if (target != nullptr && (target->value.rfind("SPMD", 0) == 0 || target->value.rfind("xla.sdy", 0) == 0)) {
      return "it is part of a manual computation";
    }
  }
  for (const auto& r : op.results()) {
    if (!r->type().IsTensor()) return "it makes a value that is no tensor";
  }
  return "";
}

bool Inside(const ir::Value* v, const ir::Operation& op) {
  for (const ir::Operation* p = v->defining_op() ? v->defining_op() : nullptr; p != nullptr; p = p->ParentOp()) {
    if (p == &op) return true;
  }
  for (const ir::Block* b = v->owner_block(); b != nullptr;) {
    const ir::Operation* parent = b->parent() ? b->parent()->parent() : nullptr;
    if (parent == &op) return true;
    b = parent ? parent->parent_block() : nullptr;
  }
  return false;
}

// Whether a region of `op` reads a value defined outside `op`.
bool ReadsFromOutside(const ir::Operation& op, const ir::Block& block) {
  for (const auto& inner : block.operations()) {
    for (const ir::Value* v : inner->operands()) {
      if (!Inside(v, op)) return true;
    }
    for (const auto& region : inner->regions()) {
      for (const auto& b : region->blocks()) {
        if (ReadsFromOutside(op, *b)) return true;
      }
    }
  }
  return false;
}

}  // namespace

bool RegionsReadFromOutside(const ir::Operation& op) {
  for (const auto& region : op.regions()) {
    for (const auto& b : region->blocks()) {
      if (ReadsFromOutside(op, *b)) return true;
    }
  }
  return false;
}

Results ComputeWhole(Emitter& e, const ir::Operation& op, const Operands& operands) {
  std::string why = Refusal(op);
  if (why.empty() && RegionsReadFromOutside(op)) why = "its regions read values from outside";
  if (!why.empty()) return Status::Error("cannot partition " + Describe(e, op, operands) + ": " + why);
  bool sharded = false;
  for (ir::Value* v : operands) sharded = sharded || (v->type().IsTensor() && !e.ShardingOf(v).IsReplicated());
  if (sharded) e.NoteWhole(op.name());
  Operands moved;
  for (ir::Value* v : operands) {
    if (!v->type().IsTensor()) {
      moved.push_back(v);
      continue;
    }
    HLOGRAPH_ASSIGN(ir::Value * whole, e.Reshard(v, e.Whole(v)));
    moved.push_back(whole);
  }
  ir::Operation* copy = e.Copy(op, moved, op.ResultTypes());
  std::vector<ir::Value*> results;
  for (const auto& r : copy->results()) results.push_back(r.get());
  return results;
}

}  // namespace hlograph::passes::spmd

#include "passes/raise_scan_composites.h"

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/op_def.h"
#include "ir/verifier.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

using Wanted = std::function<bool(const ir::Operation& scan)>;

// The chlo.scan that `composite` stands for, or null.
std::unique_ptr<ir::Operation> ScanFor(const ir::Operation& composite, const Wanted& wanted) {
  const auto* name = composite.attr("name").as<ir::StringAttr>();
  const auto* attrs = composite.attr("composite_attributes").as<ir::DictionaryAttr>();
  if (name == nullptr || name->value != "chlo.scan" || attrs == nullptr || composite.num_regions() != 1) {
    return nullptr;
  }
  auto scan = std::make_unique<ir::Operation>(ir::LookupOp(ir::OpId::kChloScan), composite.pos());
  scan->set_loc(composite.loc());
  for (ir::Value* v : composite.operands()) scan->AddOperand(v);
  for (const auto& [key, value] : attrs->entries) scan->SetAttr(key, value);
  for (const auto& r : composite.results()) scan->AddResult(r->type())->set_name_hint(r->name_hint());
  ir::ValueMap map;
  ir::CloneRegion(composite.region(0), *scan->AddRegion(), map);
  if (!ir::VerifyOperation(*scan).ok() || (wanted && !wanted(*scan))) return nullptr;
  return scan;
}

int RaiseIn(ir::Block& block, ir::Block& root, const Wanted& wanted) {
  int raised = 0;
  for (size_t i = 0; i < block.operations().size(); ++i) {
    ir::Operation* op = block.operations()[i].get();
    if (op->id() == ir::OpId::kComposite) {
      if (std::unique_ptr<ir::Operation> scan = ScanFor(*op, wanted)) {
        ir::Operation* placed = block.Insert(i, std::move(scan));
        for (size_t r = 0; r < op->num_results(); ++r) ReplaceUses(root, op->result(r), placed->result(r));
        block.Remove(op);
        ++raised;
        continue;
      }
    }
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) raised += RaiseIn(*b, root, wanted);
    }
  }
  return raised;
}

}  // namespace

int RaiseScanComposites(ir::Module& module, const Wanted& wanted) {
  int raised = 0;
  for (const auto& op : module.body().operations()) {
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) raised += RaiseIn(*b, *b, wanted);
    }
  }
  return raised;
}

}  // namespace hlograph::passes

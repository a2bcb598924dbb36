#include "ir/clone.h"

namespace hlograph::ir {

std::unique_ptr<Operation> CloneOperation(const Operation& op, ValueMap& map) {
  auto copy = std::make_unique<Operation>(&op.def(), op.pos());
  copy->set_loc(op.loc());
  for (Value* v : op.operands()) {
    auto it = map.find(v);
    copy->AddOperand(it != map.end() ? it->second : v);
  }
  for (const auto& [name, attr] : op.attributes()) copy->SetAttr(name, attr);
  for (const auto& r : op.results()) {
    Value* v = copy->AddResult(r->type());
    v->set_name_hint(r->name_hint());
    map[r.get()] = v;
  }
  for (const auto& region : op.regions()) CloneRegion(*region, *copy->AddRegion(), map);
  return copy;
}

void CloneRegion(const Region& from, Region& to, ValueMap& map) {
  for (const auto& block : from.blocks()) {
    Block* b = to.AddBlock();
    for (const auto& arg : block->arguments()) map[arg.get()] = b->AddArgument(arg->type(), arg->name_hint());
    b->argument_locs() = block->argument_locs();
    for (const auto& inner : block->operations()) b->Append(CloneOperation(*inner, map));
  }
}

std::unique_ptr<Module> CloneModule(const Module& module) {
  ValueMap map;
  return std::make_unique<Module>(CloneOperation(module.op(), map));
}

}  // namespace hlograph::ir

#include "ir/module.h"

#include "ir/op_def.h"

namespace hlograph::ir {

std::unique_ptr<Operation> NewModuleOp(SourcePos pos) {
  auto op = std::make_unique<Operation>(LookupOp(OpId::kModule), std::move(pos));
  op->AddRegion()->AddBlock();
  return op;
}

std::string Module::name() const {
  const auto* s = op_->attr("sym_name").as<StringAttr>();
  return s ? s->value : "";
}

std::vector<Operation*> Module::Functions() const {
  std::vector<Operation*> out;
  for (const auto& op : body().operations()) {
    if (op->id() == OpId::kFuncFunc) out.push_back(op.get());
  }
  return out;
}

Operation* Module::LookupFunction(const std::string& name) const {
  for (Operation* f : Functions()) {
    if (FunctionName(*f) == name) return f;
  }
  return nullptr;
}

Operation* Module::EntryFunction() const {
  if (Operation* main = LookupFunction("main")) return main;
  std::vector<Operation*> funcs = Functions();
  if (funcs.size() == 1) return funcs[0];
  Operation* only_public = nullptr;
  for (Operation* f : funcs) {
    const auto* vis = f->attr("sym_visibility").as<StringAttr>();
    if (!vis || vis->value == "public") {
      if (only_public) return nullptr;
      only_public = f;
    }
  }
  return only_public;
}

const Operation* EnclosingModule(const Operation& op) {
  for (const Operation* p = op.ParentOp(); p != nullptr; p = p->ParentOp()) {
    if (p->id() == OpId::kModule) return p;
  }
  return nullptr;
}

const Operation* LookupFunction(const Operation& from, const std::string& name) {
  const Operation* module = EnclosingModule(from);
  if (module == nullptr || module->num_regions() == 0 || module->region(0).empty()) return nullptr;
  for (const auto& op : module->region(0).front().operations()) {
    if (op->id() == OpId::kFuncFunc && FunctionName(*op) == name) return op.get();
  }
  return nullptr;
}

std::string FunctionName(const Operation& func) {
  const auto* s = func.attr("sym_name").as<StringAttr>();
  return s ? s->value : "";
}

FunctionType FunctionSignature(const Operation& func) {
  const auto* t = func.attr("function_type").as<FunctionTypeAttr>();
  return t ? t->type : FunctionType{};
}

}  // namespace hlograph::ir

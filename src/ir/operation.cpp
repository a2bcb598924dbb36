#include "ir/operation.h"

#include <algorithm>

#include "ir/op_def.h"

namespace hlograph::ir {

Block* Region::AddBlock() {
  blocks_.push_back(std::make_unique<Block>(this));
  return blocks_.back().get();
}

Value* Block::AddArgument(Type type, std::string name_hint) {
  args_.push_back(std::make_unique<Value>(std::move(type), nullptr, this,
                                          static_cast<unsigned>(args_.size())));
  args_.back()->set_name_hint(std::move(name_hint));
  arg_locs_.push_back(nullptr);
  return args_.back().get();
}

Operation* Block::Append(std::unique_ptr<Operation> op) {
  op->set_parent_block(this);
  ops_.push_back(std::move(op));
  return ops_.back().get();
}

Operation* Block::Insert(size_t at, std::unique_ptr<Operation> op) {
  op->set_parent_block(this);
  at = std::min(at, ops_.size());
  return ops_.insert(ops_.begin() + static_cast<std::ptrdiff_t>(at), std::move(op))->get();
}

std::unique_ptr<Operation> Block::Remove(Operation* op) {
  for (auto it = ops_.begin(); it != ops_.end(); ++it) {
    if (it->get() == op) {
      std::unique_ptr<Operation> taken = std::move(*it);
      ops_.erase(it);
      taken->set_parent_block(nullptr);
      return taken;
    }
  }
  return nullptr;
}

const std::string& Operation::name() const { return def_->name; }
OpId Operation::id() const { return def_->id; }

Value* Operation::AddResult(Type type) {
  results_.push_back(std::make_unique<Value>(std::move(type), this, nullptr,
                                             static_cast<unsigned>(results_.size())));
  return results_.back().get();
}

std::vector<Type> Operation::ResultTypes() const {
  std::vector<Type> types;
  for (const auto& r : results_) types.push_back(r->type());
  return types;
}

std::vector<Type> Operation::OperandTypes() const {
  std::vector<Type> types;
  for (const Value* v : operands_) types.push_back(v->type());
  return types;
}

Attribute Operation::attr(const std::string& name) const {
  auto it = std::lower_bound(attrs_.begin(), attrs_.end(), name,
                             [](const NamedAttribute& a, const std::string& n) { return a.first < n; });
  if (it != attrs_.end() && it->first == name) return it->second;
  return Attribute();
}

void Operation::SetAttr(const std::string& name, Attribute value) {
  auto it = std::lower_bound(attrs_.begin(), attrs_.end(), name,
                             [](const NamedAttribute& a, const std::string& n) { return a.first < n; });
  if (it != attrs_.end() && it->first == name) {
    it->second = std::move(value);
  } else {
    attrs_.insert(it, {name, std::move(value)});
  }
}

void Operation::RemoveAttr(const std::string& name) {
  attrs_.erase(std::remove_if(attrs_.begin(), attrs_.end(),
                              [&](const NamedAttribute& a) { return a.first == name; }),
               attrs_.end());
}

Region* Operation::AddRegion() {
  regions_.push_back(std::make_unique<Region>(this));
  return regions_.back().get();
}

Operation* Operation::ParentOp() const {
  if (!parent_block_ || !parent_block_->parent()) return nullptr;
  return parent_block_->parent()->parent();
}

}  // namespace hlograph::ir

// A module: the top-level `module @name attributes {...} { ... }` holding
// functions (func.func) and other symbols (sdy.mesh). A file may hold
// several modules separated by `// -----`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/operation.h"

namespace hlograph::ir {

class Module {
 public:
  explicit Module(std::unique_ptr<Operation> op) : op_(std::move(op)) {}
  Operation& op() const { return *op_; }
  Block& body() const { return op_->region(0).front(); }
  // The module's symbol name (`@jit_f`), empty if it has none.
  std::string name() const;
  // Looks up a func.func by its symbol name.
  Operation* LookupFunction(const std::string& name) const;
  std::vector<Operation*> Functions() const;
  // The entry function: @main if present, else the only public function,
  // else the only function. Null when ambiguous.
  Operation* EntryFunction() const;

 private:
  std::unique_ptr<Operation> op_;
};

// Builds a new, empty module op (with its body block).
std::unique_ptr<Operation> NewModuleOp(SourcePos pos);

// The builtin.module op enclosing `op`, or null.
const Operation* EnclosingModule(const Operation& op);
// The func.func named `name` in the module enclosing `from`, or null.
const Operation* LookupFunction(const Operation& from, const std::string& name);

// func.func accessors.
std::string FunctionName(const Operation& func);
FunctionType FunctionSignature(const Operation& func);

}  // namespace hlograph::ir

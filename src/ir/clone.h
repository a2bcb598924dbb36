// Deep copies of IR: an operation with its results, attributes, location
// and regions, or a whole module.
#pragma once

#include <memory>
#include <unordered_map>

#include "ir/module.h"
#include "ir/operation.h"

namespace hlograph::ir {

// Old value -> its copy. Operands found here are remapped; others (values
// defined outside what is copied) are kept. Copying adds the copies of the
// op's results and block arguments.
using ValueMap = std::unordered_map<const Value*, Value*>;

std::unique_ptr<Operation> CloneOperation(const Operation& op, ValueMap& map);
// Appends copies of `from`'s blocks to `to` (a region of a new op: a pass
// giving an op the body of another).
void CloneRegion(const Region& from, Region& to, ValueMap& map);
std::unique_ptr<Module> CloneModule(const Module& module);

}  // namespace hlograph::ir

// Prints IR in MLIR's pretty form: each op in the syntax its OpDef declares
// (the generic form where it declares none). Printing is a fixed point:
// parse(print(m)) prints the same text.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlograph::ir {

struct PrintOptions {
  bool debug_info = false;  // print loc(...) after ops and arguments
  bool generic = false;     // print every op in the generic form
};

std::string PrintModule(const Module& module, const PrintOptions& options = {});
// Modules separated by `// -----` lines, as in a multi-module file.
std::string PrintModules(const std::vector<std::unique_ptr<Module>>& modules, const PrintOptions& options = {});
// One op and everything nested in it; value names are local to this print.
std::string PrintOperation(const Operation& op, const PrintOptions& options = {});

}  // namespace hlograph::ir

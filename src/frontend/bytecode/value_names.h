// Bytecode carries no value names, so the reader names values the way
// MLIR's printer would have (%arg0, %0, %cst, %c_1, %iterArg, %output_state),
// and a module read from bytecode prints as MLIR prints it.
#pragma once

#include "ir/operation.h"

namespace hlograph::frontend::bytecode {

// Sets the name hint of every value nested in `top` (a builtin.module).
void AssignMlirValueNames(ir::Operation& top);

}  // namespace hlograph::frontend::bytecode

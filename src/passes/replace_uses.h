// Redirecting a value's uses, for passes that replace ops.
#pragma once

#include "ir/operation.h"

namespace hlograph::passes {

// Replaces every use of `from` by `to` in `block` and the regions within.
void ReplaceUses(ir::Block& block, const ir::Value* from, ir::Value* to);

}  // namespace hlograph::passes

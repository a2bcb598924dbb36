// What passes that replace ops share: redirecting a value's uses, and
// visiting every function's body.
#pragma once

#include "ir/module.h"
#include "ir/operation.h"

namespace hlograph::passes {

// Replaces every use of `from` by `to` in `block` and the regions within.
void ReplaceUses(ir::Block& block, const ir::Value* from, ir::Value* to);

// Calls fn(body) for the body block of every function of `module`.
template <typename Fn>
void ForEachFunctionBody(ir::Module& module, Fn&& fn) {
  for (const auto& op : module.body().operations()) {
    for (const auto& region : op->regions()) {
      for (const auto& block : region->blocks()) fn(*block);
    }
  }
}

}  // namespace hlograph::passes

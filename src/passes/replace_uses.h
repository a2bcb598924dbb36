// What passes that replace ops share: redirecting a value's uses, and
// visiting every function's body.
#pragma once

#include <functional>

#include "ir/module.h"
#include "ir/operation.h"

namespace hlograph::passes {

// Replaces every use of `from` by `to` in `block` and the regions within.
void ReplaceUses(ir::Block& block, const ir::Value* from, ir::Value* to);

// For every op of `block` and of the blocks nested in it (theirs first):
// `rewrite(b, i, op)` may insert ops before position i of its block b and
// return the value that replaces op's result; op's uses in `root` then
// take it and op goes. A null return leaves op (and whatever was
// inserted: unread). Returns how many ops went.
using OpRewrite = std::function<ir::Value*(ir::Block& block, size_t at, const ir::Operation& op)>;
int RewriteOps(ir::Block& block, ir::Block& root, const OpRewrite& rewrite);

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

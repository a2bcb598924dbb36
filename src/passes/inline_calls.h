// Inlines every func.call (and every composite, by its decomposition) of a
// module's entry function, recursively, so that later stages see one body:
// fusion then crosses what were function boundaries (JAX wraps relu, gelu
// and friends in private functions).
#pragma once

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place. Fails on recursion and on calls to functions
// the module does not define (the module may then be partly inlined, still
// valid: each step replaces one call by an equivalent body).
Status InlineCalls(ir::Module& module);

}  // namespace hlograph::passes

// Copies the scalar constants that an op's body reads from outside into
// the body. Serialized artifacts hoist them: jax.export's canonicalization
// moves the constants of sort comparators and reduction bodies out to the
// enclosing function, and the GPU backend compiles a body only when it
// reads nothing but its own arguments and values (a device function per
// body). Bodies of control flow (while, case, if) are left alone: they read
// the enclosing values at run time anyway.
#pragma once

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place; always succeeds.
void SinkConstantsIntoBodies(ir::Module& module);

}  // namespace hlograph::passes

// Turns JAX's exported scans back into chlo.scan ops. jax.export writes a
// chlo.scan (jnp.cumsum for CUDA) as `stablehlo.composite "chlo.scan"`
// holding the scan's body as a region and its attributes in
// composite_attributes, with a while loop as its decomposition. Inlining
// that loop would scan one slice a trip; as a chlo.scan the GPU backend
// runs it as one parallel scan kernel. The text and the bytecode front
// ends keep the composite as written (it prints as MLIR prints it); the
// backends that want the op run this pass.
#pragma once

#include <functional>

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place. A composite whose attributes or body do not
// make a valid chlo.scan, or whose scan `wanted` refuses (one the backend
// would not run), is left alone: its decomposition still defines it.
// Returns how many composites became scans.
int RaiseScanComposites(ir::Module& module,
                        const std::function<bool(const ir::Operation& scan)>& wanted = nullptr);

}  // namespace hlograph::passes

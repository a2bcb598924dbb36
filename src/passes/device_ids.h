// replica_id and partition_id as constants of one device's ids. A backend
// that compiles a program for one device of a grid (the GPU backend, one
// executable per device) knows them when it plans: as splat constants they
// are computed inside the kernels that read them, no kernel of their own.
#pragma once

#include <cstdint>

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place: every stablehlo.replica_id becomes a constant
// holding `replica`, every stablehlo.partition_id one holding `partition`,
// of the op's result type (tensor<ui32>), in every function and region.
void ReplaceDeviceIds(ir::Module& module, int64_t replica, int64_t partition);

}  // namespace hlograph::passes

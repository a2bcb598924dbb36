// The text PJRT_Executable_OptimizedProgram gives for a program compiled
// for several devices. The framework reads it back through XLA's StableHLO
// converter, which takes no Shardy region ops, and learns from it how each
// device's arguments and results are laid out. So manual computations are
// spelled as XLA's own SPMD custom calls (@Sharding, @SPMDFullToShardShape,
// @SPMDShardToFullShape with mhlo.sharding), Shardy's annotations as
// @Sharding or nothing, and the module names each argument's and result's
// sharding (mhlo.spmd_parameters_shardings, mhlo.spmd_output_sharding).
#pragma once

#include <string>

#include "hlograph/status.h"
#include "ir/module.h"
#include "pjrt/backend.h"

namespace hlograph::pjrt {

StatusOr<std::string> XlaProgramText(const ir::Module& module, const GridRunner::Signature& signature);

}  // namespace hlograph::pjrt

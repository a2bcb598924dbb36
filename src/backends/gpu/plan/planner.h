// From the IR to a GpuProgram: which ops fuse into which kernels, which
// values need memory, and the steps that run them (see program.h). Runs
// before any CUDA call. The buffer plan (buffer_plan.h) then places temps.
#pragma once

#include "backends/gpu/plan/program.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::gpu {

// Plans the module's entry function (@main, or its only function), on a
// copy with every call inlined (kept in the program), for the device at
// `place` of its grid (one device unless told otherwise: collectives then
// run over groups of that one device). Ops the GPU backend cannot run yet
// are errors naming the op and its position.
StatusOr<GpuProgram> PlanProgram(const ir::Module& module, const DevicePlace& place = {});

}  // namespace hlograph::gpu

// A collective step (plan/program.h's CollectiveStep) queued on a stream
// through NCCL, or captured from it into a graph: staged pieces copied
// rank after rank first, the operands' calls as one NCCL group, received
// pieces laid into the results after.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "backends/gpu/plan/program.h"
#include "backends/gpu/runtime/nccl_communicators.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

// `comm`: the communicator of the step's group at this device's rank
// (null when the device is in no group: its results are zeros). `ptrs`:
// a device address per BufferId.
Status QueueCollective(const CollectiveStep& step, ncclComm* comm, const std::vector<void*>& ptrs,
                       cudaStream_t stream);

}  // namespace hlograph::gpu

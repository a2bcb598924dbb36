// CUDA, NVRTC and cuBLAS(Lt) results as Status values naming the call that
// failed: "cudaMalloc(1073741824 bytes) failed: out of memory
// (cudaErrorMemoryAllocation)". Nothing here aborts.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <string>

#include "hlograph/status.h"

namespace hlograph::gpu {

Status CudaStatus(cudaError_t error, const std::string& call);
Status NvrtcStatus(nvrtcResult result, const std::string& call);
Status CublasStatus(cublasStatus_t status, const std::string& call);

// Whether `status` came from a device allocation that ran out of memory.
bool IsOutOfMemory(const Status& status);

}  // namespace hlograph::gpu

// Returns from the enclosing function with a Status naming the call.
#define HLOGRAPH_CUDA(call) HLOGRAPH_TRY(::hlograph::gpu::CudaStatus((call), #call))

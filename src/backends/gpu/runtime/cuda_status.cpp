#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {

Status CudaStatus(cudaError_t error, const std::string& call) {
  if (error == cudaSuccess) return Status::Ok();
  const char* description = cudaGetErrorString(error);
  const char* name = cudaGetErrorName(error);
  std::string message = call + " failed: " + (description != nullptr ? description : "unknown error");
  message += " (";
  message += name != nullptr ? name : ("cudaError " + std::to_string(static_cast<int>(error))).c_str();
  message += ")";
  return Status::Error(std::move(message));
}

Status NvrtcStatus(nvrtcResult result, const std::string& call) {
  if (result == NVRTC_SUCCESS) return Status::Ok();
  const char* description = nvrtcGetErrorString(result);
  return Status::Error(call + " failed: " + (description != nullptr ? description : "unknown NVRTC error") +
                       " (nvrtcResult " + std::to_string(static_cast<int>(result)) + ")");
}

Status CublasStatus(cublasStatus_t status, const std::string& call) {
  if (status == CUBLAS_STATUS_SUCCESS) return Status::Ok();
  const char* name = cublasLtGetStatusName(status);
  const char* description = cublasLtGetStatusString(status);
  std::string message = call + " failed: ";
  message += description != nullptr ? description : "unknown cuBLAS error";
  message += " (";
  message += name != nullptr ? name : ("cublasStatus " + std::to_string(static_cast<int>(status))).c_str();
  message += ")";
  return Status::Error(std::move(message));
}

bool IsOutOfMemory(const Status& status) {
  if (status.ok()) return false;
  const std::string& m = status.message();
  return m.find("out of device memory") != std::string::npos ||
         m.find("(cudaErrorMemoryAllocation)") != std::string::npos ||
         m.find("(CUBLAS_STATUS_ALLOC_FAILED)") != std::string::npos;
}

}  // namespace hlograph::gpu

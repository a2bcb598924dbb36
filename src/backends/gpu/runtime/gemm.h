// Matrix products through cuBLASLt. A GemmConfig (plan/gemm_config.h: plain
// data, with the operands' layout) bound to a cuBLASLt handle with its
// descriptors and chosen algorithm is a GemmPlan, created once at compile
// time and run many times.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "backends/gpu/plan/gemm_config.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

// One cuBLASLt handle; create one per executable (or per thread).
class BlasHandle {
 public:
  static StatusOr<std::shared_ptr<BlasHandle>> Create();
  ~BlasHandle();
  cublasLtHandle_t get() const { return handle_; }

 private:
  cublasLtHandle_t handle_ = nullptr;
};

class GemmPlan {
 public:
  // Builds the descriptors and asks cuBLASLt's heuristic for the best
  // algorithm that fits in `max_workspace_bytes`.
  static StatusOr<std::unique_ptr<GemmPlan>> Create(const GemmConfig& config, std::shared_ptr<BlasHandle> handle,
                                                    size_t max_workspace_bytes = 32 << 20);
  ~GemmPlan();
  const GemmConfig& config() const { return config_; }
  size_t workspace_bytes() const { return workspace_bytes_; }
  // `workspace` must hold workspace_bytes(); nothing is allocated here, so a
  // Run can be captured into a CUDA graph. lhs, rhs and out must be 16-byte
  // aligned (the algorithm is chosen for that; cudaMalloc gives 256).
  // `bias` (n elements of the output type) for the bias epilogues.
  Status Run(const void* lhs, const void* rhs, void* out, void* workspace, cudaStream_t stream,
             const void* bias = nullptr) const;

  // Times the heuristic's candidates on scratch buffers and keeps the
  // fastest (XLA autotunes too: for big products the first pick can be
  // several percent off). Allocates and frees scratch device memory.
  Status Autotune(cudaStream_t stream);

 private:
  GemmPlan() = default;
  struct Descriptors;
  GemmConfig config_;
  std::shared_ptr<BlasHandle> handle_;
  std::unique_ptr<Descriptors> descriptors_;
  size_t workspace_bytes_ = 0;
};

}  // namespace hlograph::gpu

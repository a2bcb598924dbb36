// FFTs through cuFFT. An FftConfig (plan/fft_config.h: plain data) bound
// to a cuFFT plan made once, at compile time, is an FftPlan; its Run
// queues the transform and, for an inverse, the 1/N scaling (cuFFT leaves
// inverse transforms unscaled) on a stream, so it can be captured into a
// CUDA graph like the other library calls.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>

#include "backends/gpu/plan/fft_config.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

// The kernel scaling `n` real values (float, or double if `f64`) in place:
// compiled by NVRTC like the generated kernels (the executable does it).
extern const char* const kFftScaleKernelName;
const char* FftScaleKernelSource();

class FftPlan {
 public:
  // Makes the cuFFT plan (no work area of its own: Run is given one).
  // `scale_kernel`: kFftScaleKernelName, for configs whose scale is not 1.
  static StatusOr<std::unique_ptr<FftPlan>> Create(const FftConfig& config, cudaKernel_t scale_kernel);
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  const FftConfig& config() const { return config_; }
  // cuFFT's work area, then (C2R) room for the copy of the input it reads.
  size_t workspace_bytes() const;
  // Nothing is allocated here. `in` is not written (C2R reads a copy of it
  // made in the workspace).
  Status Run(const void* in, void* out, void* workspace, cudaStream_t stream) const;

 private:
  FftPlan() = default;
  FftConfig config_;
  int handle_ = 0;  // cufftHandle
  bool made_ = false;
  size_t work_bytes_ = 0;
  cudaKernel_t scale_kernel_ = nullptr;
};

}  // namespace hlograph::gpu

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

// The kernels a plan queues besides cuFFT's, in one source compiled by
// NVRTC like the generated kernels (the executable does it, once): the
// 1/N scaling of an inverse transform's result, and the copy of a C2R
// transform's input that cuFFT reads.
extern const char* const kFftScaleKernelName;
extern const char* const kFftHermitianCopyKernelName;
const char* FftKernelSource();
struct FftKernels {
  cudaKernel_t scale = nullptr;
  cudaKernel_t hermitian_copy = nullptr;
};

class FftPlan {
 public:
  // Makes the cuFFT plan (no work area of its own: Run is given one).
  // `kernels` are needed by inverse transforms (scale not 1).
  static StatusOr<std::unique_ptr<FftPlan>> Create(const FftConfig& config, const FftKernels& kernels);
  ~FftPlan();
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  const FftConfig& config() const { return config_; }
  // cuFFT's work area, then (C2R) room for the copy of the input it reads.
  size_t workspace_bytes() const;
  // Nothing is allocated here. `in` is not written: C2R reads a copy of it
  // made in the workspace, whose self-conjugate bins are made Hermitian
  // (what a real signal's spectrum is; cuFFT's result is undefined for
  // other input, where the interpreter's drops their imaginary parts).
  Status Run(const void* in, void* out, void* workspace, cudaStream_t stream) const;
  // Runs the transform once on zeros in buffers of its own and waits (the
  // first plan of its configuration on this device in the process): an
  // error here (cuFFT failing to execute a plan it made) lets the caller
  // plan the transform otherwise before any call depends on it.
  Status Trial() const;

 private:
  FftPlan() = default;
  Status QueueHermitianCopy(const void* in, void* copy, cudaStream_t stream) const;
  Status RunOnZeros() const;
  FftConfig config_;
  int handle_ = 0;  // cufftHandle
  bool made_ = false;
  size_t work_bytes_ = 0;
  FftKernels kernels_;
};

}  // namespace hlograph::gpu

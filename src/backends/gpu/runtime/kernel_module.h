// Generated kernels: a cubin loaded into the current context (CUDA runtime
// library API: cudaLibraryLoadData / cudaLibraryGetKernel) and launched.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>

#include "hlograph/status.h"

namespace hlograph::gpu {

struct LaunchDims {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t shared_bytes = 0;
  std::string ToString() const;  // "grid 1024x1x1 block 256x1x1"
};

// A loaded cubin; unloaded on destruction. Move-only.
class KernelModule {
 public:
  static StatusOr<KernelModule> Load(const std::string& cubin);
  KernelModule() = default;
  ~KernelModule();
  KernelModule(KernelModule&& other) noexcept;
  KernelModule& operator=(KernelModule&& other) noexcept;
  KernelModule(const KernelModule&) = delete;
  KernelModule& operator=(const KernelModule&) = delete;

  // The kernel named `name` (extern "C"); an error names the kernel.
  StatusOr<cudaKernel_t> GetKernel(const std::string& name) const;

 private:
  cudaLibrary_t library_ = nullptr;
};

// Opts the kernel into the dynamic shared memory `dims` asks for beyond the
// default 48 KiB (before a launch or a graph kernel node).
Status PrepareKernel(cudaKernel_t kernel, const LaunchDims& dims);

// Launches `kernel` with `args` (pointers to each parameter's value).
Status LaunchKernel(cudaKernel_t kernel, const LaunchDims& dims, void** args, cudaStream_t stream);

}  // namespace hlograph::gpu

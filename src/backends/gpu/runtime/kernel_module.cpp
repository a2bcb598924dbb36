#include "backends/gpu/runtime/kernel_module.h"

#include <utility>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {

std::string LaunchDims::ToString() const {
  std::string s = "grid " + std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
                  " block " + std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" +
                  std::to_string(block[2]);
  if (shared_bytes != 0) s += " shared " + std::to_string(shared_bytes);
  return s;
}

StatusOr<KernelModule> KernelModule::Load(const std::string& cubin) {
  if (cubin.empty()) return Status::Error("cannot load an empty cubin");
  KernelModule module;
  HLOGRAPH_TRY(CudaStatus(cudaLibraryLoadData(&module.library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
                          "cudaLibraryLoadData(" + std::to_string(cubin.size()) + " bytes)"));
  return module;
}

KernelModule::~KernelModule() {
  if (library_ != nullptr) (void)cudaLibraryUnload(library_);
}

KernelModule::KernelModule(KernelModule&& other) noexcept : library_(std::exchange(other.library_, nullptr)) {}

KernelModule& KernelModule::operator=(KernelModule&& other) noexcept {
  if (this != &other) {
    if (library_ != nullptr) (void)cudaLibraryUnload(library_);
    library_ = std::exchange(other.library_, nullptr);
  }
  return *this;
}

StatusOr<cudaKernel_t> KernelModule::GetKernel(const std::string& name) const {
  if (library_ == nullptr) return Status::Error("kernel '" + name + "' requested from an unloaded module");
  cudaKernel_t kernel = nullptr;
  HLOGRAPH_TRY(CudaStatus(cudaLibraryGetKernel(&kernel, library_, name.c_str()),
                          "cudaLibraryGetKernel('" + name + "')"));
  return kernel;
}

Status PrepareKernel(cudaKernel_t kernel, const LaunchDims& dims) {
  constexpr uint32_t kDefaultSharedLimit = 48 << 10;
  if (dims.shared_bytes <= kDefaultSharedLimit) return Status::Ok();
  // More than 48 KiB of dynamic shared memory must be opted into.
  return CudaStatus(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(dims.shared_bytes)),
                    "cudaFuncSetAttribute(max dynamic shared memory " + std::to_string(dims.shared_bytes) + " bytes)");
}

Status LaunchKernel(cudaKernel_t kernel, const LaunchDims& dims, void** args, cudaStream_t stream) {
  for (int i = 0; i < 3; ++i) {
    if (dims.grid[i] == 0 || dims.block[i] == 0) {
      return Status::Error("cannot launch a kernel with an empty " + dims.ToString());
    }
  }
  HLOGRAPH_TRY(PrepareKernel(kernel, dims));
  // A kernel handle from cudaLibraryGetKernel stands for the function pointer
  // of the runtime API's launch and attribute calls.
  const void* function = reinterpret_cast<const void*>(kernel);
  dim3 grid(dims.grid[0], dims.grid[1], dims.grid[2]);
  dim3 block(dims.block[0], dims.block[1], dims.block[2]);
  return CudaStatus(cudaLaunchKernel(function, grid, block, args, dims.shared_bytes, stream),
                    "cudaLaunchKernel(" + dims.ToString() + ")");
}

}  // namespace hlograph::gpu

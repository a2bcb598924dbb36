#include "pjrt/backend.h"

#include <cstdlib>

namespace hlograph::pjrt {

StatusOr<std::shared_ptr<Backend>> MakeBackend() {
  const char* env = std::getenv("HLOGRAPH_PJRT_BACKEND");
  const std::string choice = env && *env ? env : "auto";
  if (choice == "cpu") return MakeCpuBackend();
  if (choice == "gpu") return MakeGpuBackend();
  if (choice != "auto") {
    return Status::Error("HLOGRAPH_PJRT_BACKEND is \"" + choice + "\"; expected cpu, gpu or auto");
  }
  auto gpu = MakeGpuBackend();
  if (gpu.ok()) return gpu;
  return MakeCpuBackend();
}

#ifndef HLOGRAPH_WITH_GPU_BACKEND
Status GpuBackendUsable() {
  return Status::Error("this build of the plugin has no GPU backend (it needs the CUDA toolkit at build time)");
}

StatusOr<std::shared_ptr<Backend>> MakeGpuBackend() { return GpuBackendUsable(); }

Status SetMemoryBudget(const std::string& text) { return Status::Ok(); }
#endif

}  // namespace hlograph::pjrt

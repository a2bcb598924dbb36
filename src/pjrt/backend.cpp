#include "pjrt/backend.h"

#include <cstdlib>

#include "runtime/backend_choice.h"

namespace hlograph::pjrt {

StatusOr<std::shared_ptr<Backend>> MakeBackend() {
  const char* env = std::getenv("HLOGRAPH_PJRT_BACKEND");
  const std::string requested = env && *env ? env : "auto";
  HLOGRAPH_ASSIGN(const runtime::BackendChoice choice, runtime::ChooseBackend(requested, "HLOGRAPH_PJRT_BACKEND"));
  if (choice.kind == runtime::BackendKind::kCpu) return MakeCpuBackend();
  auto gpu = MakeGpuBackend();
  if (gpu.ok() || requested == "gpu") return gpu;
  return MakeCpuBackend();  // "auto": a GPU whose context would not start
}

Status GpuBackendUsable() { return runtime::GpuUsable(); }

#ifndef HLOGRAPH_WITH_GPU_BACKEND
StatusOr<std::shared_ptr<Backend>> MakeGpuBackend() { return GpuBackendUsable(); }

Status SetMemoryBudget(const std::string& text) { return Status::Ok(); }
#endif

}  // namespace hlograph::pjrt

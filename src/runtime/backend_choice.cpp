#include "runtime/backend_choice.h"

#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#endif

namespace hlograph::runtime {

Status GpuUsable() {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (!gpu::GpuAvailable()) return Status::Error("no GPU is available (no CUDA device or driver found)");
  return Status::Ok();
#else
  return Status::Error("this build of hlograph has no GPU backend (it needs the CUDA toolkit at build time)");
#endif
}

StatusOr<BackendChoice> ChooseBackend(const std::string& requested, const std::string& setting,
                                      const ir::Module* module) {
  BackendChoice choice;
  if (requested == "cpu") return choice;
  if (requested == "gpu") {
    const Status usable = GpuUsable();
    if (!usable.ok()) return Status::Error(setting + " \"gpu\": " + usable.message());
    choice.kind = BackendKind::kGpu;
    return choice;
  }
  if (requested != "auto") {
    return Status::Error(setting + " \"" + requested + "\": expected \"auto\", \"cpu\" or \"gpu\"");
  }
  if (!GpuUsable().ok()) return choice;
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (module != nullptr) {
    const auto plan = gpu::PlanProgram(*module);
    if (!plan.ok()) {
      const std::string& why = plan.status().message();
      choice.note = why.substr(0, why.find('\n'));
      return choice;
    }
  }
#endif
  choice.kind = BackendKind::kGpu;
  return choice;
}

}  // namespace hlograph::runtime

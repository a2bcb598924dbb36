// Which backend runs programs: the one decision the C++ API's Client, the
// `hlograph` command and the PJRT plugin all make, each from a setting of
// its own ("auto", "cpu" or "gpu").
#pragma once

#include <string>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::runtime {

enum class BackendKind { kCpu, kGpu };

struct BackendChoice {
  BackendKind kind = BackendKind::kCpu;
  // Why "auto" chose the CPU although this build has a GPU backend and the
  // machine a GPU (the GPU backend cannot plan the program); else empty.
  std::string note;
  const char* name() const { return kind == BackendKind::kGpu ? "gpu" : "cpu"; }
};

// Whether this build and machine run the GPU backend; else why not.
Status GpuUsable();

// `requested` is the setting's value and `setting` its name in messages
// ("backend", "--backend", "HLOGRAPH_PJRT_BACKEND"). "gpu" fails when the
// GPU is not usable; "auto" takes the GPU when it is usable and, given a
// module, when the GPU backend plans it, else the CPU.
StatusOr<BackendChoice> ChooseBackend(const std::string& requested, const std::string& setting,
                                      const ir::Module* module = nullptr);

}  // namespace hlograph::runtime

// What a public Executable holds (include/hlograph/executable.h): the
// parsed module and, on the GPU, the compiled executable.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/array.h"
#include "hlograph/executable.h"
#include "hlograph/status.h"
#include "ir/module.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#endif

namespace hlograph {

struct Executable::Impl {
  std::string backend_name;  // "cpu" or "gpu"
  std::string backend_note;  // why "auto" chose the CPU for this program, else empty
  std::string name;          // the compiled function's
  std::unique_ptr<ir::Module> module;
  const ir::Operation* function = nullptr;  // in `module`: the entry, or CompileOptions::function
  std::vector<ArrayType> parameter_types;
  std::vector<ArrayType> result_types;
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  std::unique_ptr<gpu::GpuExecutable> gpu;  // null on the CPU
#endif
  std::mutex mutex;  // one Execute at a time

  // Checks `args` against parameter_types.
  Status CheckArguments(const std::vector<Array>& args) const;
  StatusOr<std::vector<cpu::Tensor>> Run(const std::vector<cpu::Tensor>& args);
};

}  // namespace hlograph

// `hlograph explain`: the GPU plan of a module, printed without a GPU:
// buffers and the memory plan, the kernels (with the ops each one fuses,
// its strategy and launch), GEMMs, loops and cases.
#pragma once

#include <string>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::gpu {

struct ExplainOptions {
  bool kernel_source = false;  // also print each kernel's CUDA C++
};

StatusOr<std::string> ExplainModule(const ir::Module& module, const ExplainOptions& options = {});

}  // namespace hlograph::gpu

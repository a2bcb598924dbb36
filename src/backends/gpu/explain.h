// `hlograph explain`: the GPU plan of a module, printed without a GPU:
// buffers and the memory plan, the kernels (with the ops each one fuses,
// its strategy and launch), GEMMs, loops and cases, and the CUDA graph plan
// (plan/graph_plan.h): nodes, conditional nodes, unrolling, what stays
// outside the graph.
#pragma once

#include <string>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::gpu {

struct ExplainOptions {
  bool kernel_source = false;  // also print each kernel's CUDA C++
};

struct Explanation {
  std::string text;
  std::string dot;  // the graph plan as Graphviz
};

StatusOr<Explanation> ExplainModule(const ir::Module& module, const ExplainOptions& options = {});

}  // namespace hlograph::gpu

// `hlograph explain`: how the GPU backend would run a program (no GPU needed).
#include <iostream>

#include "commands.h"
#include "program_input.h"

#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/explain.h"
#include "backends/gpu/runtime/memory_budget.h"
#include "io/file_util.h"
#endif

namespace hlograph::cli {

int Explain(const Options& o) {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  auto loaded = LoadVerified(o.files[0]);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return 1;
  }
  if (!o.memory_budget.empty()) {  // the budget decides where large temps live
    const Status set = gpu::MemoryBudget::Global().SetLimit(o.memory_budget, "--memory-budget " + o.memory_budget);
    if (!set.ok()) {
      std::cerr << "error: --memory-budget: " << set.message() << "\n";
      return 1;
    }
  }
  std::string text, dot;
  for (size_t i = 0; i < loaded->modules.size(); ++i) {
    gpu::ExplainOptions options;
    options.kernel_source = o.kernel_source;
    auto explained = gpu::ExplainModule(*loaded->modules[i], options);
    if (!explained.ok()) {
      std::cerr << explained.status().message() << "\n";
      return 1;
    }
    if (loaded->modules.size() > 1) text += "// module " + std::to_string(i) + "\n";
    text += explained->text;
    dot += explained->dot;  // one digraph per module
  }
  if (!o.dot.empty()) {
    const Status written = io::WriteFileAtomically(o.dot, [&](const io::ByteSink& sink) {
      return sink(dot.data(), dot.size());
    });
    if (!written.ok()) {
      std::cerr << written.message() << "\n";
      return 1;
    }
  }
  std::cout << text;
  return 0;
#else
  std::cerr << "hlograph: this build has no GPU backend (it needs the CUDA toolkit at build time)\n";
  return 1;
#endif
}

}  // namespace hlograph::cli

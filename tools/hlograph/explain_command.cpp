// `hlograph explain`: how the GPU backend would run a program (no GPU needed).
#include <iostream>

#include "commands.h"

#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/explain.h"
#endif

namespace hlograph::cli {

int Explain(const Options& o) {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  auto loaded = LoadVerified(o.files[0]);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return 1;
  }
  for (size_t i = 0; i < loaded->modules.size(); ++i) {
    gpu::ExplainOptions options;
    options.kernel_source = o.kernel_source;
    auto text = gpu::ExplainModule(*loaded->modules[i], options);
    if (!text.ok()) {
      std::cerr << text.status().message() << "\n";
      return 1;
    }
    if (loaded->modules.size() > 1) std::cout << "// module " << i << "\n";
    std::cout << *text;
  }
  return 0;
#else
  std::cerr << "hlograph: this build has no GPU backend (it needs the CUDA toolkit at build time)\n";
  return 1;
#endif
}

}  // namespace hlograph::cli

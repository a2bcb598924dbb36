// `hlograph run`: the entry function on arguments from .npz/.npy files (or
// random ones), on the GPU or the CPU backend; results printed or written
// to an .npz file (completely or not at all).
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "arguments.h"
#include "commands.h"
#include "io/npz.h"
#include "progress.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#endif

namespace hlograph::cli {
namespace {

// The first few elements of a tensor, numpy style, for the terminal.
std::string Preview(const cpu::Tensor& t, int64_t max_elements = 16) {
  if (!t.type().IsTensor()) return t.type().ToString();
  std::ostringstream ss;
  ss.precision(7);
  ss << t.type().ToString() << " [";
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n && i < max_elements; ++i) {
    if (i) ss << ", ";
    cpu::DispatchElementType(t.element(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = t.data<T>()[i];
      if constexpr (cpu::kIsComplex<T>) {
        ss << "(" << v.real() << "," << v.imag() << ")";
      } else if constexpr (std::is_same_v<T, bool>) {
        ss << (v ? "true" : "false");
      } else if constexpr (std::is_integral_v<T>) {
        ss << +v;
      } else {
        ss << cpu::Load(v);
      }
    });
  }
  if (n > max_elements) ss << ", ... (" << n << " elements)";
  ss << "]";
  return ss.str();
}

// Runs the entry function on the backend UseGpu picks.
StatusOr<std::vector<cpu::Tensor>> Execute(const Options& o, const ir::Module& module, const ir::Operation& entry,
                                          const std::vector<cpu::Tensor>& args) {
  HLOGRAPH_ASSIGN(const bool gpu, UseGpu(o, module));
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (gpu) {
    std::unique_ptr<gpu::GpuExecutable> executable;
    {
      Progress progress("compiling kernels");  // erased before the run's output
      gpu::GpuCompileOptions compile = GpuOptions(o);
      compile.kernel_compiled = [&progress](size_t done, size_t total) {
        progress.Update(static_cast<int64_t>(done), static_cast<int64_t>(total));
      };
      HLOGRAPH_ASSIGN(executable, gpu::GpuExecutable::Compile(module, compile));
    }
    return executable->Run(args);
  }
#else
  (void)gpu;  // UseGpu refuses "gpu" in a build without the GPU backend
#endif
  cpu::Interpreter interpreter(module);
  return interpreter.Call(entry, args);
}

}  // namespace

int Run(const Options& o) {
  auto program = LoadProgram(o, "run");
  if (!program) return 1;
  auto results = Execute(o, *program->module, *program->entry, program->args);
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return 1;
  }
  if (o.output.empty()) {
    for (size_t i = 0; i < results->size(); ++i) std::cout << "result[" << i << "]: " << Preview((*results)[i]) << "\n";
    return 0;
  }
  std::vector<std::pair<std::string, io::NpyArray>> arrays;
  for (size_t i = 0; i < results->size(); ++i) {
    if (!(*results)[i].type().IsTensor()) {
      std::cerr << "hlograph: result " << i << " is a " << (*results)[i].type().ToString()
                << ", which an .npz file cannot hold\n";
      return 1;
    }
    arrays.emplace_back("arr_" + std::to_string(i), io::FromTensor((*results)[i]));
  }
  Status s = io::WriteNpz(o.output, arrays);
  if (!s.ok()) {
    std::cerr << "hlograph: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace hlograph::cli

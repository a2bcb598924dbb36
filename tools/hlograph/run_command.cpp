// `hlograph run`: the entry function on arguments from .npz/.npy files;
// results printed or written to an .npz file (completely or not at all).
#include <algorithm>
#include <iostream>
#include <sstream>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/random_tensor.h"
#include "commands.h"
#include "io/npy.h"
#include "io/npz.h"
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

StatusOr<std::vector<cpu::Tensor>> ReadArguments(const Options& o, const std::vector<ir::Type>& types) {
  if (!o.random_seed.empty()) return cpu::RandomTensors(types, std::stoull(o.random_seed));
  std::vector<std::pair<std::string, io::NpyArray>> arrays;
  if (!o.inputs_npz.empty()) {
    HLOGRAPH_ASSIGN(arrays, io::ReadNpz(o.inputs_npz));
    // numpy.savez(path, *arrays) names them arr_0, arr_1, ...: take them in that order.
    for (size_t i = 0; i < arrays.size(); ++i) {
      auto it = std::find_if(arrays.begin(), arrays.end(),
                             [&](const auto& e) { return e.first == "arr_" + std::to_string(i); });
      if (it == arrays.end()) {
        return Status::Error(o.inputs_npz + ": expected arrays named arr_0, arr_1, ... (as numpy.savez(path, *arrays) "
                             "writes), missing arr_" + std::to_string(i));
      }
      std::swap(*it, arrays[i]);
    }
  } else {
    for (const std::string& path : o.inputs) {
      HLOGRAPH_ASSIGN(io::NpyArray a, io::ReadNpy(path));
      arrays.emplace_back(path, std::move(a));
    }
  }
  if (arrays.size() != types.size()) {
    return Status::Error("the entry function takes " + std::to_string(types.size()) + " arguments but " +
                         std::to_string(arrays.size()) + " were given");
  }
  std::vector<cpu::Tensor> args;
  for (size_t i = 0; i < arrays.size(); ++i) {
    HLOGRAPH_ASSIGN(cpu::Tensor t, io::ToTensor(arrays[i].second, types[i],
                                                "argument " + std::to_string(i) + " (" + arrays[i].first + ")"));
    args.push_back(std::move(t));
  }
  return args;
}

// Runs the entry function on the backend the options pick: the GPU for
// `gpu`, and for `auto` when one is present; else the CPU interpreter.
StatusOr<std::vector<cpu::Tensor>> Execute(const Options& o, const ir::Module& module, const ir::Operation& entry,
                                          const std::vector<cpu::Tensor>& args) {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (o.backend == "gpu" || (o.backend == "auto" && gpu::GpuAvailable())) {
    HLOGRAPH_ASSIGN(auto executable, gpu::GpuExecutable::Compile(module));
    return executable->Run(args);
  }
#else
  if (o.backend == "gpu") return Status::Error("the GPU backend is not available in this build");
#endif
  cpu::Interpreter interpreter(module);
  return interpreter.Call(entry, args);
}

}  // namespace

int Run(const Options& o) {
  auto loaded = LoadVerified(o.files[0]);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return 1;
  }
  if (loaded->modules.size() != 1) {
    std::cerr << o.files[0] << ": error: run takes a file with one module, this one has " << loaded->modules.size()
              << "\n";
    return 1;
  }
  const ir::Module& module = *loaded->modules[0];
  const ir::Operation* entry = module.EntryFunction();
  if (!entry) {
    std::cerr << o.files[0] << ": error: no entry function (@main, or a single function)\n";
    return 1;
  }
  auto args = ReadArguments(o, ir::FunctionSignature(*entry).inputs);
  if (!args.ok()) {
    std::cerr << "hlograph: " << args.status().message() << "\n";
    return 1;
  }
  auto results = Execute(o, module, *entry, *args);
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

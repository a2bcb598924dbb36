// The entry function's arguments for `run` and `bench`: from an .npz file,
// from .npy files, or random.
#include "arguments.h"

#include <algorithm>
#include <iostream>

#include "backends/cpu/random_tensor.h"
#include "io/npy.h"
#include "io/npz.h"
#include "program_input.h"
#include "runtime/backend_choice.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#endif

namespace hlograph::cli {

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

std::optional<LoadedProgram> LoadProgram(const Options& o, const std::string& command) {
  auto loaded = LoadVerified(o.files[0]);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return std::nullopt;
  }
  if (loaded->modules.size() != 1) {
    std::cerr << ProgramName(o.files[0]) << ": error: " << command << " takes a file with one module, this one has "
              << loaded->modules.size() << "\n";
    return std::nullopt;
  }
  LoadedProgram p;
  p.file = std::move(*loaded);
  p.module = p.file.modules[0].get();
  p.entry = p.module->EntryFunction();
  if (!p.entry) {
    std::cerr << ProgramName(o.files[0]) << ": error: no entry function (@main, or a single function)\n";
    return std::nullopt;
  }
  auto args = ReadArguments(o, ir::FunctionSignature(*p.entry).inputs);
  if (!args.ok()) {
    std::cerr << "hlograph: " << args.status().message() << "\n";
    return std::nullopt;
  }
  p.args = std::move(*args);
  return p;
}

StatusOr<bool> UseGpu(const Options& o, const ir::Module& module) {
  HLOGRAPH_ASSIGN(const runtime::BackendChoice choice, runtime::ChooseBackend(o.backend, "--backend", &module));
  if (!choice.note.empty()) std::cerr << "hlograph: note: running on the CPU backend: " << choice.note << "\n";
  return choice.kind == runtime::BackendKind::kGpu;
}

#ifdef HLOGRAPH_WITH_GPU_BACKEND
gpu::GpuCompileOptions GpuOptions(const Options& o) {
  gpu::GpuCompileOptions options;
  options.mode = o.mode == "stream" ? gpu::ExecutionMode::kStream : gpu::ExecutionMode::kGraph;
  options.memory_budget = o.memory_budget;
  return options;
}
#endif

}  // namespace hlograph::cli

// What `run` and `bench` share: the entry function's arguments as the
// options say, and the choice of backend.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/tensor.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#endif
#include "commands.h"
#include "frontend/parser.h"
#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/type.h"

namespace hlograph::cli {

// From --inputs (arr_0, arr_1, ...), --input files in order, or --random;
// checked against `types` with messages naming the argument.
StatusOr<std::vector<cpu::Tensor>> ReadArguments(const Options& o, const std::vector<ir::Type>& types);

// A program ready to run: its file parsed and verified, its one module, the
// entry function and the arguments the options give.
struct LoadedProgram {
  frontend::ParsedFile file;
  const ir::Module* module = nullptr;
  const ir::Operation* entry = nullptr;
  std::vector<cpu::Tensor> args;
};

// Loads o.files[0] for `command` ("run", "bench"); on an error prints it
// and returns nothing.
std::optional<LoadedProgram> LoadProgram(const Options& o, const std::string& command);

// Whether `run` and `bench` use the GPU: always for --backend gpu; for auto
// when there is one and it runs every op of the module (else a note on
// stderr says which op keeps the program on the CPU).
StatusOr<bool> UseGpu(const Options& o, const ir::Module& module);

#ifdef HLOGRAPH_WITH_GPU_BACKEND
// The GPU compile options the command line asks for (--mode).
gpu::GpuCompileOptions GpuOptions(const Options& o);
#endif

}  // namespace hlograph::cli

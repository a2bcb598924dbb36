// What `run` and `bench` share: the entry function's arguments as the
// options say, and the choice of backend.
#pragma once

#include <vector>

#include "backends/cpu/tensor.h"
#include "commands.h"
#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/type.h"

namespace hlograph::cli {

// From --inputs (arr_0, arr_1, ...), --input files in order, or --random;
// checked against `types` with messages naming the argument.
StatusOr<std::vector<cpu::Tensor>> ReadArguments(const Options& o, const std::vector<ir::Type>& types);

// Whether `run` and `bench` use the GPU: always for --backend gpu; for auto
// when there is one and it runs every op of the module (else a note on
// stderr says which op keeps the program on the CPU).
bool UseGpu(const Options& o, const ir::Module& module);

}  // namespace hlograph::cli

// Reading the entry function's arguments as the options say.
#pragma once

#include <vector>

#include "backends/cpu/tensor.h"
#include "commands.h"
#include "hlograph/status.h"
#include "ir/type.h"

namespace hlograph::cli {

// From --inputs (arr_0, arr_1, ...), --input files in order, or --random;
// checked against `types` with messages naming the argument.
StatusOr<std::vector<cpu::Tensor>> ReadArguments(const Options& o, const std::vector<ir::Type>& types);

}  // namespace hlograph::cli

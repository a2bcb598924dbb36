// Whether a jit program compiled for several partitions runs partitioned
// (passes/spmd: each device computes on its own pieces) or whole on every
// device (each computes the global program on gathered arguments and keeps
// its pieces of the results: correct, the work not divided).
//   HLOGRAPH_SPMD = auto (unset): partitioned when the partitioner can,
//                   else whole;
//                   strict: a program it cannot partition is an error
//                   naming the op and the sharding;
//                   off: always whole.
//   HLOGRAPH_SPMD_REPORT = 1: one line on stderr per program saying which.
// Programs with manual computations (shard_map) and of several replicas
// (pmap) are divided by hand already and run as written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hlograph/status.h"
#include "ir/module.h"
#include "passes/spmd/partition.h"

namespace hlograph::pjrt {

// The partitioned program, nullopt to run `module` as written, or (strict)
// an error. `name` names the program in the report.
StatusOr<std::optional<passes::SpmdProgram>> ChoosePartitioning(const ir::Module& module, const std::string& name,
                                                                int64_t replicas, int64_t partitions);

}  // namespace hlograph::pjrt

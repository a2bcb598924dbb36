// The SPMD partitioner: a program whose entry function's arguments and
// results carry shardings (Shardy's `sdy.sharding` or GSPMD's
// `mhlo.sharding`, as jax.jit with NamedSharding emits them) becomes the
// program each of its devices runs on its own pieces, with the collectives
// between them explicit. Shardings propagate forward from the arguments;
// sharding constraints and the results' shardings are met by resharding.
// Elementwise ops, broadcasts, transposes, reshapes, reductions,
// dot_general, convolutions, gathers, adding scatters and the ops that read
// along some dims only (slices, dynamic slices and updates, concatenate,
// pad, reverse, sort, reduce_window) are divided (passes/spmd/rules.h); other ops run whole on
// every device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::passes {

struct SpmdProgram {
  // The per-device program: the entry's arguments and results at the local
  // shapes, no sharding attributes, collectives over partitions (channel
  // ids and global device ids) and partition_id where pieces are cut.
  std::unique_ptr<ir::Module> module;
  // Each argument's and result's sharding as XLA writes it.
  std::vector<std::string> input_shardings, result_shardings;
  // What it took, one line: "2 all_reduce, 1 dynamic_slice; whole: stablehlo.sort".
  std::string summary;
};

// Whether the module holds manual computations (shard_map): partitioned by
// hand already, not this pass's to divide.
bool HasManualComputations(const ir::Module& module);

// Partitions `module` for `devices` partitions of one replica (device d is
// partition d). An error names the op it cannot partition and its
// operands' shardings, or the argument or result whose sharding it cannot
// read or divide.
StatusOr<SpmdProgram> PartitionSpmd(const ir::Module& module, int64_t devices);

}  // namespace hlograph::passes

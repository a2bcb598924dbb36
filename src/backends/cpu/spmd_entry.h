// A module's entry function run SPMD on the devices of a replicas x
// partitions grid, as a PJRT client runs a program compiled for several
// devices: each device passes its own arguments and gets its own results.
// An argument or result with a Shardy sharding (`sdy.sharding` among the
// function's argument or result attributes) is the device's piece of a
// global value: the devices put the arguments together, each computes the
// global values, and each returns its pieces of the results. One without a
// sharding takes that of the manual computation it only feeds or comes
// from (as XLA's sharding propagation would), else it is the device's own
// value (the StableHLO spec's multi-device semantics).
#pragma once

#include <vector>

#include "backends/cpu/process_span.h"
#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/sharding.h"

namespace hlograph::cpu {

struct SpmdSignature {
  std::vector<ir::ShardLayout> inputs, results;  // replicated: the device's own value
  std::vector<ir::Type> global_inputs, global_results;
  std::vector<ir::Type> local_inputs, local_results;  // what each device passes and gets
};

// An error names the argument or result and its sharding when a device's
// piece cannot be placed (a dimension that does not divide, an axis the
// mesh lacks, a mesh of another size than `devices`), or the manual
// computation whose pieces are not its body's (ir/manual_layouts.h).
StatusOr<SpmdSignature> ReadSpmdSignature(const ir::Module& module, int64_t devices);

// args[k]: device k's arguments (k = replica * partitions + partition), of
// the signature's local types; returns each device's results. With `span`
// (a run over several processes), args[i] and the results are those of
// device span->local[i], the devices this process runs.
StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(const ir::Module& module, const SpmdSignature& signature,
                                                   int64_t replicas, int64_t partitions,
                                                   const std::vector<std::vector<Tensor>>& args,
                                                   const ProcessSpan* span = nullptr);

}  // namespace hlograph::cpu

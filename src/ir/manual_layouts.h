// The pieces a sdy.manual_computation cuts its operands into and puts its
// results together from: each one's layout along the manual axes
// (ir/sharding.h), checked against the types its body takes and returns.
#pragma once

#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/sharding.h"

namespace hlograph::ir {

struct ManualLayouts {
  std::vector<ShardLayout> operands, results;
};

// An error names the op's position, the operand or result and its sharding
// when a body argument is not its operand's piece, or a value the body
// returns not its result's piece.
StatusOr<ManualLayouts> ManualComputationLayouts(const Module& module, const Operation& op);

// Every sdy.manual_computation of the module, checked so.
Status CheckManualComputations(const Module& module);

}  // namespace hlograph::ir

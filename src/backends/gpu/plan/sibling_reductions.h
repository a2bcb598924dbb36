// Reduces that one reduction kernel computes together with the one it is
// planned for: x.sum() and (x * x).sum() (a layer norm's mean and mean of
// squares), a sum and a max of one array. Each reads its operands through
// values computed inline from arrays in memory; fused, the kernel reads
// those arrays once for all of them instead of once per reduce.
#pragma once

#include <functional>
#include <vector>

#include "ir/operation.h"

namespace hlograph::gpu {

// The most reduces one kernel folds (its accumulators live in registers).
constexpr int kMaxSiblingReductions = 4;

// How the planner computes a value in a kernel reading it, at the point
// where `reduce`'s kernel is emitted.
enum class ValueSource {
  kMemory,  // held in a buffer already
  kInline,  // computed inside the kernel from its operands
  kNotYet,  // computed by a later step (or by the reduce itself)
};

// The stablehlo.reduce ops after `reduce` in its block (at most
// kMaxSiblingReductions - 1, in program order) that fold the same dims of
// operands of the same shape, whose operands and init values are computed
// from values held in memory now (`source`, through inline values only),
// and which read at least one array in memory that `reduce` reads too.
// `candidate` says which reduces the planner may move (kernels of their
// own, not computed by another kernel).
std::vector<const ir::Operation*> SiblingReductions(const ir::Operation& reduce,
                                                    const std::function<ValueSource(const ir::Value*)>& source,
                                                    const std::function<bool(const ir::Operation&)>& candidate);

}  // namespace hlograph::gpu

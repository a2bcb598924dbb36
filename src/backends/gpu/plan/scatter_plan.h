// How a stablehlo.scatter runs on the GPU, decided from the op alone so
// that it can be printed and tested without a device.
//
// The planner first writes the operands into the results (a loop kernel
// computing them there, or a copy); the scatter kernel then updates the
// results in place, a thread per update element. What differs is how a
// thread combines its update with the element it targets when another
// thread may target the same element:
//
//   kUnique      the op says its indices are unique: read, combine, write.
//   kSortedRuns  indices sorted and windows of distinct indices disjoint:
//                the first thread of each run of equal indices folds the
//                run in order (deterministic, the spec's serial order).
//   kAtomic      a native atomic (add; integer min/max) or a plain store
//                (the body returns the update: which duplicate wins is
//                implementation-defined, as the spec allows).
//   kCompareSwap any other single-result body: a compare-and-swap loop on
//                the element's aligned 32- or 64-bit word.
//   kSerial      what none of those take (several results with duplicate
//                indices, 16-byte elements): one block applies the update
//                windows in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// The update body, when it is one of the combiners with a native atomic.
enum class ScatterCombiner { kOther, kReplace, kAdd, kMin, kMax };
const char* ScatterCombinerName(ScatterCombiner c);

enum class ScatterOrder { kUnique, kSortedRuns, kAtomic, kCompareSwap, kSerial };
const char* ScatterOrderName(ScatterOrder o);

struct ScatterPlan {
  size_t results = 1;
  ScatterCombiner combiner = ScatterCombiner::kOther;
  ScatterOrder order = ScatterOrder::kSerial;
  // The update tensor's dims split into those selecting a window (scatter
  // dims) and those within it (window dims), with their sizes.
  std::vector<int64_t> scatter_dims, scatter_shape, window_dims, window_shape;
  // The indices tensor's dims other than index_vector_dim, in order.
  std::vector<int64_t> index_batch_dims;
  // Per operand dim: the window's extent along it (1 where inserted or a
  // batching dim), and which operand dims the window spans, in order.
  std::vector<int64_t> extent;
  std::vector<int64_t> operand_window_dims;
  int64_t windows = 1, window_elements = 1;

  int64_t updates() const { return windows * window_elements; }
  std::string ToString() const;  // "add, atomic: 8192 windows of 1024"
};

StatusOr<ScatterPlan> PlanScatter(const ir::Operation& scatter);

}  // namespace hlograph::gpu

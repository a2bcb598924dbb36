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
//   kLastWins    the body returns the update: each window claims its slot
//                (atomicMax of its position in a table of the slots its
//                indices can name), the last claimant writes, then the
//                table is zeroed again: three kernels, the serial order's
//                result (deterministic, as the interpreter and XLA:CPU).
//   kAtomic      a native atomic (add; integer min/max), or a plain store
//                when the slot table would cost more memory than the
//                result's quarter (which duplicate wins is then
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

enum class ScatterOrder { kUnique, kSortedRuns, kLastWins, kAtomic, kCompareSwap, kSerial };
const char* ScatterOrderName(ScatterOrder o);

// The kernels of a kLastWins scatter, in order; the others have one.
enum class ScatterPass { kUpdate, kClaim, kRelease };
const char* ScatterPassName(ScatterPass p);

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
  // kAtomic adds: how many neighbouring elements of a window row a thread
  // adds with one vector atomic (f32 x4, f16/bf16 x2; 1 where the rows do
  // not split evenly or do not start aligned).
  int vector = 1;
  // kLastWins: the result dims a window's start moves along (extent 1
  // there), in order; the slot table holds one u32 per start.
  std::vector<int64_t> slot_dims;
  int64_t slots = 0;

  int64_t updates() const { return windows * window_elements; }
  int64_t threads() const { return updates() / vector; }
  int64_t slot_table_bytes() const { return slots * 4; }
  std::string ToString() const;  // "add, atomic: 8192 windows of 1024"
};

StatusOr<ScatterPlan> PlanScatter(const ir::Operation& scatter);

// Whether every update window of a single-result scatter is picked by
// batching dims alone (its other scatter dims have size 1: the
// gradient of take_along_axis, a one-hot minus one per row): an output
// element then has at most one window that may cover it, at its own batch
// coordinates, so the scatter is computed per output element inside the
// kernel that reads it, like a gather (no fill, no kernel of its own).
bool IsElementMapScatter(const ir::Operation& scatter);

}  // namespace hlograph::gpu

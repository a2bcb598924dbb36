// Where a product kernel's weights lie, as far as the plan knows before it
// runs: a byte range of one buffer. The graph plan asks L2 for the first
// products' weights as the graph starts (GraphOptions::prefetch_at_start).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

struct ByteRange {
  BufferId buffer = -1;
  int64_t offset = 0, bytes = 0;
};

// The bytes the rhs of kernel step `k`'s dot_general reads where they are
// one window of a buffer: a whole input, or a dynamic_slice of one (through
// reshapes) whose starts the fusion computes from integer constants and
// scalar inputs holding known values (constants, a loop's counter values).
// `bound` gives the buffer a step buffer is bound to in the node asking
// (an unrolled iteration's). nullopt otherwise.
std::optional<ByteRange> WeightsWindow(const GpuProgram& program, const KernelStep& k,
                                       const std::function<BufferId(BufferId)>& bound);

}  // namespace hlograph::gpu

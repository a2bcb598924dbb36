// The trip count of a stablehlo.while when the IR proves it: the loop
// carries a counter that starts at a constant, the body adds a constant
// step to it, and the condition compares it with a constant bound (the
// fori_loop and scan patterns JAX emits). The graph plan unrolls such loops.
#pragma once

#include <cstdint>

#include "ir/operation.h"

namespace hlograph::gpu {

// -1 when the trip count is not provable (or the counter could overflow).
int64_t KnownTripCount(const ir::Operation& loop);

}  // namespace hlograph::gpu

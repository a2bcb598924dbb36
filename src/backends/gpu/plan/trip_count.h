// The trip count of a stablehlo.while when the IR proves it: the loop
// carries a counter that starts at a constant, the body adds a constant
// step to it, and the condition compares it with a constant bound (the
// fori_loop and scan patterns JAX emits). The graph plan unrolls such loops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "ir/operation.h"

namespace hlograph::gpu {

// A loop's counter as the IR proves it: loop value `index` starts at
// `start` and the body adds `step`; the loop runs `trips` times.
struct CountedLoop {
  size_t index = 0;
  int64_t start = 0, step = 0, trips = 0;
};
std::optional<CountedLoop> CountLoop(const ir::Operation& loop);

// -1 when the trip count is not provable (or the counter could overflow).
int64_t KnownTripCount(const ir::Operation& loop);

// Whether loop value `i`'s initial value is never read: the body's only
// use of it is one dynamic_update_slice whose result is its next value,
// whose window spans every dimension but one, and along that one starts at
// the counter, which steps by the window's size from 0 through the whole
// dimension (the stacked outputs of a scan). The condition does not read it.
bool InitialValueOverwritten(const ir::Operation& loop, size_t i);

}  // namespace hlograph::gpu

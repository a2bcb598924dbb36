// Donated arguments: the module says which results may live in an
// argument's memory (ir/argument_aliases.h). The plan checks that writing
// the result there is safe: every read of the argument comes before the
// result's first write, or in the same loop kernel at the same element (an
// in-place elementwise update). The caller then passes one buffer for both, and the call needs
// no memory for that result.
#pragma once

#include <string>
#include <vector>

#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

// Whether loop kernel `f` reads its input `k` only element by element at
// the index it writes: the value feeds elementwise ops of its own shape
// only, down to the outputs. Each thread then reads an element before it
// writes the same element, and no other thread touches it, so an output of
// the same size may take the input's memory.
bool ReadsInPlace(const Fusion& f, size_t k);

// Fills program.donations from the entry function's argument attributes.
// Needs the program's steps (any order of planning steps works).
void PlanDonations(const ir::Operation& entry, GpuProgram& program);

}  // namespace hlograph::gpu

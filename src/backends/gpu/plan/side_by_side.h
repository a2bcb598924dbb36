// Small loop kernels side by side: consecutive steps of a sequence that
// are loop kernels of a few elements each, none reading or writing what
// another writes, become one kernel computing each output over its own
// shape (Fusion::side_by_side). A program's first steps are often such
// kernels (an embedding row, a mask, a loop counter's start): each is a
// launch the device dispatches one after another, and a kernel after them
// waits for all. As one node, the next kernel launches early behind it
// (programmatic launch), and a later kernel reading its outputs has it as
// an ancestor already, so no second edge. HLOGRAPH_GPU_SIDE_BY_SIDE=0
// leaves them apart.
#pragma once

#include <cstdint>

#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

// The most elements any output of a kernel side by side may have: launch
// cost, not work, dominates below it.
constexpr int64_t kSideBySideMaxElements = int64_t{1} << 16;

// Merges such runs of steps in every sequence of `program` (before the
// buffer plan: steps are renumbered), drops the fusions merged away and
// renames the rest fusion_0, fusion_1, ... in order.
void PlaceSideBySide(GpuProgram& program);

}  // namespace hlograph::gpu

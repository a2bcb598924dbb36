// Weights asked of L2 a kernel ahead. In a transformer layer the product
// after the attention's output projection (the MLP's first, the largest)
// launches early, but its blocks find no room on the SMs while the
// attention's blocks hold them: they load its weights only once the
// attention ends, on the chain. The attention, whose loads are latency-
// bound (one query against its caches), leaves bandwidth to spare: once it
// has waited for its producers (the qkv product is done), its first blocks
// ask L2 for that product's weights (Fusion::prefetched_after_wait), so
// they are there when its blocks arrive (docs/PERF.md, "The attention asks
// L2 for the MLP's weights"; a graph node of its own asking instead
// branched the graph and cost host time at every launch).
// HLOGRAPH_GPU_PREFETCH_AHEAD=0 leaves it out.
#pragma once

#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

// For each attention kernel step of `program` followed by two generated
// products, gives the attention the second product's weights to prefetch
// (where they only move an input's elements), adding the inputs their
// addresses read to its inputs.
void PrefetchAhead(GpuProgram& program);

}  // namespace hlograph::gpu

// Places the temps of a GpuProgram in one arena: each temp is live from
// its first to its last use in program order (a value read inside a loop
// stays live for the whole loop), and temps whose lives do not overlap share
// memory. Fills Buffer::offset/first_use/last_use and arena_bytes.
#pragma once

#include "backends/gpu/plan/program.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

// Offsets are multiples of this (cuBLASLt and vector loads want alignment).
constexpr int64_t kBufferAlignment = 256;

Status PlanBuffers(GpuProgram& program);

// For a GPU with thread-block clusters (sm_90+): a product kernel summing
// its splits in a cluster (DotTiling::cluster_sum) never touches its
// partial sums there (the last-block fallback does), so they take no
// memory and the temps are placed again. Whether anything changed.
StatusOr<bool> PlanBuffersWithClusters(GpuProgram& program);

}  // namespace hlograph::gpu

// Process-wide accounting of the device memory hlograph allocates: every
// cudaMalloc (DeviceBuffer) and cudaMallocAsync (the PJRT plugin's arrays)
// is counted as it is made and freed, and CUDA's own pools (graph memory
// nodes' pool, the stream-ordered pool's cache) are read from the runtime
// when asked. Counting needs no device, so it is tested without one.
#pragma once

#include <cstdint>

#include "backends/allocation_counter.h"

namespace hlograph::gpu {

struct DeviceMemoryStats {
  // Counted allocations (cudaMalloc and cudaMallocAsync).
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;  // since the process started or ResetPeakDeviceMemory
  int64_t num_allocs = 0;         // made so far
  int64_t largest_alloc_size = 0;
  // CUDA's pools on the current device; pools_read is false (and these
  // are 0) without a device or when the runtime would not say.
  bool pools_read = false;
  // Graph memory nodes (temps allocated inside graphs): memory now
  // associated with graphs, its high-water mark (reset with the peak
  // above), and what the pool holds from the driver.
  int64_t graph_pool_bytes = 0;
  int64_t graph_pool_peak_bytes = 0;
  int64_t graph_pool_reserved_bytes = 0;
  // Freed cudaMallocAsync memory the stream-ordered pool keeps for reuse.
  int64_t stream_pool_cached_bytes = 0;

  // Everything the process holds from the driver: counted bytes, the
  // stream-ordered pool's cache and the graph pool.
  int64_t held_bytes() const { return bytes_in_use + stream_pool_cached_bytes + graph_pool_reserved_bytes; }
};

// The counter every device allocation and free goes through.
AllocationCounter& DeviceAllocations();

// The counter's state, and the pools read on a machine with a device (which
// makes the current device's context if there is none yet).
DeviceMemoryStats CurrentDeviceMemoryStats();

// Starts the peaks again from now: the counted peak from the bytes in use,
// the graph pool's high-water mark from 0 (CUDA resets it no other way).
void ResetPeakDeviceMemory();

}  // namespace hlograph::gpu

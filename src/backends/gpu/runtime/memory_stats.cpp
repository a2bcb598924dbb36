#include "backends/gpu/runtime/memory_stats.h"

#include <cuda_runtime_api.h>

#include "backends/gpu/runtime/device.h"

namespace hlograph::gpu {
namespace {

// A failed query is not sticky, but clear it so that the next call's
// cudaGetLastError does not see it.
bool Ok(cudaError_t error) {
  if (error == cudaSuccess) return true;
  (void)cudaGetLastError();
  return false;
}

bool ReadPools(DeviceMemoryStats& s) {
  int device = 0;
  if (!Ok(cudaGetDevice(&device))) return false;
  uint64_t used = 0, high = 0, reserved = 0;
  if (!Ok(cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrUsedMemCurrent, &used)) ||
      !Ok(cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrUsedMemHigh, &high)) ||
      !Ok(cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrReservedMemCurrent, &reserved))) {
    return false;
  }
  s.graph_pool_bytes = static_cast<int64_t>(used);
  s.graph_pool_peak_bytes = static_cast<int64_t>(high);
  s.graph_pool_reserved_bytes = static_cast<int64_t>(reserved);
  // The pool cudaMallocAsync takes from (the PJRT plugin keeps freed memory
  // there: its release threshold is unlimited).
  cudaMemPool_t pool = nullptr;
  uint64_t pool_reserved = 0, pool_used = 0;
  if (Ok(cudaDeviceGetDefaultMemPool(&pool, device)) &&
      Ok(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &pool_reserved)) &&
      Ok(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &pool_used)) && pool_reserved > pool_used) {
    s.stream_pool_cached_bytes = static_cast<int64_t>(pool_reserved - pool_used);
  }
  return true;
}

}  // namespace

AllocationCounter& DeviceAllocations() {
  static AllocationCounter* counter = new AllocationCounter;  // never destroyed: frees may run in static destructors
  return *counter;
}

DeviceMemoryStats CurrentDeviceMemoryStats() {
  const AllocationCounter::Snapshot counted = DeviceAllocations().Read();
  DeviceMemoryStats s;
  s.bytes_in_use = counted.bytes_in_use;
  s.peak_bytes_in_use = counted.peak_bytes_in_use;
  s.num_allocs = counted.num_allocs;
  s.largest_alloc_size = counted.largest_alloc_size;
  if (DeviceCount() > 0) s.pools_read = ReadPools(s);
  return s;
}

void ResetPeakDeviceMemory() {
  DeviceAllocations().ResetPeak();
  int device = 0;
  if (DeviceCount() > 0 && Ok(cudaGetDevice(&device))) {
    uint64_t zero = 0;
    (void)Ok(cudaDeviceSetGraphMemAttribute(device, cudaGraphMemAttrUsedMemHigh, &zero));
  }
}

}  // namespace hlograph::gpu

// Counts allocations as they are made and freed: bytes in use now and at
// most, how many were made, the largest. Atomics only, so allocation paths
// on several threads count without contending on a lock. Knows nothing of
// where the memory comes from: the GPU runtime counts device memory with it
// (runtime/memory_stats.h), the PJRT plugin's CPU backend its arrays' bytes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace hlograph {

class AllocationCounter {
 public:
  struct Snapshot {
    int64_t bytes_in_use = 0;
    int64_t peak_bytes_in_use = 0;  // since construction or the last ResetPeak
    int64_t num_allocs = 0;         // made so far, freed or not
    int64_t largest_alloc_size = 0;
  };

  void Add(int64_t bytes) {
    const int64_t now = in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    num_allocs_.fetch_add(1, std::memory_order_relaxed);
    RaiseTo(peak_, now);
    RaiseTo(largest_, bytes);
  }
  void Remove(int64_t bytes) { in_use_.fetch_sub(bytes, std::memory_order_relaxed); }

  // The peak starts again from what is in use now (before a stretch whose
  // peak is wanted).
  void ResetPeak() {
    peak_.store(in_use_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    RaiseTo(peak_, in_use_.load(std::memory_order_relaxed));  // an Add between the two lines
  }

  Snapshot Read() const {
    Snapshot s;
    s.bytes_in_use = in_use_.load(std::memory_order_relaxed);
    // An Add raises the peak just after the bytes in use: never report less.
    s.peak_bytes_in_use = std::max(peak_.load(std::memory_order_relaxed), s.bytes_in_use);
    s.num_allocs = num_allocs_.load(std::memory_order_relaxed);
    s.largest_alloc_size = largest_.load(std::memory_order_relaxed);
    return s;
  }

 private:
  static void RaiseTo(std::atomic<int64_t>& value, int64_t at_least) {
    int64_t old = value.load(std::memory_order_relaxed);
    while (old < at_least && !value.compare_exchange_weak(old, at_least, std::memory_order_relaxed)) {
    }
  }

  std::atomic<int64_t> in_use_{0}, peak_{0}, num_allocs_{0}, largest_{0};
};

}  // namespace hlograph

// The host bytes live arrays hold, for the CPU backend's memory stats.
// Arrays may share a block (a reshaped result keeps its operand's bytes):
// a block counts once, from when the first array holds it until the last
// lets go.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "backends/allocation_counter.h"

namespace hlograph::pjrt {

class HeldBytes {
 public:
  void Hold(const void* block, int64_t bytes) {
    if (block == nullptr || bytes == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (holders_[block]++ == 0) counter_.Add(bytes);
  }
  void Release(const void* block, int64_t bytes) {
    if (block == nullptr || bytes == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = holders_.find(block);
    if (it == holders_.end() || --it->second > 0) return;
    holders_.erase(it);
    counter_.Remove(bytes);
  }
  AllocationCounter::Snapshot Read() const { return counter_.Read(); }

 private:
  std::mutex mu_;
  std::unordered_map<const void*, int64_t> holders_;  // block -> arrays holding it
  AllocationCounter counter_;
};

}  // namespace hlograph::pjrt

// A process-wide budget for the device memory executables hold between
// calls (their arena of temps, library workspace and graphs). An executable
// about to need memory asks for room; idle executables give theirs back,
// least recently used first, and take it again on their next call (their
// graphs are then rebuilt: the temps have moved).
//
// The budget comes from HLOGRAPH_GPU_MEMORY_BUDGET (bytes, with an optional
// K, M or G suffix); without it nothing is ever evicted.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>

#include "hlograph/status.h"

namespace hlograph::gpu {

// What the budget can take memory back from.
class Evictable {
 public:
  virtual ~Evictable() = default;
  // Device memory it holds now that it could give back.
  virtual int64_t evictable_bytes() const = 0;
  // Gives that memory back unless a call is running (then false: the
  // budget moves on to the next one). Called with the budget's lock held.
  virtual bool TryEvict() = 0;
};

class MemoryBudget {
 public:
  static constexpr int64_t kUnlimited = INT64_MAX;

  // The process's budget (HLOGRAPH_GPU_MEMORY_BUDGET read on first use).
  static MemoryBudget& Global();
  // "512M", "8G", "1048576"; an error names the expected form.
  static StatusOr<int64_t> ParseBytes(const std::string& text);

  explicit MemoryBudget(int64_t limit = kUnlimited) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;
  void set_limit(int64_t bytes);
  int64_t limit() const;

  void Register(Evictable* e);    // most recently used
  void Unregister(Evictable* e);
  // Marks `e` the most recently used and evicts others, least recently used
  // first, until what all hold plus `extra` fits the limit (or nothing more
  // can go). Returns whether it fits.
  bool MakeRoom(Evictable* e, int64_t extra);

  int64_t held_bytes() const;  // by all registered executables
  int64_t evictions() const;

 private:
  mutable std::mutex mutex_;
  // Read without the lock on every call: unlimited budgets skip the rest.
  std::atomic<int64_t> limit_;
  int64_t evictions_ = 0;
  std::list<Evictable*> lru_;  // least recently used first
};

}  // namespace hlograph::gpu

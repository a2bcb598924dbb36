// A process-wide budget for the device memory executables hold between
// calls (their arena of temps, library workspace and graphs). An executable
// about to need memory asks for room; idle executables give theirs back,
// least recently used first, and take it again on their next call (their
// graphs are then rebuilt: the temps have moved).
//
// The budget is on by default: 90% of the device memory free when it is
// first asked for. HLOGRAPH_GPU_MEMORY_BUDGET, `hlograph --memory-budget`,
// GpuCompileOptions::memory_budget and the PJRT plugin's create option
// "memory_budget" set it (bytes with an optional K, M or G suffix, a
// percentage of the free device memory, or "none").
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

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

  static constexpr const char* kDefaultLimit = "90%";

  // The process's budget (HLOGRAPH_GPU_MEMORY_BUDGET, else kDefaultLimit,
  // read on first use).
  static MemoryBudget& Global();
  // "512M", "8G", "1048576"; an error names the expected form.
  static StatusOr<int64_t> ParseBytes(const std::string& text);
  // A budget: ParseBytes's forms, "N%" (1 to 100) of `free_bytes`, or
  // "none" (kUnlimited); an error names the expected forms.
  static StatusOr<int64_t> ParseLimit(const std::string& text, int64_t free_bytes);
  // Device memory free now, or kUnlimited without a device.
  static int64_t FreeDeviceBytes();

  explicit MemoryBudget(int64_t limit = kUnlimited) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;
  void set_limit(int64_t bytes);
  int64_t limit() const;
  // Parses `text` (ParseLimit, against the memory free now) and sets it;
  // `source` says who set it, for `explain`.
  Status SetLimit(const std::string& text, const std::string& source);
  // Where the limit came from: "default: 90% of free device memory" ...
  std::string source() const;

  void Register(Evictable* e);    // most recently used
  void Unregister(Evictable* e);
  // Marks `e` the most recently used and evicts others, least recently used
  // first, until what all hold plus `extra` fits the limit (or nothing more
  // can go). Returns whether it fits.
  bool MakeRoom(Evictable* e, int64_t extra);
  // Marks `e` the most recently used (a call that allocates nothing); O(1)
  // unless the limit changed since the last MakeRoom.
  void Touch(Evictable* e);
  // After an allocation for `e` failed: every other idle executable gives
  // its memory back, whatever the limit, so that a call that fits the
  // device alone does not fail because of others. Returns the bytes freed.
  int64_t EvictAllExcept(Evictable* e);

  int64_t held_bytes() const;  // by all registered executables
  int64_t evictions() const;

 private:
  mutable std::mutex mutex_;
  // Read without the lock on every call: unlimited budgets skip the rest.
  std::atomic<int64_t> limit_;
  std::atomic<bool> limit_changed_{false};  // since the last MakeRoom: Touch enforces it
  int64_t evictions_ = 0;
  std::string source_ = "set by the program";
  std::list<Evictable*> lru_;  // least recently used first
  std::unordered_map<Evictable*, std::list<Evictable*>::iterator> where_;  // each one's place in lru_
  void MoveToBack(Evictable* e);  // with the lock held
};

}  // namespace hlograph::gpu

#include "backends/gpu/runtime/memory_budget.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime_api.h>

namespace hlograph::gpu {

MemoryBudget& MemoryBudget::Global() {
  static MemoryBudget* budget = [] {
    auto* b = new MemoryBudget();  // never destroyed: executables may outlive static destructors
    const char* text = std::getenv("HLOGRAPH_GPU_MEMORY_BUDGET");
    if (text != nullptr && *text != '\0') {
      const Status set = b->SetLimit(text, std::string("HLOGRAPH_GPU_MEMORY_BUDGET=") + text);
      if (set.ok()) return b;
      std::fprintf(stderr, "hlograph: HLOGRAPH_GPU_MEMORY_BUDGET: %s; using the default (%s)\n",
                   set.message().c_str(), kDefaultLimit);
    }
    (void)b->SetLimit(kDefaultLimit, std::string("default: ") + kDefaultLimit + " of the device memory free at first use");
    if (b->limit() == kUnlimited) b->source_ += "; no device here";  // nothing to take a share of
    return b;
  }();
  return *budget;
}

int64_t MemoryBudget::FreeDeviceBytes() {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    (void)cudaGetLastError();  // no device or driver: not sticky, clear it
    return kUnlimited;
  }
  return static_cast<int64_t>(free_bytes);
}

StatusOr<int64_t> MemoryBudget::ParseLimit(const std::string& text, int64_t free_bytes) {
  if (text == "none" || text == "unlimited") return kUnlimited;
  if (!text.empty() && text.back() == '%') {
    const std::string digits = text.substr(0, text.size() - 1);
    const bool numeric = !digits.empty() && digits.size() <= 3 &&
                         std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const int percent = numeric ? std::stoi(digits) : 0;
    if (percent < 1 || percent > 100) {
      return Status::Error("a memory budget in percent is 1% to 100% of the free device memory, not '" + text + "'");
    }
    if (free_bytes == kUnlimited) return kUnlimited;  // no device: nothing to take a share of
    return free_bytes <= kUnlimited / 100 ? free_bytes * percent / 100 : free_bytes / 100 * percent;
  }
  auto bytes = ParseBytes(text);
  if (!bytes.ok()) {
    return Status::Error(bytes.status().message() + ", a percentage of the free device memory (\"80%\") or \"none\"");
  }
  return bytes;
}

Status MemoryBudget::SetLimit(const std::string& text, const std::string& source) {
  const bool relative = !text.empty() && text.back() == '%';
  HLOGRAPH_ASSIGN(const int64_t limit, ParseLimit(text, relative ? FreeDeviceBytes() : kUnlimited));
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = limit;
  limit_changed_ = true;
  source_ = source;
  return Status::Ok();
}

std::string MemoryBudget::source() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return source_;
}

StatusOr<int64_t> MemoryBudget::ParseBytes(const std::string& text) {
  const auto bad = [&] {
    return Status::Error("a memory budget is a byte count with an optional K, M or G suffix (\"512M\"), not '" +
                         text + "'");
  };
  if (text.empty() || text.size() > 20) return bad();
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 15 || text.size() - digits > 1) return bad();
  int64_t bytes = std::stoll(text.substr(0, digits));
  if (digits < text.size()) {
    int shift = 0;
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      default: return bad();
    }
    if (bytes > (kUnlimited >> shift)) return bad();
    bytes <<= shift;
  }
  return bytes;
}

void MemoryBudget::set_limit(int64_t bytes) {
  limit_ = bytes;
  limit_changed_ = true;
}

int64_t MemoryBudget::limit() const { return limit_; }

void MemoryBudget::MoveToBack(Evictable* e) {
  auto it = where_.find(e);
  if (it == where_.end()) {
    where_[e] = lru_.insert(lru_.end(), e);
  } else {
    lru_.splice(lru_.end(), lru_, it->second);
  }
}

void MemoryBudget::Register(Evictable* e) {  // also without a limit: one may be set later
  std::lock_guard<std::mutex> lock(mutex_);
  MoveToBack(e);
}

void MemoryBudget::Unregister(Evictable* e) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = where_.find(e);
  if (it == where_.end()) return;
  lru_.erase(it->second);
  where_.erase(it);
}

void MemoryBudget::Touch(Evictable* e) {
  // What executables hold grows only through MakeRoom, so it stays within
  // the limit unless the limit itself was lowered: then a full pass.
  if (limit_changed_.load(std::memory_order_relaxed) && limit_changed_.exchange(false)) {
    (void)MakeRoom(e, 0);
    return;
  }
  if (limit_ == kUnlimited) return;  // the order matters only for evicting
  std::lock_guard<std::mutex> lock(mutex_);
  MoveToBack(e);
}

bool MemoryBudget::MakeRoom(Evictable* e, int64_t extra) {
  // Without a limit nothing is evicted, so the order of use does not
  // matter: calls skip the lock (a limit set later starts from the order
  // of registration).
  if (limit_ == kUnlimited) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  MoveToBack(e);
  int64_t held = 0;
  for (const Evictable* x : lru_) held += x->evictable_bytes();
  for (Evictable* victim : lru_) {
    if (held + extra <= limit_) break;
    if (victim == e) continue;
    const int64_t bytes = victim->evictable_bytes();
    if (bytes == 0 || !victim->TryEvict()) continue;
    held -= bytes;
    ++evictions_;
  }
  return held + extra <= limit_;
}

int64_t MemoryBudget::EvictAllExcept(Evictable* e) {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t freed = 0;
  for (Evictable* victim : lru_) {
    if (victim == e) continue;
    const int64_t bytes = victim->evictable_bytes();
    if (bytes == 0 || !victim->TryEvict()) continue;
    freed += bytes;
    ++evictions_;
  }
  return freed;
}

int64_t MemoryBudget::held_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t held = 0;
  for (const Evictable* x : lru_) held += x->evictable_bytes();
  return held;
}

int64_t MemoryBudget::evictions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return evictions_;
}

}  // namespace hlograph::gpu

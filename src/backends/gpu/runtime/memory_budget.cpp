#include "backends/gpu/runtime/memory_budget.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace hlograph::gpu {

MemoryBudget& MemoryBudget::Global() {
  static MemoryBudget* budget = [] {
    int64_t limit = kUnlimited;
    if (const char* text = std::getenv("HLOGRAPH_GPU_MEMORY_BUDGET"); text != nullptr && *text != '\0') {
      auto parsed = ParseBytes(text);
      if (parsed.ok()) limit = *parsed;  // a malformed value leaves the budget unlimited
    }
    return new MemoryBudget(limit);  // never destroyed: executables may outlive static destructors
  }();
  return *budget;
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

void MemoryBudget::set_limit(int64_t bytes) { limit_ = bytes; }

int64_t MemoryBudget::limit() const { return limit_; }

void MemoryBudget::Register(Evictable* e) {  // also without a limit: one may be set later
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.remove(e);
  lru_.push_back(e);
}

void MemoryBudget::Unregister(Evictable* e) {
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.remove(e);
}

bool MemoryBudget::MakeRoom(Evictable* e, int64_t extra) {
  // Without a limit nothing is evicted, so the order of use does not
  // matter: calls skip the lock (a limit set later starts from the order
  // of registration).
  if (limit_ == kUnlimited) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.remove(e);
  lru_.push_back(e);
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

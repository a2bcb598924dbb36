#include "backends/gpu/runtime/recent_addresses.h"

#include <algorithm>

namespace hlograph::gpu {

RecentAddresses::RecentAddresses(size_t buffers, size_t depth) : depth_(std::max<size_t>(depth, 1)), recent_(buffers) {}

std::vector<bool> RecentAddresses::Observe(const std::vector<const void*>& now) {
  if (recent_.size() < now.size()) recent_.resize(now.size());
  std::vector<bool> moved(now.size(), false);
  for (size_t i = 0; i < now.size(); ++i) {
    std::vector<const void*>& seen = recent_[i];
    const auto it = std::find(seen.begin(), seen.end(), now[i]);
    moved[i] = !seen.empty() && it == seen.end();
    // Most recent first: a known address moves to the front, a new one
    // pushes out the oldest.
    if (it != seen.end()) {
      std::rotate(seen.begin(), it, it + 1);
    } else {
      seen.insert(seen.begin(), now[i]);
      if (seen.size() > depth_) seen.pop_back();
    }
  }
  return moved;
}

}  // namespace hlograph::gpu

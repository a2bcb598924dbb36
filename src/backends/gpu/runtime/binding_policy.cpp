#include "backends/gpu/runtime/binding_policy.h"

#include <algorithm>
#include <cstdlib>

namespace hlograph::gpu {

const char* BindingPolicyName(BindingPolicy policy) {
  return policy == BindingPolicy::kStableCopies ? "stable copies" : "update nodes";
}

BindingChooser::BindingChooser(Mode mode, std::vector<int64_t> io_bytes)
    : mode_(mode), io_bytes_(std::move(io_bytes)), copied_(io_bytes_.size(), false), moves_(io_bytes_.size(), 0) {
  switch (mode) {
    case Mode::kCopy:
      copied_.assign(io_bytes_.size(), true);
      copied_count_ = static_cast<int>(io_bytes_.size());
      why_ = "HLOGRAPH_GPU_BINDING=copy";
      break;
    case Mode::kUpdate: why_ = "HLOGRAPH_GPU_BINDING=update"; break;
    case Mode::kAuto:
      why_ = "watching calls in windows of " + std::to_string(kWindow) + " (auto, the default)";
      break;
  }
}

BindingChooser::Mode BindingChooser::ModeFromEnvironment() {
  const char* text = std::getenv("HLOGRAPH_GPU_BINDING");
  const std::string mode = text ? text : "";
  if (mode == "copy") return Mode::kCopy;
  if (mode == "update") return Mode::kUpdate;
  return Mode::kAuto;
}

void BindingChooser::Observe(const std::vector<bool>& moved, int64_t node_updates) {
  if (mode_ != Mode::kAuto) return;
  bool any = false;
  for (size_t i = 0; i < moved.size() && i < moves_.size(); ++i) {
    if (moved[i] && !copied_[i]) {
      ++moves_[i];
      any = true;
    }
  }
  ++calls_;
  moved_calls_ += any;
  node_updates_ += node_updates;
  if (calls_ < kWindow) return;
  Decide();
  calls_ = moved_calls_ = 0;
  node_updates_ = 0;
  std::fill(moves_.begin(), moves_.end(), 0);
}

void BindingChooser::Decide() {
  // Buffers that moved on at least 3 of 4 calls of the window.
  std::vector<size_t> churning;
  for (size_t i = 0; i < moves_.size(); ++i) {
    if (!copied_[i] && moves_[i] * 4 >= kWindow * 3) churning.push_back(i);
  }
  const std::string seen = "addresses moved on " + std::to_string(moved_calls_) + " of " + std::to_string(kWindow) +
                           " calls of the last window";
  if (churning.empty()) {
    if (copied_count_ == 0) why_ = seen;
    return;
  }
  // Copies pay off when each move costs more node updates than there are
  // buffers to copy.
  const int64_t updates_per_move = moved_calls_ > 0 ? node_updates_ / moved_calls_ : 0;
  if (updates_per_move <= static_cast<int64_t>(churning.size())) {
    if (copied_count_ == 0) why_ = seen + ", " + std::to_string(updates_per_move) + " node updates each: cheap";
    return;
  }
  std::sort(churning.begin(), churning.end(), [&](size_t a, size_t b) { return io_bytes_[a] < io_bytes_[b]; });
  int added = 0;
  for (size_t i : churning) {
    if (copied_bytes_ + io_bytes_[i] > kMaxCopyBytes) continue;
    copied_[i] = true;
    copied_bytes_ += io_bytes_[i];
    ++copied_count_;
    ++added;
  }
  if (added > 0) {
    why_ = seen + ", " + std::to_string(updates_per_move) + " node updates each: " + std::to_string(copied_count_) +
           " of " + std::to_string(io_bytes_.size()) + " arguments and results through stable copies (" +
           std::to_string(copied_bytes_) + " bytes a call)";
  } else if (copied_count_ == 0) {
    why_ = seen + "; the moving arguments and results are too large to copy";
  }
}

}  // namespace hlograph::gpu

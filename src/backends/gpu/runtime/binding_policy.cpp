#include "backends/gpu/runtime/binding_policy.h"

#include <cstdlib>

namespace hlograph::gpu {

const char* BindingPolicyName(BindingPolicy policy) {
  return policy == BindingPolicy::kStableCopies ? "stable copies" : "update nodes";
}

BindingChooser::BindingChooser(Mode mode, int64_t io_bytes, int io_buffers)
    : mode_(mode), io_bytes_(io_bytes), io_buffers_(io_buffers) {
  switch (mode) {
    case Mode::kCopy:
      policy_ = BindingPolicy::kStableCopies;
      why_ = "HLOGRAPH_GPU_BINDING=copy";
      break;
    case Mode::kUpdate: why_ = "HLOGRAPH_GPU_BINDING=update"; break;
    case Mode::kAuto:
      why_ = "watching the first " + std::to_string(kWindow) + " calls (auto, the default)";
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

void BindingChooser::Observe(bool moved, int64_t node_updates) {
  if (mode_ != Mode::kAuto || policy_ != BindingPolicy::kUpdateNodes || calls_ >= kWindow) return;
  ++calls_;
  moved_calls_ += moved;
  node_updates_ += node_updates;
  if (calls_ < kWindow) return;
  // Copies pay off when addresses move on most calls, each move costs more
  // node updates than there are buffers to copy, and the copies are small.
  const bool churn = moved_calls_ * 4 >= kWindow * 3;
  const bool many_nodes = moved_calls_ > 0 && node_updates_ > int64_t{io_buffers_} * moved_calls_;
  const bool small = io_bytes_ <= kMaxCopyBytes;
  if (churn && many_nodes && small) {
    policy_ = BindingPolicy::kStableCopies;
    why_ = "addresses moved on " + std::to_string(moved_calls_) + " of " + std::to_string(kWindow) +
           " calls, " + std::to_string(node_updates_ / moved_calls_) + " node updates each, " +
           std::to_string(io_bytes_) + " bytes of arguments and results to copy";
  } else {
    why_ = "addresses moved on " + std::to_string(moved_calls_) + " of " + std::to_string(kWindow) + " calls" +
           (small ? "" : "; arguments and results too large to copy");
  }
}

}  // namespace hlograph::gpu

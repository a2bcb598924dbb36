// How graph mode keeps a graph bound to arguments and results that may sit
// at new addresses on every call, decided buffer by buffer:
//   bind directly  each graph keeps a few instances, each bound to the
//                  addresses of its own calls (runtime/graph_exec_set.h):
//                  free while a call's addresses are those of an instance,
//                  else the nodes that touch a moved buffer get new
//                  parameters (runtime/graph_exec.h), a few microseconds
//                  per node;
//   stable copy    bind the graph once to a buffer of the executable's own
//                  and copy the argument in (the result out) each call;
//                  costs a copy, no host work per node.
// A buffer "moves" when it sits at an address outside its last few distinct
// ones (as many as there are instances per graph, runtime/recent_addresses.h):
// results alternating between two buffers do not move with two instances.
// The chooser watches calls in windows: a buffer that moved on most calls of
// a window, when the moves cost more node updates than there are such
// buffers to copy, switches to a stable copy, smallest first, while the
// copied bytes stay small. It keeps watching (a program may start with
// calls at steady addresses, such as warm-up calls that wait for each
// result, then churn), and a buffer once copied stays copied. Typical for
// jax.jit through the PJRT plugin: weights at steady addresses and results
// in recycled memory alternating between two addresses keep their direct
// binding; results at a fresh address each call go through stable copies.
// HLOGRAPH_GPU_BINDING=update|copy|auto picks (auto by default; copy copies
// every argument and result).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hlograph::gpu {

enum class BindingPolicy { kUpdateNodes, kStableCopies };
const char* BindingPolicyName(BindingPolicy policy);

class BindingChooser {
 public:
  enum class Mode { kUpdate, kCopy, kAuto };
  // io_bytes: the size of each argument, then of each result.
  BindingChooser(Mode mode, std::vector<int64_t> io_bytes);
  // The mode HLOGRAPH_GPU_BINDING asks for.
  static Mode ModeFromEnvironment();
  // One call: which arguments and results sat at a new address (outside
  // their recent ones; those bound directly), and how many node updates the
  // call took.
  void Observe(const std::vector<bool>& moved, int64_t node_updates);
  // Whether argument/result `i` (arguments first) goes through a stable copy.
  bool copied(size_t i) const { return i < copied_.size() && copied_[i]; }
  // kStableCopies once any buffer goes through a copy.
  BindingPolicy policy() const {
    return copied_count_ > 0 ? BindingPolicy::kStableCopies : BindingPolicy::kUpdateNodes;
  }
  const std::string& why() const { return why_; }

  // Calls per window, and the most bytes copied per call.
  static constexpr int kWindow = 16;
  static constexpr int64_t kMaxCopyBytes = int64_t{4} << 20;

 private:
  void Decide();

  Mode mode_;
  std::vector<int64_t> io_bytes_;
  std::vector<bool> copied_;
  int copied_count_ = 0;
  int64_t copied_bytes_ = 0;
  // The current window.
  int calls_ = 0, moved_calls_ = 0;
  std::vector<int> moves_;  // per buffer
  int64_t node_updates_ = 0;
  std::string why_;
};

}  // namespace hlograph::gpu

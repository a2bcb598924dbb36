// The last few distinct addresses each argument and result of an
// executable was called with. With several graph instances per graph
// (runtime/graph_exec_set.h), an address seen among the last `depth` is one
// an instance is likely still bound to, so coming back to it costs no node
// updates: only an address outside them counts as a move for the binding
// chooser (runtime/binding_policy.h). Results that alternate between two
// buffers, as the PJRT plugin's recycled result memory does, then never
// "move".
#pragma once

#include <cstddef>
#include <vector>

namespace hlograph::gpu {

class RecentAddresses {
 public:
  // `buffers`: how many addresses a call has; `depth` >= 1 (1: a move is
  // any change since the last call).
  RecentAddresses(size_t buffers, size_t depth);
  // Notes one call's addresses; returns which are new (outside the last
  // `depth` distinct addresses of their buffer). Nothing is new on the
  // first call.
  std::vector<bool> Observe(const std::vector<const void*>& now);
  size_t depth() const { return depth_; }

 private:
  size_t depth_;
  std::vector<std::vector<const void*>> recent_;  // per buffer, most recent first
};

}  // namespace hlograph::gpu

#include "backends/gpu/runtime/graph_exec_set.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>

namespace hlograph::gpu {

int GraphInstancesFromEnvironment(int fallback) {
  const char* text = std::getenv("HLOGRAPH_GPU_GRAPH_INSTANCES");
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (*end != '\0' || n < 1 || n > kMaxGraphInstances) return fallback;
  return static_cast<int>(n);
}

namespace {

// How many buffers an instance bound to `bound` would have to move to `ptrs`.
size_t Moves(const std::vector<void*>& bound, const std::vector<void*>& ptrs) {
  if (bound.size() != ptrs.size()) return std::numeric_limits<size_t>::max();
  size_t moves = 0;
  for (size_t i = 0; i < ptrs.size(); ++i) moves += bound[i] != ptrs[i];
  return moves;
}

}  // namespace

InstanceChoice ChooseInstance(const std::vector<const std::vector<void*>*>& bound,
                              const std::vector<uint64_t>& last_used, const std::vector<void*>& ptrs,
                              size_t capacity) {
  size_t best = 0, best_moves = std::numeric_limits<size_t>::max();
  for (size_t i = 0; i < bound.size(); ++i) {
    const size_t moves = Moves(*bound[i], ptrs);
    if (moves == 0) return {InstanceChoice::Kind::kReuse, i};
    const bool older = i < last_used.size() && best < last_used.size() && last_used[i] < last_used[best];
    if (moves < best_moves || (moves == best_moves && older)) {
      best = i;
      best_moves = moves;
    }
  }
  if (bound.size() < std::max<size_t>(capacity, 1)) return {InstanceChoice::Kind::kCreate, bound.size()};
  return {InstanceChoice::Kind::kRebind, best};
}

GraphExecSet::GraphExecSet(int graph, int capacity)
    : graph_(graph), capacity_(static_cast<size_t>(std::max(capacity, 1))) {}

StatusOr<GraphExec*> GraphExecSet::Bind(const GraphResources& resources, const std::vector<void*>& ptrs,
                                        cudaStream_t capture, BindingCounters& counters) {
  std::vector<const std::vector<void*>*> bound;
  for (const auto& instance : instances_) bound.push_back(&instance->bound());
  const InstanceChoice choice = ChooseInstance(bound, last_used_, ptrs, capacity_);
  if (choice.kind == InstanceChoice::Kind::kCreate) {
    HLOGRAPH_ASSIGN(std::unique_ptr<GraphExec> made, GraphExec::Create(resources, graph_, ptrs, capture, counters));
    instances_.push_back(std::move(made));
    last_used_.push_back(0);
  } else {
    // Counts a reuse when nothing moved, updates the moved buffers' nodes otherwise.
    HLOGRAPH_TRY(instances_[choice.index]->Bind(ptrs, capture, counters));
  }
  last_used_[choice.index] = ++clock_;
  return instances_[choice.index].get();
}

void GraphExecSet::Clear() {
  instances_.clear();
  last_used_.clear();
}

}  // namespace hlograph::gpu

// Several instances of one plan graph (runtime/graph_exec.h), each bound to
// its own argument and result addresses. A call takes the instance already
// bound to its addresses (a reuse: no node updates); failing that, a new
// instance while there is room; failing that, it rebinds the instance with
// the fewest buffers at other addresses (least recently used among equals).
// Callers that alternate between a few sets of buffers (the PJRT plugin
// recycles result memory: A, B, A, B...) so never update a node once each
// set has an instance. One instance per graph is binding as it was before:
// every change of address updates nodes. The instances share the
// executable's arena of temps, which is fine as its calls take turns.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "backends/gpu/runtime/graph_exec.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

constexpr int kDefaultGraphInstances = 2;
constexpr int kMaxGraphInstances = 16;

// HLOGRAPH_GPU_GRAPH_INSTANCES when it holds a count from 1 to
// kMaxGraphInstances, else `fallback`.
int GraphInstancesFromEnvironment(int fallback);

// Which instance a call with buffers at `ptrs` runs, given each instance's
// bound addresses and when each was last used (larger: later).
struct InstanceChoice {
  enum class Kind { kReuse, kCreate, kRebind };
  Kind kind = Kind::kCreate;
  size_t index = 0;  // the instance reused or rebound, or the new one's place
};
InstanceChoice ChooseInstance(const std::vector<const std::vector<void*>*>& bound,
                              const std::vector<uint64_t>& last_used, const std::vector<void*>& ptrs,
                              size_t capacity);

class GraphExecSet {
 public:
  // Instances of plan graph `graph`, at most `capacity` (at least 1).
  GraphExecSet(int graph, int capacity);
  // An instance bound to `ptrs` (created or rebound as needed, counted in
  // `counters`); `capture` as for GraphExec::Create.
  StatusOr<GraphExec*> Bind(const GraphResources& resources, const std::vector<void*>& ptrs, cudaStream_t capture,
                            BindingCounters& counters);
  // Drops every instance (their nodes point into memory given back).
  void Clear();
  size_t size() const { return instances_.size(); }
  size_t capacity() const { return capacity_; }

 private:
  int graph_;
  size_t capacity_;
  std::vector<std::unique_ptr<GraphExec>> instances_;
  std::vector<uint64_t> last_used_;  // per instance
  uint64_t clock_ = 0;               // calls so far
};

}  // namespace hlograph::gpu

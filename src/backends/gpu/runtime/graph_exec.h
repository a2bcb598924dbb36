// One graph of a GraphPlan (plan/graph_plan.h) made into a CUDA graph and
// instantiated: a node per plan node, added explicitly (kernel, memcpy,
// memset, empty, conditional nodes; cuBLASLt, cuDNN and NCCL calls captured
// into child graphs), conditional handles created on the root graph, bodies
// filled in place; the plan's programmatic edges as programmatic edges.
//
// Temps in graph memory (GraphPlan::temps) are where the graph's
// allocation node put them; the caller's addresses for them are ignored.
//
// Buffers are bound at creation. A later call whose arguments or results
// sit elsewhere rebinds: unchanged addresses reuse the instance as it is;
// otherwise each node that touches a moved buffer, in the root graph or a
// conditional body, gets new parameters in the instance (library calls are
// recaptured); only if CUDA refuses an update is the graph built and
// instantiated again.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <vector>

#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/runtime/kernel_module.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

// What the nodes launch; owned by the executable.
struct GraphResources {
  const GpuProgram* program = nullptr;
  const GraphPlan* plan = nullptr;
  std::vector<cudaKernel_t> kernels;        // per fusion
  std::vector<LaunchDims> launches;         // per fusion
  cudaKernel_t set_condition = nullptr;     // kSetConditionKernelName, compiled once
  // Queues a GEMM, convolution or collective step on `stream` (being captured).
  std::function<Status(const Step&, const std::vector<void*>& ptrs, cudaStream_t stream)> run_library;
};

// The set-condition kernel: reads a predicate or an index and writes a
// conditional handle. Compiled by NVRTC like the generated kernels.
extern const char* const kSetConditionKernelName;
const char* SetConditionKernelSource();

// How bindings were kept up to date, for ExecutionStats.
struct BindingCounters {
  int64_t reuses = 0;            // calls whose buffers had not moved
  int64_t node_updates = 0;      // nodes given new parameters in place
  int64_t instantiations = 0;    // cudaGraphInstantiate, the first included
  int64_t copies = 0;            // arguments and results copied through stable buffers
};

class GraphExec {
 public:
  // Builds and instantiates graph `graph` of the plan with buffers at `ptrs`
  // (one device address per BufferId). `capture` is a stream to capture
  // library calls on (not used by anything else meanwhile).
  static StatusOr<std::unique_ptr<GraphExec>> Create(const GraphResources& resources, int graph,
                                                     const std::vector<void*>& ptrs, cudaStream_t capture,
                                                     BindingCounters& counters);
  ~GraphExec();
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;

  // Brings the instance's buffer addresses to `ptrs`.
  Status Bind(const std::vector<void*>& ptrs, cudaStream_t capture, BindingCounters& counters);
  Status Launch(cudaStream_t stream);
  // The buffer addresses the instance is bound to (one per BufferId).
  const std::vector<void*>& bound() const { return bound_; }
  // Whether its kernel-to-kernel edges are programmatic (the plan asked
  // for them and the driver took them).
  bool programmatic() const { return programmatic_; }

 private:
  GraphExec() = default;
  struct Node;
  Status Build(const std::vector<void*>& ptrs, cudaStream_t capture);
  Status Instantiate();
  Status AddNodes(int plan_graph, cudaGraph_t graph, const std::vector<void*>& ptrs, cudaStream_t capture);
  Status UpdateNode(const Node& node, const std::vector<void*>& ptrs, cudaStream_t capture);
  // `ptrs` with the temps at their place in graph memory (GraphPlan::temps),
  // once the graph has allocated it.
  std::vector<void*> WithTemps(const std::vector<void*>& ptrs) const;

  const GraphResources* resources_ = nullptr;
  int graph_ = -1;
  cudaGraph_t cuda_graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  std::vector<cudaGraphConditionalHandle> handles_;  // per plan condition
  std::vector<Node> nodes_;                          // every node built, root graph first
  std::vector<void*> bound_;                         // the caller's addresses the instance is bound to
  void* temps_ = nullptr;                            // the temps' graph memory (allocated by the graph)
  bool programmatic_ = true;
  int least_priority_ = 0, greatest_priority_ = 0;  // the device's range (greatest is the lowest number)
};

}  // namespace hlograph::gpu

// A module compiled for one GPU: its program (plan/program.h), its kernels
// compiled by NVRTC and loaded, its GEMM plans, its constants uploaded and
// its arena of temps allocated. Compile once, execute many times; Execute
// may be called from several threads (calls on one executable take turns,
// as they share the arena: each call's GPU work is queued after the
// previous call's, whatever the streams).
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/tensor.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/program.h"
#include "backends/gpu/runtime/binding_policy.h"
#include "backends/gpu/runtime/cudnn_convolution.h"
#include "backends/gpu/runtime/fft_plan.h"
#include "backends/gpu/runtime/device_memory.h"
#include "backends/gpu/runtime/gemm.h"
#include "backends/gpu/runtime/graph_exec.h"
#include "backends/gpu/runtime/graph_exec_set.h"
#include "backends/gpu/runtime/kernel_module.h"
#include "backends/gpu/runtime/memory_budget.h"
#include "backends/gpu/runtime/nccl_communicators.h"
#include "backends/gpu/runtime/recent_addresses.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::gpu {

// Graph mode runs each call as CUDA graph launches (plan/graph_plan.h,
// runtime/graph_exec.h): loops and cases on the device, no host round
// trips. Stream mode queues the steps one by one and reads loop predicates
// and case indices on the host.
enum class ExecutionMode { kGraph, kStream };
const char* ExecutionModeName(ExecutionMode mode);

struct GpuCompileOptions {
  int device = 0;
  bool use_kernel_cache = true;
  ExecutionMode mode = ExecutionMode::kGraph;
  GraphOptions graph;  // the node budget for unrolling loops, programmatic launch
  // Graph mode: instances kept per graph, each bound to the addresses of
  // its own calls (runtime/graph_exec_set.h); HLOGRAPH_GPU_GRAPH_INSTANCES
  // overrides. 1: one instance, its nodes updated whenever addresses move.
  int graph_instances = kDefaultGraphInstances;
  // Told as each generated kernel is compiled (on NVRTC's threads, one call
  // at a time, the count rising), for a progress report.
  std::function<void(size_t compiled, size_t total)> kernel_compiled;
  // The device of the grid the program runs as (its collectives' ranks,
  // replica_id and partition_id), and the CUDA device of each of the
  // grid's logical ids (replica * partitions + partition): their
  // collectives' communicators span those devices of this process. Empty
  // for a grid of one device: `device`.
  DevicePlace place;
  std::vector<int> grid_devices;
  // Sets the process's memory budget (runtime/memory_budget.h: "8G", "80%",
  // "none") before compiling, when not empty; it is one for all executables.
  std::string memory_budget;
};

// Counters of the last and all Execute calls, for people and benchmarks.
struct ExecutionStats {
  int64_t executions = 0;
  int64_t kernel_launches = 0;
  int64_t gemm_calls = 0;
  int64_t convolution_calls = 0;  // through cuDNN
  int64_t fft_calls = 0;          // through cuFFT
  int64_t collective_calls = 0;   // through NCCL
  int64_t copies = 0;
  int64_t host_syncs = 0;  // predicate or index reads of loops and cases, host ops
  int64_t host_ops = 0;    // ops run on the host (HostStep)
  // Graph mode: launches, and how buffer addresses were kept bound.
  int64_t graph_launches = 0;
  BindingCounters binding;
  // Calls that found the arena given back to the memory budget and
  // allocated it again.
  int64_t reloads = 0;
  BindingPolicy binding_policy = BindingPolicy::kUpdateNodes;  // in force now (filled by stats())
  int graph_instances = 0;  // the most instances per graph (filled by stats(); 0 in stream mode)
};

// Told of each step as stream mode queues it (a profiler attributes the
// device work queued in between to the step): Enter before, Leave after,
// nested for the steps of loops and cases.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void Enter(const Step& step) = 0;
  virtual void Leave(const Step& step) = 0;
};

class GpuExecutable : public Evictable {
 public:
  // Plans the module and compiles it for `options.device`. Without a GPU
  // this fails with a message saying so.
  static StatusOr<std::unique_ptr<GpuExecutable>> Compile(const ir::Module& module,
                                                          const GpuCompileOptions& options = {});
  ~GpuExecutable() override;

  // Runs on device buffers: one pointer per parameter and per result
  // (results sized as the program's result types), on `stream`. Returns once
  // the work is queued; loops and cases wait for their predicates.
  Status Execute(const std::vector<const void*>& args, const std::vector<void*>& results, cudaStream_t stream);

  // Host tensors in and out: uploads, executes, waits, downloads.
  StatusOr<std::vector<cpu::Tensor>> Run(const std::vector<cpu::Tensor>& args);

  const GpuProgram& program() const { return program_; }
  ExecutionMode mode() const { return mode_; }
  const GraphPlan& graph_plan() const { return graph_plan_; }
  const std::vector<KernelSource>& kernels() const { return sources_; }
  ExecutionStats stats() const;
  // Device memory the executable holds (arena of temps, GEMM and cuDNN
  // workspace, constants, stable copies), not counting arguments and results.
  int64_t resident_bytes() const;
  // Whether the temps are allocated inside the graph on each call (graph
  // memory nodes: GraphOptions::temps) instead of held in the arena:
  // a call then also uses graph_plan().temps.bytes of CUDA's graph memory pool.
  bool temps_in_graph_memory() const { return mode_ == ExecutionMode::kGraph && graph_plan_.temps.in_graph; }
  // The program, each kernel's strategy and launch, the GEMMs, the memory.
  std::string Explain() const;
  // Stream mode: `observer` (or none) is told of each step queued from now on.
  void set_step_observer(StepObserver* observer) { observer_ = observer; }

  // Evictable (runtime/memory_budget.h): the arena and the library
  // workspace, and with them the graphs that point into them.
  int64_t evictable_bytes() const override { return held_bytes_; }
  bool TryEvict() override;

 private:
  GpuExecutable() = default;
  Status Load(const GpuCompileOptions& options);
  Status UploadConstants();
  // The cuBLASLt and cuDNN plans of the GEMM and convolution steps; returns the workspace they need.
  StatusOr<size_t> PlanLibraryCalls(const CompileOptions& compile);
  // Kernels of the runtime's own (set-condition, fft scaling): `names` of
  // `source`, compiled as one module kept loaded for the executable's life.
  StatusOr<std::vector<cudaKernel_t>> LoadRuntimeKernels(const char* source, const std::vector<const char*>& names,
                                                         const CompileOptions& compile);
  // The NCCL communicator of each collective step (runtime/nccl_communicators.h).
  Status PlanCollectives(const GpuCompileOptions& options);
  // Set when a library refused a planned call (cuDNN had no engine for a
  // convolution, cuFFT no plan for a transform): Compile plans again, that
  // call as a generated kernel (plan/library_refusals.h).
  bool library_refused_ = false;
  Status LoadGraphs(const CompileOptions& compile);
  // Allocates the arena and workspace (after asking the budget for room).
  Status AllocateResident();
  // Device memory held between calls, counted in held_bytes_: the budget
  // makes room first; out of memory, every other idle executable gives its
  // memory back and it is tried once more. The error names `what` and the size.
  StatusOr<DeviceBuffer> AllocateHeld(int64_t bytes, const char* what);
  void ReclaimDeviceMemory();
  // After an eviction: temps to graph memory where the policy allows.
  Status MoveTempsToGraphMemory();
  Status RunGraphs(std::vector<void*>& ptrs, cudaStream_t stream);
  // Graph mode: the arguments and results the binding chooser copies go
  // through stable buffers (copied in, copied out), the rest are bound
  // directly: each graph runs the instance bound to the call's addresses,
  // or a new one, or one whose nodes are updated. The chooser sees as moved
  // only addresses outside each buffer's last few (as many as instances).
  Status RunGraphsBound(std::vector<void*>& ptrs, const std::vector<const void*>& args,
                        const std::vector<void*>& results, cudaStream_t stream);
  Status RunLibraryStep(const Step& step, const std::vector<void*>& ptrs, cudaStream_t stream);
  Status RunSequence(const Sequence& seq, std::vector<void*>& ptrs, cudaStream_t stream);
  Status RunStep(const Step& step, std::vector<void*>& ptrs, cudaStream_t stream);
  Status QueueStep(const Step& step, std::vector<void*>& ptrs, cudaStream_t stream);
  StatusOr<int64_t> ReadScalar(const void* device, ir::ElementType type, cudaStream_t stream);
  Status RunOnHost(const Step& step, const HostStep& host, std::vector<void*>& ptrs, cudaStream_t stream);

  GpuProgram program_;
  int device_ = 0;
  ExecutionMode mode_ = ExecutionMode::kGraph;
  GraphOptions graph_options_;  // what graph_plan_ was planned with
  GraphPlan graph_plan_;
  GraphResources graph_resources_;
  std::vector<GraphExecSet> graph_execs_;  // per plan graph, instances made as calls need them
  int graph_instances_ = 1;                // per plan graph, at most
  Stream capture_stream_;                                // library calls are captured on it
  std::unique_ptr<BindingChooser> binding_;
  std::vector<DeviceBuffer> stable_;     // stable copies: per parameter, then per result (empty if bound directly)
  RecentAddresses recent_io_{0, 1};      // the last calls' argument and result addresses
  std::vector<KernelSource> sources_;
  std::vector<KernelModule> modules_;
  std::vector<cudaKernel_t> kernels_;
  std::shared_ptr<BlasHandle> blas_;
  std::vector<std::pair<const GemmStep*, std::unique_ptr<GemmPlan>>> gemms_;
  std::shared_ptr<DnnHandle> dnn_;
  std::vector<std::pair<const ConvolutionStep*, std::unique_ptr<ConvPlan>>> convolutions_;
  std::vector<std::pair<const FftStep*, std::unique_ptr<FftPlan>>> ffts_;
  std::vector<std::pair<const CollectiveStep*, ncclComm*>> collectives_;
  DeviceBuffer constants_;               // all of them (UploadConstants)
  std::vector<void*> constant_at_;       // per buffer id: a constant's place in constants_, else null
  DeviceBuffer arena_;
  DeviceBuffer workspace_;
  size_t workspace_bytes_ = 0;
  bool evicted_ = false;                 // arena and workspace given back to the budget
  std::atomic<int64_t> held_bytes_{0};   // arena + workspace + stable copies held now
  void* pinned_scalar_ = nullptr;  // host memory for predicate reads
  // Recorded at the end of each call's work: the next call's stream waits
  // for it, since all calls share the arena.
  cudaEvent_t last_call_done_ = nullptr;
  std::mutex mutex_;
  ExecutionStats stats_;
  StepObserver* observer_ = nullptr;
};

// Whether `hlograph run --backend auto` should pick the GPU.
bool GpuAvailable();

}  // namespace hlograph::gpu

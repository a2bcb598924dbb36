#include "backends/gpu/runtime/graph_exec.h"

#include <algorithm>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {

const char* const kSetConditionKernelName = "hlo_set_condition";

// `branches` 0: a loop predicate (the handle is 1 while it holds); -1: an
// if's i1 (true runs branch 0); n > 0: a case index, out of range runs the
// last branch as the spec says.
const char* SetConditionKernelSource() {
  return R"(
extern "C" __device__ void cudaGraphSetConditional(unsigned long long handle, unsigned int value);
extern "C" __global__ void hlo_set_condition(unsigned long long handle, const void* value, int bytes, int branches) {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");  // launched early behind the kernel computing `value`
#endif
  long long v;
  if (bytes == 1) v = *(const signed char*)value;
  else if (bytes == 2) v = *(const short*)value;
  else if (bytes == 4) v = *(const int*)value;
  else v = *(const long long*)value;
  unsigned int c;
  if (branches == 0) c = v != 0;
  else if (branches < 0) c = v != 0 ? 0u : 1u;
  else c = v < 0 || v >= branches ? (unsigned int)(branches - 1) : (unsigned int)v;
  cudaGraphSetConditional(handle, c);
}
)";
}

struct GraphExec::Node {
  const GraphNode* plan = nullptr;
  cudaGraphNode_t handle = nullptr;
  bool empty = false;    // a kernel with nothing to do: an empty node
};

namespace {

// A kernel node's parameters and the storage they point into (so it is
// filled in place and never copied).
struct KernelLaunch {
  KernelLaunch() = default;
  KernelLaunch(const KernelLaunch&) = delete;
  KernelLaunch& operator=(const KernelLaunch&) = delete;
  cudaKernelNodeParams params{};
  std::vector<void*> pointers;  // buffer addresses, in parameter order
  std::vector<void*> args;      // pointers to each parameter's value
  unsigned long long handle = 0;
  const void* value = nullptr;
  int bytes = 0, branches = 0;
};

void SetDims(KernelLaunch& k, cudaKernel_t kernel, const LaunchDims& dims) {
  k.params.func = reinterpret_cast<void*>(kernel);
  k.params.gridDim = dim3(dims.grid[0], dims.grid[1], dims.grid[2]);
  k.params.blockDim = dim3(dims.block[0], dims.block[1], dims.block[2]);
  k.params.sharedMemBytes = dims.shared_bytes;
  k.params.kernelParams = k.args.data();
}

// A memset node's parameters: `bytes` zero bytes at `dst`.
cudaMemsetParams ZeroFill(void* dst, int64_t bytes) {
  cudaMemsetParams m{};
  m.dst = dst;
  m.elementSize = 1;
  m.width = static_cast<size_t>(bytes);
  m.height = 1;
  return m;
}

bool IsEmpty(const LaunchDims& dims) {
  return std::any_of(dims.grid.begin(), dims.grid.end(), [](uint32_t g) { return g == 0; });
}

}  // namespace

GraphExec::~GraphExec() {
  if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
  if (cuda_graph_ != nullptr) (void)cudaGraphDestroy(cuda_graph_);
}

StatusOr<std::unique_ptr<GraphExec>> GraphExec::Create(const GraphResources& resources, int graph,
                                                       const std::vector<void*>& ptrs, cudaStream_t capture,
                                                       BindingCounters& counters) {
  std::unique_ptr<GraphExec> g(new GraphExec());
  g->resources_ = &resources;
  g->graph_ = graph;
  HLOGRAPH_CUDA(cudaDeviceGetStreamPriorityRange(&g->least_priority_, &g->greatest_priority_));
  Status built = g->Build(ptrs, capture);
  if (built.ok()) built = g->Instantiate();
  if (!built.ok() && g->programmatic_) {
    // A driver that refuses programmatic edges (in a conditional body, say)
    // gets plain ones: the kernels' waits are then no-ops.
    (void)cudaGetLastError();
    g->programmatic_ = false;
    built = g->Build(ptrs, capture);
    if (built.ok()) built = g->Instantiate();
  }
  HLOGRAPH_TRY(built);
  ++counters.instantiations;
  g->bound_ = ptrs;
  return g;
}

// Each kernel node runs at the priority its own attribute gives
// (GraphNode::off_chain), not at its stream's.
Status GraphExec::Instantiate() {
  return CudaStatus(cudaGraphInstantiate(&exec_, cuda_graph_, cudaGraphInstantiateFlagUseNodePriority),
                    "cudaGraphInstantiate");
}

Status GraphExec::Build(const std::vector<void*>& ptrs, cudaStream_t capture) {
  if (cuda_graph_ != nullptr) (void)cudaGraphDestroy(cuda_graph_);
  cuda_graph_ = nullptr;
  temps_ = nullptr;
  nodes_.clear();
  handles_.assign(static_cast<size_t>(resources_->plan->conditions), 0);
  HLOGRAPH_CUDA(cudaGraphCreate(&cuda_graph_, 0));
  return AddNodes(graph_, cuda_graph_, ptrs, capture);
}

namespace {

// Where a node's step buffer `id` is: at `ptrs`, unless the node binds it
// elsewhere (the swapped state of unrolled iterations).
void* BufferAt(const GraphNode& n, const std::vector<void*>& ptrs, BufferId id) {
  for (const auto& [from, to] : n.renamed) {
    if (from == id) return ptrs[static_cast<size_t>(to)];
  }
  return ptrs[static_cast<size_t>(id)];
}

// All of a node's step buffers as BufferAt places them (for library calls,
// which read the step's buffers from a table).
std::vector<void*> NodePtrs(const GraphNode& n, const std::vector<void*>& ptrs) {
  std::vector<void*> mine = ptrs;
  for (const auto& [from, to] : n.renamed) mine[static_cast<size_t>(from)] = ptrs[static_cast<size_t>(to)];
  return mine;
}

// A GEMM or convolution captured from `capture` into a graph of its own.
StatusOr<cudaGraph_t> CaptureLibraryCall(const GraphResources& r, const Step& step, const std::vector<void*>& ptrs,
                                         cudaStream_t capture) {
  HLOGRAPH_CUDA(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
  const Status queued = r.run_library(step, ptrs, capture);
  cudaGraph_t child = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(capture, &child);
  if (!queued.ok() || ended != cudaSuccess) {
    if (child != nullptr) (void)cudaGraphDestroy(child);
    HLOGRAPH_TRY(queued);
    HLOGRAPH_CUDA(ended);
  }
  return child;
}

// The parameters of a kernel or set-condition node with buffers at `ptrs`.
void KernelOf(const GraphResources& r, const GraphNode& n, const std::vector<void*>& ptrs,
              cudaGraphConditionalHandle handle, KernelLaunch& k) {
  if (n.kind == NodeKind::kKernel) {
    const auto& step = std::get<KernelStep>(n.step->action);
    for (BufferId id : step.inputs) k.pointers.push_back(BufferAt(n, ptrs, id));
    for (BufferId id : step.outputs) k.pointers.push_back(BufferAt(n, ptrs, id));
    for (BufferId id : step.scratch) k.pointers.push_back(BufferAt(n, ptrs, id));
    for (void*& p : k.pointers) k.args.push_back(&p);
    SetDims(k, r.kernels[static_cast<size_t>(step.fusion)], r.launches[static_cast<size_t>(step.fusion)]);
    return;
  }
  // kSetCondition (reads already renamed): a loop's i1 predicate or a case's index.
  k.handle = handle;
  k.value = ptrs[static_cast<size_t>(n.reads[0])];
  k.bytes = 1;
  k.branches = 0;
  if (const auto* c = std::get_if<CaseStep>(&n.step->action)) {
    k.bytes = ir::StorageBytes(n.step->op->operand(0)->type().element());
    k.branches = c->index_is_pred ? -1 : n.branches;
  }
  k.args = {&k.handle, const_cast<void**>(&k.value), &k.bytes, &k.branches};
  LaunchDims one;
  SetDims(k, r.set_condition, one);
}

}  // namespace

std::vector<void*> GraphExec::WithTemps(const std::vector<void*>& ptrs) const {
  if (temps_ == nullptr) return ptrs;
  std::vector<void*> placed = ptrs;
  const std::vector<Buffer>& buffers = resources_->program->buffers;
  for (size_t i = 0; i < buffers.size() && i < placed.size(); ++i) {
    if (buffers[i].kind == BufferKind::kTemp && buffers[i].offset >= 0) {
      placed[i] = static_cast<char*>(temps_) + buffers[i].offset;
    }
  }
  return placed;
}

Status GraphExec::AddNodes(int plan_graph, cudaGraph_t graph, const std::vector<void*>& given, cudaStream_t capture) {
  const GraphResources& r = *resources_;
  const Graph& g = r.plan->graphs[static_cast<size_t>(plan_graph)];
  // The buffers' addresses; temps move into graph memory once it is allocated.
  std::vector<void*> ptrs = WithTemps(given);
  std::vector<cudaGraphNode_t> made(g.nodes.size(), nullptr);
  std::vector<bool> kernel_node(g.nodes.size(), false);  // made a CUDA kernel node (not an empty one)
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    // Plain edges go in with the node, programmatic ones (kernel after
    // kernel) right after it.
    std::vector<cudaGraphNode_t> deps, early;
    for (int d : n.deps) {
      const bool programmatic = programmatic_ && kernel_node[static_cast<size_t>(d)] &&
                                std::count(n.programmatic.begin(), n.programmatic.end(), d) > 0;
      (programmatic ? early : deps).push_back(made[static_cast<size_t>(d)]);
    }
    Node node;
    node.plan = &n;
    cudaGraphNode_t& out = node.handle;
    switch (n.kind) {
      case NodeKind::kKernel:
      case NodeKind::kSetCondition: {
        cudaGraphConditionalHandle handle = 0;
        if (n.kind == NodeKind::kSetCondition) {
          cudaGraphConditionalHandle& h = handles_[static_cast<size_t>(n.condition)];
          if (h == 0) HLOGRAPH_CUDA(cudaGraphConditionalHandleCreate(&h, cuda_graph_, 0, 0));
          handle = h;
        } else {
          const auto& step = std::get<KernelStep>(n.step->action);
          const LaunchDims& dims = r.launches[static_cast<size_t>(step.fusion)];
          if (IsEmpty(dims)) {
            node.empty = true;
            deps.insert(deps.end(), early.begin(), early.end());
            HLOGRAPH_CUDA(cudaGraphAddEmptyNode(&out, graph, deps.data(), deps.size()));
            break;
          }
          HLOGRAPH_TRY(PrepareKernel(r.kernels[static_cast<size_t>(step.fusion)], dims));
        }
        KernelLaunch k;
        KernelOf(r, n, ptrs, handle, k);
        HLOGRAPH_CUDA(cudaGraphAddKernelNode(&out, graph, deps.data(), deps.size(), &k.params));
        kernel_node[i] = true;
        // Priorities only order the SMs' work: a driver refusing one leaves
        // the node at its default.
        cudaLaunchAttributeValue priority{};
        priority.priority = n.off_chain ? least_priority_ : greatest_priority_;
        if (cudaGraphKernelNodeSetAttribute(out, cudaLaunchAttributePriority, &priority) != cudaSuccess) {
          (void)cudaGetLastError();
        }
        if (!early.empty()) {
          cudaGraphEdgeData edge{};
          edge.from_port = cudaGraphKernelNodePortProgrammatic;
          edge.type = cudaGraphDependencyTypeProgrammatic;
          const std::vector<cudaGraphEdgeData> edges(early.size(), edge);
          const std::vector<cudaGraphNode_t> to(early.size(), out);
          HLOGRAPH_CUDA(cudaGraphAddDependencies(graph, early.data(), to.data(), edges.data(), early.size()));
        }
        break;
      }
      case NodeKind::kGemm:
      case NodeKind::kConvolution:
      case NodeKind::kFft:
      case NodeKind::kCollective: {
        HLOGRAPH_ASSIGN(cudaGraph_t child, CaptureLibraryCall(r, *n.step, NodePtrs(n, ptrs), capture));
        const cudaError_t added = cudaGraphAddChildGraphNode(&out, graph, deps.data(), deps.size(), child);
        (void)cudaGraphDestroy(child);  // the node holds its own copy
        HLOGRAPH_CUDA(added);
        break;
      }
      case NodeKind::kMemcpy:
        HLOGRAPH_CUDA(cudaGraphAddMemcpyNode1D(&out, graph, deps.data(), deps.size(), ptrs[static_cast<size_t>(n.dst)],
                                               ptrs[static_cast<size_t>(n.src)], static_cast<size_t>(n.bytes),
                                               cudaMemcpyDeviceToDevice));
        break;
      case NodeKind::kMemset: {
        const cudaMemsetParams m = ZeroFill(ptrs[static_cast<size_t>(n.dst)], n.bytes);
        HLOGRAPH_CUDA(cudaGraphAddMemsetNode(&out, graph, deps.data(), deps.size(), &m));
        break;
      }
      case NodeKind::kAllocTemps: {
        int device = 0;
        HLOGRAPH_CUDA(cudaGetDevice(&device));
        cudaMemAllocNodeParams alloc{};
        alloc.poolProps.allocType = cudaMemAllocationTypePinned;
        alloc.poolProps.location.type = cudaMemLocationTypeDevice;
        alloc.poolProps.location.id = device;
        alloc.bytesize = static_cast<size_t>(n.bytes);
        HLOGRAPH_CUDA(cudaGraphAddMemAllocNode(&out, graph, deps.data(), deps.size(), &alloc));
        // The address is fixed from here on, for every launch of this graph.
        temps_ = alloc.dptr;
        ptrs = WithTemps(given);
        break;
      }
      case NodeKind::kFreeTemps:
        HLOGRAPH_CUDA(cudaGraphAddMemFreeNode(&out, graph, deps.data(), deps.size(), temps_));
        break;
      case NodeKind::kWhile:
      case NodeKind::kSwitch: {
        cudaGraphNodeParams params{};
        params.type = cudaGraphNodeTypeConditional;
        params.conditional.handle = handles_[static_cast<size_t>(n.condition)];
        params.conditional.type = n.kind == NodeKind::kWhile ? cudaGraphCondTypeWhile : cudaGraphCondTypeSwitch;
        params.conditional.size = static_cast<unsigned int>(n.children.size());
        HLOGRAPH_CUDA(cudaGraphAddNode(&out, graph, deps.data(), nullptr, deps.size(), &params));
        nodes_.push_back(node);
        made[i] = out;
        for (size_t b = 0; b < n.children.size(); ++b) {
          HLOGRAPH_TRY(AddNodes(n.children[b], params.conditional.phGraph_out[b], ptrs, capture));
        }
        continue;
      }
    }
    made[i] = out;
    nodes_.push_back(node);
  }
  return Status::Ok();
}

Status GraphExec::UpdateNode(const Node& node, const std::vector<void*>& ptrs, cudaStream_t capture) {
  const GraphNode& n = *node.plan;
  if (node.empty) return Status::Ok();
  switch (n.kind) {
    case NodeKind::kKernel:
    case NodeKind::kSetCondition: {
      KernelLaunch k;
      KernelOf(*resources_, n, ptrs,
               n.kind == NodeKind::kSetCondition ? handles_[static_cast<size_t>(n.condition)] : 0, k);
      HLOGRAPH_CUDA(cudaGraphExecKernelNodeSetParams(exec_, node.handle, &k.params));
      return Status::Ok();
    }
    case NodeKind::kGemm:
    case NodeKind::kConvolution:
    case NodeKind::kFft:
    case NodeKind::kCollective: {
      HLOGRAPH_ASSIGN(cudaGraph_t child, CaptureLibraryCall(*resources_, *n.step, NodePtrs(n, ptrs), capture));
      const cudaError_t set = cudaGraphExecChildGraphNodeSetParams(exec_, node.handle, child);
      (void)cudaGraphDestroy(child);
      HLOGRAPH_CUDA(set);
      return Status::Ok();
    }
    case NodeKind::kMemcpy:
      HLOGRAPH_CUDA(cudaGraphExecMemcpyNodeSetParams1D(exec_, node.handle, ptrs[static_cast<size_t>(n.dst)],
                                                       ptrs[static_cast<size_t>(n.src)],
                                                       static_cast<size_t>(n.bytes), cudaMemcpyDeviceToDevice));
      return Status::Ok();
    case NodeKind::kMemset: {
      const cudaMemsetParams m = ZeroFill(ptrs[static_cast<size_t>(n.dst)], n.bytes);
      HLOGRAPH_CUDA(cudaGraphExecMemsetNodeSetParams(exec_, node.handle, &m));
      return Status::Ok();
    }
    case NodeKind::kAllocTemps:
    case NodeKind::kFreeTemps: return Status::Ok();  // no buffer of the caller's
    case NodeKind::kWhile:
    case NodeKind::kSwitch: break;
  }
  return Status::Error("internal error: a conditional node updated on its own");
}

Status GraphExec::Bind(const std::vector<void*>& ptrs, cudaStream_t capture, BindingCounters& counters) {
  std::vector<bool> moved(ptrs.size(), false);
  bool any = false;
  for (size_t i = 0; i < ptrs.size(); ++i) {
    moved[i] = ptrs[i] != bound_[i];
    any = any || moved[i];
  }
  if (!any) {
    ++counters.reuses;
    return Status::Ok();
  }
  const auto touches = [&](const GraphNode& n) {
    const auto hit = [&](BufferId id) { return moved[static_cast<size_t>(id)]; };
    return std::any_of(n.reads.begin(), n.reads.end(), hit) || std::any_of(n.writes.begin(), n.writes.end(), hit);
  };
  // Each node reading or writing a moved buffer gets new parameters in the
  // instance (conditional nodes hold no addresses: their bodies' nodes do).
  // Temps in graph memory stay where the graph put them.
  const std::vector<void*> placed = WithTemps(ptrs);
  bool updated = true;
  for (const Node& node : nodes_) {
    const bool conditional = node.plan->kind == NodeKind::kWhile || node.plan->kind == NodeKind::kSwitch;
    if (conditional || !touches(*node.plan)) continue;
    if (!UpdateNode(node, placed, capture).ok()) {
      updated = false;
      break;
    }
    ++counters.node_updates;
  }
  if (!updated) {
    // CUDA refused an update: a new graph and a new instance.
    (void)cudaGetLastError();
    if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
    HLOGRAPH_TRY(Build(ptrs, capture));
    HLOGRAPH_TRY(Instantiate());
    ++counters.instantiations;
  }
  bound_ = ptrs;
  return Status::Ok();
}

Status GraphExec::Launch(cudaStream_t stream) {
  HLOGRAPH_CUDA(cudaGraphLaunch(exec_, stream));
  return Status::Ok();
}

}  // namespace hlograph::gpu

#include "backends/gpu/executable.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <sstream>

#include "backends/cpu/interpreter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device.h"
#include "backends/gpu/runtime/nccl_collectives.h"
#include "ir/attribute.h"

namespace hlograph::gpu {

bool GpuAvailable() { return DeviceCount() > 0; }

const char* ExecutionModeName(ExecutionMode mode) { return mode == ExecutionMode::kGraph ? "graph" : "stream"; }

StatusOr<std::unique_ptr<GpuExecutable>> GpuExecutable::Compile(const ir::Module& module,
                                                                 const GpuCompileOptions& options) {
  if (options.device < 0 || options.device >= DeviceCount()) {
    return Status::Error(DeviceCount() == 0 ? "no GPU is available (no CUDA device or driver found)"
                                            : "no GPU number " + std::to_string(options.device));
  }
  // Each attempt that fails for want of a cuDNN engine or a cuFFT plan has
  // refused one more library call; there are finitely many.
  for (;;) {
    std::unique_ptr<GpuExecutable> e(new GpuExecutable());
    HLOGRAPH_ASSIGN(e->program_, PlanProgram(module, options.place));
    const Status loaded = e->Load(options);
    if (loaded.ok()) return e;
    if (!e->library_refused_) return loaded;
  }
}

GpuExecutable::~GpuExecutable() {
  MemoryBudget::Global().Unregister(this);
  if (pinned_scalar_) cudaFreeHost(pinned_scalar_);
  if (last_call_done_) cudaEventDestroy(last_call_done_);
}

Status GpuExecutable::Load(const GpuCompileOptions& options) {
  // The plan's options hold for everything planned from it: its kernels,
  // its graph, its costs.
  const ScopedPlanOptions planned(program_.options);
  device_ = options.device;
  HLOGRAPH_TRY(SetDevice(device_));
  if (!options.memory_budget.empty()) {
    const Status set = MemoryBudget::Global().SetLimit(options.memory_budget, "set to " + options.memory_budget);
    if (!set.ok()) return Status::Error("memory budget: " + set.message());
  }
  HLOGRAPH_ASSIGN(DeviceInfo info, GetDeviceInfo(device_));
  if (info.cc_major >= 9) HLOGRAPH_TRY(PlanBuffersWithClusters(program_).status());
  EmitOptions emit;
  emit.sm_count = info.sm_count;
  CompileOptions compile;
  compile.cc_major = info.cc_major;
  compile.cc_minor = info.cc_minor;
  compile.use_cache = options.use_kernel_cache;
  for (const Fusion& f : program_.fusions) {
    HLOGRAPH_ASSIGN(KernelSource source, EmitKernel(f, emit));
    sources_.push_back(std::move(source));
  }
  // NVRTC is thread-safe and a cold compile takes ~0.1 s per kernel:
  // compile on every core, then load in order.
  std::vector<StatusOr<CompiledKernel>> cubins(sources_.size(), Status::Error("not compiled"));
  std::atomic<size_t> next{0};
  std::mutex reporting;
  size_t compiled = 0;
  std::vector<std::thread> workers;
  const size_t threads = std::min<size_t>(sources_.size(), std::max(1u, std::thread::hardware_concurrency()));
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < sources_.size(); i = next++) {
        cubins[i] = CompileToCubin(sources_[i].code, sources_[i].name, compile);
        if (options.kernel_compiled) {
          std::lock_guard<std::mutex> lock(reporting);
          options.kernel_compiled(++compiled, sources_.size());
        }
      }
    });
  }
  for (std::thread& w : workers) w.join();
  for (size_t i = 0; i < sources_.size(); ++i) {
    HLOGRAPH_TRY(cubins[i].status());
    HLOGRAPH_ASSIGN(KernelModule module, KernelModule::Load(cubins[i]->cubin));
    HLOGRAPH_ASSIGN(cudaKernel_t kernel, module.GetKernel(sources_[i].name));
    modules_.push_back(std::move(module));
    kernels_.push_back(kernel);
  }
  HLOGRAPH_ASSIGN(const size_t workspace, PlanLibraryCalls(compile));
  workspace_bytes_ = workspace;
  HLOGRAPH_TRY(PlanCollectives(options));
  HLOGRAPH_CUDA(cudaMallocHost(&pinned_scalar_, 8));
  HLOGRAPH_CUDA(cudaEventCreateWithFlags(&last_call_done_, cudaEventDisableTiming));
  mode_ = options.mode;
  if (mode_ == ExecutionMode::kGraph) {
    GraphOptions graph = WithEnvironment(options.graph);
    graph.programmatic_launch = graph.programmatic_launch && info.cc_major >= 9;
    graph.memory_budget = MemoryBudget::Global().limit();
    graph_options_ = graph;
    graph_plan_ = BuildGraphPlan(program_, graph);
    HLOGRAPH_TRY(graph_plan_.Verify());
    graph_instances_ = GraphInstancesFromEnvironment(std::clamp(options.graph_instances, 1, kMaxGraphInstances));
    HLOGRAPH_TRY(LoadGraphs(compile));
  }
  HLOGRAPH_TRY(UploadConstants());  // after the graph plan, which says which of the planner's constants it reads
  HLOGRAPH_TRY(AllocateResident());  // after the graph plan, which may take the temps into its graph
  HLOGRAPH_CUDA(cudaDeviceSynchronize());
  return Status::Ok();
}

// Every constant in one allocation, each at a multiple of 256 bytes (as
// cudaMalloc aligns), a scalar at a multiple of 8. The planner's own
// constants (a loop's counter values) only where a graph node reads them.
Status GpuExecutable::UploadConstants() {
  std::set<BufferId> read;
  for (const Graph& g : graph_plan_.graphs) {
    for (const GraphNode& n : g.nodes) {
      for (const auto& r : n.renamed) read.insert(r.second);
    }
  }
  std::vector<int64_t> offsets(program_.buffers.size(), -1);
  int64_t total = 0;
  for (size_t i = 0; i < program_.buffers.size(); ++i) {
    const Buffer& b = program_.buffers[i];
    if (b.kind != BufferKind::kConstant || (b.constant == nullptr && !read.count(static_cast<BufferId>(i)))) continue;
    const int64_t align = b.bytes <= 8 ? 8 : 256;
    total = (total + align - 1) / align * align;
    offsets[i] = total;
    total += b.bytes;
  }
  std::vector<uint8_t> host(static_cast<size_t>(total), 0);
  for (size_t i = 0; i < program_.buffers.size(); ++i) {
    const Buffer& b = program_.buffers[i];
    if (offsets[i] < 0) continue;
    const auto* dense = b.constant ? b.constant->attr("value").as<ir::DenseElementsAttr>() : nullptr;
    const std::vector<uint8_t>* bytes = b.constant ? (dense ? &dense->bytes : nullptr) : &b.value;
    if (!bytes || static_cast<int64_t>(bytes->size()) != b.bytes) {
      return Status::Error("internal error: constant b" + std::to_string(i) + " has no dense value of its size");
    }
    std::copy(bytes->begin(), bytes->end(), host.begin() + offsets[i]);
  }
  HLOGRAPH_ASSIGN(constants_, DeviceBuffer::Allocate(total));
  HLOGRAPH_TRY(CopyHostToDevice(constants_.data(), host.data(), total, nullptr));
  constant_at_.assign(program_.buffers.size(), nullptr);
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] >= 0) constant_at_[i] = static_cast<char*>(constants_.data()) + offsets[i];
  }
  return Status::Ok();
}

StatusOr<std::vector<cudaKernel_t>> GpuExecutable::LoadRuntimeKernels(const char* source,
                                                                      const std::vector<const char*>& names,
                                                                      const CompileOptions& compile) {
  HLOGRAPH_ASSIGN(CompiledKernel cubin, CompileToCubin(source, names.front(), compile));
  HLOGRAPH_ASSIGN(KernelModule module, KernelModule::Load(cubin.cubin));
  std::vector<cudaKernel_t> kernels;
  for (const char* name : names) {
    HLOGRAPH_ASSIGN(cudaKernel_t kernel, module.GetKernel(name));
    kernels.push_back(kernel);
  }
  modules_.push_back(std::move(module));
  return kernels;
}

StatusOr<size_t> GpuExecutable::PlanLibraryCalls(const CompileOptions& compile) {
  size_t workspace = 0;
  Status status = Status::Ok();
  FftKernels fft_kernels;  // compiled for the first inverse fft
  ForEachStep(program_.main, [&](const Step& step, int) {
    if (!status.ok()) return;
    if (const auto* ft = std::get_if<FftStep>(&step.action)) {
      if (ft->config.scale != 1 && fft_kernels.scale == nullptr) {
        auto kernels =
            LoadRuntimeKernels(FftKernelSource(), {kFftScaleKernelName, kFftHermitianCopyKernelName}, compile);
        if (!kernels.ok()) {
          status = kernels.status();
          return;
        }
        fft_kernels.scale = (*kernels)[0];
        fft_kernels.hermitian_copy = (*kernels)[1];
      }
      auto plan = FftPlan::Create(ft->config, fft_kernels);
      if (plan.ok()) {
        // cuFFT fails to execute some plans it makes (multi-dim C2R on
        // some versions): tried once here, not in a call.
        if (const Status tried = (*plan)->Trial(); !tried.ok()) plan = tried;
      }
      if (!plan.ok()) {  // planned again: a multi-dim C2R in two parts, else the direct DFT
        RefuseLibraryCall(ft->config.ToString(), plan.status().message());
        library_refused_ = true;
        status = Status::Error(ft->config.ToString() + ": " + plan.status().message());
        return;
      }
      workspace = std::max(workspace, (*plan)->workspace_bytes());
      ffts_.emplace_back(ft, std::move(*plan));
      return;
    }
    if (const auto* g = std::get_if<GemmStep>(&step.action)) {
      const GemmConfig& c = g->config;
      if (c.batch * c.m * c.n * c.k == 0) return;
      if (!blas_) {
        auto handle = BlasHandle::Create();
        if (!handle.ok()) {
          status = handle.status();
          return;
        }
        blas_ = *handle;
      }
      auto plan = GemmPlan::Create(c, blas_);
      Status made = plan.status();
      // Big products are worth timing the heuristic's candidates for: the
      // first pick can be a few percent off (HLOGRAPH_GPU_AUTOTUNE=0 keeps
      // it). Small ones are not: their kernels take microseconds, below
      // what event timing of a few launches tells apart.
      const char* autotune = std::getenv("HLOGRAPH_GPU_AUTOTUNE");
      const bool tune = !(autotune && std::string(autotune) == "0");
      const double macs = static_cast<double>(c.batch) * static_cast<double>(c.m) * static_cast<double>(c.n) *
                          static_cast<double>(c.k);
      if (made.ok() && tune && macs >= 1e9) made = (*plan)->Autotune(nullptr);
      if (!made.ok()) {
        status = Status::Error(c.ToString() + ": " + made.message());
        return;
      }
      workspace = std::max(workspace, (*plan)->workspace_bytes());
      gemms_.emplace_back(g, std::move(*plan));
    } else if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
      if (!dnn_) {
        auto handle = DnnHandle::Create();
        if (!handle.ok()) {
          status = Status::Error("cuDNN: " + handle.status().message() +
                                 " (HLOGRAPH_GPU_CUDNN=0 runs convolutions as generated kernels)");
          return;
        }
        dnn_ = *handle;
      }
      bool no_engine = false;
      auto plan = ConvPlan::Create(cv->config, dnn_, nullptr, &no_engine);
      if (!plan.ok()) {
        if (no_engine) {
          RefuseConvolution(cv->config, plan.status().message());
          library_refused_ = true;
        }
        status = Status::Error(cv->config.ToString() + ": " + plan.status().message());
        return;
      }
      workspace = std::max(workspace, (*plan)->workspace_bytes());
      convolutions_.emplace_back(cv, std::move(*plan));
    }
  });
  HLOGRAPH_TRY(status);
  return workspace;
}

Status GpuExecutable::PlanCollectives(const GpuCompileOptions& options) {
  std::vector<int> devices = options.grid_devices;
  if (devices.empty() && options.place.devices() == 1) devices = {options.device};
  if (static_cast<int64_t>(devices.size()) != options.place.devices()) {
    return Status::Error("the program runs as " + options.place.ToString() + ": GpuCompileOptions::grid_devices must "
                         "name a CUDA device for each of the grid's " + std::to_string(options.place.devices()) +
                         " devices, it names " + std::to_string(devices.size()));
  }
  Status status = Status::Ok();
  ForEachStep(program_.main, [&](const Step& step, int) {
    const auto* c = std::get_if<CollectiveStep>(&step.action);
    if (c == nullptr || !status.ok()) return;
    ncclComm* comm = nullptr;
    if (!c->config.group.empty()) {
      std::vector<int> members;
      for (int64_t id : c->config.group) members.push_back(devices[static_cast<size_t>(id)]);
      auto made = CommunicatorFor(members, c->config.rank);
      if (!made.ok()) {
        status = Status::Error(c->config.ToString() + ": " + made.status().message());
        return;
      }
      comm = *made;
    }
    collectives_.emplace_back(c, comm);
  });
  return status;
}

Status GpuExecutable::AllocateResident() {
  // Temps in graph memory are allocated by the graph itself, call by call.
  const int64_t arena = temps_in_graph_memory() ? 0 : program_.arena_bytes;
  MemoryBudget::Global().Register(this);
  HLOGRAPH_ASSIGN(arena_, AllocateHeld(arena, "arena of temps"));
  HLOGRAPH_ASSIGN(workspace_, AllocateHeld(static_cast<int64_t>(workspace_bytes_), "library workspace"));
  // Zero-at-rest temps (arrival counters) start at zero; their kernels
  // leave them so.
  if (arena > 0 &&
      std::any_of(program_.buffers.begin(), program_.buffers.end(), [](const Buffer& b) { return b.zero_at_rest; })) {
    HLOGRAPH_CUDA(cudaMemset(arena_.data(), 0, static_cast<size_t>(program_.arena_bytes)));
    HLOGRAPH_CUDA(cudaDeviceSynchronize());
  }
  evicted_ = false;
  return Status::Ok();
}

// After an out-of-memory error, before trying once more: every idle
// executable gives its memory back and CUDA's graph memory pool returns
// what it keeps.
void GpuExecutable::ReclaimDeviceMemory() {
  (void)MemoryBudget::Global().EvictAllExcept(this);
  (void)cudaDeviceGraphMemTrim(device_);
  (void)cudaGetLastError();  // a trim without graph memory: not sticky
}

StatusOr<DeviceBuffer> GpuExecutable::AllocateHeld(int64_t bytes, const char* what) {
  if (bytes == 0) return DeviceBuffer();
  MemoryBudget& budget = MemoryBudget::Global();
  const int64_t own = held_bytes_ + bytes;
  if (own > budget.limit()) {  // others' memory could not help: the budget is below what a call needs
    return Status::Error("the executable's " + std::string(what) + " (" + std::to_string(bytes) + " bytes; " +
                         std::to_string(own) + " bytes held between calls in all) is over the memory budget of " +
                         std::to_string(budget.limit()) + " bytes (" + budget.source() +
                         "; --memory-budget or HLOGRAPH_GPU_MEMORY_BUDGET raises it)");
  }
  (void)budget.MakeRoom(this, bytes);  // within the budget if idle executables can make room
  auto buffer = DeviceBuffer::Allocate(bytes);
  if (!buffer.ok() && IsOutOfMemory(buffer.status())) {
    // The device is fuller than the budget knew (arrays, other processes).
    ReclaimDeviceMemory();
    buffer = DeviceBuffer::Allocate(bytes);
  }
  if (!buffer.ok()) {
    return Status::Error("the executable's " + std::string(what) + " (" + std::to_string(bytes) +
                         " bytes, held between calls) does not fit, even with every other executable's memory given "
                         "back: " + buffer.status().message());
  }
  held_bytes_ += bytes;
  return buffer;
}

// The budget took the arena: a program whose temps could live in graph
// memory (and whose placement was left to the planner) plans its graph
// again with them there, so that it holds no arena from now on.
Status GpuExecutable::MoveTempsToGraphMemory() {
  if (mode_ != ExecutionMode::kGraph || graph_options_.temps != TempsPolicy::kAuto ||
      graph_plan_.temps.in_graph || !graph_plan_.temps.graph_memory_possible) {
    return Status::Ok();
  }
  GraphOptions options = graph_options_;
  options.temps = TempsPolicy::kGraphMemory;
  const ScopedPlanOptions planned(program_.options);
  GraphPlan plan = BuildGraphPlan(program_, options);
  HLOGRAPH_TRY(plan.Verify());
  if (!plan.temps.in_graph) return Status::Ok();
  plan.temps.why = "the memory budget took the arena (" + std::to_string(program_.arena_bytes) + " bytes of temps)";
  graph_plan_ = std::move(plan);  // graph_resources_ points at graph_plan_
  graph_execs_.clear();
  for (size_t g = 0; g < graph_plan_.graphs.size(); ++g) graph_execs_.emplace_back(static_cast<int>(g), graph_instances_);
  return Status::Ok();
}

bool GpuExecutable::TryEvict() {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || evicted_) return false;
  // Earlier calls' work may still use the arena.
  if (last_call_done_ != nullptr && cudaEventSynchronize(last_call_done_) != cudaSuccess) return false;
  for (GraphExecSet& set : graph_execs_) set.Clear();  // their nodes point into the arena, workspace, copies
  arena_ = DeviceBuffer();
  workspace_ = DeviceBuffer();
  for (DeviceBuffer& copy : stable_) copy = DeviceBuffer();
  held_bytes_ = 0;
  evicted_ = true;
  return true;
}

// What graph nodes launch; the graphs themselves are built on the first
// call, when the arguments' addresses are known.
Status GpuExecutable::LoadGraphs(const CompileOptions& compile) {
  GraphResources& r = graph_resources_;
  r.program = &program_;
  r.plan = &graph_plan_;
  r.kernels = kernels_;
  for (const KernelSource& k : sources_) r.launches.push_back(k.launch);
  if (graph_plan_.conditions > 0) {
    HLOGRAPH_ASSIGN(const std::vector<cudaKernel_t> set_condition,
                    LoadRuntimeKernels(SetConditionKernelSource(), {kSetConditionKernelName}, compile));
    r.set_condition = set_condition[0];
  }
  r.run_library = [this](const Step& step, const std::vector<void*>& ptrs, cudaStream_t stream) {
    return RunLibraryStep(step, ptrs, stream);
  };
  graph_execs_.clear();
  for (size_t g = 0; g < graph_plan_.graphs.size(); ++g) {
    graph_execs_.emplace_back(static_cast<int>(g), graph_instances_);
  }
  HLOGRAPH_ASSIGN(capture_stream_, Stream::Create());
  std::vector<int64_t> io_bytes;
  for (BufferId id : program_.parameters) io_bytes.push_back(program_.buffers[static_cast<size_t>(id)].bytes);
  for (BufferId id : program_.results) io_bytes.push_back(program_.buffers[static_cast<size_t>(id)].bytes);
  recent_io_ = RecentAddresses(io_bytes.size(), static_cast<size_t>(graph_instances_));
  binding_ = std::make_unique<BindingChooser>(BindingChooser::ModeFromEnvironment(), std::move(io_bytes));
  return Status::Ok();
}

Status GpuExecutable::RunGraphsBound(std::vector<void*>& ptrs, const std::vector<const void*>& args,
                                     const std::vector<void*>& results, cudaStream_t stream) {
  const size_t n_params = args.size();
  const size_t n_io = n_params + results.size();
  stable_.resize(n_io);
  // Which arguments and results sit at an address none of their last few
  // calls used: one that no instance may still be bound to.
  std::vector<const void*> now(args.begin(), args.end());
  now.insert(now.end(), results.begin(), results.end());
  const std::vector<bool> moved = recent_io_.Observe(now);
  // The stable copies stand in for the buffers the chooser copies.
  std::vector<size_t> copy_in, copy_out;  // io numbers
  for (size_t i = 0; i < program_.buffers.size(); ++i) {
    const Buffer& b = program_.buffers[i];
    if (b.kind != BufferKind::kParameter && b.kind != BufferKind::kOutput) continue;
    const size_t io = static_cast<size_t>(b.index) + (b.kind == BufferKind::kParameter ? 0 : n_params);
    if (io >= n_io || !binding_->copied(io) || b.bytes == 0) continue;
    if (stable_[io].data() == nullptr) {
      HLOGRAPH_ASSIGN(stable_[io], AllocateHeld(b.bytes, "stable copy of an argument or result"));
    }
    ptrs[i] = stable_[io].data();
    (b.kind == BufferKind::kParameter ? copy_in : copy_out).push_back(io);
  }
  for (size_t io : copy_in) {
    HLOGRAPH_TRY(CopyDeviceToDevice(stable_[io].data(), args[io], stable_[io].size(), stream));
    ++stats_.binding.copies;
  }
  const BindingCounters before = stats_.binding;
  HLOGRAPH_TRY(RunGraphs(ptrs, stream));
  for (size_t io : copy_out) {
    HLOGRAPH_TRY(CopyDeviceToDevice(results[io - n_params], stable_[io].data(), stable_[io].size(), stream));
    ++stats_.binding.copies;
  }
  binding_->Observe(moved, stats_.binding.node_updates - before.node_updates);
  return Status::Ok();
}

Status GpuExecutable::RunGraphs(std::vector<void*>& ptrs, cudaStream_t stream) {
  for (const GraphSegment& segment : graph_plan_.segments) {
    if (segment.outside != nullptr) {
      HLOGRAPH_TRY(RunStep(*segment.outside, ptrs, stream));
      continue;
    }
    GraphExecSet& instances = graph_execs_[static_cast<size_t>(segment.graph)];
    HLOGRAPH_ASSIGN(GraphExec* const exec,
                    instances.Bind(graph_resources_, ptrs, capture_stream_.get(), stats_.binding));
    Status launched = exec->Launch(stream);
    if (!launched.ok() && IsOutOfMemory(launched) && graph_plan_.temps.in_graph && segment.graph == 0) {
      // Its temps' allocation node found the graph memory pool unable to grow.
      ReclaimDeviceMemory();
      launched = exec->Launch(stream);
    }
    if (!launched.ok()) {
      return graph_plan_.temps.in_graph && IsOutOfMemory(launched)
                 ? Status::Error("launching the graph that allocates its " + std::to_string(graph_plan_.temps.bytes) +
                                 " bytes of temps: " + launched.message())
                 : launched;
    }
    ++stats_.graph_launches;
  }
  return Status::Ok();
}

ExecutionStats GpuExecutable::stats() const {
  std::lock_guard<std::mutex> lock(const_cast<std::mutex&>(mutex_));
  ExecutionStats s = stats_;
  if (binding_) s.binding_policy = binding_->policy();
  if (mode_ == ExecutionMode::kGraph) s.graph_instances = graph_instances_;
  return s;
}

int64_t GpuExecutable::resident_bytes() const {
  int64_t bytes = arena_.size() + workspace_.size();
  bytes += constants_.size();
  for (const DeviceBuffer& copy : stable_) bytes += copy.size();
  return bytes;
}

Status GpuExecutable::Execute(const std::vector<const void*>& args, const std::vector<void*>& results,
                              cudaStream_t stream) {
  if (args.size() != program_.parameters.size() || results.size() != program_.results.size()) {
    return Status::Error("the program takes " + std::to_string(program_.parameters.size()) + " arguments and " +
                         std::to_string(program_.results.size()) + " results, got " + std::to_string(args.size()) +
                         " and " + std::to_string(results.size()));
  }
  // A result may share an argument's memory only where the plan allows it.
  for (size_t r = 0; r < results.size(); ++r) {
    for (size_t a = 0; a < args.size(); ++a) {
      if (results[r] != args[a] || results[r] == nullptr) continue;
      const bool allowed = std::any_of(program_.donations.begin(), program_.donations.end(), [&](const Donation& d) {
        return d.in_place && d.parameter == static_cast<int>(a) && d.result == static_cast<int>(r);
      });
      if (!allowed) {
        return Status::Error("result " + std::to_string(r) + " is given argument " + std::to_string(a) +
                             "'s memory, which the program does not allow (see `hlograph explain`: donated)");
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  HLOGRAPH_TRY(SetDevice(device_));
  if (evicted_) {
    HLOGRAPH_TRY(MoveTempsToGraphMemory());
    HLOGRAPH_TRY(AllocateResident());
    ++stats_.reloads;
  } else {
    MemoryBudget::Global().Touch(this);  // the most recently used now
  }
  std::vector<void*> ptrs(program_.buffers.size(), nullptr);
  for (size_t i = 0; i < program_.buffers.size(); ++i) {
    const Buffer& b = program_.buffers[i];
    switch (b.kind) {
      case BufferKind::kParameter: ptrs[i] = const_cast<void*>(args[static_cast<size_t>(b.index)]); break;
      case BufferKind::kOutput: ptrs[i] = results[static_cast<size_t>(b.index)]; break;
      case BufferKind::kConstant: ptrs[i] = constant_at_[i]; break;
      case BufferKind::kTemp:  // in graph memory: placed by the graph (runtime/graph_exec.h)
        ptrs[i] = b.offset >= 0 && arena_.data() != nullptr ? static_cast<char*>(arena_.data()) + b.offset : nullptr;
        break;
    }
  }
  ++stats_.executions;
  HLOGRAPH_CUDA(cudaStreamWaitEvent(stream, last_call_done_, 0));
  if (mode_ == ExecutionMode::kGraph) {
    HLOGRAPH_TRY(RunGraphsBound(ptrs, args, results, stream));
  } else {
    HLOGRAPH_TRY(RunSequence(program_.main, ptrs, stream));
  }
  HLOGRAPH_CUDA(cudaEventRecord(last_call_done_, stream));
  return Status::Ok();
}

Status GpuExecutable::RunSequence(const Sequence& seq, std::vector<void*>& ptrs, cudaStream_t stream) {
  for (const Step& step : seq.steps) HLOGRAPH_TRY(RunStep(step, ptrs, stream));
  return Status::Ok();
}

StatusOr<int64_t> GpuExecutable::ReadScalar(const void* device, ir::ElementType type, cudaStream_t stream) {
  const int bytes = ir::StorageBytes(type);
  HLOGRAPH_TRY(CopyDeviceToHost(pinned_scalar_, device, bytes, stream));
  HLOGRAPH_CUDA(cudaStreamSynchronize(stream));
  ++stats_.host_syncs;
  int64_t v = 0;
  switch (bytes) {
    case 1: {
      int8_t x;
      std::memcpy(&x, pinned_scalar_, 1);
      v = type == ir::ElementType::kU8 || type == ir::ElementType::kI1 ? static_cast<uint8_t>(x) : x;
      break;
    }
    case 2: {
      int16_t x;
      std::memcpy(&x, pinned_scalar_, 2);
      v = x;
      break;
    }
    case 4: {
      int32_t x;
      std::memcpy(&x, pinned_scalar_, 4);
      v = type == ir::ElementType::kU32 ? static_cast<int64_t>(static_cast<uint32_t>(x)) : x;
      break;
    }
    default: std::memcpy(&v, pinned_scalar_, 8); break;
  }
  return v;
}

// A GEMM, cuDNN convolution or NCCL collective, queued on `stream` (or captured from it).
Status GpuExecutable::RunLibraryStep(const Step& step, const std::vector<void*>& ptrs, cudaStream_t stream) {
  const auto at = [&](BufferId id) { return ptrs[static_cast<size_t>(id)]; };
  if (const auto* g = std::get_if<GemmStep>(&step.action)) {
    const GemmConfig& c = g->config;
    if (c.batch * c.m * c.n == 0) return Status::Ok();
    if (c.k == 0) {  // an empty sum
      return MemsetDevice(at(g->out), 0, program_.buffers[static_cast<size_t>(g->out)].bytes, stream);
    }
    const auto it = std::find_if(gemms_.begin(), gemms_.end(), [&](const auto& e) { return e.first == g; });
    if (it == gemms_.end()) return Status::Error("internal error: a GEMM without a plan");
    ++stats_.gemm_calls;
    return it->second->Run(at(g->lhs), at(g->rhs), at(g->out), workspace_.data(), stream,
                           g->bias >= 0 ? at(g->bias) : nullptr);
  }
  if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
    const auto it =
        std::find_if(convolutions_.begin(), convolutions_.end(), [&](const auto& e) { return e.first == cv; });
    if (it == convolutions_.end()) return Status::Error("internal error: a convolution without a plan");
    ++stats_.convolution_calls;
    std::vector<const void*> operands;
    for (BufferId id : cv->epilogue_operands) operands.push_back(at(id));
    return it->second->Run(at(cv->lhs), at(cv->rhs), at(cv->out), workspace_.data(), stream, operands);
  }
  if (const auto* ft = std::get_if<FftStep>(&step.action)) {
    const auto it = std::find_if(ffts_.begin(), ffts_.end(), [&](const auto& e) { return e.first == ft; });
    if (it == ffts_.end()) return Status::Error("internal error: an fft without a plan");
    ++stats_.fft_calls;
    return it->second->Run(at(ft->in), at(ft->out), workspace_.data(), stream);
  }
  if (const auto* c = std::get_if<CollectiveStep>(&step.action)) {
    const auto it =
        std::find_if(collectives_.begin(), collectives_.end(), [&](const auto& e) { return e.first == c; });
    if (it == collectives_.end()) return Status::Error("internal error: a collective without a communicator");
    ++stats_.collective_calls;
    return QueueCollective(*c, it->second, ptrs, stream);
  }
  return Status::Error("internal error: not a library step");
}

Status GpuExecutable::RunStep(const Step& step, std::vector<void*>& ptrs, cudaStream_t stream) {
  if (observer_ == nullptr) return QueueStep(step, ptrs, stream);
  observer_->Enter(step);
  const Status queued = QueueStep(step, ptrs, stream);
  observer_->Leave(step);
  return queued;
}

Status GpuExecutable::QueueStep(const Step& step, std::vector<void*>& ptrs, cudaStream_t stream) {
  const auto at = [&](BufferId id) { return ptrs[static_cast<size_t>(id)]; };
  if (const auto* k = std::get_if<KernelStep>(&step.action)) {
    const KernelSource& source = sources_[static_cast<size_t>(k->fusion)];
    if (source.launch.grid[0] == 0) return Status::Ok();
    std::vector<void*> values;
    for (BufferId id : k->inputs) values.push_back(at(id));
    for (BufferId id : k->outputs) values.push_back(at(id));
    for (BufferId id : k->scratch) values.push_back(at(id));
    std::vector<void*> args;
    for (void*& v : values) args.push_back(&v);
    ++stats_.kernel_launches;
    return LaunchKernel(kernels_[static_cast<size_t>(k->fusion)], source.launch, args.data(), stream);
  }
  if (IsLibraryCall(step)) {
    return RunLibraryStep(step, ptrs, stream);
  }
  if (const auto* h = std::get_if<HostStep>(&step.action)) return RunOnHost(step, *h, ptrs, stream);
  if (const auto* c = std::get_if<CopyStep>(&step.action)) {
    if (c->bytes == 0 || at(c->src) == at(c->dst)) return Status::Ok();
    ++stats_.copies;
    return CopyDeviceToDevice(at(c->dst), at(c->src), c->bytes, stream);
  }
  if (const auto* w = std::get_if<WhileStep>(&step.action)) {
    for (;;) {
      HLOGRAPH_TRY(RunSequence(w->cond, ptrs, stream));
      HLOGRAPH_ASSIGN(int64_t pred, ReadScalar(at(w->pred), ir::ElementType::kI1, stream));
      if (!pred) return Status::Ok();
      HLOGRAPH_TRY(RunSequence(w->body, ptrs, stream));
      for (size_t i = 0; i < w->state.size(); ++i) {
        if (w->next[i] == w->state[i]) continue;
        const int64_t bytes = program_.buffers[static_cast<size_t>(w->state[i])].bytes;
        if (bytes == 0) continue;
        ++stats_.copies;
        HLOGRAPH_TRY(CopyDeviceToDevice(at(w->state[i]), at(w->next[i]), bytes, stream));
      }
    }
  }
  if (const auto* cs = std::get_if<CaseStep>(&step.action)) {
    const ir::ElementType index_type = step.op->operand(0)->type().element();
    HLOGRAPH_ASSIGN(int64_t index, ReadScalar(at(cs->index), index_type, stream));
    const int64_t n = static_cast<int64_t>(cs->branches.size());
    // if: true runs the first region. case: out of range runs the last.
    const int64_t branch = cs->index_is_pred ? (index ? 0 : 1) : (index < 0 || index >= n ? n - 1 : index);
    const auto b = static_cast<size_t>(branch);
    HLOGRAPH_TRY(RunSequence(cs->branches[b], ptrs, stream));
    for (size_t i = 0; i < cs->results.size(); ++i) {
      const int64_t bytes = program_.buffers[static_cast<size_t>(cs->results[i])].bytes;
      if (bytes == 0 || at(cs->branch_results[b][i]) == at(cs->results[i])) continue;
      ++stats_.copies;
      HLOGRAPH_TRY(CopyDeviceToDevice(at(cs->results[i]), at(cs->branch_results[b][i]), bytes, stream));
    }
    return Status::Ok();
  }
  return Status::Error("internal error: unknown step");
}

// The host waits for the operands, runs the op with the CPU interpreter's
// kernel and waits for the results' copies back (their sources are pageable
// host memory, freed on return).
Status GpuExecutable::RunOnHost(const Step& step, const HostStep& host, std::vector<void*>& ptrs,
                                cudaStream_t stream) {
  const ir::Operation& op = *step.op;
  std::vector<cpu::Tensor> operands;
  for (size_t i = 0; i < host.inputs.size(); ++i) {
    operands.emplace_back(op.operand(i)->type());
    HLOGRAPH_TRY(CopyDeviceToHost(operands.back().mutable_bytes(), ptrs[static_cast<size_t>(host.inputs[i])],
                                  static_cast<int64_t>(operands.back().byte_size()), stream));
  }
  HLOGRAPH_CUDA(cudaStreamSynchronize(stream));
  ++stats_.host_syncs;
  ++stats_.host_ops;
  cpu::Interpreter interpreter(*program_.module);
  HLOGRAPH_ASSIGN(std::vector<cpu::Tensor> results, interpreter.RunSingleOp(op, operands));
  for (size_t i = 0; i < host.outputs.size(); ++i) {
    HLOGRAPH_TRY(CopyHostToDevice(ptrs[static_cast<size_t>(host.outputs[i])], results[i].bytes(),
                                  static_cast<int64_t>(results[i].byte_size()), stream));
  }
  // Pageable sources: the copies have read them once the stream is past them.
  HLOGRAPH_CUDA(cudaStreamSynchronize(stream));
  return Status::Ok();
}

StatusOr<std::vector<cpu::Tensor>> GpuExecutable::Run(const std::vector<cpu::Tensor>& args) {
  if (args.size() != program_.parameter_types.size()) {
    return Status::Error("the entry function takes " + std::to_string(program_.parameter_types.size()) +
                         " arguments, got " + std::to_string(args.size()));
  }
  HLOGRAPH_TRY(SetDevice(device_));
  HLOGRAPH_ASSIGN(Stream stream, Stream::Create());
  std::vector<DeviceBuffer> in, out;
  std::vector<const void*> arg_ptrs;
  std::vector<void*> result_ptrs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].type() != program_.parameter_types[i]) {
      return Status::Error("argument " + std::to_string(i) + " has type " + args[i].type().ToString() +
                           ", expected " + program_.parameter_types[i].ToString());
    }
    HLOGRAPH_ASSIGN(DeviceBuffer b, DeviceBuffer::Allocate(static_cast<int64_t>(args[i].byte_size())));
    HLOGRAPH_TRY(CopyHostToDevice(b.data(), args[i].bytes(), static_cast<int64_t>(args[i].byte_size()), stream.get()));
    arg_ptrs.push_back(b.data());
    in.push_back(std::move(b));
  }
  // The device results first: one too large for the device fails here,
  // before a host tensor of its size is allocated and touched.
  for (const ir::Type& t : program_.result_types) {
    const int64_t bytes = t.IsTuple() || t.IsToken() ? 0 : t.NumElements() * ir::StorageBytes(t.element());
    HLOGRAPH_ASSIGN(DeviceBuffer b, DeviceBuffer::Allocate(bytes));
    result_ptrs.push_back(b.data());
    out.push_back(std::move(b));
  }
  HLOGRAPH_TRY(Execute(arg_ptrs, result_ptrs, stream.get()));
  std::vector<cpu::Tensor> results;
  for (const ir::Type& t : program_.result_types) results.emplace_back(t);
  for (size_t i = 0; i < results.size(); ++i) {
    HLOGRAPH_TRY(CopyDeviceToHost(results[i].mutable_bytes(), out[i].data(),
                                  static_cast<int64_t>(results[i].byte_size()), stream.get()));
  }
  HLOGRAPH_TRY(stream.Synchronize());
  return results;
}

std::string GpuExecutable::Explain() const {
  std::ostringstream os;
  os << program_.ToString();
  os << "mode: " << ExecutionModeName(mode_) << "\n";
  if (mode_ == ExecutionMode::kGraph) {
    os << graph_plan_.ToString(program_);
    os << "binding: " << BindingPolicyName(binding_->policy()) << " (" << binding_->why()
       << "); update nodes: reuse the instance while argument and result addresses stay, else give the nodes that "
          "touch a moved buffer new parameters (library calls recaptured), re-instantiate only if CUDA refuses\n";
    os << "graph instances: up to " << graph_instances_
       << " per graph (HLOGRAPH_GPU_GRAPH_INSTANCES), each bound to its own calls' addresses: a call takes the one "
          "bound to its addresses, else a new one, else updates the one with the fewest moved buffers\n";
  }
  os << "kernel launches (this GPU):\n";
  for (const KernelSource& k : sources_) {
    os << "  " << k.name << ": " << k.strategy << ", " << k.launch.ToString() << "\n";
  }
  if (!convolutions_.empty()) os << "cuDNN algorithms (this GPU):\n";
  for (const auto& [step, plan] : convolutions_) {
    os << "  " << step->config.ToString() << ": " << plan->engine() << "\n";
  }
  return os.str();
}

}  // namespace hlograph::gpu

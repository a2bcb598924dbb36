// The GPU backend under PJRT: arrays live in device memory taken from the
// device's stream-ordered pool (cudaMallocAsync, cached across calls), all
// work (uploads, calls, downloads, frees) is queued on one stream, and
// Execute returns once a call is queued. The memory of a runner's results,
// once released, is kept for the same output of its next call
// (result_pool.h), so results alternate between two addresses and the
// graphs need no rebinding. An array's readiness is a CUDA
// event recorded after the work that made it; a PJRT event is made from it
// only when asked for, and a waiter thread turns finished CUDA events into
// ready PJRT events so that the caller's thread never blocks.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>

#include "backends/gpu/executable.h"
#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/memory_budget.h"
#include "backends/gpu/runtime/memory_stats.h"
#include "pjrt/backend.h"
#include "pjrt/call_times.h"
#include "pjrt/gpu/result_pool.h"

namespace hlograph::pjrt {
namespace {

using gpu::CudaStatus;

// CUDA events kept for reuse: a call records one, and creating one each
// time costs host time.
class EventPool {
 public:
  ~EventPool() {
    for (cudaEvent_t e : spare_) (void)cudaEventDestroy(e);
  }
  StatusOr<cudaEvent_t> Take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!spare_.empty()) {
        cudaEvent_t e = spare_.back();
        spare_.pop_back();
        return e;
      }
    }
    cudaEvent_t e = nullptr;
    HLOGRAPH_TRY(CudaStatus(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate"));
    return e;
  }
  void Give(cudaEvent_t e) {
    std::lock_guard<std::mutex> lock(mu_);
    spare_.push_back(e);
  }

 private:
  std::mutex mu_;
  std::vector<cudaEvent_t> spare_;
};

// A CUDA event recorded after some queued work; its PJRT event is made on
// first request.
class Completion : public std::enable_shared_from_this<Completion> {
 public:
  Completion(std::shared_ptr<EventPool> pool, cudaEvent_t event) : pool_(std::move(pool)), event_(event) {}
  ~Completion() { pool_->Give(event_); }
  Completion(const Completion&) = delete;
  Completion& operator=(const Completion&) = delete;

  cudaEvent_t event() const { return event_; }
  // The PJRT event; `watch` is called with it when the work is still running.
  template <typename Watch>
  std::shared_ptr<EventState> State(Watch watch) {
    std::lock_guard<std::mutex> lock(mu_);
    if (state_) return state_;
    state_ = std::make_shared<EventState>();
    const cudaError_t query = cudaEventQuery(event_);
    if (query == cudaSuccess) {
      state_->SetReady();
    } else if (query == cudaErrorNotReady) {
      watch(shared_from_this());
    } else {
      state_->SetReady(std::make_pair(PJRT_Error_Code_INTERNAL, CudaStatus(query, "cudaEventQuery").message()));
    }
    return state_;
  }
  // Called by the waiter once the event has completed (or failed).
  void Finish(cudaError_t result) {
    std::shared_ptr<EventState> state;
    {
      std::lock_guard<std::mutex> lock(mu_);
      state = state_;
    }
    if (result == cudaSuccess) {
      state->SetReady();
    } else {
      state->SetReady(std::make_pair(PJRT_Error_Code_INTERNAL, CudaStatus(result, "cudaEventSynchronize").message()));
    }
  }

 private:
  std::shared_ptr<EventPool> pool_;
  cudaEvent_t event_;
  std::mutex mu_;
  std::shared_ptr<EventState> state_;
};

// Waits for completions in a thread of its own and makes their events ready.
class Waiter {
 public:
  explicit Waiter(int device) : device_(device) {}
  ~Waiter() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void Watch(std::shared_ptr<Completion> c) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(c));
      if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
    }
    cv_.notify_one();
  }

 private:
  void Loop() {
    (void)cudaSetDevice(device_);
    for (;;) {
      std::shared_ptr<Completion> c;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left to wait for
        c = std::move(queue_.front());
        queue_.pop_front();
      }
      c->Finish(cudaEventSynchronize(c->event()));
    }
  }

  int device_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Completion>> queue_;
  bool stop_ = false;
  std::thread thread_;
};

// The device, its stream and the waiter; shared by the backend and every
// array and runner, so it outlives the last of them.
class GpuContext {
 public:
  static StatusOr<std::shared_ptr<GpuContext>> Create(int device) {
    auto c = std::shared_ptr<GpuContext>(new GpuContext(device));
    HLOGRAPH_TRY(CudaStatus(cudaSetDevice(device), "cudaSetDevice"));
    HLOGRAPH_ASSIGN(c->stream_, gpu::Stream::Create());
    // Freed memory stays in the pool for the next call's results instead
    // of going back to the driver at each synchronization.
    cudaMemPool_t pool = nullptr;
    HLOGRAPH_TRY(CudaStatus(cudaDeviceGetDefaultMemPool(&pool, device), "cudaDeviceGetDefaultMemPool"));
    uint64_t keep = std::numeric_limits<uint64_t>::max();
    HLOGRAPH_TRY(CudaStatus(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep),
                            "cudaMemPoolSetAttribute"));
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) c->name_ = prop.name;
    return c;
  }
  ~GpuContext() { (void)stream_.Synchronize(); }

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_.get(); }
  const std::string& name() const { return name_; }

  StatusOr<std::shared_ptr<Completion>> Record() {
    HLOGRAPH_ASSIGN(cudaEvent_t event, events_->Take());
    auto c = std::make_shared<Completion>(events_, event);
    HLOGRAPH_TRY(CudaStatus(cudaEventRecord(event, stream()), "cudaEventRecord"));
    return c;
  }
  std::shared_ptr<EventState> StateOf(Completion& c) {
    return c.State([this](std::shared_ptr<Completion> running) { waiter_.Watch(std::move(running)); });
  }

  // Device memory in stream order; when the device is out of memory, the
  // runners' spare result memory is freed and the allocation tried again.
  StatusOr<void*> Allocate(int64_t bytes) {
    void* data = nullptr;
    cudaError_t result = cudaMallocAsync(&data, static_cast<size_t>(bytes), stream());
    if (result == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      ReleaseSpares();
      result = cudaMallocAsync(&data, static_cast<size_t>(bytes), stream());
    }
    HLOGRAPH_TRY(CudaStatus(result, "cudaMallocAsync of " + std::to_string(bytes) + " bytes"));
    gpu::DeviceAllocations().Add(bytes);
    return data;
  }
  // Frees what Allocate gave, in stream order.
  void Free(void* data, int64_t bytes) {
    (void)cudaFreeAsync(data, stream());
    gpu::DeviceAllocations().Remove(bytes);
  }
  void Register(const std::shared_ptr<ResultPool>& pool) {
    std::lock_guard<std::mutex> lock(pools_mu_);
    std::erase_if(pools_, [](const std::weak_ptr<ResultPool>& p) { return p.expired(); });
    pools_.push_back(pool);
  }
  void ReleaseSpares() {
    std::vector<std::shared_ptr<ResultPool>> live;
    {
      std::lock_guard<std::mutex> lock(pools_mu_);
      for (const auto& p : pools_) {
        if (auto pool = p.lock()) live.push_back(std::move(pool));
      }
    }
    for (const auto& pool : live) pool->Release();
  }

 private:
  explicit GpuContext(int device) : device_(device), waiter_(device) {}

  int device_;
  std::string name_ = "GPU";
  gpu::Stream stream_;
  std::shared_ptr<EventPool> events_ = std::make_shared<EventPool>();
  Waiter waiter_;  // destroyed before the stream: it drains its queue first
  std::mutex pools_mu_;
  std::vector<std::weak_ptr<ResultPool>> pools_;  // every runner's spare result memory
};

// Device memory from the pool, given back in stream order: to the spares
// of the runner output it was made for, while that runner lives and the
// output has no spare, else freed. Donated to another result it keeps its
// home (the sizes match: it was made for that output).
class Allocation {
 public:
  static StatusOr<std::shared_ptr<Allocation>> Make(std::shared_ptr<GpuContext> context, int64_t bytes) {
    auto a = std::shared_ptr<Allocation>(new Allocation(std::move(context), bytes));
    if (bytes > 0) {
      HLOGRAPH_ASSIGN(a->data_, a->context_->Allocate(bytes));
    }
    return a;
  }
  // Memory for output `output` of the runner that owns `home`: its spare
  // when there is one.
  static StatusOr<std::shared_ptr<Allocation>> ForResult(std::shared_ptr<GpuContext> context, int64_t bytes,
                                                         const std::shared_ptr<ResultPool>& home, size_t output) {
    if (bytes == 0) return Make(std::move(context), bytes);
    auto a = std::shared_ptr<Allocation>(new Allocation(std::move(context), bytes));
    a->data_ = home->Take(output);
    if (a->data_ == nullptr) {
      HLOGRAPH_ASSIGN(a->data_, a->context_->Allocate(bytes));
    }
    a->home_ = home;
    a->output_ = output;
    return a;
  }
  ~Allocation() {
    if (!data_) return;
    if (const auto home = home_.lock(); home && home->Keep(output_, data_)) return;
    context_->Free(data_, bytes_);
  }
  void* data() const { return data_; }
  int64_t bytes() const { return bytes_; }

 private:
  Allocation(std::shared_ptr<GpuContext> context, int64_t bytes) : context_(std::move(context)), bytes_(bytes) {}
  std::shared_ptr<GpuContext> context_;
  int64_t bytes_;
  void* data_ = nullptr;
  std::weak_ptr<ResultPool> home_;  // none: freed on release
  size_t output_ = 0;
};

class GpuArray : public Array {
 public:
  GpuArray(std::shared_ptr<GpuContext> context, std::shared_ptr<Allocation> memory, std::shared_ptr<Completion> made)
      : context_(std::move(context)), memory_(std::move(memory)), made_(std::move(made)) {}
  int64_t byte_size() const override { return memory_->bytes(); }
  Status ToHost(void* dst) const override {
    if (memory_->bytes() == 0) return Status::Ok();
    // Queued after the work that makes the array; the stream's order is enough.
    HLOGRAPH_TRY(gpu::CopyDeviceToHost(dst, memory_->data(), memory_->bytes(), context_->stream()));
    return CudaStatus(cudaStreamSynchronize(context_->stream()), "cudaStreamSynchronize");
  }
  std::shared_ptr<EventState> Ready() const override { return context_->StateOf(*made_); }
  const std::shared_ptr<Allocation>& memory() const { return memory_; }

 private:
  std::shared_ptr<GpuContext> context_;
  std::shared_ptr<Allocation> memory_;
  std::shared_ptr<Completion> made_;
};

class GpuRunner : public Runner {
 public:
  GpuRunner(std::shared_ptr<GpuContext> context, std::unique_ptr<gpu::GpuExecutable> executable)
      : context_(std::move(context)), executable_(std::move(executable)) {
    const gpu::GpuProgram& program = executable_->program();
    std::vector<int64_t> bytes;  // per output
    for (const auto r : program.results) bytes.push_back(program.buffers[static_cast<size_t>(r)].bytes);
    results_ = std::make_shared<ResultPool>(
        bytes.size(), [context = context_, bytes](void* data, size_t output) { context->Free(data, bytes[output]); });
    context_->Register(results_);
  }
  ~GpuRunner() override {
    // HLOGRAPH_PJRT_STATS=1: how the executable's calls went, for people:
    // the binding, and the host's mean time per call in the plugin
    // (allocating results, the executable's Execute, recording completion),
    // and how many results took a spare's memory.
    const char* env = std::getenv("HLOGRAPH_PJRT_STATS");
    if (!env || std::string(env) != "1") return;
    const gpu::ExecutionStats s = executable_->stats();
    const double calls = std::max<double>(1.0, static_cast<double>(s.executions));
    std::fprintf(stderr,
                 "hlograph pjrt: %lld calls, %lld graph launches, binding %s (up to %d graph instances): %lld "
                 "reuses, %lld node updates, %lld instantiations, %lld copies; %lld results from spares; host us "
                 "per call: %.1f allocate, %.1f execute, %.1f finish; %lld completion events asked for\n",
                 static_cast<long long>(s.executions), static_cast<long long>(s.graph_launches),
                 gpu::BindingPolicyName(s.binding_policy), s.graph_instances, static_cast<long long>(s.binding.reuses),
                 static_cast<long long>(s.binding.node_updates), static_cast<long long>(s.binding.instantiations),
                 static_cast<long long>(s.binding.copies), static_cast<long long>(results_->taken()),
                 static_cast<double>(allocate_ns_) / calls / 1e3,
                 static_cast<double>(execute_ns_) / calls / 1e3, static_cast<double>(finish_ns_) / calls / 1e3,
                 static_cast<long long>(done_requests_->load()));
  }

  StatusOr<Results> Execute(const std::vector<std::shared_ptr<Array>>& args,
                            const std::vector<bool>& donated) override {
    const gpu::GpuProgram& program = executable_->program();
    std::vector<const void*> arg_ptrs;
    arg_ptrs.reserve(args.size());
    for (const auto& a : args) arg_ptrs.push_back(static_cast<const GpuArray&>(*a).memory()->data());
    std::vector<std::shared_ptr<Allocation>> out(program.results.size());
    // A donated argument's memory goes to its result where the plan writes
    // that result in place (plan/donation.h).
    for (const gpu::Donation& d : program.donations) {
      const auto p = static_cast<size_t>(d.parameter);
      if (d.in_place && p < donated.size() && donated[p]) {
        out[static_cast<size_t>(d.result)] = static_cast<const GpuArray&>(*args[p]).memory();
      }
    }
    const auto t0 = Clock::now();
    std::vector<void*> out_ptrs(out.size());
    for (size_t r = 0; r < out.size(); ++r) {
      if (!out[r]) {
        const int64_t bytes = program.buffers[static_cast<size_t>(program.results[r])].bytes;
        HLOGRAPH_ASSIGN(out[r], Allocation::ForResult(context_, bytes, results_, r));
      }
      out_ptrs[r] = out[r]->data();
    }
    const auto t1 = Clock::now();
    HLOGRAPH_TRY(executable_->Execute(arg_ptrs, out_ptrs, context_->stream()));
    const auto t2 = Clock::now();
    HLOGRAPH_ASSIGN(std::shared_ptr<Completion> made, context_->Record());
    Results results;
    for (auto& m : out) results.arrays.push_back(std::make_shared<GpuArray>(context_, std::move(m), made));
    results.done = [context = context_, made, requests = done_requests_] {
      ++*requests;
      return context->StateOf(*made);
    };
    const auto t3 = Clock::now();
    allocate_ns_ += Nanoseconds(t0, t1);
    execute_ns_ += Nanoseconds(t1, t2);
    AddEngineExecuteTime(Nanoseconds(t1, t2));
    finish_ns_ += Nanoseconds(t2, t3);
    return results;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static int64_t Nanoseconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
  }

  std::shared_ptr<GpuContext> context_;
  std::unique_ptr<gpu::GpuExecutable> executable_;
  std::shared_ptr<ResultPool> results_;  // spare result memory, per output
  std::atomic<int64_t> allocate_ns_{0}, execute_ns_{0}, finish_ns_{0};
  std::shared_ptr<std::atomic<int64_t>> done_requests_ = std::make_shared<std::atomic<int64_t>>(0);
};

class GpuBackend : public Backend {
 public:
  explicit GpuBackend(std::shared_ptr<GpuContext> context) : context_(std::move(context)) {}
  std::string device_kind() const override { return "gpu"; }
  std::string description() const override { return "gpu " + context_->name() + " (CUDA graphs)"; }

  StatusOr<std::shared_ptr<Array>> FromHost(const ir::Type& type, const void* dense_bytes) override {
    const int64_t bytes = type.NumElements() * ir::StorageBytes(type.element());
    HLOGRAPH_ASSIGN(std::shared_ptr<Allocation> memory, Allocation::Make(context_, bytes));
    // From pageable memory the copy returns once the bytes are staged: the
    // host buffer is free when this returns.
    if (bytes > 0) HLOGRAPH_TRY(gpu::CopyHostToDevice(memory->data(), dense_bytes, bytes, context_->stream()));
    HLOGRAPH_ASSIGN(std::shared_ptr<Completion> made, context_->Record());
    return std::shared_ptr<Array>(std::make_shared<GpuArray>(context_, std::move(memory), std::move(made)));
  }

  StatusOr<std::shared_ptr<Runner>> Load(const ir::Module& module) override {
    gpu::GpuCompileOptions options;
    options.device = context_->device();
    HLOGRAPH_ASSIGN(std::unique_ptr<gpu::GpuExecutable> executable, gpu::GpuExecutable::Compile(module, options));
    return std::shared_ptr<Runner>(std::make_shared<GpuRunner>(context_, std::move(executable)));
  }

  // The process's device memory (arrays, results kept for reuse,
  // executables' arenas, workspace and constants), not only this client's.
  BackendMemoryStats MemoryStats() const override {
    const gpu::DeviceMemoryStats d = gpu::CurrentDeviceMemoryStats();
    BackendMemoryStats s;
    // In use: counted allocations plus the temps graphs hold right now in
    // graph memory; the peak adds the two high-water marks (an upper bound:
    // they need not have come at the same moment).
    s.bytes_in_use = d.bytes_in_use + d.graph_pool_bytes;
    s.peak_bytes_in_use = d.peak_bytes_in_use + d.graph_pool_peak_bytes;
    s.num_allocs = d.num_allocs;
    s.largest_alloc_size = d.largest_alloc_size;
    if (const int64_t limit = gpu::MemoryBudget::Global().limit(); limit != gpu::MemoryBudget::kUnlimited) {
      s.bytes_limit = limit;
    }
    if (d.pools_read) s.pool_bytes = d.held_bytes();
    return s;
  }

 private:
  std::shared_ptr<GpuContext> context_;
};

}  // namespace

Status SetMemoryBudget(const std::string& text) {
  return gpu::MemoryBudget::Global().SetLimit(text, "set to " + text + " by the PJRT client's create options");
}

StatusOr<std::shared_ptr<Backend>> MakeGpuBackend() {
  HLOGRAPH_TRY(GpuBackendUsable());
  HLOGRAPH_ASSIGN(std::shared_ptr<GpuContext> context, GpuContext::Create(0));
  return std::shared_ptr<Backend>(std::make_shared<GpuBackend>(std::move(context)));
}

}  // namespace hlograph::pjrt

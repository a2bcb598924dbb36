// `hlograph bench`: compile once, then time calls on the same arguments:
// latency (each call waited for), the per-call time with calls queued and,
// with --profile, the device time spent in kernels per call (the floor a
// call would reach with no gaps between its kernels), the share of the
// call the GPU was idle, and a roofline of every step (plan/roofline.h):
// its time, bytes and FLOPs, and their fractions of the device's limits;
// with --trace, one call's device work as a Chrome trace (gpu/call_trace.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "backends/cpu/interpreter.h"
#include "arguments.h"
#include "commands.h"
#include "io/file_util.h"
#include "io/trace_json.h"
#include "program_input.h"
#include "progress.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/call_trace.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/roofline.h"
#include "backends/gpu/runtime/device.h"
#include "backends/gpu/runtime/kernel_profiler.h"
#include "backends/gpu/runtime/memory_stats.h"
#include "backends/gpu/step_profile.h"
#endif

namespace hlograph::cli {
namespace {

using Clock = std::chrono::steady_clock;
// Calls of the queued run whose host time counts as "device busy" (the
// first only starts the device).
constexpr int kBurst = 8;
constexpr const char* kGpuOnlyOptions =
    "hlograph: --profile and --timeline measure GPU kernels; ignored on the CPU backend\n";
// Unlike --profile, which the CPU backend ignores with a note, --trace
// promises a file: there it is bad usage.
constexpr const char* kTraceNeedsGpu =
    "hlograph: --trace records one call's GPU kernels, copies and graph launches (CUPTI), but this run is on the "
    "CPU backend, whose interpreter is not timed op by op (--backend gpu, on a machine with a GPU)\n";

double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

struct Timings {
  std::string backend, device;
  double compile_s = 0;
  std::vector<double> latencies_s;  // one per call, each waited for
  std::vector<double> host_s;       // one per call: the host's time in Execute (queueing the work)
  // Calls 2..8 of the queued run: the host's time in Execute while the
  // device is busy with the earlier calls (a framework's burst of calls).
  std::vector<double> host_queued_s;
  // --evict-kb: the host's time in Execute after writing that much other
  // memory (each call waited for).
  std::vector<double> host_cold_s;
  std::string mode;                 // GPU: graph or stream
  // GPU, over all calls: graph launches, and how addresses stayed bound.
  int64_t calls = 0, graph_launches = 0, reuses = 0, node_updates = 0, instantiations = 0, copies = 0;
  std::string binding;  // the policy in force at the end
  int graph_instances = 0;  // kept per graph, at most
  double queued_s = 0;              // per call, calls queued then one wait
  int64_t device_bytes = -1;        // resident + arguments + results (GPU)
  // GPU, measured (runtime/memory_stats.h): the device memory the
  // executable keeps between calls, the process's peak during the timed
  // calls (counted allocations and graph memory nodes' pool), the pool's
  // share of it, and allocations made during them.
  int64_t held_bytes = -1, calls_peak_bytes = -1, calls_graph_pool_peak_bytes = -1, calls_allocations = -1;
  int64_t kernels = -1;
  double kernel_busy_s = -1;        // per call, --profile
  double kernel_launches = -1;      // per call, --profile
  struct KernelTime {
    std::string name;
    int64_t launches = 0;  // over all profiled calls
    double seconds = 0;    // per call
  };
  std::vector<KernelTime> top_kernels;  // --profile, most time first
  // Graph mode: CUPTI does not report the kernels that the bodies of
  // conditional nodes run (seen on the H200: a while loop's kernels missing
  // from the busy time, 9 ms of 71), so with such nodes the busy time of
  // --profile is a lower bound and the trace of --trace lacks them.
  bool busy_partial = false;
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  std::vector<gpu::KernelTotals::Interval> timeline;  // --timeline: one call
  std::optional<io::Trace> trace;                     // --trace: one call
  std::optional<gpu::Roofline> roofline;              // --profile
  std::string roofline_error;                         // --profile: why there is none
#endif
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

StatusOr<Timings> BenchCpu(const Options& o, const ir::Module& module, const ir::Operation& entry,
                           const std::vector<cpu::Tensor>& args) {
  Timings t;
  t.backend = "cpu";
  const auto c0 = Clock::now();
  cpu::Interpreter interpreter(module);
  t.compile_s = Seconds(c0, Clock::now());
  Progress progress("warming up");
  for (int i = 0; i < o.warmup; ++i) {
    HLOGRAPH_TRY(interpreter.Call(entry, args).status());
    progress.Update(i + 1, o.warmup);
  }
  progress.SetTask("timing calls");
  for (int i = 0; i < o.iters; ++i) {
    const auto a = Clock::now();
    HLOGRAPH_TRY(interpreter.Call(entry, args).status());
    t.latencies_s.push_back(Seconds(a, Clock::now()));
    progress.Update(i + 1, o.iters);
  }
  // Calls are synchronous: queued time is the mean latency.
  double sum = 0;
  for (double l : t.latencies_s) sum += l;
  t.queued_s = t.latencies_s.empty() ? 0 : sum / static_cast<double>(t.latencies_s.size());
  return t;
}

#ifdef HLOGRAPH_WITH_GPU_BACKEND
// Each step's device time, from calls of the program compiled for stream
// mode: there every kernel runs alone, not launched early beside the one
// before it, so its time is its own.
StatusOr<gpu::Roofline> ProfileSteps(const Options& o, const ir::Module& module, const std::vector<const void*>& args,
                                     const std::vector<void*>& results, cudaStream_t stream) {
  gpu::GpuCompileOptions options = GpuOptions(o);
  options.mode = gpu::ExecutionMode::kStream;
  HLOGRAPH_ASSIGN(auto exe, gpu::GpuExecutable::Compile(module, options));
  HLOGRAPH_TRY(exe->Execute(args, results, stream));  // library handles and modules warmed up
  HLOGRAPH_TRY(gpu::KernelProfiler::Start(/*by_step=*/true));
  gpu::StepTagger tagger;
  exe->set_step_observer(&tagger);
  const int calls = std::max(1, std::min(o.iters, 50));
  Status run = Status::Ok();
  for (int i = 0; i < calls && run.ok(); ++i) run = exe->Execute(args, results, stream);
  exe->set_step_observer(nullptr);
  StatusOr<gpu::KernelTotals> totals = gpu::KernelProfiler::Stop();
  HLOGRAPH_TRY(run);
  HLOGRAPH_TRY(totals.status());
  gpu::Roofline roofline = gpu::BuildRoofline(exe->program(), gpu::StepMeasurements(tagger, *totals), calls,
                                              gpu::DeviceLimits::H200());
  roofline.unattributed_seconds = totals->unattributed_s / calls;
  for (gpu::RooflineRow& row : roofline.rows) {
    if (const auto* k = std::get_if<gpu::KernelStep>(&row.step->action)) {
      row.launch = exe->kernels()[static_cast<size_t>(k->fusion)].launch.ToString();
    }
    row.step = nullptr;  // the executable goes: nothing may point into its program
  }
  return roofline;
}

// --trace: as --timeline, the second of two calls queued (the first pays
// for the profiler's setup), profiled by step: stream mode names every
// activity by the step that queued it, graph mode records its launches.
StatusOr<io::Trace> TraceOneCall(gpu::GpuExecutable& exe, const std::vector<const void*>& args,
                                 const std::function<const std::vector<void*>&()>& results, cudaStream_t stream,
                                 const std::string& title) {
  HLOGRAPH_TRY(gpu::KernelProfiler::Start(/*by_step=*/true));  // waits for the device first
  gpu::StepTagger tagger;
  exe.set_step_observer(&tagger);
  Status run = exe.Execute(args, results(), stream);
  if (run.ok()) run = exe.Execute(args, results(), stream);
  exe.set_step_observer(nullptr);
  StatusOr<gpu::KernelTotals> totals = gpu::KernelProfiler::Stop();
  HLOGRAPH_TRY(run);
  HLOGRAPH_TRY(totals.status());
  return gpu::CallTrace(*totals, exe.program(), exe.graph_plan(), title);
}

StatusOr<Timings> BenchGpu(const Options& o, const ir::Module& module, const std::vector<cpu::Tensor>& args) {
  Timings t;
  t.backend = "gpu";
  Progress progress("compiling kernels");
  gpu::GpuCompileOptions compile = GpuOptions(o);
  compile.kernel_compiled = [&progress](size_t done, size_t total) {
    progress.Update(static_cast<int64_t>(done), static_cast<int64_t>(total));
  };
  const int64_t in_use_before = gpu::CurrentDeviceMemoryStats().bytes_in_use;
  const auto c0 = Clock::now();
  HLOGRAPH_ASSIGN(auto exe, gpu::GpuExecutable::Compile(module, compile));
  t.compile_s = Seconds(c0, Clock::now());
  HLOGRAPH_ASSIGN(gpu::DeviceInfo info, gpu::GetDeviceInfo(0));
  t.device = info.name;
  t.kernels = static_cast<int64_t>(exe->kernels().size());
  HLOGRAPH_ASSIGN(gpu::Stream stream, gpu::Stream::Create());
  std::vector<gpu::DeviceBuffer> in, out;
  std::vector<const void*> arg_ptrs;
  int64_t bytes = exe->resident_bytes();
  if (exe->temps_in_graph_memory()) bytes += exe->graph_plan().temps.bytes;  // allocated during each call
  for (const cpu::Tensor& a : args) {
    HLOGRAPH_ASSIGN(gpu::DeviceBuffer b, gpu::DeviceBuffer::Allocate(static_cast<int64_t>(a.byte_size())));
    HLOGRAPH_TRY(gpu::CopyHostToDevice(b.data(), a.bytes(), static_cast<int64_t>(a.byte_size()), stream.get()));
    bytes += b.size();
    arg_ptrs.push_back(b.data());
    in.push_back(std::move(b));
  }
  // --result-sets N: each call writes the next set (the first set counts
  // as the call's memory; the others stand in for a framework's fresh results).
  std::vector<std::vector<void*>> result_sets(static_cast<size_t>(std::max(1, o.result_sets)));
  for (size_t set = 0; set < result_sets.size(); ++set) {
    for (const ir::Type& type : exe->program().result_types) {
      const int64_t n = type.NumElements() * ir::StorageBytes(type.element());
      HLOGRAPH_ASSIGN(gpu::DeviceBuffer b, gpu::DeviceBuffer::Allocate(n));
      if (set == 0) bytes += b.size();
      result_sets[set].push_back(b.data());
      out.push_back(std::move(b));
    }
  }
  int64_t own_bytes = 0;  // this command's arguments and result sets, not the executable's
  for (const gpu::DeviceBuffer& b : in) own_bytes += b.size();
  for (const gpu::DeviceBuffer& b : out) own_bytes += b.size();
  size_t call = 0;
  const auto results = [&]() -> const std::vector<void*>& { return result_sets[call++ % result_sets.size()]; };
  t.device_bytes = bytes;
  progress.SetTask("warming up");
  for (int i = 0; i < o.warmup; ++i) HLOGRAPH_TRY(exe->Execute(arg_ptrs, results(), stream.get()));
  HLOGRAPH_TRY(stream.Synchronize());
  gpu::ResetPeakDeviceMemory();
  const int64_t allocs_before = gpu::CurrentDeviceMemoryStats().num_allocs;
  progress.SetTask("timing calls");
  for (int i = 0; i < o.iters; ++i) {
    const std::vector<void*>& result_ptrs = results();
    const auto a = Clock::now();
    HLOGRAPH_TRY(exe->Execute(arg_ptrs, result_ptrs, stream.get()));
    t.host_s.push_back(Seconds(a, Clock::now()));
    HLOGRAPH_TRY(stream.Synchronize());
    t.latencies_s.push_back(Seconds(a, Clock::now()));
    progress.Update(i + 1, o.iters);
  }
  if (o.evict_kb > 0) {
    progress.SetTask("timing calls with the caches cold");
    std::vector<char> other(static_cast<size_t>(o.evict_kb) * 1024);
    for (int i = 0; i < o.iters; ++i) {
      for (size_t at = 0; at < other.size(); at += 64) other[at] = static_cast<char>(other[at] + i);
      const auto a = Clock::now();
      HLOGRAPH_TRY(exe->Execute(arg_ptrs, results(), stream.get()));
      t.host_cold_s.push_back(Seconds(a, Clock::now()));
      HLOGRAPH_TRY(stream.Synchronize());
      progress.Update(i + 1, o.iters);
    }
  }
  // The GPU's clocks drop under sustained load: an idle spell first lets a
  // comparison start each side's queued run from the same state.
  progress.SetTask("timing queued calls");  // no updates during them: drawing takes host time
  std::this_thread::sleep_for(std::chrono::milliseconds(o.cooldown_ms));
  const auto q0 = Clock::now();
  for (int i = 0; i < o.iters; ++i) {
    const auto a = Clock::now();
    HLOGRAPH_TRY(exe->Execute(arg_ptrs, results(), stream.get()));
    if (i >= 1 && i < kBurst) t.host_queued_s.push_back(Seconds(a, Clock::now()));
  }
  HLOGRAPH_TRY(stream.Synchronize());
  t.queued_s = o.iters ? Seconds(q0, Clock::now()) / o.iters : 0;
  const gpu::DeviceMemoryStats memory = gpu::CurrentDeviceMemoryStats();
  t.held_bytes = memory.bytes_in_use - in_use_before - own_bytes;
  t.calls_graph_pool_peak_bytes = memory.graph_pool_peak_bytes;
  t.calls_peak_bytes = memory.peak_bytes_in_use + memory.graph_pool_peak_bytes;
  t.calls_allocations = memory.num_allocs - allocs_before;
  const gpu::ExecutionStats stats = exe->stats();
  t.mode = gpu::ExecutionModeName(exe->mode());
  t.calls = stats.executions;
  t.graph_launches = stats.graph_launches;
  t.reuses = stats.binding.reuses;
  t.node_updates = stats.binding.node_updates;
  t.instantiations = stats.binding.instantiations;
  t.copies = stats.binding.copies;
  t.binding = gpu::BindingPolicyName(stats.binding_policy);
  t.graph_instances = stats.graph_instances;
  for (const gpu::Graph& g : exe->graph_plan().graphs) {
    for (const gpu::GraphNode& n : g.nodes) {
      t.busy_partial |= n.kind == gpu::NodeKind::kWhile || n.kind == gpu::NodeKind::kSwitch;
    }
  }
  if (o.profile && o.iters > 0) {
    progress.SetTask("profiling kernels");
    HLOGRAPH_TRY(gpu::KernelProfiler::Start());
    Status run = Status::Ok();
    for (int i = 0; i < o.iters && run.ok(); ++i) run = exe->Execute(arg_ptrs, results(), stream.get());
    StatusOr<gpu::KernelTotals> totals = gpu::KernelProfiler::Stop();
    HLOGRAPH_TRY(run);
    HLOGRAPH_TRY(totals.status());
    t.kernel_busy_s = totals->busy_s / o.iters;
    t.kernel_launches = static_cast<double>(totals->kernels) / o.iters;
    for (size_t i = 0; i < totals->by_name.size() && i < 10; ++i) {
      const auto& k = totals->by_name[i];
      t.top_kernels.push_back({k.name, k.launches, k.seconds / o.iters});
    }
  }
  if (o.timeline) {
    progress.SetTask("recording one call's timeline");
    // Two calls queued one after the other, the second shown: the first
    // after the profiler starts pays for its setup. Its kernels are those
    // launched later (larger correlation ids, whatever their start), timed
    // from the end of the first call's last kernel.
    HLOGRAPH_TRY(stream.Synchronize());
    HLOGRAPH_TRY(gpu::KernelProfiler::Start());
    Status run = exe->Execute(arg_ptrs, results(), stream.get());
    if (run.ok()) run = exe->Execute(arg_ptrs, results(), stream.get());
    StatusOr<gpu::KernelTotals> totals = gpu::KernelProfiler::Stop();
    HLOGRAPH_TRY(run);
    HLOGRAPH_TRY(totals.status());
    std::vector<gpu::KernelTotals::Interval> all = totals->timeline;
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.correlation < b.correlation; });
    const auto second = all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2);
    double from = 0;
    for (auto k = all.begin(); k != second; ++k) from = std::max(from, k->end_s);
    for (auto k = second; k != all.end(); ++k) t.timeline.push_back({k->name, k->start_s - from, k->end_s - from});
    std::stable_sort(t.timeline.begin(), t.timeline.end(),
                     [](const auto& a, const auto& b) { return a.start_s < b.start_s; });
  }
  if (!o.trace.empty()) {
    progress.SetTask("tracing one call");
    const std::string title =
        "hlograph bench " + ProgramName(o.files[0]) + " (" + t.device + ", " + t.mode + " mode): one call";
    HLOGRAPH_ASSIGN(t.trace, TraceOneCall(*exe, arg_ptrs, results, stream.get(), title));
  }
  if (o.profile && o.iters > 0) {
    progress.SetTask("profiling steps");
    exe.reset();  // its arena and graphs: the stream-mode executable takes their place
    StatusOr<gpu::Roofline> roofline = ProfileSteps(o, module, arg_ptrs, result_sets[0], stream.get());
    if (roofline.ok()) {
      t.roofline = std::move(*roofline);
      t.roofline->wall_seconds = t.queued_s;
      if (t.busy_partial) {
        t.roofline->busy_unknown_why = "the graph has conditional nodes, whose bodies' kernels CUPTI does not report";
      } else {
        t.roofline->busy_seconds = t.kernel_busy_s;
      }
    } else {
      t.roofline_error = roofline.status().message();
    }
  }
  return t;
}
#endif

std::string Quoted(const std::string& s) { return io::JsonQuoted(s); }

#ifdef HLOGRAPH_WITH_GPU_BACKEND
// The roofline's fields as printed, per call: times in us, rates in GB/s
// and TFLOP/s, fractions of the limits in [0, 1].
std::string RooflineJson(const gpu::Roofline& r) {
  std::ostringstream os;
  const gpu::DeviceLimits& d = r.limits;
  os << "{\"limits\": {\"name\": " << Quoted(d.name) << ", \"memory_gb_per_s\": " << d.memory_bytes_per_s / 1e9
     << ", \"tflop_per_s\": {";
  for (int u = 0; u < gpu::kComputeUnits; ++u) {
    const auto unit = static_cast<gpu::ComputeUnit>(u);
    os << (u ? ", " : "") << Quoted(gpu::ComputeUnitName(unit)) << ": " << d.peak(unit) / 1e12;
  }
  os << "}}, \"wall_us\": " << r.wall_seconds * 1e6 << ", \"busy_us\": " << r.busy_seconds * 1e6
     << ", \"idle_fraction\": " << r.idle_fraction() << ", \"busy_unknown_why\": " << Quoted(r.busy_unknown_why) << ", \"step_us\": " << r.step_seconds * 1e6
     << ", \"unattributed_us\": " << r.unattributed_seconds * 1e6 << ", \"steps\": [";
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const gpu::RooflineRow& row = r.rows[i];
    const double peak = d.peak(row.unit);
    os << (i ? ", " : "") << "{\"name\": " << Quoted(row.name) << ", \"summary\": " << Quoted(row.summary)
       << ", \"launch\": " << Quoted(row.launch) << ", \"runs_per_call\": " << row.runs
       << ", \"activities_per_call\": " << row.activities << ", \"us_per_call\": " << row.seconds * 1e6
       << ", \"bytes_per_call\": " << row.bytes << ", \"flops_per_call\": " << row.flops
       << ", \"unit\": " << Quoted(gpu::ComputeUnitName(row.unit)) << ", \"gb_per_s\": " << row.bytes_per_s() / 1e9
       << ", \"tflop_per_s\": " << row.flops_per_s() / 1e12
       << ", \"memory_fraction\": " << (d.memory_bytes_per_s > 0 ? row.bytes_per_s() / d.memory_bytes_per_s : 0)
       << ", \"peak_fraction\": " << (peak > 0 ? row.flops_per_s() / peak : 0)
       << ", \"bound\": " << Quoted(row.memory_bound() ? "memory" : "compute")
       << ", \"floor_us\": " << row.floor_seconds() * 1e6 << ", \"lost_us\": " << row.excess_seconds() * 1e6 << "}";
  }
  os << "]}";
  return os.str();
}
#endif

std::string Json(const Options& o, const Timings& t) {
  std::ostringstream os;
  const auto us = [](double s) { return std::to_string(s * 1e6); };
  os << "{\"file\": " << Quoted(ProgramName(o.files[0])) << ", \"backend\": " << Quoted(t.backend)
     << ", \"device\": " << Quoted(t.device) << ", \"iters\": " << o.iters << ", \"compile_s\": " << t.compile_s
     << ", \"latency_us\": {\"median\": "
     << us(Percentile(t.latencies_s, 0.5)) << ", \"p10\": " << us(Percentile(t.latencies_s, 0.1))
     << ", \"p90\": " << us(Percentile(t.latencies_s, 0.9)) << "}, \"queued_us\": " << us(t.queued_s)
     << ", \"peak_device_bytes\": " << t.device_bytes << ", \"kernels\": " << t.kernels;
  if (t.held_bytes >= 0) {
    os << ", \"device_memory\": {\"held_between_calls_bytes\": " << t.held_bytes
       << ", \"peak_during_calls_bytes\": " << t.calls_peak_bytes
       << ", \"graph_pool_peak_bytes\": " << t.calls_graph_pool_peak_bytes
       << ", \"allocations_during_calls\": " << t.calls_allocations << "}";
  }
  if (!t.host_s.empty()) os << ", \"host_us\": " << us(Percentile(t.host_s, 0.5));
  if (!t.host_queued_s.empty()) os << ", \"host_queued_us\": " << us(Percentile(t.host_queued_s, 0.5));
  if (!t.host_cold_s.empty()) os << ", \"host_cold_us\": " << us(Percentile(t.host_cold_s, 0.5));
  if (!t.mode.empty()) {
    os << ", \"mode\": " << Quoted(t.mode) << ", \"calls\": " << t.calls << ", \"graph_launches\": " << t.graph_launches
       << ", \"binding\": {\"policy\": " << Quoted(t.binding) << ", \"reuses\": " << t.reuses
       << ", \"node_updates\": " << t.node_updates << ", \"instantiations\": " << t.instantiations
       << ", \"copies\": " << t.copies << ", \"graph_instances\": " << t.graph_instances << "}";
  }
  if (t.kernel_busy_s >= 0) {
    os << ", \"kernel_busy_us\": " << us(t.kernel_busy_s) << ", \"kernel_busy_partial\": " << (t.busy_partial ? "true" : "false") << ", \"kernel_launches_per_call\": " << t.kernel_launches
       << ", \"top_kernels\": [";
    for (size_t i = 0; i < t.top_kernels.size(); ++i) {
      const auto& k = t.top_kernels[i];
      os << (i ? ", " : "") << "{\"name\": " << Quoted(k.name) << ", \"us_per_call\": " << us(k.seconds)
         << ", \"launches\": " << k.launches << "}";
    }
    os << "]";
  }
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (t.roofline) os << ", \"roofline\": " << RooflineJson(*t.roofline);
  if (!t.roofline_error.empty()) os << ", \"roofline_error\": " << Quoted(t.roofline_error);
#endif
  os << "}\n";
  return os.str();
}

}  // namespace

int Bench(const Options& o) {
  Options with_args = o;  // random arguments unless some are given
  if (o.inputs_npz.empty() && o.inputs.empty() && o.random_seed.empty()) with_args.random_seed = "0";
  auto program = LoadProgram(with_args, "bench");
  if (!program) return 1;
  const ir::Module& module = *program->module;
  const ir::Operation* entry = program->entry;
  const std::vector<cpu::Tensor>* args = &program->args;
  StatusOr<bool> use_gpu = UseGpu(o, module);
  if (!use_gpu.ok()) {
    std::cerr << "hlograph: " << use_gpu.status().message() << "\n";
    return 1;
  }
  const bool gpu = *use_gpu;
  if (!o.trace.empty() && !gpu) {
    std::cerr << kTraceNeedsGpu;
    return 2;
  }
  if ((o.profile || o.timeline) && !gpu) std::cerr << kGpuOnlyOptions;
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  StatusOr<Timings> t = gpu ? BenchGpu(o, module, *args) : BenchCpu(o, module, *entry, *args);
#else
  StatusOr<Timings> t = BenchCpu(o, module, *entry, *args);
#endif
  if (!t.ok()) {
    std::cerr << t.status().message() << "\n";
    return 1;
  }
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (t->trace) {
    const std::string json = io::TraceJson(*t->trace);
    const Status written = io::WriteFileAtomically(o.trace, [&](const io::ByteSink& sink) {
      return sink(json.data(), json.size());
    });
    if (!written.ok()) {
      std::cerr << "hlograph: --trace: " << written.message() << "\n";
      return 1;
    }
    if (t->busy_partial) {
      std::cerr << "hlograph: note: the trace lacks the kernels of conditional nodes' bodies (CUPTI does not report "
                   "them); --mode stream traces every kernel\n";
    }
  }
#endif
  if (o.json) {
    std::cout << Json(o, *t);
    return 0;
  }
  const auto us = [](double s) { return s * 1e6; };
  std::printf("%s on %s%s%s\n", ProgramName(o.files[0]).c_str(), t->backend.c_str(), t->device.empty() ? "" : ": ",
              t->device.c_str());
  std::printf("  compile            %.3f s%s\n", t->compile_s,
              t->kernels >= 0 ? (" (" + std::to_string(t->kernels) + " kernels)").c_str() : "");
  std::printf("  latency per call   median %.1f us, p10 %.1f us, p90 %.1f us (%d calls, each waited for)\n",
              us(Percentile(t->latencies_s, 0.5)), us(Percentile(t->latencies_s, 0.1)),
              us(Percentile(t->latencies_s, 0.9)), o.iters);
  std::printf("  queued per call    %.1f us (%d calls, then one wait)\n", us(t->queued_s), o.iters);
  if (!t->host_s.empty()) {
    std::printf("  host per call      median %.1f us (queueing the work)\n", us(Percentile(t->host_s, 0.5)));
  }
  if (!t->host_cold_s.empty()) {
    std::printf("  host, caches cold median %.1f us (after writing %d KiB of other memory)\n",
                us(Percentile(t->host_cold_s, 0.5)), o.evict_kb);
  }
  if (!t->host_queued_s.empty()) {
    std::printf("  host, device busy median %.1f us (calls 2..%d of the queued run)\n",
                us(Percentile(t->host_queued_s, 0.5)), kBurst);
  }
  if (!t->mode.empty()) {
    std::printf("  mode               %s: %lld graph launches in %lld calls; binding (%s, up to %d graph "
                "instances): %lld reuses, %lld node updates, %lld instantiations, %lld copies\n",
                t->mode.c_str(), static_cast<long long>(t->graph_launches), static_cast<long long>(t->calls),
                t->binding.c_str(), t->graph_instances, static_cast<long long>(t->reuses),
                static_cast<long long>(t->node_updates),
                static_cast<long long>(t->instantiations), static_cast<long long>(t->copies));
  }
  if (t->device_bytes >= 0) std::printf("  device memory      %.2f MiB\n", t->device_bytes / 1048576.0);
  if (t->held_bytes >= 0) {
    std::printf("  held between calls %.2f MiB (measured: arena, workspace, constants, stable copies)\n",
                t->held_bytes / 1048576.0);
    std::printf("  peak during calls  %.2f MiB (the process's, measured over the timed calls; %.2f MiB of it "
                "graph memory; %lld allocations)\n",
                t->calls_peak_bytes / 1048576.0, t->calls_graph_pool_peak_bytes / 1048576.0,
                static_cast<long long>(t->calls_allocations));
  }
  if (t->kernel_busy_s >= 0) {
    std::printf("  device busy        %.1f us per call (%.1f kernels, copies and fills; CUPTI)%s\n",
                us(t->kernel_busy_s), t->kernel_launches,
                t->busy_partial ? ", at least: not those of conditional nodes' bodies" : "");
    for (const auto& k : t->top_kernels) {
      std::printf("    %9.1f us  %s (%lld launches in all)\n", us(k.seconds), k.name.substr(0, 80).c_str(),
                  static_cast<long long>(k.launches));
    }
  }
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (t->roofline) std::printf("%s", t->roofline->ToString(20).c_str());
  if (!t->roofline_error.empty()) std::printf("  no roofline: %s\n", t->roofline_error.c_str());
  if (!t->timeline.empty()) {
    // A chain's cost per link is how much later each kernel ends than the
    // one before it: with programmatic launch a kernel starts early and waits.
    std::printf("  timeline of one call (us from the end of the call queued before it; CUPTI):\n     start       end  duration  ends later  kernel\n");
    double last_end = 0;
    for (const auto& k : t->timeline) {
      std::printf("  %8.2f  %8.2f  %8.2f  %+8.2f  %s\n", us(k.start_s), us(k.end_s), us(k.end_s - k.start_s),
                  us(k.end_s - last_end), k.name.substr(0, 60).c_str());
      last_end = std::max(last_end, k.end_s);
    }
  }
#endif
  return 0;
}

}  // namespace hlograph::cli

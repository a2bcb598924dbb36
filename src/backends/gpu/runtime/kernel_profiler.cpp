#include "backends/gpu/runtime/kernel_profiler.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {
namespace {

constexpr size_t kBufferBytes = 8 << 20;
constexpr CUpti_ExternalCorrelationKind kStepKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
// The API records that carry a call's external correlation (records of
// the runtime and of the driver calls it makes; libraries call either).
constexpr CUpti_ActivityKind kApiKinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
                                            CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION};
constexpr CUpti_ActivityKind kDeviceKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                               CUPTI_ACTIVITY_KIND_MEMSET};

struct Recorded {
  std::mutex mutex;
  struct Interval {
    uint64_t start = 0, end = 0;  // ns
    std::string name;
    uint32_t correlation = 0, runtime_correlation = 0;
    int64_t bytes = 0;  // copies and fills: read + written
    bool operator<(const Interval& o) const { return start < o.start || (start == o.start && end < o.end); }
  };
  std::vector<Interval> intervals;
  std::vector<Interval> graph_launches;  // host API calls (by_step)
  std::unordered_map<uint32_t, uint64_t> step_of_call;  // API correlation id -> step
  bool running = false;
  bool by_step = false;
};

Recorded& State() {
  static Recorded state;
  return state;
}

// Read without the lock on every step of a profiled call.
std::atomic<bool> tagging{false};

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  // CUPTI wants 8-byte aligned buffers.
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

// The name of a graph launch's API call, or null for any other call.
const char* GraphLaunchName(CUpti_ActivityKind kind, CUpti_CallbackId cbid) {
  if (kind == CUPTI_ACTIVITY_KIND_RUNTIME && (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
                                              cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000)) {
    return "cudaGraphLaunch";
  }
  if (kind == CUPTI_ACTIVITY_KIND_DRIVER &&
      (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)) {
    return "cuGraphLaunch";
  }
  return nullptr;
}

void Take(Recorded& state, const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
      const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
      if (const char* name = GraphLaunchName(a->kind, a->cbid)) {
        state.graph_launches.push_back({a->start, a->end, name, a->correlationId, 0, 0});
      }
      break;
    }
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      state.intervals.push_back({k->start, k->end, k->name ? k->name : "?", k->correlationId, 0, 0});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      // Device-to-device copies only: host transfers leave the device's
      // units idle.
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      if (m->copyKind != CUPTI_ACTIVITY_MEMCPY_KIND_DTOD) break;
      state.intervals.push_back({m->start, m->end, "memcpy DtoD", m->correlationId, m->runtimeCorrelationId,
                                 2 * static_cast<int64_t>(m->bytes)});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      state.intervals.push_back({m->start, m->end, "memset", m->correlationId, 0, static_cast<int64_t>(m->bytes)});
      break;
    }
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
      const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
      if (e->externalKind == kStepKind) state.step_of_call[e->correlationId] = e->externalId;
      break;
    }
    default: break;
  }
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  Recorded& state = State();
  CUpti_Activity* record = nullptr;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) Take(state, record);
  }
  std::free(buffer);
}

Status Cupti(CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return Status::Ok();
  const char* text = nullptr;
  if (cuptiGetResultString(r, &text) != CUPTI_SUCCESS || !text) text = "unknown error";
  return Status::Error(std::string(call) + " failed: " + text + " (kernel profiling needs the toolkit's libcupti)");
}

}  // namespace

Status KernelProfiler::Start(bool by_step) {
  Recorded& state = State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.running) return Status::Error("the kernel profiler is already running");
    state.intervals.clear();
    state.graph_launches.clear();
    state.step_of_call.clear();
  }
  HLOGRAPH_CUDA(cudaDeviceSynchronize());
  HLOGRAPH_TRY(Cupti(cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted), "cuptiActivityRegisterCallbacks"));
  for (CUpti_ActivityKind kind : kDeviceKinds) HLOGRAPH_TRY(Cupti(cuptiActivityEnable(kind), "cuptiActivityEnable"));
  if (by_step) {
    for (CUpti_ActivityKind kind : kApiKinds) HLOGRAPH_TRY(Cupti(cuptiActivityEnable(kind), "cuptiActivityEnable"));
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  state.running = true;
  state.by_step = by_step;
  tagging = by_step;
  return Status::Ok();
}

void KernelProfiler::EnterStep(uint64_t step) {
  if (tagging) cuptiActivityPushExternalCorrelationId(kStepKind, step);
}

void KernelProfiler::LeaveStep() {
  if (tagging) cuptiActivityPopExternalCorrelationId(kStepKind, nullptr);
}

StatusOr<KernelTotals> KernelProfiler::Stop() {
  tagging = false;
  HLOGRAPH_CUDA(cudaDeviceSynchronize());
  HLOGRAPH_TRY(Cupti(cuptiActivityFlushAll(1), "cuptiActivityFlushAll"));
  Recorded& state = State();
  for (CUpti_ActivityKind kind : kDeviceKinds) HLOGRAPH_TRY(Cupti(cuptiActivityDisable(kind), "cuptiActivityDisable"));
  if (state.by_step) {
    for (CUpti_ActivityKind kind : kApiKinds) HLOGRAPH_TRY(Cupti(cuptiActivityDisable(kind), "cuptiActivityDisable"));
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  state.running = false;
  auto& iv = state.intervals;
  std::sort(iv.begin(), iv.end());
  KernelTotals totals;
  totals.kernels = static_cast<int64_t>(iv.size());
  uint64_t busy = 0, covered_to = 0;
  std::map<std::string, std::pair<int64_t, uint64_t>> by_name;  // launches, ns
  std::map<uint64_t, KernelTotals::ByStep> by_step;
  const uint64_t origin = iv.empty() ? 0 : iv.front().start;
  // Signed: an API call may start before the first kernel. (Timestamps are
  // nanoseconds since the epoch, too large for a double to keep exact.)
  const auto since_first = [&](uint64_t t) { return static_cast<double>(static_cast<int64_t>(t - origin)) * 1e-9; };
  for (const auto& k : iv) {
    const uint64_t from = std::max(k.start, covered_to);
    const uint64_t ns = k.end > k.start ? k.end - k.start : 0;
    if (k.end > from) busy += k.end - from;
    covered_to = std::max(covered_to, k.end);
    totals.timeline.push_back(
        {k.name, since_first(k.start), since_first(std::max(k.start, k.end)), k.correlation, 0, k.bytes});
    auto& [launches, name_ns] = by_name[k.name];
    ++launches;
    name_ns += ns;
    if (!state.by_step) continue;
    auto step = state.step_of_call.find(k.correlation);
    if (step == state.step_of_call.end() && k.runtime_correlation) step = state.step_of_call.find(k.runtime_correlation);
    if (step == state.step_of_call.end()) {
      totals.unattributed_s += static_cast<double>(ns) * 1e-9;
      continue;
    }
    totals.timeline.back().step = step->second;
    KernelTotals::ByStep& s = by_step[step->second];
    s.step = step->second;
    ++s.activities;
    s.seconds += static_cast<double>(ns) * 1e-9;
    s.copy_bytes += k.bytes;
  }
  std::sort(state.graph_launches.begin(), state.graph_launches.end());
  for (const auto& l : state.graph_launches) {
    totals.graph_launches.push_back({l.name, since_first(l.start), since_first(std::max(l.start, l.end)), l.correlation});
  }
  totals.busy_s = static_cast<double>(busy) * 1e-9;
  for (const auto& [name, stats] : by_name) {
    totals.by_name.push_back({name, stats.first, static_cast<double>(stats.second) * 1e-9});
  }
  std::sort(totals.by_name.begin(), totals.by_name.end(),
            [](const KernelTotals::ByName& a, const KernelTotals::ByName& b) { return a.seconds > b.seconds; });
  for (const auto& [id, s] : by_step) totals.by_step.push_back(s);
  iv.clear();
  state.graph_launches.clear();
  state.step_of_call.clear();
  return totals;
}

}  // namespace hlograph::gpu

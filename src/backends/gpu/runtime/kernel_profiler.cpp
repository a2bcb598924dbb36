#include "backends/gpu/runtime/kernel_profiler.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {
namespace {

constexpr size_t kBufferBytes = 8 << 20;

struct Recorded {
  std::mutex mutex;
  struct Interval {
    uint64_t start = 0, end = 0;  // ns
    std::string name;
    uint32_t correlation = 0;
    bool operator<(const Interval& o) const { return start < o.start || (start == o.start && end < o.end); }
  };
  std::vector<Interval> intervals;
  std::map<std::string, std::pair<int64_t, uint64_t>> by_name;  // launches, ns
  bool running = false;
};

Recorded& State() {
  static Recorded state;
  return state;
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  // CUPTI wants 8-byte aligned buffers.
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  Recorded& state = State();
  CUpti_Activity* record = nullptr;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      const std::string name = k->name ? k->name : "?";
      state.intervals.push_back({k->start, k->end, name, k->correlationId});
      auto& [launches, ns] = state.by_name[name];
      ++launches;
      ns += k->end > k->start ? k->end - k->start : 0;
    }
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

Status KernelProfiler::Start() {
  Recorded& state = State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.running) return Status::Error("the kernel profiler is already running");
    state.intervals.clear();
    state.by_name.clear();
  }
  HLOGRAPH_CUDA(cudaDeviceSynchronize());
  HLOGRAPH_TRY(Cupti(cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted), "cuptiActivityRegisterCallbacks"));
  HLOGRAPH_TRY(Cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable"));
  std::lock_guard<std::mutex> lock(state.mutex);
  state.running = true;
  return Status::Ok();
}

StatusOr<KernelTotals> KernelProfiler::Stop() {
  HLOGRAPH_CUDA(cudaDeviceSynchronize());
  HLOGRAPH_TRY(Cupti(cuptiActivityFlushAll(1), "cuptiActivityFlushAll"));
  HLOGRAPH_TRY(Cupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityDisable"));
  Recorded& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.running = false;
  auto& iv = state.intervals;
  std::sort(iv.begin(), iv.end());
  KernelTotals totals;
  totals.kernels = static_cast<int64_t>(iv.size());
  uint64_t busy = 0, covered_to = 0;
  for (const auto& k : iv) {
    const uint64_t from = std::max(k.start, covered_to);
    if (k.end > from) busy += k.end - from;
    covered_to = std::max(covered_to, k.end);
    const auto since_first = [&](uint64_t t) { return static_cast<double>(t - iv.front().start) * 1e-9; };
    totals.timeline.push_back({k.name, since_first(k.start), since_first(std::max(k.start, k.end)), k.correlation});
  }
  totals.busy_s = static_cast<double>(busy) * 1e-9;
  for (const auto& [name, stats] : state.by_name) {
    totals.by_name.push_back({name, stats.first, static_cast<double>(stats.second) * 1e-9});
  }
  std::sort(totals.by_name.begin(), totals.by_name.end(),
            [](const KernelTotals::ByName& a, const KernelTotals::ByName& b) { return a.seconds > b.seconds; });
  iv.clear();
  state.by_name.clear();
  return totals;
}

}  // namespace hlograph::gpu

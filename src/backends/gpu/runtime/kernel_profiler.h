// Device time spent in kernels, copies and fills, from CUPTI's activity
// records (the toolkit's libcupti, loaded on first use): what `hlograph
// bench --profile` reports as the floor a call could reach with no gaps
// between them, by step, what its roofline report shows, and each
// activity in time, what `bench --timeline` and `bench --trace` show.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::gpu {

struct KernelTotals {
  int64_t kernels = 0;  // kernels that ran (generated ones, cuBLASLt's, ...), copies and fills on the device
  double busy_s = 0;    // the union of their [start, end] intervals
  struct ByName {
    std::string name;
    int64_t launches = 0;
    double seconds = 0;
  };
  std::vector<ByName> by_name;  // most time first
  struct Interval {
    std::string name;
    double start_s = 0, end_s = 0;  // from the first kernel's start
    // The API call that launched it (a graph launch's kernels share one):
    // later calls have larger ones.
    uint32_t correlation = 0;
    uint64_t step = 0;   // started with by_step: the step that queued it (0: none)
    int64_t bytes = 0;   // copies and fills: read + written
  };
  std::vector<Interval> timeline;  // every kernel, in order of start
  // Started with by_step (which records the CUDA API calls): the host calls
  // that launched graphs, the runtime's cudaGraphLaunch and the driver's
  // cuGraphLaunch it makes each a record of its own (the device work of the
  // launch carries either's correlation). Times from the first kernel's
  // start, negative before it.
  struct ApiCall {
    std::string name;
    double start_s = 0, end_s = 0;
    uint32_t correlation = 0;
  };
  std::vector<ApiCall> graph_launches;  // in order of start
  // Started with by_step: the device work queued between EnterStep(step)
  // and LeaveStep, by step (the innermost step entered).
  struct ByStep {
    uint64_t step = 0;
    int64_t activities = 0;   // kernels, copies and fills
    double seconds = 0;       // their durations summed
    int64_t copy_bytes = 0;   // read and written by its copies and fills
  };
  std::vector<ByStep> by_step;
  double unattributed_s = 0;  // by_step: device time queued outside any step
};

// Records every kernel, device-to-device copy and fill that runs on the
// device between Start and Stop. One at a time per process.
class KernelProfiler {
 public:
  // by_step: also records which step queued each (external correlation of
  // the CUDA calls made between EnterStep and LeaveStep on this thread),
  // and the graph launches' API calls.
  static Status Start(bool by_step = false);
  // Waits for the device, flushes the records and stops recording.
  static StatusOr<KernelTotals> Stop();
  // The work the calling thread queues until LeaveStep belongs to `step`
  // (nested: the innermost). No-ops unless started with by_step.
  static void EnterStep(uint64_t step);
  static void LeaveStep();
};

}  // namespace hlograph::gpu

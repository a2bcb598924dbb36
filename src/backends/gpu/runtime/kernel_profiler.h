// Device time spent in kernels, from CUPTI's activity records (the
// toolkit's libcupti, loaded on first use): what `hlograph bench --profile`
// reports as the floor a call could reach with no gaps between kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::gpu {

struct KernelTotals {
  int64_t kernels = 0;  // kernels that ran (generated ones, cuBLASLt's, ...)
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
  };
  std::vector<Interval> timeline;  // every kernel, in order of start
};

// Records every kernel that runs on the device between Start and Stop. One
// at a time per process.
class KernelProfiler {
 public:
  static Status Start();
  // Waits for the device, flushes the records and stops recording.
  static StatusOr<KernelTotals> Stop();
};

}  // namespace hlograph::gpu

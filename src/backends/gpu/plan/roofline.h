// A program's steps against the device's limits: for each step that ran,
// its measured time next to the bytes and FLOPs the plan says it must
// move and do (plan/step_cost.h), the rates that makes, their fractions
// of the device's memory bandwidth and of its peak for the step's
// compute unit, and how much time it loses over its floor. Built from
// measurements handed in as plain numbers, so it is printed and tested
// without a GPU; `hlograph bench --profile` measures them with CUPTI.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "backends/gpu/plan/program.h"
#include "backends/gpu/plan/step_cost.h"

namespace hlograph::gpu {

// What ran for one step over all measured calls.
struct StepMeasurement {
  int64_t runs = 0;        // times the step was queued
  int64_t activities = 0;  // kernels, copies and fills it queued
  double seconds = 0;      // their device time, summed
  int64_t copy_bytes = 0;  // read + written by its copies and fills
};

struct RooflineRow {
  const Step* step = nullptr;
  std::string name;     // StepName: "fusion_3", "gemm", ...
  std::string summary;  // StepSummary
  std::string launch;   // a generated kernel's grid and block, when the caller knows it
  double runs = 0;      // per call
  double activities = 0;  // per call
  double seconds = 0;   // per call
  double bytes = 0;     // per call
  double flops = 0;     // per call
  ComputeUnit unit = ComputeUnit::kFp32;
  double memory_floor_s = 0, compute_floor_s = 0;  // per call, at the limits

  double floor_seconds() const { return memory_floor_s > compute_floor_s ? memory_floor_s : compute_floor_s; }
  bool memory_bound() const { return memory_floor_s >= compute_floor_s; }
  double bytes_per_s() const { return seconds > 0 ? bytes / seconds : 0; }
  double flops_per_s() const { return seconds > 0 ? flops / seconds : 0; }
  // Time over the floor: what the step loses against the hardware.
  double excess_seconds() const { return seconds > floor_seconds() ? seconds - floor_seconds() : 0; }
};

struct Roofline {
  DeviceLimits limits;
  std::vector<RooflineRow> rows;  // every step with device work, most time first
  double step_seconds = 0;        // per call, the rows' time summed
  double unattributed_seconds = 0;  // per call: device work no step claimed
  // Filled by the caller from a run in the program's own mode, per call:
  // wall time with calls queued, and the time some device work ran.
  double wall_seconds = -1, busy_seconds = -1;
  // Why the busy time, and so the idle share, is not known when it is not.
  std::string busy_unknown_why;

  // The share of the wall time no device work ran, or -1 when not measured.
  double idle_fraction() const;
  // The rows losing the most time over their floor, first.
  std::vector<const RooflineRow*> ByExcess() const;
  // A table of the first `max_rows` rows (0: all) and the totals.
  std::string ToString(size_t max_rows = 0) const;
};

// The roofline of `program` from measurements over `calls` calls.
Roofline BuildRoofline(const GpuProgram& program, const std::map<const Step*, StepMeasurement>& measured, int64_t calls,
                       const DeviceLimits& limits);

}  // namespace hlograph::gpu

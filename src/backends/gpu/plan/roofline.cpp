#include "backends/gpu/plan/roofline.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace hlograph::gpu {

double Roofline::idle_fraction() const {
  if (wall_seconds <= 0 || busy_seconds < 0) return -1;
  return std::clamp(1.0 - busy_seconds / wall_seconds, 0.0, 1.0);
}

std::vector<const RooflineRow*> Roofline::ByExcess() const {
  std::vector<const RooflineRow*> sorted;
  for (const RooflineRow& r : rows) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const RooflineRow* a, const RooflineRow* b) { return a->excess_seconds() > b->excess_seconds(); });
  return sorted;
}

Roofline BuildRoofline(const GpuProgram& program, const std::map<const Step*, StepMeasurement>& measured, int64_t calls,
                       const DeviceLimits& limits) {
  Roofline r;
  r.limits = limits;
  const double per_call = 1.0 / static_cast<double>(std::max<int64_t>(1, calls));
  for (const auto& [step, m] : measured) {
    if (m.activities == 0) continue;
    StepCost cost = CostOfStep(program, *step);
    // Loops and cases own only the copies they add: measured, not planned.
    const bool control = std::holds_alternative<WhileStep>(step->action) || std::holds_alternative<CaseStep>(step->action);
    RooflineRow row;
    row.step = step;
    row.name = StepName(program, *step);
    row.summary = control ? "its state and result copies" : StepSummary(program, *step);
    row.runs = static_cast<double>(m.runs) * per_call;
    row.activities = static_cast<double>(m.activities) * per_call;
    row.seconds = m.seconds * per_call;
    row.bytes = control ? static_cast<double>(m.copy_bytes) * per_call : static_cast<double>(cost.bytes) * row.runs;
    row.flops = cost.total_flops() * row.runs;
    row.unit = cost.unit(limits);
    row.memory_floor_s = limits.memory_bytes_per_s > 0 ? row.bytes / limits.memory_bytes_per_s : 0;
    row.compute_floor_s = cost.compute_seconds(limits) * row.runs;
    r.step_seconds += row.seconds;
    r.rows.push_back(std::move(row));
  }
  std::stable_sort(r.rows.begin(), r.rows.end(),
                   [](const RooflineRow& a, const RooflineRow& b) { return a.seconds > b.seconds; });
  return r;
}

std::string Roofline::ToString(size_t max_rows) const {
  std::ostringstream os;
  char line[512];
  const DeviceLimits& d = limits;
  std::snprintf(line, sizeof line, "roofline against %s: memory %.0f GB/s; dense TFLOP/s", d.name.c_str(),
                d.memory_bytes_per_s / 1e9);
  os << line;
  for (int u = 0; u < kComputeUnits; ++u) {
    const auto unit = static_cast<ComputeUnit>(u);
    std::snprintf(line, sizeof line, "%s %s %.1f", u ? "," : "", ComputeUnitName(unit), d.peak(unit) / 1e12);
    os << line;
  }
  os << "\n";
  if (!busy_unknown_why.empty()) os << "  the GPU's idle share is not known: " << busy_unknown_why << "\n";
  if (idle_fraction() >= 0) {
    std::snprintf(line, sizeof line,
                  "  wall %.1f us per call (calls queued), device busy %.1f us: the GPU idle %.1f%% of the call\n",
                  wall_seconds * 1e6, busy_seconds * 1e6, idle_fraction() * 100);
    os << line;
  }
  std::snprintf(line, sizeof line,
                "  steps, each timed alone (stream mode): %.1f us per call; %.1f us of device work outside any step\n",
                step_seconds * 1e6, unattributed_seconds * 1e6);
  os << line;
  os << "      us/call  share  runs      MB    GB/s  %mem     GFLOP  TFLOP/s  %peak unit      bound  lost us  step\n";
  size_t shown = 0;
  for (const RooflineRow& row : rows) {
    if (max_rows && shown++ == max_rows) {
      std::snprintf(line, sizeof line, "  ... %zu more steps (--json lists them all)\n", rows.size() - max_rows);
      os << line;
      break;
    }
    const double peak = d.peak(row.unit);
    std::snprintf(line, sizeof line,
                  "  %11.1f %5.1f%% %5.4g %7.1f %7.0f %4.0f%% %9.3f %8.1f %5.1f%% %-9s %-7s %7.1f  %s: %s%s%s\n",
                  row.seconds * 1e6, step_seconds > 0 ? 100 * row.seconds / step_seconds : 0.0, row.runs,
                  row.bytes / 1e6, row.bytes_per_s() / 1e9,
                  d.memory_bytes_per_s > 0 ? 100 * row.bytes_per_s() / d.memory_bytes_per_s : 0.0, row.flops / 1e9,
                  row.flops_per_s() / 1e12, peak > 0 ? 100 * row.flops_per_s() / peak : 0.0, ComputeUnitName(row.unit),
                  row.memory_bound() ? "memory" : "compute", row.excess_seconds() * 1e6, row.name.c_str(),
                  row.summary.substr(0, 90).c_str(), row.launch.empty() ? "" : " | ", row.launch.c_str());
    os << line;
  }
  return os.str();
}

}  // namespace hlograph::gpu

// The device work of each step of a stream-mode call, for the roofline
// (plan/roofline.h): a StepObserver that tags the CUDA calls each step
// makes for the kernel profiler and counts the step's runs, and the join
// of those runs with the profiler's totals by step.
#pragma once

#include <cstdint>
#include <map>

#include "backends/gpu/executable.h"
#include "backends/gpu/plan/roofline.h"
#include "backends/gpu/runtime/kernel_profiler.h"

namespace hlograph::gpu {

class StepTagger : public StepObserver {
 public:
  void Enter(const Step& step) override;
  void Leave(const Step& step) override;
  const std::map<const Step*, int64_t>& runs() const { return runs_; }

 private:
  std::map<const Step*, int64_t> runs_;
};

// Every step that ran or had device work: its runs (from the tagger) and
// its work (from the profiler started with by_step, stopped after the calls).
std::map<const Step*, StepMeasurement> StepMeasurements(const StepTagger& tagger, const KernelTotals& totals);

}  // namespace hlograph::gpu

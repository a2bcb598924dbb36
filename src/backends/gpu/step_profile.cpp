#include "backends/gpu/step_profile.h"

namespace hlograph::gpu {

void StepTagger::Enter(const Step& step) {
  ++runs_[&step];
  KernelProfiler::EnterStep(reinterpret_cast<uintptr_t>(&step));
}

void StepTagger::Leave(const Step&) { KernelProfiler::LeaveStep(); }

std::map<const Step*, StepMeasurement> StepMeasurements(const StepTagger& tagger, const KernelTotals& totals) {
  std::map<const Step*, StepMeasurement> measured;
  for (const auto& [step, runs] : tagger.runs()) measured[step].runs = runs;
  for (const KernelTotals::ByStep& s : totals.by_step) {
    StepMeasurement& m = measured[reinterpret_cast<const Step*>(static_cast<uintptr_t>(s.step))];
    m.activities = s.activities;
    m.seconds = s.seconds;
    m.copy_bytes = s.copy_bytes;
  }
  return measured;
}

}  // namespace hlograph::gpu

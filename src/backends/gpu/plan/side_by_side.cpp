#include "backends/gpu/plan/side_by_side.h"

#include <algorithm>
#include <string>
#include <vector>

#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/plan_options.h"

namespace hlograph::gpu {

namespace {

class SideBySide {
 public:
  explicit SideBySide(GpuProgram& program) : program_(program) {}

  void Run() {
    uses_ = FusionUses(program_);
    merged_away_.assign(program_.fusions.size(), false);
    Walk(program_.main);
    Renumber();
  }

 private:
  void Walk(Sequence& seq) {
    for (Step& step : seq.steps) {
      if (auto* w = std::get_if<WhileStep>(&step.action)) {
        Walk(w->cond);
        Walk(w->body);
      } else if (auto* c = std::get_if<CaseStep>(&step.action)) {
        for (Sequence& branch : c->branches) Walk(branch);
      }
    }
    std::vector<Step> kept;
    for (Step& step : seq.steps) {
      if (!kept.empty() && Fits(kept.back(), step)) {
        Merge(std::get<KernelStep>(kept.back().action), std::get<KernelStep>(step.action));
        continue;
      }
      kept.push_back(std::move(step));
    }
    seq.steps = std::move(kept);
  }

  // A loop kernel of a few elements, used by this step alone.
  bool Small(const Step& step) const {
    const auto* k = std::get_if<KernelStep>(&step.action);
    if (k == nullptr || uses_[static_cast<size_t>(k->fusion)] != 1) return false;
    const Fusion& f = program_.fusions[static_cast<size_t>(k->fusion)];
    if (f.kind != FusionKind::kLoop || !f.scratch_bytes.empty() || !f.early_inputs.empty() || f.dependents_at_start) {
      return false;
    }
    if (std::find(f.inputs.begin(), f.inputs.end(), nullptr) != f.inputs.end()) return false;
    // Temps alone: a kernel writing a result may write it in place of a
    // donated argument (plan/donation.h), which no kernel side by side does
    // (none reads in place).
    for (BufferId out : k->outputs) {
      if (program_.buffers[static_cast<size_t>(out)].kind != BufferKind::kTemp) return false;
    }
    return std::all_of(f.output_types.begin(), f.output_types.end(),
                       [](const ir::Type& t) { return t.NumElements() <= kSideBySideMaxElements; });
  }

  // Whether `next` may join the kernel of `group`: both small, and `next`
  // neither reads nor writes what the group writes, nor writes what it reads.
  bool Fits(const Step& group, const Step& next) const {
    if (!Small(group) || !Small(next)) return false;
    const std::vector<BufferId> group_reads = StepReads(group), group_writes = StepWrites(group);
    const std::vector<BufferId> next_reads = StepReads(next), next_writes = StepWrites(next);
    auto meet = [](const std::vector<BufferId>& a, const std::vector<BufferId>& b) {
      return std::any_of(a.begin(), a.end(), [&](BufferId x) { return std::count(b.begin(), b.end(), x) > 0; });
    };
    return !meet(next_reads, group_writes) && !meet(next_writes, group_writes) && !meet(next_writes, group_reads);
  }

  // Appends `next`'s ops, inputs it does not share and outputs to `group`'s fusion.
  void Merge(KernelStep& group, const KernelStep& next) {
    Fusion& f = program_.fusions[static_cast<size_t>(group.fusion)];
    const Fusion& g = program_.fusions[static_cast<size_t>(next.fusion)];
    f.ops.insert(f.ops.end(), g.ops.begin(), g.ops.end());
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      if (std::find(f.inputs.begin(), f.inputs.end(), g.inputs[i]) != f.inputs.end()) continue;
      f.inputs.push_back(g.inputs[i]);
      f.input_types.push_back(g.input_types[i]);
      group.inputs.push_back(next.inputs[i]);
    }
    f.outputs.insert(f.outputs.end(), g.outputs.begin(), g.outputs.end());
    f.output_types.insert(f.output_types.end(), g.output_types.begin(), g.output_types.end());
    group.outputs.insert(group.outputs.end(), next.outputs.begin(), next.outputs.end());
    f.side_by_side += g.side_by_side;
    merged_away_[static_cast<size_t>(next.fusion)] = true;
  }

  // Drops the fusions merged away; the rest keep their order, named by
  // their new positions.
  void Renumber() {
    std::vector<int> index(program_.fusions.size(), -1);
    std::vector<Fusion> kept;
    for (size_t i = 0; i < program_.fusions.size(); ++i) {
      if (merged_away_[i]) continue;
      index[i] = static_cast<int>(kept.size());
      kept.push_back(std::move(program_.fusions[i]));
      kept.back().name = "fusion_" + std::to_string(index[i]);
    }
    program_.fusions = std::move(kept);
    Reindex(program_.main, index);
  }

  static void Reindex(Sequence& seq, const std::vector<int>& index) {
    for (Step& step : seq.steps) {
      if (auto* k = std::get_if<KernelStep>(&step.action)) {
        k->fusion = index[static_cast<size_t>(k->fusion)];
      } else if (auto* w = std::get_if<WhileStep>(&step.action)) {
        Reindex(w->cond, index);
        Reindex(w->body, index);
      } else if (auto* c = std::get_if<CaseStep>(&step.action)) {
        for (Sequence& branch : c->branches) Reindex(branch, index);
      }
    }
  }

  GpuProgram& program_;
  std::vector<int> uses_;  // steps launching each fusion
  std::vector<bool> merged_away_;
};

}  // namespace

void PlaceSideBySide(GpuProgram& program) {
  if (!PlanOptions::Current().side_by_side) return;
  SideBySide(program).Run();
}

}  // namespace hlograph::gpu

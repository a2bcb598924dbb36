#include "backends/gpu/plan/prefetch_ahead.h"

#include <algorithm>
#include <vector>

#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/plan_options.h"

namespace hlograph::gpu {

namespace {

const KernelStep* StepOfKind(const Step& step, const GpuProgram& program, FusionKind kind) {
  const auto* k = std::get_if<KernelStep>(&step.action);
  return k != nullptr && program.fusions[static_cast<size_t>(k->fusion)].kind == kind ? k : nullptr;
}

// The rhs (weights) of the product kernel `f` computes.
const ir::Value* WeightsOf(const Fusion& f) {
  for (const ir::Operation* op : f.ops) {
    if (op->id() == ir::OpId::kDotGeneral) return op->operand(1);
  }
  return nullptr;
}

void Walk(GpuProgram& program, Sequence& seq, const std::vector<int>& uses) {
  for (size_t i = 0; i < seq.steps.size(); ++i) {
    Step& step = seq.steps[i];
    if (auto* w = std::get_if<WhileStep>(&step.action)) {
      Walk(program, w->cond, uses);
      Walk(program, w->body, uses);
      continue;
    }
    if (auto* c = std::get_if<CaseStep>(&step.action)) {
      for (Sequence& branch : c->branches) Walk(program, branch, uses);
      continue;
    }
    auto* attention = std::get_if<KernelStep>(&step.action);
    if (attention == nullptr || program.fusions[static_cast<size_t>(attention->fusion)].kind != FusionKind::kAttention ||
        i + 2 >= seq.steps.size() || StepOfKind(seq.steps[i + 1], program, FusionKind::kDot) == nullptr) {
      continue;
    }
    const KernelStep* later = StepOfKind(seq.steps[i + 2], program, FusionKind::kDot);
    if (later == nullptr) continue;
    const Fusion& product = program.fusions[static_cast<size_t>(later->fusion)];
    const ir::Value* weights = WeightsOf(product);
    const std::vector<int> reads = weights != nullptr ? AddressingInputs({weights}, product.inputs) : std::vector<int>{};
    if (reads.empty()) continue;
    if (uses[static_cast<size_t>(attention->fusion)] != 1) continue;  // its inputs are every step's
    Fusion& f = program.fusions[static_cast<size_t>(attention->fusion)];
    // The inputs the weights' addresses read that the attention lacks; none
    // may be one it reads from another buffer.
    std::vector<int> missing;
    bool clash = false;
    for (int r : reads) {
      const auto at = std::find(f.inputs.begin(), f.inputs.end(), product.inputs[static_cast<size_t>(r)]);
      if (at == f.inputs.end()) {
        missing.push_back(r);
      } else {
        clash = clash || attention->inputs[static_cast<size_t>(at - f.inputs.begin())] !=
                             later->inputs[static_cast<size_t>(r)];
      }
    }
    if (clash) continue;
    for (int r : missing) {
      f.inputs.push_back(product.inputs[static_cast<size_t>(r)]);
      f.input_types.push_back(product.input_types[static_cast<size_t>(r)]);
      attention->inputs.push_back(later->inputs[static_cast<size_t>(r)]);
    }
    f.prefetched_after_wait.push_back(weights);
  }
}

}  // namespace

void PrefetchAhead(GpuProgram& program) {
  if (!PlanOptions::Current().prefetch_ahead || !PrefetchIntoL2Wanted()) return;
  Walk(program, program.main, FusionUses(program));
}

}  // namespace hlograph::gpu

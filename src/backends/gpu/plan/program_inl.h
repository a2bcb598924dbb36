// Template bodies of program.h.
#pragma once

namespace hlograph::gpu {

template <typename Fn>
void ForEachStep(const Sequence& seq, Fn&& fn, int depth) {
  for (const Step& step : seq.steps) {
    fn(step, depth);
    if (const auto* w = std::get_if<WhileStep>(&step.action)) {
      ForEachStep(w->cond, fn, depth + 1);
      ForEachStep(w->body, fn, depth + 1);
    } else if (const auto* c = std::get_if<CaseStep>(&step.action)) {
      for (const Sequence& branch : c->branches) ForEachStep(branch, fn, depth + 1);
    }
  }
}

}  // namespace hlograph::gpu

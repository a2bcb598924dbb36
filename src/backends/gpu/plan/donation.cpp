#include "backends/gpu/plan/donation.h"

#include <algorithm>
#include <set>

#include "backends/gpu/plan/elementwise_support.h"
#include "ir/argument_aliases.h"

namespace hlograph::gpu {

bool ReadsInPlace(const Fusion& f, size_t k) {
  // Side by side, another kernel's output may take the input's memory
  // before this one's thread has read it.
  if (f.kind != FusionKind::kLoop || f.side_by_side > 1) return false;
  const ir::Value* input = f.inputs[k];
  std::vector<const ir::Value*> work = {input};
  std::set<const ir::Value*> seen;
  while (!work.empty()) {
    const ir::Value* v = work.back();
    work.pop_back();
    if (!seen.insert(v).second) continue;
    if (v->type() != input->type()) return false;
    for (const ir::Operation* op : f.ops) {
      if (std::find(op->operands().begin(), op->operands().end(), v) == op->operands().end()) continue;
      if (!IsElementwise(*op) || op->num_results() != 1) return false;
      work.push_back(op->result(0));
    }
  }
  return true;
}

namespace {

std::string Why(const Step& step) {
  return step.op ? "read by " + step.op->name() + ", which writes the result and is not an in-place elementwise kernel"
                 : "read by a step that writes the result";
}

// Whether result `r` may be written into parameter `a`'s memory; else why not.
std::string CheckInPlace(const GpuProgram& p, int a, int r) {
  const BufferId param = p.parameters[static_cast<size_t>(a)];
  const BufferId out = p.results[static_cast<size_t>(r)];
  if (p.buffers[static_cast<size_t>(out)].kind != BufferKind::kOutput) return "the result is not a buffer of its own";
  int last_read = -1, first_write = -1;
  const auto& steps = p.main.steps;
  for (size_t i = 0; i < steps.size(); ++i) {
    std::set<BufferId> ids;
    CollectBuffers(steps[i], ids);
    if (ids.count(param)) last_read = static_cast<int>(i);
    if (ids.count(out) && first_write < 0) first_write = static_cast<int>(i);
  }
  if (last_read < first_write) return "";
  if (last_read > first_write) return "the argument is read after the result is written";
  const Step& step = steps[static_cast<size_t>(first_write)];
  const auto* k = std::get_if<KernelStep>(&step.action);
  if (!k) return Why(step);
  const Fusion& f = p.fusions[static_cast<size_t>(k->fusion)];
  for (size_t i = 0; i < k->inputs.size(); ++i) {
    if (k->inputs[i] == param && !ReadsInPlace(f, i)) return Why(step);
  }
  return "";
}

}  // namespace

void PlanDonations(const ir::Operation& entry, GpuProgram& program) {
  program.donations.clear();
  for (const ir::ArgumentAlias& alias : ir::ArgumentAliases(entry)) {
    if (static_cast<size_t>(alias.parameter) >= program.parameters.size() ||
        static_cast<size_t>(alias.result) >= program.results.size()) {
      continue;
    }
    Donation d;
    d.parameter = alias.parameter;
    d.result = alias.result;
    d.why = alias.same_type ? CheckInPlace(program, d.parameter, d.result)
                            : "the result's type differs from the argument's";
    d.in_place = d.why.empty();
    program.donations.push_back(std::move(d));
  }
}

}  // namespace hlograph::gpu

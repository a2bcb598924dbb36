#include "backends/gpu/plan/donation.h"

#include <algorithm>
#include <set>

#include "backends/gpu/codegen/elemental.h"
#include "ir/attribute.h"

namespace hlograph::gpu {

bool ReadsInPlace(const Fusion& f, size_t k) {
  if (f.kind != FusionKind::kLoop) return false;
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
  const auto* arg_attrs = entry.attr("arg_attrs").as<ir::ArrayAttr>();
  if (!arg_attrs) return;
  std::set<int> claimed;
  for (size_t a = 0; a < arg_attrs->elements.size() && a < program.parameters.size(); ++a) {
    const auto* dict = arg_attrs->elements[a].as<ir::DictionaryAttr>();
    if (!dict) continue;
    int result = -1;
    if (const ir::Attribute* alias = ir::FindEntry(*dict, "tf.aliasing_output")) {
      if (const auto* i = alias->as<ir::IntegerAttr>()) result = static_cast<int>(i->value);
    } else if (const ir::Attribute* donor = ir::FindEntry(*dict, "jax.buffer_donor")) {
      const auto* b = donor->as<ir::BoolAttr>();
      for (size_t r = 0; b && b->value && r < program.result_types.size() && result < 0; ++r) {
        if (!claimed.count(static_cast<int>(r)) && program.result_types[r] == program.parameter_types[a]) {
          result = static_cast<int>(r);
        }
      }
    }
    if (result < 0 || result >= static_cast<int>(program.results.size()) || !claimed.insert(result).second) continue;
    Donation d;
    d.parameter = static_cast<int>(a);
    d.result = result;
    if (program.result_types[static_cast<size_t>(result)] != program.parameter_types[a]) {
      d.why = "the result's type differs from the argument's";
    } else {
      d.why = CheckInPlace(program, d.parameter, result);
    }
    d.in_place = d.why.empty();
    program.donations.push_back(std::move(d));
  }
}

}  // namespace hlograph::gpu

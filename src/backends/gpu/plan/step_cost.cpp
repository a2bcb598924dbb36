#include "backends/gpu/plan/step_cost.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/prefix_scan.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

std::string ShortName(const ir::Operation& op) {
  const std::string& n = op.name();
  const size_t dot = n.find('.');
  return dot == std::string::npos ? n : n.substr(dot + 1);
}

// Ops that only move, index or reinterpret data: no arithmetic.
bool MovesDataOnly(const std::string& name) {
  static const std::set<std::string> kNames = {
      "constant", "iota", "reshape", "broadcast_in_dim", "broadcast", "dynamic_broadcast_in_dim", "transpose",
      "slice", "dynamic_slice", "real_dynamic_slice", "dynamic_update_slice", "concatenate", "pad", "gather",
      "reverse", "convert", "bitcast_convert", "get_tuple_element", "tuple", "optimization_barrier", "copy",
      "sort", "top_k", "rng_bit_generator", "custom_call", "while", "case", "if", "return", "select_and_scatter",
      "after_all", "create_token", "get_dimension_size"};
  return kNames.count(name) > 0;
}

// Ops that read only a window of their first operand (their result's worth).
bool ReadsWindowOfOperand(const ir::Operation& op) {
  const std::string n = ShortName(op);
  return n == "slice" || n == "dynamic_slice" || n == "real_dynamic_slice" || n == "gather";
}

bool IsHalf(ir::ElementType t) { return t == ir::ElementType::kBF16 || t == ir::ElementType::kF16; }
bool IsFp8(ir::ElementType t) {
  return ir::IsFloat(t) && ir::BitWidth(t) == 8;
}

// The unit a product of these operand types runs on at its best.
ComputeUnit ProductUnit(const ir::Operation& op) {
  const ir::ElementType a = op.operand(0)->type().element();
  const ir::ElementType b = op.operand(1)->type().element();
  const auto either = [&](auto pred) { return pred(a) || pred(b); };
  if (either([](ir::ElementType t) { return t == ir::ElementType::kF64 || t == ir::ElementType::kC128; })) {
    return ComputeUnit::kFp64Tensor;
  }
  if (either([](ir::ElementType t) { return t == ir::ElementType::kF32 || t == ir::ElementType::kC64; })) {
    return PrecisionOf(op) == GemmPrecision::kHighest ? ComputeUnit::kFp32 : ComputeUnit::kTf32;
  }
  if (IsHalf(a) || IsHalf(b)) return ComputeUnit::kHalf;
  if (IsFp8(a) || IsFp8(b)) return ComputeUnit::kFp8;
  if (ir::IsInteger(a) && ir::BitWidth(a) <= 8) return ComputeUnit::kInt8;
  return ComputeUnit::kFp32;
}

ComputeUnit ScalarUnit(ir::ElementType t) {
  return t == ir::ElementType::kF64 || t == ir::ElementType::kC128 ? ComputeUnit::kFp64 : ComputeUnit::kFp32;
}

double Elements(const ir::Value* v) { return static_cast<double>(v->type().NumElements()); }

int64_t BodyOps(const ir::Operation& op) {
  if (op.num_regions() == 0 || op.region(0).empty()) return 1;
  const auto& ops = op.region(0).front().operations();
  return std::max<int64_t>(1, static_cast<int64_t>(ops.size()) - 1);  // less the terminator
}

// A kernel's bytes: each input once (the windows it takes of an input it
// only slices or gathers; nothing of one only its addressing reads, the
// stacked weights of a later kernel it asks L2 for), each output once
// (only the window of an update written in place).
int64_t KernelBytes(const GpuProgram& program, const KernelStep& k) {
  const Fusion& f = program.fusions[static_cast<size_t>(k.fusion)];
  const auto buffer_bytes = [&](BufferId id) { return program.buffers[static_cast<size_t>(id)].bytes; };
  int64_t bytes = 0;
  for (size_t i = 0; i < k.inputs.size(); ++i) {
    const int64_t whole = buffer_bytes(k.inputs[i]);
    const ir::Value* v = i < f.inputs.size() ? f.inputs[i] : nullptr;
    if (v == nullptr || f.ops.empty()) {
      bytes += whole;
      continue;
    }
    bool read = false;
    for (const ir::Operation* op : f.ops) ForEachRead(*op, [&](const ir::Value* r) { read = read || r == v; });
    if (!read) continue;
    int64_t windows = 0;
    bool only_windows = true;
    for (const ir::Operation* op : f.ops) {
      for (size_t o = 0; o < op->num_operands() && only_windows; ++o) {
        if (op->operand(o) != v) continue;
        if (o == 0 && ReadsWindowOfOperand(*op)) {
          windows += op->result(0)->type().StorageBytes();
        } else {
          only_windows = false;
        }
      }
    }
    bytes += only_windows ? std::min(whole, windows) : whole;
  }
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    const ir::Value* v = i < f.outputs.size() ? f.outputs[i] : nullptr;
    const ir::Operation* def = v ? v->defining_op() : nullptr;
    const bool in_place = def && ShortName(*def) == "dynamic_update_slice" &&
                          std::find(f.inputs.begin(), f.inputs.end(), def->operand(0)) == f.inputs.end();
    bytes += in_place ? def->operand(1)->type().StorageBytes() : buffer_bytes(k.outputs[i]);
  }
  return bytes;
}

int64_t GemmBytes(const GemmStep& g, const GpuProgram& program) {
  const GemmConfig& c = g.config;
  const auto bytes = [](int64_t batch, int64_t rows, int64_t cols, ir::ElementType t) {
    return batch * rows * cols * ir::StorageBytes(t);
  };
  int64_t b = bytes(c.lhs_broadcast ? 1 : c.batch, c.m, c.k, c.lhs_type) +
              bytes(c.rhs_broadcast ? 1 : c.batch, c.k, c.n, c.rhs_type) + bytes(c.batch, c.m, c.n, c.out_type);
  if (g.bias >= 0) b += program.buffers[static_cast<size_t>(g.bias)].bytes;
  return b;
}

int64_t Product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

}  // namespace

const char* ComputeUnitName(ComputeUnit unit) {
  switch (unit) {
    case ComputeUnit::kFp32: return "fp32";
    case ComputeUnit::kFp64: return "fp64";
    case ComputeUnit::kTf32: return "tf32";
    case ComputeUnit::kHalf: return "bf16/f16";
    case ComputeUnit::kFp8: return "fp8";
    case ComputeUnit::kInt8: return "int8";
    case ComputeUnit::kFp64Tensor: return "fp64 tensor";
  }
  return "?";
}

std::string MicrosecondsText(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
  return buf;
}

DeviceLimits DeviceLimits::H200() {
  DeviceLimits d;
  d.name = "NVIDIA H200 (datasheet)";
  d.memory_bytes_per_s = 4.8e12;
  const auto set = [&](ComputeUnit u, double tflops) { d.flops_per_s[static_cast<size_t>(u)] = tflops * 1e12; };
  set(ComputeUnit::kFp32, 66.9);
  set(ComputeUnit::kFp64, 33.5);
  set(ComputeUnit::kTf32, 494.7);
  set(ComputeUnit::kHalf, 989.4);
  set(ComputeUnit::kFp8, 1978.9);
  set(ComputeUnit::kInt8, 1978.9);
  set(ComputeUnit::kFp64Tensor, 66.9);
  return d;
}

double StepCost::total_flops() const {
  double t = 0;
  for (double f : flops) t += f;
  return t;
}

ComputeUnit StepCost::unit(const DeviceLimits& limits) const {
  size_t best = 0;
  double best_s = 0;
  for (size_t u = 0; u < flops.size(); ++u) {
    const double s = flops[u] > 0 && limits.flops_per_s[u] > 0 ? flops[u] / limits.flops_per_s[u] : 0;
    if (s > best_s) best = u, best_s = s;
  }
  return static_cast<ComputeUnit>(best);
}

double StepCost::memory_seconds(const DeviceLimits& limits) const {
  return limits.memory_bytes_per_s > 0 ? static_cast<double>(bytes) / limits.memory_bytes_per_s : 0;
}

double StepCost::compute_seconds(const DeviceLimits& limits) const {
  double s = 0;
  for (size_t u = 0; u < flops.size(); ++u) {
    if (flops[u] > 0 && limits.flops_per_s[u] > 0) s += flops[u] / limits.flops_per_s[u];
  }
  return s;
}

double StepCost::floor_seconds(const DeviceLimits& limits) const {
  return std::max(memory_seconds(limits), compute_seconds(limits));
}

StepCost& StepCost::operator+=(const StepCost& other) {
  bytes += other.bytes;
  for (size_t u = 0; u < flops.size(); ++u) flops[u] += other.flops[u];
  return *this;
}

void AddOpFlops(const ir::Operation& op, StepCost& cost) {
  const std::string name = ShortName(op);
  const auto add = [&](ComputeUnit unit, double f) { cost.flops[static_cast<size_t>(unit)] += f; };
  if (op.num_results() == 0 || !op.result(0)->type().IsTensor()) return;
  const ir::ElementType out = op.result(0)->type().element();
  // A complex multiply-add is 4 real ones.
  const double complex_factor =
      op.num_operands() > 0 && ir::IsComplex(op.operand(0)->type().element()) ? 4 : 1;
  if (IsOuterProduct(op)) {
    add(ScalarUnit(out), Elements(op.result(0)));  // one multiply an element, on the CUDA cores
  } else if (name == "dot_general" || name == "dot") {
    double depth = 1;
    if (const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) {
      for (int64_t d : dn->lhs_contracting) depth *= static_cast<double>(op.operand(0)->type().dim(d));
    } else if (op.operand(0)->type().rank() > 0) {  // stablehlo.dot: contracts lhs's last dim
      depth = static_cast<double>(op.operand(0)->type().shape().back());
    }
    add(ProductUnit(op), 2 * Elements(op.result(0)) * depth * complex_factor);
  } else if (name == "convolution") {
    const ir::Type& kernel = op.operand(1)->type();
    double per_output = static_cast<double>(kernel.NumElements());
    if (const auto* dn = op.attr("dimension_numbers").as<ir::ConvDimsAttr>()) {
      per_output /= static_cast<double>(std::max<int64_t>(1, kernel.dim(dn->kernel_output_feature)));
    }
    add(ProductUnit(op), 2 * Elements(op.result(0)) * per_output * complex_factor);
  } else if (name == "fft") {
    // n points per transform; the real side (or either, for complex
    // transforms) holds n elements per transform.
    const double n = static_cast<double>(Product(ir::verify::I64ArrayAttr(op, "fft_length")));
    const double transforms = std::max(Elements(op.operand(0)), Elements(op.result(0))) / std::max(1.0, n);
    if (n > 1) add(ScalarUnit(out), 5 * n * std::log2(n) * transforms);
  } else if (name == "reduce") {
    add(ScalarUnit(out), Elements(op.operand(0)) * static_cast<double>(BodyOps(op)));
  } else if (name == "scan" || (name == "reduce_window" && MatchPrefixScan(op))) {
    // A scan folds each element in once (plan/prefix_scan.h), whatever its window.
    add(ScalarUnit(out), Elements(op.operand(0)) * static_cast<double>(BodyOps(op)));
  } else if (name == "reduce_window") {
    add(ScalarUnit(out), Elements(op.result(0)) * static_cast<double>(Product(ir::verify::I64ArrayAttr(op, "window_dimensions")) *
                                                                      BodyOps(op)));
  } else if (name == "scatter") {
    add(ScalarUnit(out), Elements(op.operand(op.num_operands() - 1)) * static_cast<double>(BodyOps(op)));
  } else if (!MovesDataOnly(name)) {
    for (const auto& r : op.results()) {
      if (r->type().IsTensor()) add(ScalarUnit(r->type().element()), Elements(r.get()) * complex_factor);
    }
  }
}

StepCost CostOfStep(const GpuProgram& program, const Step& step) {
  StepCost cost;
  if (const auto* k = std::get_if<KernelStep>(&step.action)) {
    cost.bytes = KernelBytes(program, *k);
    const Fusion& f = program.fusions[static_cast<size_t>(k->fusion)];
    for (const ir::Operation* op : f.ops) AddOpFlops(*op, cost);
    if (f.kind == FusionKind::kDirectDot) {
      // Its products run on the CUDA cores, not the tensor cores AddOpFlops counts for a dot.
      double all = 0;
      for (double& units : cost.flops) all += std::exchange(units, 0.0);
      cost.flops[static_cast<size_t>(ComputeUnit::kFp32)] = all;
    }
  } else if (const auto* g = std::get_if<GemmStep>(&step.action)) {
    cost.bytes = GemmBytes(*g, program);
    if (step.op) {
      AddOpFlops(*step.op, cost);
    } else {
      cost.flops[static_cast<size_t>(ComputeUnit::kFp32)] =
          2.0 * static_cast<double>(g->config.batch * g->config.m * g->config.n * g->config.k);
    }
  } else if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
    const ConvConfig& c = cv->config;
    for (const ConvTensor* t : {&c.x, &c.w, &c.y}) cost.bytes += t->elements() * ir::StorageBytes(t->type);
    for (BufferId id : cv->epilogue_operands) cost.bytes += program.buffers[static_cast<size_t>(id)].bytes;
    if (step.op) AddOpFlops(*step.op, cost);
  } else if (const auto* ft = std::get_if<FftStep>(&step.action)) {
    cost.bytes = ft->config.input_bytes() + ft->config.output_bytes();
    if (step.op) AddOpFlops(*step.op, cost);
  } else if (const auto* c = std::get_if<CopyStep>(&step.action)) {
    cost.bytes = 2 * c->bytes;
  } else if (const auto* h = std::get_if<HostStep>(&step.action)) {
    for (BufferId id : h->inputs) cost.bytes += program.buffers[static_cast<size_t>(id)].bytes;
    for (BufferId id : h->outputs) cost.bytes += program.buffers[static_cast<size_t>(id)].bytes;
  } else if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) {
    // This device's memory traffic only: the links between devices are not modelled.
    for (const CollectiveOperand& o : cl->config.operands) cost.bytes += o.bytes + o.result_bytes;
  }
  return cost;
}

std::string StepName(const GpuProgram& program, const Step& step) {
  if (const auto* k = std::get_if<KernelStep>(&step.action)) {
    return program.fusions[static_cast<size_t>(k->fusion)].name;
  }
  if (std::holds_alternative<GemmStep>(step.action)) return "gemm";
  if (std::holds_alternative<ConvolutionStep>(step.action)) return "convolution";
  if (std::holds_alternative<FftStep>(step.action)) return "fft";
  if (std::holds_alternative<CopyStep>(step.action)) return "copy";
  if (std::holds_alternative<HostStep>(step.action)) return "host op";
  if (std::holds_alternative<CollectiveStep>(step.action)) return "collective";
  if (std::holds_alternative<WhileStep>(step.action)) return "while";
  return "case";
}

std::string StepSummary(const GpuProgram& program, const Step& step) {
  if (const auto* k = std::get_if<KernelStep>(&step.action)) {
    const Fusion& f = program.fusions[static_cast<size_t>(k->fusion)];
    // The ops that compute, by count, in order of first appearance; in a
    // fusion that only fills or reshapes, those ops.
    std::vector<std::string> order, movers;
    std::map<std::string, int> count;
    for (const ir::Operation* op : f.ops) {
      const std::string n = ShortName(*op);
      const bool moves = n == "constant" || n == "broadcast_in_dim" || n == "reshape";
      if (count[n]++ == 0) (moves ? movers : order).push_back(n);
    }
    if (order.empty()) order = movers;
    std::ostringstream os;
    os << FusionKindName(f.kind) << ":";
    size_t shown = 0;
    for (const std::string& n : order) {
      if (shown++ == 5) {
        os << " ...";
        break;
      }
      os << " " << n;
      if (count[n] > 1) os << " x" << count[n];
    }
    return os.str();
  }
  if (const auto* g = std::get_if<GemmStep>(&step.action)) return g->config.ToString();
  if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) return cv->config.ToString();
  if (const auto* ft = std::get_if<FftStep>(&step.action)) return ft->config.ToString();
  if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) return cl->config.ToString();
  if (const auto* c = std::get_if<CopyStep>(&step.action)) {
    return std::to_string(c->bytes) + " bytes of " + program.buffers[static_cast<size_t>(c->src)].label;
  }
  if (step.op) return ShortName(*step.op) + (std::holds_alternative<HostStep>(step.action) ? " on the host" : "");
  return "";
}

}  // namespace hlograph::gpu

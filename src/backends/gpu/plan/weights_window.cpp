#include "backends/gpu/plan/weights_window.h"

#include <algorithm>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// Integer scalars of a fusion evaluated on the host, from its constants
// and inputs of known value; nullopt for anything else.
class ScalarEvaluator {
 public:
  ScalarEvaluator(const GpuProgram& p, const Fusion& f, const KernelStep& k,
                  const std::function<BufferId(BufferId)>& bound)
      : p_(p), f_(f), k_(k), bound_(bound) {}

  std::optional<int64_t> Eval(const ir::Value* v, int depth = 0) const {
    if (depth > 64 || v->type().NumElements() != 1 || !ir::IsInteger(v->type().element())) {
      return IsPred(v) && depth <= 64 ? EvalPred(v, depth) : std::nullopt;
    }
    const auto input = std::find(f_.inputs.begin(), f_.inputs.end(), v);
    if (input != f_.inputs.end()) return InputValue(k_.inputs[static_cast<size_t>(input - f_.inputs.begin())], v);
    const ir::Operation* op = v->defining_op();
    if (op == nullptr) return std::nullopt;
    const std::string& name = op->name();
    if (name == "stablehlo.constant") {
      const auto* dense = op->attr("value").as<ir::DenseElementsAttr>();
      const auto values = dense ? ir::verify::IntElements(*dense) : std::nullopt;
      return values && !values->empty() ? std::optional<int64_t>(values->front()) : std::nullopt;
    }
    if (name == "stablehlo.reshape" || name == "stablehlo.broadcast_in_dim" || name == "stablehlo.convert") {
      return Eval(op->operand(0), depth + 1);
    }
    if (name == "stablehlo.select") {
      const auto c = EvalPred(op->operand(0), depth + 1);
      return c ? Eval(op->operand(*c ? 1 : 2), depth + 1) : std::nullopt;
    }
    if (name == "stablehlo.clamp") {
      const auto lo = Eval(op->operand(0), depth + 1), x = Eval(op->operand(1), depth + 1),
                 hi = Eval(op->operand(2), depth + 1);
      return lo && x && hi ? std::optional<int64_t>(std::min(std::max(*x, *lo), *hi)) : std::nullopt;
    }
    if (op->num_operands() != 2) return std::nullopt;
    const auto a = Eval(op->operand(0), depth + 1), b = Eval(op->operand(1), depth + 1);
    if (!a || !b) return std::nullopt;
    if (name == "stablehlo.add") return *a + *b;
    if (name == "stablehlo.subtract") return *a - *b;
    if (name == "stablehlo.multiply") return *a * *b;
    if (name == "stablehlo.minimum") return std::min(*a, *b);
    if (name == "stablehlo.maximum") return std::max(*a, *b);
    return std::nullopt;
  }

 private:
  static bool IsPred(const ir::Value* v) {
    return v->type().NumElements() == 1 && v->type().element() == ir::ElementType::kI1;
  }

  std::optional<int64_t> EvalPred(const ir::Value* v, int depth) const {
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || op->name() != "stablehlo.compare") return std::nullopt;
    const auto* direction = op->attr("comparison_direction").as<ir::EnumAttr>();
    const auto a = Eval(op->operand(0), depth + 1), b = Eval(op->operand(1), depth + 1);
    if (!direction || !a || !b || ir::IsUnsignedInteger(op->operand(0)->type().element())) return std::nullopt;
    const std::string& d = direction->value;
    if (d == "LT") return *a < *b;
    if (d == "LE") return *a <= *b;
    if (d == "GT") return *a > *b;
    if (d == "GE") return *a >= *b;
    if (d == "EQ") return *a == *b;
    if (d == "NE") return *a != *b;
    return std::nullopt;
  }

  // A scalar input's value: a constant buffer's, little-endian, signed.
  std::optional<int64_t> InputValue(BufferId step_buffer, const ir::Value* v) const {
    const Buffer& b = p_.buffers[static_cast<size_t>(bound_(step_buffer))];
    if (b.kind != BufferKind::kConstant) return std::nullopt;
    std::vector<uint8_t> bytes = b.value;
    if (b.constant != nullptr) {
      const auto* dense = b.constant->attr("value").as<ir::DenseElementsAttr>();
      if (dense == nullptr) return std::nullopt;
      bytes = dense->bytes;
    }
    const int width = ir::BitWidth(v->type().element()) / 8;
    if (width < 1 || width > 8 || static_cast<int>(bytes.size()) < width) return std::nullopt;
    uint64_t u = 0;
    for (int i = 0; i < width; ++i) u |= static_cast<uint64_t>(bytes[static_cast<size_t>(i)]) << (8 * i);
    if (width < 8 && (u >> (8 * width - 1)) & 1) u |= ~uint64_t{0} << (8 * width);  // sign-extend
    return static_cast<int64_t>(u);
  }

  const GpuProgram& p_;
  const Fusion& f_;
  const KernelStep& k_;
  const std::function<BufferId(BufferId)>& bound_;
};

}  // namespace

std::optional<ByteRange> WeightsWindow(const GpuProgram& program, const KernelStep& k,
                                       const std::function<BufferId(BufferId)>& bound) {
  const Fusion& f = program.fusions[static_cast<size_t>(k.fusion)];
  const ir::Operation* dot = nullptr;
  for (const ir::Operation* op : f.ops) {
    if (op->name() == "stablehlo.dot_general") dot = op;
  }
  if (dot == nullptr) return std::nullopt;
  const ir::Value* v = dot->operand(1);
  while (v->defining_op() != nullptr && v->defining_op()->name() == "stablehlo.reshape" &&
         std::find(f.inputs.begin(), f.inputs.end(), v) == f.inputs.end()) {
    v = v->defining_op()->operand(0);
  }
  const auto input_of = [&](const ir::Value* x) -> std::optional<size_t> {
    const auto at = std::find(f.inputs.begin(), f.inputs.end(), x);
    if (at == f.inputs.end()) return std::nullopt;
    return static_cast<size_t>(at - f.inputs.begin());
  };
  if (const auto whole = input_of(v)) {
    const BufferId id = bound(k.inputs[*whole]);
    return ByteRange{id, 0, program.buffers[static_cast<size_t>(id)].bytes};
  }
  const ir::Operation* slice = v->defining_op();
  if (slice == nullptr || slice->name() != "stablehlo.dynamic_slice") return std::nullopt;
  const auto from = input_of(slice->operand(0));
  const auto* sizes = slice->attr("slice_sizes").as<ir::DenseArrayAttr>();
  if (!from || sizes == nullptr) return std::nullopt;
  const std::vector<int64_t>& shape = slice->operand(0)->type().shape();
  if (sizes->values.size() != shape.size() || slice->num_operands() != shape.size() + 1) return std::nullopt;
  ScalarEvaluator eval(program, f, k, bound);
  // The offsets of the window's first and last elements (row-major).
  int64_t first = 0, last = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    const auto start = eval.Eval(slice->operand(d + 1));
    if (!start) return std::nullopt;
    const int64_t size = sizes->values[d];
    const int64_t s = std::min(std::max<int64_t>(*start, 0), shape[d] - size);  // clamped, as the spec says
    first = first * shape[d] + s;
    last = last * shape[d] + s + size - 1;
  }
  const int64_t element = ir::StorageBytes(slice->operand(0)->type().element());
  return ByteRange{bound(k.inputs[*from]), first * element, (last - first + 1) * element};
}

}  // namespace hlograph::gpu

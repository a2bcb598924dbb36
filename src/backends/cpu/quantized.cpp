#include "backends/cpu/quantized.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>

#include "backends/cpu/kernel.h"
#include "backends/cpu/kernel_util.h"
#include "ir/clone.h"
#include "ir/dot_dims.h"
#include "ir/float_bits.h"
#include "ir/quantized_ops.h"

namespace hlograph::cpu {
namespace {

using ir::ElementType;

// `v` rounded to the float type `e` (round to nearest even).
double RoundTo(double v, ElementType e) {
  if (e == ElementType::kF64) return v;
  return ir::FloatBitsToDouble(ir::DoubleToFloatBits(v, e), e);
}

double ReadFloat(const Tensor& t, int64_t i) {
  const int bytes = ir::StorageBytes(t.element());
  uint64_t bits = 0;
  std::memcpy(&bits, t.bytes() + i * bytes, static_cast<size_t>(bytes));
  return ir::FloatBitsToDouble(bits, t.element());
}

void WriteFloat(Tensor& t, int64_t i, double v) {
  const int bytes = ir::StorageBytes(t.element());
  const uint64_t bits = ir::DoubleToFloatBits(v, t.element());
  std::memcpy(t.mutable_bytes() + i * bytes, &bits, static_cast<size_t>(bytes));
}

void WriteInt(Tensor& t, int64_t i, int64_t v) {
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) t.mutable_data<T>()[i] = static_cast<T>(v);
  });
}

// The index along `dim` of the element at row-major position i.
struct AxisIndex {
  int64_t stride = 1;
  int64_t size = 1;  // 1: every element maps to 0
  AxisIndex() = default;
  AxisIndex(const std::vector<int64_t>& shape, int64_t dim) {
    if (dim < 0 || dim >= static_cast<int64_t>(shape.size())) return;
    size = shape[static_cast<size_t>(dim)];
    stride = 1;
    for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) stride *= shape[d];
  }
  int64_t operator()(int64_t i) const { return size <= 1 ? 0 : (i / stride) % size; }
};

AxisIndex QuantAxis(const ir::Type& t) {
  const ir::QuantParams* q = t.quant();
  return q && q->PerAxis() ? AxisIndex(t.shape(), q->quantized_dimension) : AxisIndex();
}

// (q - zero_point) as i64 integers (the integers a quantized dot sums).
Tensor Centered(const Tensor& q) {
  Tensor out(ir::Type::Tensor(ElementType::kI64, q.shape()));
  const ir::QuantParams& p = *q.type().quant();
  const AxisIndex axis = QuantAxis(q.type());
  int64_t* data = out.mutable_data<int64_t>();
  for (int64_t i = 0; i < q.num_elements(); ++i) data[i] = ReadInt(q, i) - p.zero_points[static_cast<size_t>(axis(i))];
  return out;
}

// The storage integer for `x` (already divided by the scale and offset by
// the zero point, in the expressed type): clamped, rounded to nearest even.
int64_t ToStorage(double x, const ir::QuantParams& p) {
  const double lo = RoundTo(static_cast<double>(p.storage_min), p.expressed);
  const double hi = RoundTo(static_cast<double>(p.storage_max), p.expressed);
  if (std::isnan(x)) x = 0;  // the spec leaves NaN's conversion to integers open
  x = std::clamp(x, lo, hi);
  const double r = std::nearbyint(x);  // the default rounding mode: to nearest, ties to even
  return std::clamp(static_cast<int64_t>(r), p.storage_min, p.storage_max);
}

// Runs `op`'s kernel on a copy of the op whose operands and results have
// the types of `inputs` and `result_types`.
Status RunWithTypes(const ir::Operation& op, const std::vector<const Tensor*>& inputs,
                    const std::vector<ir::Type>& result_types, std::vector<Tensor>& results, Interpreter& interpreter) {
  KernelFn kernel = CpuKernels().Find(op.id());
  if (!kernel) return Status::Error("is not supported by the CPU backend");
  ir::ValueMap map;
  std::unique_ptr<ir::Operation> copy = ir::CloneOperation(op, map);
  std::vector<std::unique_ptr<ir::Value>> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->type() == op.operand(i)->type()) continue;
    values.push_back(std::make_unique<ir::Value>(inputs[i]->type(), nullptr, nullptr, static_cast<unsigned>(i)));
    copy->SetOperand(i, values.back().get());
  }
  for (size_t i = 0; i < result_types.size(); ++i) copy->result(i)->set_type(result_types[i]);
  KernelContext ctx{*copy, inputs, results, interpreter};
  return kernel(ctx);
}

// dot_general / dot / convolution of quantized lhs (per tensor) and rhs:
// the sums of (lhs - zl) * (rhs - zr) as integers, then each sum times
// scale(lhs) * scale(rhs) / scale(result), rounded, plus the result's zero
// point. With scale(result) = scale(lhs) * scale(rhs) (the usual i32
// accumulator type) the result is the exact integer sum.
Status RunIntegerContraction(const ir::Operation& op, const std::vector<const Tensor*>& operands,
                             std::vector<Tensor>& results, Interpreter& interpreter) {
  const Tensor& lhs = *operands[0];
  const Tensor& rhs = *operands[1];
  const ir::Type& result_type = op.result(0)->type();
  const ir::QuantParams& lq = *lhs.type().quant();
  const ir::QuantParams& rq = *rhs.type().quant();
  const ir::QuantParams& oq = *result_type.quant();
  Tensor l = Centered(lhs);
  Tensor r = Centered(rhs);
  std::vector<Tensor> sums;
  HLOGRAPH_TRY(RunWithTypes(op, {&l, &r}, {ir::Type::Tensor(ElementType::kI64, result_type.shape())}, sums,
                            interpreter));
  if (sums.size() != 1) return Status::Error("produced no result");
  const ElementType e = oq.expressed;
  const double ls = RoundTo(lq.scales[0], e);
  const AxisIndex rhs_channel =
      rq.PerAxis() ? AxisIndex(result_type.shape(),
                               ir::ResultDimOfRhsDim(op, rq.quantized_dimension))
                   : AxisIndex();
  const AxisIndex out_channel = QuantAxis(result_type);
  Tensor out(result_type);
  const int64_t* acc = sums[0].data<int64_t>();
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    const double in_scale = RoundTo(ls * RoundTo(rq.scales[static_cast<size_t>(rhs_channel(i))], e), e);
    const size_t k = static_cast<size_t>(out_channel(i));
    const double ratio = in_scale / RoundTo(oq.scales[k], e);
    const double v = static_cast<double>(acc[i]) * ratio + static_cast<double>(oq.zero_points[k]);
    WriteInt(out, i, ToStorage(v, oq));
  }
  results.clear();
  results.push_back(std::move(out));
  return Status::Ok();
}

bool RunsOnStorage(ir::OpId id) {
  return id == ir::OpId::kUniformQuantize || id == ir::OpId::kUniformDequantize || ir::MovesStoredIntegers(id);
}

}  // namespace

Tensor Dequantize(const Tensor& q) {
  const ir::QuantParams& p = *q.type().quant();
  Tensor out(ir::Type::Tensor(p.expressed, q.shape()));
  const AxisIndex axis = QuantAxis(q.type());
  for (int64_t i = 0; i < q.num_elements(); ++i) {
    const size_t k = static_cast<size_t>(axis(i));
    const double centered = RoundTo(static_cast<double>(ReadInt(q, i) - p.zero_points[k]), p.expressed);
    WriteFloat(out, i, RoundTo(centered * RoundTo(p.scales[k], p.expressed), p.expressed));
  }
  return out;
}

Tensor Quantize(const Tensor& x, const ir::Type& type) {
  const ir::QuantParams& p = *type.quant();
  const ElementType e = p.expressed;
  Tensor out(type);
  const AxisIndex axis = QuantAxis(type);
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const size_t k = static_cast<size_t>(axis(i));
    const double scaled = RoundTo(RoundTo(ReadFloat(x, i), e) / RoundTo(p.scales[k], e), e);
    const double shifted = RoundTo(scaled + RoundTo(static_cast<double>(p.zero_points[k]), e), e);
    WriteInt(out, i, ToStorage(shifted, p));
  }
  return out;
}

bool NeedsQuantizedPath(const ir::Operation& op) {
  bool any = false;
  for (const ir::Value* v : op.operands()) any = any || v->type().IsQuantized();
  for (const auto& r : op.results()) any = any || r->type().IsQuantized();
  return any && !RunsOnStorage(op.id());
}

Status RunQuantizedOp(const ir::Operation& op, const std::vector<const Tensor*>& operands,
                      std::vector<Tensor>& results, Interpreter& interpreter) {
  if (op.num_regions() > 0) {
    return Status::Error("on quantized tensors is not supported by the CPU backend (of the ops with a body, only "
                         "reduce, reduce_window, select_and_scatter, scatter, map, sort, all_reduce, reduce_scatter "
                         "and control flow run on quantized tensors; dequantize first)");
  }
  for (const Tensor* t : operands) {
    if (t->type().IsTuple()) return Status::Error("with quantized tensors in tuples is not supported by the CPU backend");
  }
  if (ir::IsContraction(op.id()) && operands.size() == 2 && op.num_results() == 1 &&
      operands[0]->type().IsQuantized() && operands[1]->type().IsQuantized() &&
      op.result(0)->type().IsQuantized() && !operands[0]->type().quant()->PerAxis()) {
    return RunIntegerContraction(op, operands, results, interpreter);
  }
  // dequantize_op_quantize (or, for a float result, hybrid_dequantize_then_op).
  std::vector<Tensor> dequantized(operands.size());
  std::vector<const Tensor*> inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i]->type().IsQuantized()) {
      dequantized[i] = Dequantize(*operands[i]);
      inputs.push_back(&dequantized[i]);
    } else {
      inputs.push_back(operands[i]);
    }
  }
  std::vector<ir::Type> result_types;
  for (const auto& r : op.results()) {
    const ir::Type& t = r->type();
    result_types.push_back(t.IsQuantized() ? ir::Type::Tensor(t.quant()->expressed, t.shape()) : t);
  }
  HLOGRAPH_TRY(RunWithTypes(op, inputs, result_types, results, interpreter));
  for (size_t i = 0; i < results.size() && i < op.num_results(); ++i) {
    const ir::Type& t = op.result(i)->type();
    if (t.IsQuantized()) results[i] = Quantize(results[i], t);
  }
  return Status::Ok();
}

}  // namespace hlograph::cpu

namespace hlograph::cpu {
namespace {

Status UniformQuantize(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  const ir::Type& type = ctx.result_type(0);
  if (!type.IsQuantized()) return ctx.Error("expects a quantized result type");
  // From floats, or requantization: quantize(dequantize(operand), type(result)).
  ctx.results.push_back(operand.type().IsQuantized() ? Quantize(Dequantize(operand), type) : Quantize(operand, type));
  return Status::Ok();
}

Status UniformDequantize(KernelContext& ctx) {
  if (!ctx.operand(0).type().IsQuantized()) return ctx.Error("expects a quantized operand");
  ctx.results.push_back(Dequantize(ctx.operand(0)));
  return Status::Ok();
}

}  // namespace

void RegisterQuantizedKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kUniformQuantize, UniformQuantize);
  r.Register(ir::OpId::kUniformDequantize, UniformDequantize);
}

}  // namespace hlograph::cpu

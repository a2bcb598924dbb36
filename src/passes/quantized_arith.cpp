#include "passes/quantized_arith.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "ir/attribute.h"
#include "ir/float_bits.h"

namespace hlograph::passes::quantized {
namespace {

using ir::ElementType;

bool AllZero(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

bool IsComputedFloat(ElementType e) {
  return e == ElementType::kF16 || e == ElementType::kBF16 || e == ElementType::kF32 || e == ElementType::kF64;
}

ir::Value* Scales(OpBuilder& b, const ir::Type& quantized, ElementType e) {
  std::vector<std::vector<uint8_t>> elements;
  for (double s : quantized.quant()->scales) elements.push_back(FloatBytes(e, s));
  return AlongAxis(b, quantized.WithElement(e), QuantAxis(quantized), elements);
}

}  // namespace

double RoundTo(double v, ElementType e) {
  if (e == ElementType::kF64) return v;
  return ir::FloatBitsToDouble(ir::DoubleToFloatBits(v, e), e);
}

ElementType WideFor(ElementType storage) {
  return ir::BitWidth(storage) < 32 ? ElementType::kI32 : ElementType::kI64;
}

int64_t MaxCentered(const ir::QuantParams& p) {
  int64_t m = 0;
  for (int64_t z : p.zero_points) m = std::max({m, std::abs(p.storage_min - z), std::abs(p.storage_max - z)});
  return m;
}

int64_t MaxStored(const ir::QuantParams& p) { return std::max(std::abs(p.storage_min), std::abs(p.storage_max)); }

std::string DequantizeRefusal(const ir::QuantParams& p) {
  if (!IsComputedFloat(p.expressed)) {
    return "dequantizes to " + std::string(ir::ElementTypeName(p.expressed)) + ", which is not lowered";
  }
  // Integers convert to bf16 through f32 (as XLA does): one rounding, as
  // the interpreter rounds, only while f32 holds them exactly.
  if (p.expressed == ElementType::kBF16 && MaxCentered(p) > (int64_t{1} << 24)) {
    return "dequantizes integers wider than 24 bits to bf16, which a convert would round twice";
  }
  return "";
}

std::string QuantizeRefusal(ElementType from, const ir::QuantParams& p) {
  if (!IsComputedFloat(p.expressed) || !IsComputedFloat(from)) {
    return "quantizes " + std::string(ir::ElementTypeName(from)) + " through " +
           std::string(ir::ElementTypeName(p.expressed)) + ", which is not lowered";
  }
  const double lo = RoundTo(static_cast<double>(p.storage_min), p.expressed);
  const double hi = RoundTo(static_cast<double>(p.storage_max), p.expressed);
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    return "quantizes into a storage range beyond " + std::string(ir::ElementTypeName(p.expressed)) + "'s";
  }
  // f64 converts to bf16 through f32: two roundings where the interpreter has one.
  if (from == ElementType::kF64 && p.expressed == ElementType::kBF16) {
    return "quantizes f64 values through bf16, which a convert would round twice";
  }
  return "";
}

int64_t QuantAxis(const ir::Type& t) {
  const ir::QuantParams* q = t.quant();
  return q && q->PerAxis() ? q->quantized_dimension : -1;
}

ir::Value* AlongAxis(OpBuilder& b, const ir::Type& type, int64_t axis,
                     const std::vector<std::vector<uint8_t>>& elements) {
  const bool same = std::all_of(elements.begin(), elements.end(), [&](const auto& e) { return e == elements[0]; });
  if (axis < 0 || axis >= type.rank() || same) return b.Splat(type, elements[0]);
  std::vector<uint8_t> bytes;
  for (const auto& e : elements) bytes.insert(bytes.end(), e.begin(), e.end());
  const ir::Type vector = ir::Type::Tensor(type.element(), {static_cast<int64_t>(elements.size())});
  return b.BroadcastInDim(b.Dense(vector, std::move(bytes)), type, {axis});
}

ir::Value* Centered(OpBuilder& b, ir::Value* q, const ir::Type& quantized, ElementType wide) {
  const ir::QuantParams& p = *quantized.quant();
  ir::Value* c = b.Convert(q, wide);
  if (AllZero(p.zero_points)) return c;
  std::vector<std::vector<uint8_t>> zero_points;
  for (int64_t z : p.zero_points) zero_points.push_back(IntegerBytes(wide, z));
  return b.Binary(ir::OpId::kSubtract, c, AlongAxis(b, c->type(), QuantAxis(quantized), zero_points));
}

ir::Value* Dequantize(OpBuilder& b, ir::Value* q, const ir::Type& quantized) {
  const ir::QuantParams& p = *quantized.quant();
  // The interpreter rounds (q - zero_point) to the expressed type, then the
  // product with the rounded scale.
  ir::Value* c = AllZero(p.zero_points) ? q : Centered(b, q, quantized, WideFor(p.storage));
  ir::Value* x = b.Convert(c, p.expressed);
  return b.Binary(ir::OpId::kMultiply, x, Scales(b, quantized, p.expressed));
}

ir::Value* Quantize(OpBuilder& b, ir::Value* x, const ir::Type& quantized) {
  const ir::QuantParams& p = *quantized.quant();
  const ElementType e = p.expressed;
  x = b.Convert(x, e);
  x = b.Binary(ir::OpId::kDivide, x, Scales(b, quantized, e));
  if (!AllZero(p.zero_points)) {
    std::vector<std::vector<uint8_t>> zero_points;
    for (int64_t z : p.zero_points) zero_points.push_back(FloatBytes(e, static_cast<double>(z)));
    x = b.Binary(ir::OpId::kAdd, x, AlongAxis(b, x->type(), QuantAxis(quantized), zero_points));
  }
  return ToStorage(b, x, p);
}

ir::Value* ToStorage(OpBuilder& b, ir::Value* x, const ir::QuantParams& p) {
  const ir::Type& t = x->type();
  const ElementType c = t.element();
  const ir::Type pred = t.WithElement(ElementType::kI1);
  ir::Value* nan = b.Add(ir::OpId::kCompare, {x, x}, pred,
                         {{"comparison_direction", ir::MakeEnum("comparison_direction", "NE")},
                          {"compare_type", ir::MakeEnum("comparison_type", "FLOAT")}});
  x = b.Add(ir::OpId::kSelect, {nan, b.Splat(t, FloatBytes(c, 0.0)), x}, t);
  const double lo = RoundTo(static_cast<double>(p.storage_min), p.expressed);
  const double hi = RoundTo(static_cast<double>(p.storage_max), p.expressed);
  x = b.Add(ir::OpId::kClamp, {b.Splat(t, FloatBytes(c, lo)), x, b.Splat(t, FloatBytes(c, hi))}, t);
  x = b.Add(ir::OpId::kRoundNearestEven, {x}, t);
  if (lo >= static_cast<double>(p.storage_min) && hi <= static_cast<double>(p.storage_max)) {
    return b.Convert(x, p.storage);
  }
  // The rounded bounds lie outside the range: clamp once more as integers.
  const ir::Type wide = t.WithElement(ElementType::kI64);
  ir::Value* i = b.Convert(x, ElementType::kI64);
  i = b.Add(ir::OpId::kClamp,
            {b.Splat(wide, IntegerBytes(ElementType::kI64, p.storage_min)), i,
             b.Splat(wide, IntegerBytes(ElementType::kI64, p.storage_max))},
            wide);
  return b.Convert(i, p.storage);
}

}  // namespace hlograph::passes::quantized

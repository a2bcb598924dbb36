#include "passes/quantized_contraction.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ir/attribute.h"
#include "ir/dot_dims.h"
#include "ir/quantized_ops.h"
#include "passes/quantized_arith.h"

namespace hlograph::passes::quantized {
namespace {

using ir::ElementType;

constexpr double kTwo31 = 2147483648.0;
constexpr double kTwo53 = 9007199254740992.0;

bool AllZero(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

// How many products each result element sums.
double ContractionSize(const ir::Operation& op, const ir::Type& lhs, const ir::Type& rhs) {
  double k = 1;
  if (op.id() == ir::OpId::kConvolution) {
    const auto* dn = op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
    if (!dn) return 1;
    k = static_cast<double>(rhs.dim(dn->kernel_input_feature));
    for (int64_t d : dn->kernel_spatial) k *= static_cast<double>(rhs.dim(d));
  } else if (op.id() == ir::OpId::kDot) {
    if (lhs.rank() > 0) k = static_cast<double>(lhs.dim(lhs.rank() - 1));
  } else if (const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) {
    for (int64_t d : dn->lhs_contracting) k *= static_cast<double>(lhs.dim(d));
  }
  return k;
}

// A dimension of `shape` along which parameters vary, or -1 when every
// element takes the first (the interpreter's rule for a dim out of range
// or of extent 1).
int64_t ChannelDim(int64_t dim, const std::vector<int64_t>& shape) {
  return dim >= 0 && dim < static_cast<int64_t>(shape.size()) && shape[static_cast<size_t>(dim)] > 1 ? dim : -1;
}

// lhs_zero_point * (rhs summed over its contracting dims), laid out as the
// dot_general's result: what the stored lhs integers add over the centered ones.
ir::Value* ZeroPointTerm(OpBuilder& b, const ir::Operation& dot, ir::Value* rhs, int64_t lhs_zero_point,
                         const ir::Type& result) {
  const ElementType a = rhs->type().element();
  const ir::Type scalar = ir::Type::Tensor(a, {});
  std::vector<int64_t> summed = dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()->rhs_contracting;
  std::sort(summed.begin(), summed.end());
  std::vector<int64_t> kept_shape, result_dims;
  for (int64_t d = 0; d < rhs->type().rank(); ++d) {
    if (std::count(summed.begin(), summed.end(), d)) continue;
    kept_shape.push_back(rhs->type().dim(d));
    result_dims.push_back(ir::ResultDimOfRhsDim(dot, d));
  }
  std::unique_ptr<ir::Operation> reduce = b.New(ir::OpId::kReduce);
  reduce->AddOperand(rhs);
  reduce->AddOperand(b.Splat(scalar, IntegerBytes(a, 0)));
  reduce->SetAttr("dimensions", ir::MakeI64Array(summed));
  reduce->AddResult(ir::Type::Tensor(a, kept_shape));
  ir::Block* body = reduce->AddRegion()->AddBlock();
  ir::Value* x = body->AddArgument(scalar);
  ir::Value* y = body->AddArgument(scalar);
  OpBuilder inner(*body, 0, *reduce);
  ir::Value* sum = inner.Binary(ir::OpId::kAdd, x, y);
  std::unique_ptr<ir::Operation> ret = inner.New(ir::OpId::kReturn);
  ret->AddOperand(sum);
  inner.Insert(std::move(ret));
  ir::Value* sums = b.Insert(std::move(reduce))->result(0);
  ir::Value* term = b.Binary(ir::OpId::kMultiply, sums, b.Splat(sums->type(), IntegerBytes(a, lhs_zero_point)));
  return b.BroadcastInDim(term, result.WithElement(a), result_dims);
}

// scale(lhs) * scale(rhs, c) / scale(result, k) per result element, in f64
// (as the interpreter divides), along the rhs's channel dim `rd` and the
// result's `od` (-1: none).
ir::Value* Ratios(OpBuilder& b, const ir::Type& type, int64_t rd, int64_t od,
                  const std::function<double(size_t, size_t)>& ratio) {
  const ElementType f64 = ElementType::kF64;
  if (rd < 0 || od < 0 || rd == od) {
    const int64_t axis = rd >= 0 ? rd : od;
    const int64_t n = axis >= 0 ? type.dim(axis) : 1;
    std::vector<std::vector<uint8_t>> elements;
    for (int64_t i = 0; i < n; ++i) {
      const size_t c = rd >= 0 ? static_cast<size_t>(i) : 0, k = od >= 0 ? static_cast<size_t>(i) : 0;
      elements.push_back(FloatBytes(f64, ratio(c, k)));
    }
    return AlongAxis(b, type, axis, elements);
  }
  // Two dims: a table over both, outer dim first.
  const int64_t first = std::min(rd, od), second = std::max(rd, od);
  std::vector<uint8_t> bytes;
  for (int64_t i = 0; i < type.dim(first); ++i) {
    for (int64_t j = 0; j < type.dim(second); ++j) {
      const size_t c = static_cast<size_t>(first == rd ? i : j), k = static_cast<size_t>(first == od ? i : j);
      const std::vector<uint8_t> e = FloatBytes(f64, ratio(c, k));
      bytes.insert(bytes.end(), e.begin(), e.end());
    }
  }
  ir::Value* table = b.Dense(ir::Type::Tensor(f64, {type.dim(first), type.dim(second)}), std::move(bytes));
  return b.BroadcastInDim(table, type, {first, second});
}

}  // namespace

bool IsIntegerContraction(const ir::Operation& op, const std::vector<ir::Type>& operand_types) {
  return ir::IsContraction(op.id()) && operand_types.size() == 2 && op.num_results() == 1 &&
         operand_types[0].IsQuantized() && operand_types[1].IsQuantized() && op.result(0)->type().IsQuantized() &&
         !operand_types[0].quant()->PerAxis();
}

namespace {

// The exact integer sums of (lhs - zl) * (rhs - zr), in i32 when no
// partial value can outgrow it, else i64 (wrapping as the interpreter's
// sums do); `exact` receives a bound on their magnitude.
ir::Value* IntegerSums(OpBuilder& b, const ir::Operation& op, ir::Value* lhs, ir::Value* rhs,
                       const ir::Type& lhs_type, const ir::Type& rhs_type, double& exact) {
  const ir::QuantParams& lq = *lhs_type.quant();
  const ir::QuantParams& rq = *rhs_type.quant();
  const double k = ContractionSize(op, lhs_type, rhs_type);
  exact = k * static_cast<double>(MaxCentered(lq)) * static_cast<double>(MaxCentered(rq));
  const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const bool stored = op.id() == ir::OpId::kDotGeneral && dn && AllZero(rq.zero_points);
  const int64_t zl = lq.zero_points[0];
  // Products of stored integers and the zero point's term are partial values too.
  const double stored_rhs = static_cast<double>(MaxStored(rq));
  const double widest = stored ? std::max({exact, k * static_cast<double>(MaxStored(lq)) * stored_rhs,
                                           std::abs(static_cast<double>(zl)) * k * stored_rhs})
                               : exact;
  const ElementType acc = widest < kTwo31 ? ElementType::kI32 : ElementType::kI64;
  ir::Value* l = nullptr;
  ir::Value* r = nullptr;
  if (stored) {
    const bool int8 = lq.storage == ElementType::kI8 && rq.storage == ElementType::kI8 && acc == ElementType::kI32;
    l = int8 ? lhs : b.Convert(lhs, acc);
    r = int8 ? rhs : b.Convert(rhs, acc);
  } else {
    l = Centered(b, lhs, lhs_type, acc);
    r = Centered(b, rhs, rhs_type, acc);
  }
  std::unique_ptr<ir::Operation> product = b.New(op.id());
  product->AddOperand(l);
  product->AddOperand(r);
  for (const auto& [name, value] : op.attributes()) {
    if (name != "algorithm") product->SetAttr(name, value);  // an algorithm names float types
  }
  const ir::Type acc_type = op.result(0)->type().StorageType().WithElement(acc);
  product->AddResult(acc_type);
  ir::Value* sums = b.Insert(std::move(product))->result(0);
  if (stored && zl != 0) {
    sums = b.Binary(ir::OpId::kSubtract, sums, ZeroPointTerm(b, op, b.Convert(r, acc), zl, acc_type));
  }
  return sums;
}

// sum * scale(lhs) * scale(rhs) / scale(result) + zero point as the
// result's storage integers: each scale rounded to the expressed type, the
// ratio and the rest in f64, as the interpreter computes it.
ir::Value* Requantize(OpBuilder& b, ir::Value* sums, double exact, const ir::Operation& op, const ir::Type& lhs_type,
                      const ir::Type& rhs_type) {
  const ir::Type& result_type = op.result(0)->type();
  const ir::QuantParams& lq = *lhs_type.quant();
  const ir::QuantParams& rq = *rhs_type.quant();
  const ir::QuantParams& oq = *result_type.quant();
  const ElementType e = oq.expressed;
  const double ls = RoundTo(lq.scales[0], e);
  const std::vector<int64_t>& shape = result_type.shape();
  const int64_t rhs_dim = ir::ResultDimOfRhsDim(op, rq.quantized_dimension);
  const int64_t rd = rq.PerAxis() ? ChannelDim(rhs_dim, shape) : -1;
  const int64_t od = oq.PerAxis() ? ChannelDim(oq.quantized_dimension, shape) : -1;
  auto ratio = [&](size_t c, size_t k) {
    return RoundTo(ls * RoundTo(rq.scales[c], e), e) / RoundTo(oq.scales[k], e);
  };
  bool unit = true;
  for (int64_t c = 0; c < (rd >= 0 ? shape[static_cast<size_t>(rd)] : 1); ++c) {
    for (int64_t k = 0; k < (od >= 0 ? shape[static_cast<size_t>(od)] : 1); ++k) {
      unit = unit && ratio(static_cast<size_t>(c), static_cast<size_t>(k)) == 1.0;
    }
  }
  int64_t max_zero_point = 0;
  for (int64_t z : oq.zero_points) max_zero_point = std::max(max_zero_point, std::abs(z));
  std::vector<int64_t> zero_points = oq.zero_points;
  if (od < 0) zero_points.resize(1);

  if (unit && exact < kTwo53) {
    // A result of scale scale(lhs) * scale(rhs) (an i32 accumulator): the
    // f64 steps are exact, so integers give the same, sum + zero point
    // clamped.
    const double top = exact + static_cast<double>(max_zero_point);
    const ElementType w = sums->type().element() == ElementType::kI32 && top >= kTwo31 ? ElementType::kI64
                                                                                         : sums->type().element();
    sums = b.Convert(sums, w);
    if (!AllZero(zero_points)) {
      std::vector<std::vector<uint8_t>> elements;
      for (int64_t z : zero_points) elements.push_back(IntegerBytes(w, z));
      sums = b.Binary(ir::OpId::kAdd, sums, AlongAxis(b, sums->type(), od, elements));
    }
    const double min = static_cast<double>(oq.storage_min), max = static_cast<double>(oq.storage_max);
    const auto lo = static_cast<int64_t>(std::max(min, RoundTo(min, e)));
    const auto hi = static_cast<int64_t>(std::min(max, RoundTo(max, e)));
    if (-top < static_cast<double>(lo) || top > static_cast<double>(hi)) {
      const ir::Type& t = sums->type();
      sums = b.Add(ir::OpId::kClamp, {b.Splat(t, IntegerBytes(w, lo)), sums, b.Splat(t, IntegerBytes(w, hi))}, t);
    }
    return b.Convert(sums, oq.storage);
  }
  ir::Value* v = b.Convert(sums, ElementType::kF64);
  v = b.Binary(ir::OpId::kMultiply, v, Ratios(b, v->type(), rd, od, ratio));
  if (!AllZero(zero_points)) {
    std::vector<std::vector<uint8_t>> elements;
    for (int64_t z : zero_points) elements.push_back(FloatBytes(ElementType::kF64, static_cast<double>(z)));
    v = b.Binary(ir::OpId::kAdd, v, AlongAxis(b, v->type(), od, elements));
  }
  return ToStorage(b, v, oq);
}

}  // namespace

ir::Value* LowerIntegerContraction(OpBuilder& b, const ir::Operation& op, ir::Value* lhs, ir::Value* rhs,
                                   const ir::Type& lhs_type, const ir::Type& rhs_type) {
  double exact = 0;
  ir::Value* sums = IntegerSums(b, op, lhs, rhs, lhs_type, rhs_type, exact);
  return Requantize(b, sums, exact, op, lhs_type, rhs_type);
}

}  // namespace hlograph::passes::quantized

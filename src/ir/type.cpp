#include "ir/type.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <optional>
#include <utility>

#include "ir/float_bits.h"
#include "ir/printing_utils.h"

namespace hlograph::ir {

int64_t QuantParams::DefaultMin(ElementType storage) {
  const int w = BitWidth(storage);
  if (IsUnsignedInteger(storage) || w <= 0 || w > 63) return 0;
  return -(int64_t{1} << (w - 1));
}

int64_t QuantParams::DefaultMax(ElementType storage) {
  const int w = BitWidth(storage);
  if (w <= 0 || w > 63) return 0;
  if (IsUnsignedInteger(storage)) return (int64_t{1} << w) - 1;
  return (int64_t{1} << (w - 1)) - 1;
}

bool QuantParams::HasCustomRange() const {
  return storage_min != DefaultMin(storage) || storage_max != DefaultMax(storage);
}

bool QuantParams::operator==(const QuantParams& o) const {
  return SameStorageAndExpressed(o) && scales == o.scales && zero_points == o.zero_points &&
         quantized_dimension == o.quantized_dimension;
}

bool QuantParams::SameStorageAndExpressed(const QuantParams& o) const {
  return storage == o.storage && storage_min == o.storage_min && storage_max == o.storage_max &&
         expressed == o.expressed;
}

namespace {

// The smallest positive and the largest finite value of an IEEE-style float
// type (bf16, f16, f32, f64); none for the others.
std::optional<std::pair<double, double>> ExpressedRange(ElementType e) {
  uint64_t inf_bits = 0;
  switch (e) {
    case ElementType::kBF16: inf_bits = 0x7F80; break;
    case ElementType::kF16: inf_bits = 0x7C00; break;
    case ElementType::kF32: inf_bits = 0x7F800000; break;
    case ElementType::kF64: inf_bits = 0x7FF0000000000000; break;
    default: return std::nullopt;
  }
  return std::make_pair(FloatBitsToDouble(1, e), FloatBitsToDouble(inf_bits - 1, e));
}

}  // namespace

std::string QuantParams::Invalid() const {
  const int w = BitWidth(storage);
  if (!IsInteger(storage) || w > 32 || storage == ElementType::kIndex) {
    return "expects a storage type of i2..i32 or ui2..ui32, got " + std::string(ElementTypeName(storage));
  }
  if (!IsFloat(expressed)) {
    return "expects a floating-point expressed type, got " + std::string(ElementTypeName(expressed));
  }
  const int64_t lo = DefaultMin(storage);
  const int64_t hi = DefaultMax(storage);
  if (storage_min < lo || storage_max > hi || storage_min >= storage_max) {
    return "expects the storage range " + std::to_string(storage_min) + ":" + std::to_string(storage_max) +
           " to be a non-empty range within " + std::string(ElementTypeName(storage)) + "'s " + std::to_string(lo) +
           ":" + std::to_string(hi);
  }
  if (quantized_dimension < -1) {
    return "expects a non-negative quantization dimension, got " + std::to_string(quantized_dimension);
  }
  if (scales.empty() || scales.size() != zero_points.size()) {
    return "expects as many zero points as scales (at least one), got " + std::to_string(scales.size()) +
           " scales and " + std::to_string(zero_points.size()) + " zero points";
  }
  if (!PerAxis() && scales.size() != 1) {
    return "expects one scale for a per-tensor quantized type, got " + std::to_string(scales.size());
  }
  for (size_t i = 0; i < scales.size(); ++i) {
    std::string which = PerAxis() ? " #" + std::to_string(i) : "";
    if (!(scales[i] > 0) || !std::isfinite(scales[i])) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%g", scales[i]);
      return "expects scale" + which + " to be positive and finite, got " + buf;
    }
    if (const auto range = ExpressedRange(expressed); range && (scales[i] < range->first || scales[i] > range->second)) {
      char buf[160];
      std::snprintf(buf, sizeof(buf), "expects scale%s to be within the range of the expressed type %s (%e to %e), got %e",
                    which.c_str(), std::string(ElementTypeName(expressed)).c_str(), range->first, range->second,
                    scales[i]);
      return buf;
    }
    if (zero_points[i] < storage_min || zero_points[i] > storage_max) {
      return "expects zero point" + which + " to be within the storage range " + std::to_string(storage_min) + ":" +
             std::to_string(storage_max) + ", got " + std::to_string(zero_points[i]);
    }
  }
  return "";
}

namespace {

// A scale prints as MLIR prints an f64 float: six digits in exponent form
// when they read back exactly, else APFloat's shortest exact decimal.
void AppendScaleAndZeroPoint(std::string& s, double scale, int64_t zero_point) {
  uint64_t bits = 0;
  std::memcpy(&bits, &scale, sizeof(bits));
  s += FormatFloatBits(bits, ElementType::kF64);
  if (zero_point != 0) s += ":" + std::to_string(zero_point);
}

}  // namespace

std::string QuantParams::ToString() const {
  std::string s = "!quant.uniform<";
  const std::string width = std::to_string(BitWidth(storage));
  if (IsUnsignedInteger(storage)) {
    s += (unsigned_spelled_u ? "u" : "ui") + width;
  } else {
    s += "i" + width;
  }
  if (HasCustomRange()) s += "<" + std::to_string(storage_min) + ":" + std::to_string(storage_max) + ">";
  s += ":";
  s += ElementTypeName(expressed);
  if (PerAxis()) {
    s += ":" + std::to_string(quantized_dimension) + ", {";
    for (size_t i = 0; i < scales.size(); ++i) {
      if (i) s += ",";
      AppendScaleAndZeroPoint(s, scales[i], zero_points[i]);
    }
    s += "}";
  } else if (!scales.empty()) {
    s += ", ";
    AppendScaleAndZeroPoint(s, scales[0], zero_points.empty() ? 0 : zero_points[0]);
  }
  return s + ">";
}

Type Type::QuantizedTensor(QuantParamsPtr quant, std::vector<int64_t> shape) {
  Type t = Tensor(quant ? quant->storage : ElementType::kF32, std::move(shape));
  t.quant_ = std::move(quant);
  return t;
}

ElementType Type::ExpressedElement() const { return quant_ ? quant_->expressed : element_; }

Type Type::WithShape(std::vector<int64_t> shape) const {
  Type t = Tensor(element_, std::move(shape));
  t.quant_ = quant_;
  return t;
}

Type Type::Tensor(ElementType element, std::vector<int64_t> shape) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.element_ = element;
  t.shape_ = std::move(shape);
  return t;
}

Type Type::Token() {
  Type t;
  t.kind_ = Kind::kToken;
  return t;
}

Type Type::Tuple(std::vector<Type> elements) {
  Type t;
  t.kind_ = Kind::kTuple;
  t.tuple_ = std::move(elements);
  return t;
}

int64_t Type::StorageBytes() const {
  if (!IsTensor()) return 0;
  const int64_t n = NumElements();
  const int64_t bytes = ir::StorageBytes(element());
  return n > std::numeric_limits<int64_t>::max() / std::max<int64_t>(bytes, 1) ? std::numeric_limits<int64_t>::max()
                                                                                : n * bytes;
}

int64_t Type::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape_) {
    if (d == 0) return 0;
  }
  for (int64_t d : shape_) {
    if (d > std::numeric_limits<int64_t>::max() / n) return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

bool Type::operator==(const Type& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kTensor:
      if (element_ != other.element_ || shape_ != other.shape_) return false;
      if (!quant_ || !other.quant_) return !quant_ && !other.quant_;
      return quant_ == other.quant_ || *quant_ == *other.quant_;
    case Kind::kToken: return true;
    case Kind::kTuple: return tuple_ == other.tuple_;
  }
  return false;
}

std::string Type::ToString() const {
  switch (kind_) {
    case Kind::kToken: return "!stablehlo.token";
    case Kind::kTuple: return "tuple<" + TypeListToString(tuple_) + ">";
    case Kind::kTensor: {
      std::string s = "tensor<";
      for (int64_t d : shape_) s += std::to_string(d) + "x";
      if (quant_) {
        s += quant_->ToString();
      } else {
        s += ElementTypeName(element_);
      }
      return s + ">";
    }
  }
  return "";
}

std::string TypeListToString(const std::vector<Type>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) s += ", ";
    s += types[i].ToString();
  }
  return s;
}

std::string FunctionType::ToString() const {
  // Appended piece by piece: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string.
  std::string s = "(";
  s += TypeListToString(inputs);
  s += ") -> ";
  if (results.size() == 1) {
    s += results[0].ToString();
    return s;
  }
  s += '(';
  s += TypeListToString(results);
  s += ')';
  return s;
}

}  // namespace hlograph::ir

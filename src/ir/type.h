// Value types: static ranked tensors, !stablehlo.token and tuple<...>.
// A tensor's element type may be quantized (!quant.uniform<...>): the
// tensor then holds integers of the storage type, and element() is that
// storage type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace hlograph::ir {

// The parameters of a uniform quantized element type:
//   !quant.uniform<i8:f32, 0.5:-3>                   per tensor
//   !quant.uniform<i8<-127:127>:f32:1, {0.1,0.2:1}>  per axis (dimension 1)
// A stored integer q stands for (q - zero_point) * scale in the expressed type.
struct QuantParams {
  ElementType storage = ElementType::kI8;  // i2..i32, ui2..ui32
  bool unsigned_spelled_u = false;         // printed "u8" rather than "ui8" (as written)
  int64_t storage_min = -128;
  int64_t storage_max = 127;
  ElementType expressed = ElementType::kF32;  // a float type
  std::vector<double> scales;                 // one per tensor, or one per slice of the axis
  std::vector<int64_t> zero_points;           // parallel to scales
  int32_t quantized_dimension = -1;           // -1: per tensor

  bool PerAxis() const { return quantized_dimension >= 0; }
  // The default range of the storage type (the full integer range).
  static int64_t DefaultMin(ElementType storage);
  static int64_t DefaultMax(ElementType storage);
  bool HasCustomRange() const;
  // Equal parameters (the u/ui spelling is ignored).
  bool operator==(const QuantParams& other) const;
  // Storage (with range) and expressed types equal: what ops that mix
  // quantization parameters need to agree on.
  bool SameStorageAndExpressed(const QuantParams& other) const;
  // The intrinsic constraints (storage and expressed kinds, range within
  // the storage type, scales positive and finite, zero points within the
  // range, matching counts); "" when valid, else what is wrong.
  std::string Invalid() const;
  std::string ToString() const;  // "!quant.uniform<...>", as MLIR prints it
};
using QuantParamsPtr = std::shared_ptr<const QuantParams>;

class Type {
 public:
  enum class Kind : uint8_t { kTensor, kToken, kTuple };

  Type() = default;  // tensor<f32>
  static Type Tensor(ElementType element, std::vector<int64_t> shape);
  static Type Token();
  static Type Tuple(std::vector<Type> elements);
  // A tensor of quantized elements (element() is the storage type).
  static Type QuantizedTensor(QuantParamsPtr quant, std::vector<int64_t> shape);

  Kind kind() const { return kind_; }
  bool IsTensor() const { return kind_ == Kind::kTensor; }
  bool IsToken() const { return kind_ == Kind::kToken; }
  bool IsTuple() const { return kind_ == Kind::kTuple; }

  // Tensor accessors.
  ElementType element() const { return element_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_[static_cast<size_t>(i)]; }
  // Product of dims; saturates at INT64_MAX on overflow.
  int64_t NumElements() const;
  // The bytes a tensor's elements take stored (a quantized tensor's storage
  // integers); 0 for tuples and tokens.
  int64_t StorageBytes() const;

  // Quantized tensors: the parameters, or null for other types.
  bool IsQuantized() const { return quant_ != nullptr; }
  const QuantParams* quant() const { return quant_.get(); }
  const QuantParamsPtr& quant_ptr() const { return quant_; }
  // The element type values are computed in: the expressed type of a
  // quantized tensor, else element().
  ElementType ExpressedElement() const;
  // The same type, quantization dropped (storage integers).
  Type StorageType() const { return Tensor(element_, shape_); }
  // Another shape, the same element type (quantization kept).
  Type WithShape(std::vector<int64_t> shape) const;

  // Tuple accessors.
  const std::vector<Type>& tuple_elements() const { return tuple_; }

  // The same shape with another (not quantized) element type.
  Type WithElement(ElementType e) const { return Tensor(e, shape_); }

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

  std::string ToString() const;  // MLIR spelling

 private:
  Kind kind_ = Kind::kTensor;
  ElementType element_ = ElementType::kF32;
  std::vector<int64_t> shape_;
  std::vector<Type> tuple_;
  QuantParamsPtr quant_;
};

// (inputs) -> results, as used by func.func and op type signatures.
struct FunctionType {
  std::vector<Type> inputs;
  std::vector<Type> results;
  std::string ToString() const;
};

std::string TypeListToString(const std::vector<Type>& types);  // "a, b"

}  // namespace hlograph::ir

// Value types: static ranked tensors, !stablehlo.token and tuple<...>.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace hlograph::ir {

class Type {
 public:
  enum class Kind : uint8_t { kTensor, kToken, kTuple };

  Type() = default;  // tensor<f32>
  static Type Tensor(ElementType element, std::vector<int64_t> shape);
  static Type Token();
  static Type Tuple(std::vector<Type> elements);

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

  // Tuple accessors.
  const std::vector<Type>& tuple_elements() const { return tuple_; }

  // The same shape with another element type.
  Type WithElement(ElementType e) const { return Tensor(e, shape_); }

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

  std::string ToString() const;  // MLIR spelling

 private:
  Kind kind_ = Kind::kTensor;
  ElementType element_ = ElementType::kF32;
  std::vector<int64_t> shape_;
  std::vector<Type> tuple_;
};

// (inputs) -> results, as used by func.func and op type signatures.
struct FunctionType {
  std::vector<Type> inputs;
  std::vector<Type> results;
  std::string ToString() const;
};

std::string TypeListToString(const std::vector<Type>& types);  // "a, b"

}  // namespace hlograph::ir

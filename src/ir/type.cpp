#include "ir/type.h"

#include <limits>

namespace hlograph::ir {

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
    case Kind::kTensor: return element_ == other.element_ && shape_ == other.shape_;
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
      s += ElementTypeName(element_);
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

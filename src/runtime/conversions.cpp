#include "runtime/conversions.h"

#include <cstring>
#include <string>

#include "runtime/quantization.h"

namespace hlograph::runtime {
namespace {

struct TypePair {
  ElementType public_type;
  ir::ElementType ir_type;
};

constexpr TypePair kTypes[] = {
    {ElementType::kBool, ir::ElementType::kI1},
    {ElementType::kS2, ir::ElementType::kI2},
    {ElementType::kS4, ir::ElementType::kI4},
    {ElementType::kS8, ir::ElementType::kI8},
    {ElementType::kS16, ir::ElementType::kI16},
    {ElementType::kS32, ir::ElementType::kI32},
    {ElementType::kS64, ir::ElementType::kI64},
    {ElementType::kU2, ir::ElementType::kU2},
    {ElementType::kU4, ir::ElementType::kU4},
    {ElementType::kU8, ir::ElementType::kU8},
    {ElementType::kU16, ir::ElementType::kU16},
    {ElementType::kU32, ir::ElementType::kU32},
    {ElementType::kU64, ir::ElementType::kU64},
    {ElementType::kF4E2M1FN, ir::ElementType::kF4E2M1FN},
    {ElementType::kF6E2M3FN, ir::ElementType::kF6E2M3FN},
    {ElementType::kF6E3M2FN, ir::ElementType::kF6E3M2FN},
    {ElementType::kF8E3M4, ir::ElementType::kF8E3M4},
    {ElementType::kF8E4M3, ir::ElementType::kF8E4M3},
    {ElementType::kF8E4M3FN, ir::ElementType::kF8E4M3FN},
    {ElementType::kF8E4M3FNUZ, ir::ElementType::kF8E4M3FNUZ},
    {ElementType::kF8E4M3B11FNUZ, ir::ElementType::kF8E4M3B11FNUZ},
    {ElementType::kF8E5M2, ir::ElementType::kF8E5M2},
    {ElementType::kF8E5M2FNUZ, ir::ElementType::kF8E5M2FNUZ},
    {ElementType::kF8E8M0FNU, ir::ElementType::kF8E8M0FNU},
    {ElementType::kBF16, ir::ElementType::kBF16},
    {ElementType::kF16, ir::ElementType::kF16},
    {ElementType::kF32, ir::ElementType::kF32},
    {ElementType::kF64, ir::ElementType::kF64},
    {ElementType::kC64, ir::ElementType::kC64},
    {ElementType::kC128, ir::ElementType::kC128},
};

}  // namespace

ir::ElementType ToIr(ElementType type) {
  for (const TypePair& pair : kTypes) {
    if (pair.public_type == type) return pair.ir_type;
  }
  return ir::ElementType::kF32;  // unreachable: every public type is listed
}

std::optional<ElementType> FromIr(ir::ElementType type) {
  for (const TypePair& pair : kTypes) {
    if (pair.ir_type == type) return pair.public_type;
  }
  return std::nullopt;
}

StatusOr<ArrayType> ArrayTypeOf(const ir::Type& type, const std::string& what) {
  if (type.IsToken()) return ArrayType{ElementType::kToken, {}};
  if (!type.IsTensor()) {
    return Status::Error(what + " is " + type.ToString() + "; the C++ API takes and returns tensors and tokens only");
  }
  const std::optional<ElementType> element = FromIr(type.element());
  if (!element) {
    return Status::Error(what + " is " + type.ToString() + "; the C++ API has no " +
                         std::string(ir::ElementTypeName(type.element())) + " arrays");
  }
  ArrayType array_type{*element, type.shape()};
  if (type.IsQuantized()) array_type.quantization = FromIr(*type.quant());
  return array_type;
}

cpu::Tensor ToTensor(const Array& array) {
  if (array.element_type() == ElementType::kToken) return cpu::Tensor(ir::Type::Token());
  const std::optional<Quantization>& quantization = array.quantization();
  cpu::Tensor tensor(quantization ? ir::Type::QuantizedTensor(ToIr(array.element_type(), *quantization), array.shape())
                                  : ir::Type::Tensor(ToIr(array.element_type()), array.shape()));
  if (array.byte_size() > 0) std::memcpy(tensor.mutable_bytes(), array.bytes(), array.byte_size());
  if (array.element_type() == ElementType::kBool) {  // i1 tensors hold 0 or 1
    uint8_t* bytes = tensor.mutable_bytes();
    for (size_t i = 0; i < tensor.byte_size(); ++i) bytes[i] = bytes[i] != 0 ? 1 : 0;
  }
  return tensor;
}

StatusOr<Array> FromTensor(const cpu::Tensor& tensor) {
  HLOGRAPH_ASSIGN(const ArrayType type, ArrayTypeOf(tensor.type(), "a result"));
  Array array(type);
  if (type.element_type == ElementType::kToken) return array;
  if (array.byte_size() != tensor.byte_size()) {
    return Status::Error("a result of type " + tensor.type().ToString() + " holds " +
                         std::to_string(tensor.byte_size()) + " bytes; expected " +
                         std::to_string(array.byte_size()));
  }
  if (array.byte_size() > 0) std::memcpy(array.mutable_bytes(), tensor.bytes(), array.byte_size());
  return array;
}

}  // namespace hlograph::runtime

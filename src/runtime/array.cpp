// The public API's host arrays (include/hlograph/array.h). No internal
// headers: the element types' names and sizes are the IR's, which
// runtime_api_test checks. Quantized types are spelled by the IR's printer
// (quantization.cpp).
#include "hlograph/array.h"

#include <cstdlib>

namespace hlograph {

std::string_view ElementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kBool: return "i1";
    case ElementType::kS2: return "i2";
    case ElementType::kS4: return "i4";
    case ElementType::kS8: return "i8";
    case ElementType::kS16: return "i16";
    case ElementType::kS32: return "i32";
    case ElementType::kS64: return "i64";
    case ElementType::kU2: return "ui2";
    case ElementType::kU4: return "ui4";
    case ElementType::kU8: return "ui8";
    case ElementType::kU16: return "ui16";
    case ElementType::kU32: return "ui32";
    case ElementType::kU64: return "ui64";
    case ElementType::kF4E2M1FN: return "f4E2M1FN";
    case ElementType::kF6E2M3FN: return "f6E2M3FN";
    case ElementType::kF6E3M2FN: return "f6E3M2FN";
    case ElementType::kF8E3M4: return "f8E3M4";
    case ElementType::kF8E4M3: return "f8E4M3";
    case ElementType::kF8E4M3FN: return "f8E4M3FN";
    case ElementType::kF8E4M3FNUZ: return "f8E4M3FNUZ";
    case ElementType::kF8E4M3B11FNUZ: return "f8E4M3B11FNUZ";
    case ElementType::kF8E5M2: return "f8E5M2";
    case ElementType::kF8E5M2FNUZ: return "f8E5M2FNUZ";
    case ElementType::kF8E8M0FNU: return "f8E8M0FNU";
    case ElementType::kBF16: return "bf16";
    case ElementType::kF16: return "f16";
    case ElementType::kF32: return "f32";
    case ElementType::kF64: return "f64";
    case ElementType::kC64: return "complex<f32>";
    case ElementType::kC128: return "complex<f64>";
    case ElementType::kToken: return "token";
  }
  return "?";
}

size_t ElementSize(ElementType type) {
  switch (type) {
    case ElementType::kS16:
    case ElementType::kU16:
    case ElementType::kBF16:
    case ElementType::kF16:
      return 2;
    case ElementType::kS32:
    case ElementType::kU32:
    case ElementType::kF32:
      return 4;
    case ElementType::kS64:
    case ElementType::kU64:
    case ElementType::kF64:
    case ElementType::kC64:
      return 8;
    case ElementType::kC128:
      return 16;
    case ElementType::kToken:
      return 0;
    default:
      return 1;  // bool, 8-bit and narrower integers and floats
  }
}

std::string TypeString(ElementType type, const std::vector<int64_t>& shape) {
  if (type == ElementType::kToken) return "!stablehlo.token";
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  s += ElementTypeName(type);
  s += ">";
  return s;
}

Array::Array(ElementType type, std::vector<int64_t> shape) : element_type_(type), shape_(std::move(shape)) {
  num_elements_ = 1;
  for (int64_t d : shape_) {
    assert(d >= 0);
    num_elements_ *= d < 0 ? 0 : d;
  }
  bytes_.assign(static_cast<size_t>(num_elements_) * ElementSize(type), std::byte{0});
}

Array::Array(const ArrayType& type) : Array(type.element_type, type.shape) { quantization_ = type.quantization; }

bool Array::HasNativeType(ElementType type) {
  switch (type) {
    case ElementType::kBool:
    case ElementType::kS8:
    case ElementType::kS16:
    case ElementType::kS32:
    case ElementType::kS64:
    case ElementType::kU8:
    case ElementType::kU16:
    case ElementType::kU32:
    case ElementType::kU64:
    case ElementType::kF32:
    case ElementType::kF64:
    case ElementType::kC64:
    case ElementType::kC128:
      return true;
    default:
      return false;
  }
}

}  // namespace hlograph

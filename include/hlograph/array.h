// hlograph's public C++ API: host arrays, the values programs take and
// return. An Array is a dense row-major buffer of one element type and a
// shape (empty: a scalar), owned by the Array and copied with it.
#pragma once

#include <cassert>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace hlograph {

// Element types, named as StableHLO spells them (ElementTypeName). Storage
// (ElementSize bytes per element): bool (i1) one byte, 0 or 1; the 2- and
// 4-bit integers one byte each, sign- or zero-extended; bf16, f16 and the
// f8/f6/f4 floats their raw bits, little-endian, in 2 or 1 bytes; complex
// numbers real part then imaginary part. kToken is !stablehlo.token, the
// value that orders side effects: a scalar of no bytes.
enum class ElementType : uint8_t {
  kBool,
  kS2, kS4, kS8, kS16, kS32, kS64,
  kU2, kU4, kU8, kU16, kU32, kU64,
  kF4E2M1FN, kF6E2M3FN, kF6E3M2FN,
  kF8E3M4, kF8E4M3, kF8E4M3FN, kF8E4M3FNUZ, kF8E4M3B11FNUZ, kF8E5M2, kF8E5M2FNUZ, kF8E8M0FNU,
  kBF16, kF16, kF32, kF64,
  kC64, kC128,  // complex<f32>, complex<f64>
  kToken,
};

// "i1", "i32", "ui8", "f32", "bf16", "f8E4M3FN", "complex<f32>", "token", ...
std::string_view ElementTypeName(ElementType type);
// Bytes per element in an Array (0 for kToken).
size_t ElementSize(ElementType type);

// A quantized element type (!quant.uniform): the array holds integers of
// its element type (the storage type), a stored q standing for
// (q - zero_point) * scale in the expressed float type.
struct Quantization {
  ElementType expressed = ElementType::kF32;
  std::vector<double> scales;        // one, or one per index of `axis`
  std::vector<int64_t> zero_points;  // one per scale
  int32_t axis = -1;                 // the quantized dimension; -1: one scale for all
  // The range of the stored integers; both 0: the storage type's whole range.
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  bool operator==(const Quantization& other) const = default;
};

// "tensor<2x3xf32>", "tensor<f32>" (a scalar), "!stablehlo.token",
// "tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>": the spelling of programs.
std::string TypeString(ElementType type, const std::vector<int64_t>& shape);
std::string TypeString(ElementType type, const std::vector<int64_t>& shape, const Quantization* quantization);

// The type of an array, a parameter or a result: an element type, a shape
// and, for quantized arrays, the quantization (element_type is then the
// storage type).
struct ArrayType {
  ArrayType() = default;
  ArrayType(ElementType type, std::vector<int64_t> dims, std::optional<Quantization> quant = {})
      : element_type(type), shape(std::move(dims)), quantization(std::move(quant)) {}

  ElementType element_type = ElementType::kF32;
  std::vector<int64_t> shape;
  std::optional<Quantization> quantization;
  std::string ToString() const {  // "tensor<4xf32>"
    return TypeString(element_type, shape, quantization ? &*quantization : nullptr);
  }
  bool operator==(const ArrayType& other) const = default;
};

// The element type of a C++ type, for Array's typed accessors:
// ElementTypeOf<float>::value is ElementType::kF32.
template <typename T>
struct ElementTypeOf;
#define HLOGRAPH_ELEMENT_TYPE_OF(T, E) \
  template <>                          \
  struct ElementTypeOf<T> {            \
    static constexpr ElementType value = ElementType::E; \
  }
HLOGRAPH_ELEMENT_TYPE_OF(bool, kBool);
HLOGRAPH_ELEMENT_TYPE_OF(int8_t, kS8);
HLOGRAPH_ELEMENT_TYPE_OF(int16_t, kS16);
HLOGRAPH_ELEMENT_TYPE_OF(int32_t, kS32);
HLOGRAPH_ELEMENT_TYPE_OF(int64_t, kS64);
HLOGRAPH_ELEMENT_TYPE_OF(uint8_t, kU8);
HLOGRAPH_ELEMENT_TYPE_OF(uint16_t, kU16);
HLOGRAPH_ELEMENT_TYPE_OF(uint32_t, kU32);
HLOGRAPH_ELEMENT_TYPE_OF(uint64_t, kU64);
HLOGRAPH_ELEMENT_TYPE_OF(float, kF32);
HLOGRAPH_ELEMENT_TYPE_OF(double, kF64);
HLOGRAPH_ELEMENT_TYPE_OF(std::complex<float>, kC64);
HLOGRAPH_ELEMENT_TYPE_OF(std::complex<double>, kC128);
#undef HLOGRAPH_ELEMENT_TYPE_OF

class Array {
 public:
  // An f32 scalar, 0.
  Array() : Array(ElementType::kF32, {}) {}
  // A zero-filled array. Dimensions must not be negative.
  Array(ElementType type, std::vector<int64_t> shape);
  // A zero-filled array of `type` (quantized when it is).
  explicit Array(const ArrayType& type);

  // An array of `shape` holding `values` (row-major; as many as the shape
  // has elements) of a C++ type with an ElementTypeOf.
  template <typename T>
  static Array FromValues(std::vector<int64_t> shape, const std::vector<T>& values) {
    Array array(ElementTypeOf<T>::value, std::move(shape));
    assert(static_cast<int64_t>(values.size()) == array.num_elements());
    T* out = array.mutable_data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return array;
  }
  template <typename T>
  static Array FromValues(std::vector<int64_t> shape, std::initializer_list<T> values) {
    return FromValues<T>(std::move(shape), std::vector<T>(values));
  }
  // A scalar.
  template <typename T>
  static Array Scalar(T value) {
    return FromValues<T>({}, std::vector<T>{value});
  }

  ElementType element_type() const { return element_type_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t num_elements() const { return num_elements_; }
  // The quantization of a quantized array (its elements are the stored
  // integers), else none.
  const std::optional<Quantization>& quantization() const { return quantization_; }
  ArrayType type() const { return ArrayType{element_type_, shape_, quantization_}; }
  // "tensor<4xf32>".
  std::string type_string() const { return type().ToString(); }

  // The raw bytes: num_elements() * ElementSize(element_type()).
  size_t byte_size() const { return bytes_.size(); }
  const std::byte* bytes() const { return bytes_.data(); }
  std::byte* mutable_bytes() { return bytes_.data(); }

  // The elements as T, which must be the element type's C++ type
  // (ElementTypeOf<T>), or, for the types without one (bf16, f16, the
  // narrow floats and integers), an integer type of ElementSize bytes
  // (the raw bits).
  template <typename T>
  const T* data() const {
    assert(Holds<T>());
    return reinterpret_cast<const T*>(bytes_.data());
  }
  template <typename T>
  T* mutable_data() {
    assert(Holds<T>());
    return reinterpret_cast<T*>(bytes_.data());
  }
  // Element i (row-major) as T; see data().
  template <typename T>
  T at(int64_t i) const {
    assert(i >= 0 && i < num_elements_);
    return data<T>()[i];
  }

  // Same element type, shape, quantization and bytes.
  bool operator==(const Array& other) const {
    return element_type_ == other.element_type_ && shape_ == other.shape_ && quantization_ == other.quantization_ &&
           bytes_ == other.bytes_;
  }
  bool operator!=(const Array& other) const { return !(*this == other); }

 private:
  template <typename T>
  bool Holds() const {
    if constexpr (requires { ElementTypeOf<T>::value; }) {
      if (ElementTypeOf<T>::value == element_type_) return true;
    }
    return std::is_integral_v<T> && sizeof(T) == ElementSize(element_type_) && !HasNativeType(element_type_);
  }
  static bool HasNativeType(ElementType type);

  ElementType element_type_;
  std::vector<int64_t> shape_;
  int64_t num_elements_ = 0;
  std::optional<Quantization> quantization_;
  std::vector<std::byte> bytes_;
};

}  // namespace hlograph

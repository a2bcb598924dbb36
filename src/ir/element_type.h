// Element types of StableHLO tensors: integers, floats (incl. the f8/f6/f4
// families), complex numbers and bool (i1).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hlograph::ir {

enum class ElementType : uint8_t {
  kI1,
  kI2, kI4, kI8, kI16, kI32, kI64,
  kU2, kU4, kU8, kU16, kU32, kU64,
  kF4E2M1FN, kF6E2M3FN, kF6E3M2FN,
  kF8E3M4, kF8E4M3, kF8E4M3FN, kF8E4M3FNUZ, kF8E4M3B11FNUZ, kF8E5M2, kF8E5M2FNUZ, kF8E8M0FNU,
  kBF16, kF16, kTF32, kF32, kF64,
  kC64, kC128,  // complex<f32>, complex<f64>
  kIndex,       // MLIR's index (64-bit); only in layout attributes
};

std::string_view ElementTypeName(ElementType t);  // "f32", "complex<f32>", ...
std::optional<ElementType> ElementTypeFromName(std::string_view name);  // not complex

bool IsInteger(ElementType t);  // signed or unsigned, excluding i1
bool IsSignedInteger(ElementType t);  // includes index
bool IsUnsignedInteger(ElementType t);
bool IsBool(ElementType t);
bool IsFloat(ElementType t);
bool IsComplex(ElementType t);
int BitWidth(ElementType t);       // logical width; complex<f32> = 64
int StorageBytes(ElementType t);   // bytes per element in dense storage (sub-byte rounds up)
ElementType ComplexPart(ElementType t);  // complex<f32> -> f32
std::optional<ElementType> ComplexOf(ElementType t);  // f32 -> complex<f32>

// Float format description for the narrow floats (used by printers and,
// later, by the interpreter's conversions).
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_inf;
  bool has_nan;
  bool nan_is_all_ones_only;  // FN types: only S.1111.111 is NaN
  bool unsigned_zero_nan;     // FNUZ types: NaN is 1000...0, no -0
  bool has_sign;
};
std::optional<FloatFormat> FloatFormatOf(ElementType t);

}  // namespace hlograph::ir

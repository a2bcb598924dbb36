#include "ir/element_type.h"

#include <array>

namespace hlograph::ir {
namespace {

struct Info {
  ElementType type;
  std::string_view name;
  int bits;
};

constexpr std::array kInfos = {
    Info{ElementType::kI1, "i1", 1},
    Info{ElementType::kI2, "i2", 2},
    Info{ElementType::kI4, "i4", 4},
    Info{ElementType::kI8, "i8", 8},
    Info{ElementType::kI16, "i16", 16},
    Info{ElementType::kI32, "i32", 32},
    Info{ElementType::kI64, "i64", 64},
    Info{ElementType::kU2, "ui2", 2},
    Info{ElementType::kU4, "ui4", 4},
    Info{ElementType::kU8, "ui8", 8},
    Info{ElementType::kU16, "ui16", 16},
    Info{ElementType::kU32, "ui32", 32},
    Info{ElementType::kU64, "ui64", 64},
    Info{ElementType::kF4E2M1FN, "f4E2M1FN", 4},
    Info{ElementType::kF6E2M3FN, "f6E2M3FN", 6},
    Info{ElementType::kF6E3M2FN, "f6E3M2FN", 6},
    Info{ElementType::kF8E3M4, "f8E3M4", 8},
    Info{ElementType::kF8E4M3, "f8E4M3", 8},
    Info{ElementType::kF8E4M3FN, "f8E4M3FN", 8},
    Info{ElementType::kF8E4M3FNUZ, "f8E4M3FNUZ", 8},
    Info{ElementType::kF8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8},
    Info{ElementType::kF8E5M2, "f8E5M2", 8},
    Info{ElementType::kF8E5M2FNUZ, "f8E5M2FNUZ", 8},
    Info{ElementType::kF8E8M0FNU, "f8E8M0FNU", 8},
    Info{ElementType::kBF16, "bf16", 16},
    Info{ElementType::kF16, "f16", 16},
    Info{ElementType::kTF32, "tf32", 19},
    Info{ElementType::kF32, "f32", 32},
    Info{ElementType::kF64, "f64", 64},
    Info{ElementType::kC64, "complex<f32>", 64},
    Info{ElementType::kC128, "complex<f64>", 128},
    Info{ElementType::kIndex, "index", 64},
};

const Info& InfoOf(ElementType t) { return kInfos[static_cast<size_t>(t)]; }

}  // namespace

std::string_view ElementTypeName(ElementType t) { return InfoOf(t).name; }

std::optional<ElementType> ElementTypeFromName(std::string_view name) {
  for (const Info& info : kInfos) {
    if (info.name == name && !IsComplex(info.type)) return info.type;
  }
  // MLIR also spells signless integers as "si" for explicitly signed ones;
  // StableHLO only uses signless, so "si32" is not accepted.
  return std::nullopt;
}

bool IsBool(ElementType t) { return t == ElementType::kI1; }
bool IsSignedInteger(ElementType t) {
  return (t >= ElementType::kI2 && t <= ElementType::kI64) || t == ElementType::kIndex;
}
bool IsUnsignedInteger(ElementType t) { return t >= ElementType::kU2 && t <= ElementType::kU64; }
bool IsInteger(ElementType t) { return IsSignedInteger(t) || IsUnsignedInteger(t); }
bool IsFloat(ElementType t) { return t >= ElementType::kF4E2M1FN && t <= ElementType::kF64; }
bool IsComplex(ElementType t) { return t == ElementType::kC64 || t == ElementType::kC128; }
int BitWidth(ElementType t) { return InfoOf(t).bits; }

int StorageBytes(ElementType t) {
  if (t == ElementType::kTF32) return 4;
  return (BitWidth(t) + 7) / 8;
}

ElementType ComplexPart(ElementType t) {
  return t == ElementType::kC128 ? ElementType::kF64 : ElementType::kF32;
}

std::optional<ElementType> ComplexOf(ElementType t) {
  if (t == ElementType::kF32) return ElementType::kC64;
  if (t == ElementType::kF64) return ElementType::kC128;
  return std::nullopt;
}

std::optional<FloatFormat> FloatFormatOf(ElementType t) {
  switch (t) {
    case ElementType::kF4E2M1FN: return FloatFormat{2, 1, 1, false, false, false, false, true};
    case ElementType::kF6E2M3FN: return FloatFormat{2, 3, 1, false, false, false, false, true};
    case ElementType::kF6E3M2FN: return FloatFormat{3, 2, 3, false, false, false, false, true};
    case ElementType::kF8E3M4: return FloatFormat{3, 4, 3, true, true, false, false, true};
    case ElementType::kF8E4M3: return FloatFormat{4, 3, 7, true, true, false, false, true};
    case ElementType::kF8E4M3FN: return FloatFormat{4, 3, 7, false, true, true, false, true};
    case ElementType::kF8E4M3FNUZ: return FloatFormat{4, 3, 8, false, true, false, true, true};
    case ElementType::kF8E4M3B11FNUZ: return FloatFormat{4, 3, 11, false, true, false, true, true};
    case ElementType::kF8E5M2: return FloatFormat{5, 2, 15, true, true, false, false, true};
    case ElementType::kF8E5M2FNUZ: return FloatFormat{5, 2, 16, false, true, false, true, true};
    case ElementType::kF8E8M0FNU: return FloatFormat{8, 0, 127, false, true, true, false, false};
    case ElementType::kBF16: return FloatFormat{8, 7, 127, true, true, false, false, true};
    case ElementType::kF16: return FloatFormat{5, 10, 15, true, true, false, false, true};
    case ElementType::kTF32: return FloatFormat{8, 10, 127, true, true, false, false, true};
    case ElementType::kF32: return FloatFormat{8, 23, 127, true, true, false, false, true};
    case ElementType::kF64: return FloatFormat{11, 52, 1023, true, true, false, false, true};
    default: return std::nullopt;
  }
}

}  // namespace hlograph::ir

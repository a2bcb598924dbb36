// Attributes and types as the bytecode holds them, before they become
// StableHLO IR: VHLO's (and the builtin dialect's) vocabulary, kept close to
// the encoding so that op conversion (vhlo_to_stablehlo.h) can decide what
// each one means for the op it is attached to.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/element_type.h"
#include "ir/location.h"
#include "ir/type.h"

namespace hlograph::frontend::bytecode {

struct DecodedType;
using TypePtr = std::shared_ptr<const DecodedType>;

struct DecodedType {
  enum class Kind : uint8_t {
    kElement,   // a scalar element type: i32, f32, complex<f32>, index
    kTensor,    // ranked tensor of `element`
    kToken,
    kTuple,     // `elements`
    kFunction,  // `elements` -> `results`
    kNone,      // VHLO's none (an absent dot algorithm type)
  };
  Kind kind = Kind::kElement;
  ir::ElementType element = ir::ElementType::kF32;
  std::vector<int64_t> shape;
  std::vector<TypePtr> elements;
  std::vector<TypePtr> results;
  ir::QuantParamsPtr quant;  // a quantized element type (kElement; `element` is its storage type)
};

// The IR type of a value type (tensor, token, tuple); false for the others.
bool ToIrType(const DecodedType& type, ir::Type& out);
bool ToIrFunctionType(const DecodedType& type, ir::FunctionType& out);

struct DecodedAttr;
using AttrPtr = std::shared_ptr<const DecodedAttr>;

struct DecodedAttr {
  enum class Kind : uint8_t {
    kArray,
    kBool,
    kEnum,               // enum_name + text: "comparison_direction" "LT"
    kDict,               // names + elements
    kFloat,              // bits in `type`'s format
    kInteger,            // value of `type`
    kString,
    kTensor,             // dense data of `type`, MLIR's raw layout
    kDenseArray,         // array<E: ...>: `integer` elements of `type` (an element type) in `bytes`, little-endian
    kType,
    kOutputOperandAlias, // ints[0]: output tuple indices, ints[1]: operand index, ints[2]: operand tuple indices
    kResultAccuracy,     // atol, rtol (bits of f64), ulps, mode (text)
    kUnit,
    kSymbolRef,
    kOpaque,             // an attribute hlograph keeps as text (`text`), as it prints
    kAsmText,            // a dialect's attribute stored as its assembly text (`text`), unchecked
    kLocation,           // a source location (`location`)
  };
  Kind kind = Kind::kUnit;
  bool value = false;             // kBool
  int64_t integer = 0;            // kInteger (sign-extended), kFloat bits
  std::string text;               // kString, kEnum value, kOpaque, kSymbolRef
  std::string enum_name;          // kEnum
  TypePtr type;                   // kInteger/kFloat/kTensor/kType/kDenseArray
  std::vector<uint8_t> bytes;     // kTensor, kDenseArray
  std::vector<AttrPtr> elements;  // kArray, kDict values
  std::vector<std::string> names; // kDict keys
  std::vector<std::vector<int64_t>> ints;  // kOutputOperandAlias
  uint64_t atol_bits = 0, rtol_bits = 0;   // kResultAccuracy
  ir::LocationPtr location;                // kLocation
};

}  // namespace hlograph::frontend::bytecode

// Attributes: the constant data attached to ops (MLIR builtin attributes,
// StableHLO's structured attributes and enums, and opaque dialect attributes
// such as Shardy's, which are kept verbatim).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ir/element_type.h"
#include "ir/type.h"

namespace hlograph::ir {

struct AttrData;

// A cheap, immutable handle; null means "absent".
class Attribute {
 public:
  Attribute() = default;
  explicit Attribute(std::shared_ptr<const AttrData> data) : data_(std::move(data)) {}
  template <typename T>
  static Attribute Make(T value);

  explicit operator bool() const { return data_ != nullptr; }
  const AttrData& data() const { return *data_; }
  template <typename T>
  const T* as() const;

  bool operator==(const Attribute& other) const;
  bool operator!=(const Attribute& other) const { return !(*this == other); }

 private:
  std::shared_ptr<const AttrData> data_;
};

struct UnitAttr {};
struct BoolAttr { bool value; };
// Integer with a type: `3 : i64`. Types are integer element types (or index,
// spelled as kI64 with is_index).
struct IntegerAttr {
  int64_t value;
  ElementType type = ElementType::kI64;
  bool is_index = false;
};
// Float with a type: `1.0 : f32`; bits hold the value in that type's format.
struct FloatAttr {
  uint64_t bits;
  ElementType type = ElementType::kF32;
};
struct StringAttr { std::string value; };
struct TypeAttr { Type type; };
struct FunctionTypeAttr { FunctionType type; };  // func.func's function_type
struct SymbolRefAttr { std::string name; };  // without '@'
struct ArrayAttr { std::vector<Attribute> elements; };
// array<i64: 1, 2>; element type is an integer (i1 for bools), f32 or f64.
struct DenseArrayAttr {
  ElementType type = ElementType::kI64;
  std::vector<int64_t> values;  // floats stored as their bit patterns
};
// dense<...> : tensor<...>. Storage is little-endian, StorageBytes(element)
// per element (complex: real then imaginary). A splat stores one element.
struct DenseElementsAttr {
  Type type;
  bool splat = false;
  std::vector<uint8_t> bytes;
  int64_t NumStoredElements() const;
};
using NamedAttribute = std::pair<std::string, Attribute>;
struct DictionaryAttr { std::vector<NamedAttribute> entries; };  // kept sorted by name
// #stablehlo<comparison_direction LT> and friends.
struct EnumAttr {
  std::string enum_name;  // "comparison_direction"
  std::string value;      // "LT"
};
struct DotDimsAttr {
  std::vector<int64_t> lhs_batching, rhs_batching, lhs_contracting, rhs_contracting;
};
struct GatherDimsAttr {
  std::vector<int64_t> offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  int64_t index_vector_dim = 0;
};
struct ScatterDimsAttr {
  std::vector<int64_t> update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};
// Convolution layout: for each tensor, which dim is batch/feature and which
// are the spatial dims in order.
struct ConvDimsAttr {
  int64_t input_batch = 0, input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0, kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0, output_feature = 0;
  std::vector<int64_t> output_spatial;
};
struct ChannelHandleAttr { int64_t handle = 0, type = 0; };
struct OutputOperandAliasAttr {
  std::vector<int64_t> output_tuple_indices;
  int64_t operand_index = 0;
  std::vector<int64_t> operand_tuple_indices;
};
// An attribute hlograph does not interpret (yet): `#sdy.sharding<...>`,
// `#stablehlo.dot_algorithm<...>`.
// `text` is the whole spelling, normalised so that printing is a fixed point.
struct OpaqueAttr { std::string text; };

using AttrVariant =
    std::variant<UnitAttr, BoolAttr, IntegerAttr, FloatAttr, StringAttr, TypeAttr, FunctionTypeAttr, SymbolRefAttr,
                 ArrayAttr, DenseArrayAttr, DenseElementsAttr, DictionaryAttr, EnumAttr,
                 DotDimsAttr, GatherDimsAttr, ScatterDimsAttr, ConvDimsAttr, ChannelHandleAttr,
                 OutputOperandAliasAttr, OpaqueAttr>;

struct AttrData {
  AttrVariant value;
};

template <typename T>
Attribute Attribute::Make(T value) {
  return Attribute(std::make_shared<const AttrData>(AttrData{AttrVariant(std::move(value))}));
}

template <typename T>
const T* Attribute::as() const {
  return data_ ? std::get_if<T>(&data_->value) : nullptr;
}

// Helpers used everywhere.
Attribute MakeI64(int64_t v);
Attribute MakeBool(bool v);
Attribute MakeString(std::string s);
Attribute MakeI64Array(std::vector<int64_t> v);
// dense<[[...], ...]> : tensor<rows x columns x i64> (replica groups,
// source-target pairs, a window's padding); the rows all as long.
Attribute MakeI64Matrix(const std::vector<std::vector<int64_t>>& rows);
Attribute MakeEnum(std::string enum_name, std::string value);
const Attribute* FindEntry(const DictionaryAttr& dict, const std::string& name);

// Known StableHLO enums and their values; empty when the enum is unknown.
const std::vector<std::string>& EnumValues(const std::string& enum_name);

// The element count of a stored element of `t` in dense storage.
int DenseElementBytes(ElementType t);

}  // namespace hlograph::ir

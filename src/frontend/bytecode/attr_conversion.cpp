#include "frontend/bytecode/attr_conversion.h"

#include <algorithm>
#include <cstring>

#include "frontend/parser.h"
#include "ir/printing_utils.h"

namespace hlograph::frontend::bytecode {
namespace {

Status Fail(const std::string& what, const std::string& expected) {
  return Status::Error("bytecode: " + what + ": expected " + expected);
}

// An attribute stored as text: what the text front end makes of it, so that
// it prints as text that parses again.
StatusOr<ir::Attribute> ParseAttributeText(const std::string& text, const std::string& what) {
  auto module = ParseModule("module attributes {a = " + text + "} {\n}", "<bytecode attribute>");
  if (!module.ok()) return Fail(what, "an attribute whose text hlograph parses, found '" + text + "'");
  ir::Attribute parsed = (*module)->op().attr("a");
  if (!parsed) return Fail(what, "an attribute whose text hlograph parses, found '" + text + "'");
  return parsed;
}

}  // namespace

StatusOr<ir::DenseElementsAttr> ConvertDense(const DecodedAttr& attr, const std::string& what) {
  if (attr.kind != DecodedAttr::Kind::kTensor) return Fail(what, "a tensor attribute");
  ir::Type type;
  if (!ToIrType(*attr.type, type) || !type.IsTensor()) return Fail(what, "a tensor attribute of a tensor type");
  const int64_t n = type.NumElements();
  if (n == INT64_MAX) return Fail(what, "a tensor whose element count fits in 64 bits");
  ir::DenseElementsAttr dense;
  dense.type = type;
  const ir::ElementType et = type.element();
  const std::vector<uint8_t>& raw = attr.bytes;
  if (n == 0) return dense;
  if (et == ir::ElementType::kI1) {
    // MLIR packs bools one bit each; a splat is one byte of all zeros or all ones.
    if (raw.size() == 1 && n != 1 && (raw[0] == 0x00 || raw[0] == 0xFF)) {
      dense.splat = true;
      dense.bytes = {static_cast<uint8_t>(raw[0] != 0)};
      return dense;
    }
    if (raw.size() != static_cast<size_t>((n + 7) / 8)) {
      return Fail(what, std::to_string((n + 7) / 8) + " bytes of packed bools for " + type.ToString() + ", found " +
                            std::to_string(raw.size()));
    }
    dense.splat = n == 1;
    dense.bytes.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) dense.bytes[static_cast<size_t>(i)] = (raw[static_cast<size_t>(i / 8)] >> (i % 8)) & 1;
    return dense;
  }
  const size_t element_bytes = static_cast<size_t>(ir::StorageBytes(et));
  if (raw.size() == element_bytes) {
    dense.splat = true;  // one stored element: a splat, or the only element
  } else if (static_cast<uint64_t>(n) > raw.size() / element_bytes || raw.size() != static_cast<size_t>(n) * element_bytes) {
    return Fail(what, std::to_string(element_bytes) + " bytes per element of " + type.ToString() + ", found " +
                          std::to_string(raw.size()) + " bytes");
  }
  dense.bytes = raw;
  return dense;
}

StatusOr<std::vector<int64_t>> TensorInts(const DecodedAttr& attr, const std::string& what) {
  HLOGRAPH_ASSIGN(ir::DenseElementsAttr dense, ConvertDense(attr, what));
  const ir::ElementType et = dense.type.element();
  if (!ir::IsInteger(et) && !ir::IsBool(et)) return Fail(what, "a tensor of integers");
  const int64_t n = dense.type.NumElements();
  // A splat spells any count in a few bytes; lists of dimensions are short.
  constexpr int64_t kMaxInts = int64_t{1} << 20;
  if (n > kMaxInts) return Fail(what, "at most " + std::to_string(kMaxInts) + " integers, found " + std::to_string(n));
  const size_t width = static_cast<size_t>(ir::StorageBytes(et));
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* p = dense.bytes.data() + (dense.splat ? 0 : static_cast<size_t>(i) * width);
    uint64_t bits = 0;
    for (size_t b = 0; b < width; ++b) bits |= static_cast<uint64_t>(p[b]) << (8 * b);
    int64_t v = static_cast<int64_t>(bits);
    if (width < 8 && ir::IsSignedInteger(et)) {
      uint64_t sign = uint64_t{1} << (8 * width - 1);
      v = static_cast<int64_t>((bits ^ sign) - sign);
    }
    values[static_cast<size_t>(i)] = v;
  }
  return values;
}

StatusOr<ir::Attribute> ConvertGeneric(const DecodedAttr& attr, const std::string& what) {
  using Kind = DecodedAttr::Kind;
  switch (attr.kind) {
    case Kind::kArray: {
      ir::ArrayAttr array;
      for (const AttrPtr& e : attr.elements) {
        HLOGRAPH_ASSIGN(ir::Attribute converted, ConvertGeneric(*e, what));
        array.elements.push_back(std::move(converted));
      }
      return ir::Attribute::Make(std::move(array));
    }
    case Kind::kBool:
      return ir::MakeBool(attr.value);
    case Kind::kEnum:
      if (attr.enum_name.empty()) {  // custom_call's api_version: an i32 in StableHLO
        return ir::Attribute::Make(ir::IntegerAttr{std::stoll(attr.text), ir::ElementType::kI32});
      }
      return ir::MakeEnum(attr.enum_name, attr.text);
    case Kind::kDict: {
      ir::DictionaryAttr dict;
      for (size_t i = 0; i < attr.elements.size(); ++i) {
        HLOGRAPH_ASSIGN(ir::Attribute converted, ConvertGeneric(*attr.elements[i], what));
        dict.entries.emplace_back(attr.names[i], std::move(converted));
      }
      std::stable_sort(dict.entries.begin(), dict.entries.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      return ir::Attribute::Make(std::move(dict));
    }
    case Kind::kFloat:
      return ir::Attribute::Make(ir::FloatAttr{static_cast<uint64_t>(attr.integer), attr.type->element});
    case Kind::kInteger: {
      ir::IntegerAttr integer{attr.integer, attr.type->element};
      if (integer.type == ir::ElementType::kIndex) {
        integer.type = ir::ElementType::kI64;
        integer.is_index = true;
      }
      return ir::Attribute::Make(integer);
    }
    case Kind::kString:
      return ir::MakeString(attr.text);
    case Kind::kTensor: {
      HLOGRAPH_ASSIGN(ir::DenseElementsAttr dense, ConvertDense(attr, what));
      return ir::Attribute::Make(std::move(dense));
    }
    case Kind::kDenseArray: {
      // Integers sign-extended from their width; floats kept as their bits.
      const ir::ElementType e = attr.type->element;
      const size_t width = e == ir::ElementType::kI1 ? 1 : static_cast<size_t>(ir::BitWidth(e) / 8);
      ir::DenseArrayAttr array{e, {}};
      for (size_t i = 0; i + width <= attr.bytes.size(); i += width) {
        uint64_t bits = 0;
        for (size_t b = 0; b < width; ++b) bits |= static_cast<uint64_t>(attr.bytes[i + b]) << (8 * b);
        int64_t v = static_cast<int64_t>(bits);
        if (width < 8 && ir::IsSignedInteger(e)) {
          const uint64_t sign = uint64_t{1} << (8 * width - 1);
          v = static_cast<int64_t>((bits ^ sign) - sign);
        }
        if (e == ir::ElementType::kI1) v = bits != 0;
        array.values.push_back(v);
      }
      return ir::Attribute::Make(std::move(array));
    }
    case Kind::kType: {
      if (attr.type->kind == DecodedType::Kind::kFunction) {
        ir::FunctionType fn;
        if (!ToIrFunctionType(*attr.type, fn)) return Fail(what, "a function type of value types");
        return ir::Attribute::Make(ir::FunctionTypeAttr{std::move(fn)});
      }
      ir::Type type;
      if (!ToIrType(*attr.type, type)) return Fail(what, "a type attribute holding a value type");
      return ir::Attribute::Make(ir::TypeAttr{type});
    }
    case Kind::kOutputOperandAlias:
      return ir::Attribute::Make(ir::OutputOperandAliasAttr{attr.ints[0], attr.ints[1][0], attr.ints[2]});
    case Kind::kUnit:
      return ir::Attribute::Make(ir::UnitAttr{});
    case Kind::kSymbolRef:
      return ir::Attribute::Make(ir::SymbolRefAttr{attr.text});
    case Kind::kOpaque:
      // Spelled here from its parts; the text front end makes of it what it
      // makes of the same text in a .mlir file.
      if (!attr.enum_name.empty()) return Fail(what, "an attribute, found a part of one (" + attr.enum_name + ")");
      return ParseAttributeText(attr.text, what);
    case Kind::kAsmText:
      return ParseAttributeText(attr.text, what);
    case Kind::kResultAccuracy: {
      // Spelled as StableHLO prints it (fields at their defaults left out),
      // then read by the text front end, as the text form of the op would be.
      std::string text = "#stablehlo.result_accuracy<";
      std::string sep;
      if (attr.atol_bits != 0) text += "atol = " + ir::FormatFloatBits(attr.atol_bits, ir::ElementType::kF64), sep = ", ";
      if (attr.rtol_bits != 0) text += sep + "rtol = " + ir::FormatFloatBits(attr.rtol_bits, ir::ElementType::kF64), sep = ", ";
      if (attr.integer != 0) text += sep + "ulps = " + std::to_string(attr.integer), sep = ", ";
      text += sep + "mode = #stablehlo.result_accuracy_mode<" + attr.text + ">>";
      return ParseAttributeText(text, what);
    }
    case Kind::kLocation:
      return Fail(what, "an attribute, found a source location");
  }
  return Fail(what, "a known attribute kind");
}

}  // namespace hlograph::frontend::bytecode

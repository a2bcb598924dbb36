// The builtin dialect's encodings, which a portable artifact uses for the
// module op's attributes and for source locations.
#include <optional>

#include "frontend/bytecode/attr_type_table.h"

namespace hlograph::frontend::bytecode {
namespace {

using ir::ElementType;

std::optional<ElementType> IntegerOf(uint64_t width, uint64_t signedness) {
  bool is_unsigned = signedness == 2;
  switch (width) {
    case 1: return is_unsigned ? std::nullopt : std::optional(ElementType::kI1);
    case 2: return is_unsigned ? ElementType::kU2 : ElementType::kI2;
    case 4: return is_unsigned ? ElementType::kU4 : ElementType::kI4;
    case 8: return is_unsigned ? ElementType::kU8 : ElementType::kI8;
    case 16: return is_unsigned ? ElementType::kU16 : ElementType::kI16;
    case 32: return is_unsigned ? ElementType::kU32 : ElementType::kI32;
    case 64: return is_unsigned ? ElementType::kU64 : ElementType::kI64;
    default: return std::nullopt;
  }
}

// Source locations (MLIR's builtin location attributes).
StatusOr<ir::LocationPtr> ReadLocation(AttrTypeTable& table, ByteReader& r, uint64_t code) {
  auto loc = std::make_shared<ir::Location>();
  auto child = [&](const char* what) -> StatusOr<ir::LocationPtr> {
    AttrPtr a;
    size_t at = r.offset();
    HLOGRAPH_TRY(table.ReadAttr(r, a, what));
    if (a->kind != DecodedAttr::Kind::kLocation || !a->location) return r.ErrorAt(at, std::string(what) + " that is a location");
    return a->location;
  };
  auto string = [&](const char* what, std::string& out) -> Status {
    AttrPtr a;
    size_t at = r.offset();
    HLOGRAPH_TRY(table.ReadAttr(r, a, what));
    if (a->kind != DecodedAttr::Kind::kString) return r.ErrorAt(at, std::string(what) + " that is a string");
    out = a->text;
    return Status::Ok();
  };
  switch (code) {
    case 10: {  // callsite(callee at caller)
      loc->kind = ir::Location::Kind::kCallSite;
      HLOGRAPH_ASSIGN(ir::LocationPtr callee, child("a callee location"));
      HLOGRAPH_ASSIGN(ir::LocationPtr caller, child("a caller location"));
      loc->children = {callee, caller};
      break;
    }
    case 11: {  // "file":line:col
      loc->kind = ir::Location::Kind::kFile;
      uint64_t line = 0, col = 0;
      HLOGRAPH_TRY(string("a file name", loc->name));
      HLOGRAPH_TRY(r.ReadVarInt(line, "a line"));
      HLOGRAPH_TRY(r.ReadVarInt(col, "a column"));
      loc->line = static_cast<uint32_t>(line);
      loc->col = static_cast<uint32_t>(col);
      break;
    }
    case 22: {  // "file":line:col to ...; the IR keeps where a range starts
      loc->kind = ir::Location::Kind::kFile;
      HLOGRAPH_TRY(string("a file name", loc->name));
      uint64_t count = 0;
      HLOGRAPH_TRY(r.ReadVarInt(count, "the number of a range's lines and columns"));
      if (count > 4) return r.Error("at most 4 lines and columns in a location range, found " + std::to_string(count));
      uint64_t parts[4] = {0, 0, 0, 0};
      for (uint64_t i = 0; i < count; ++i) HLOGRAPH_TRY(r.ReadVarInt(parts[i], "a line or column"));
      loc->line = static_cast<uint32_t>(parts[0]);
      loc->col = static_cast<uint32_t>(parts[1]);
      break;
    }
    case 12:
    case 13: {  // fused[...], with metadata hlograph does not keep
      loc->kind = ir::Location::Kind::kFused;
      uint64_t count = 0;
      HLOGRAPH_TRY(table.ReadCount(r, count, "the number of fused locations"));
      for (uint64_t i = 0; i < count; ++i) {
        HLOGRAPH_ASSIGN(ir::LocationPtr part, child("a fused location"));
        loc->children.push_back(std::move(part));
      }
      if (code == 13) {
        AttrPtr metadata;
        HLOGRAPH_TRY(table.ReadAttr(r, metadata, "fused location metadata"));
        if (metadata->kind == DecodedAttr::Kind::kString) loc->fused_metadata = "\"" + metadata->text + "\"";
      }
      break;
    }
    case 14: {  // "name"(child)
      loc->kind = ir::Location::Kind::kName;
      HLOGRAPH_TRY(string("a location name", loc->name));
      HLOGRAPH_ASSIGN(ir::LocationPtr inner, child("a named location's child"));
      if (inner->kind != ir::Location::Kind::kUnknown) loc->children.push_back(std::move(inner));
      break;
    }
    default:
      break;  // unknown
  }
  return ir::LocationPtr(std::move(loc));
}

}  // namespace

Status DecodeBuiltinType(AttrTypeTable& table, ByteReader& r, TypePtr& out) {
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a builtin type code"));
  auto type = std::make_shared<DecodedType>();
  switch (code) {
    case 0: {  // integer: (width << 2) | signedness
      uint64_t encoding = 0;
      HLOGRAPH_TRY(r.ReadVarInt(encoding, "an integer type's width"));
      auto element = IntegerOf(encoding >> 2, encoding & 3);
      if (!element) return r.ErrorAt(at, "an integer type of 1 to 64 bits, found i" + std::to_string(encoding >> 2));
      type->element = *element;
      break;
    }
    case 1: type->element = ElementType::kIndex; break;
    case 2:
      type->kind = DecodedType::Kind::kFunction;
      HLOGRAPH_TRY(table.ReadTypeList(r, type->elements, "function inputs"));
      HLOGRAPH_TRY(table.ReadTypeList(r, type->results, "function results"));
      break;
    case 3: type->element = ElementType::kBF16; break;
    case 4: type->element = ElementType::kF16; break;
    case 5: type->element = ElementType::kF32; break;
    case 6: type->element = ElementType::kF64; break;
    case 9: {
      TypePtr part;
      HLOGRAPH_TRY(table.ReadType(r, part, "the element type of a complex type"));
      std::optional<ElementType> complex;
      if (part->kind == DecodedType::Kind::kElement) complex = ir::ComplexOf(part->element);
      if (!complex) return r.ErrorAt(at, "a complex type of f32 or f64");
      type->element = *complex;
      break;
    }
    case 12: type->kind = DecodedType::Kind::kNone; break;
    case 13: {
      HLOGRAPH_TRY(table.ReadTensorType(r, *type));
      break;
    }
    case 15:
      type->kind = DecodedType::Kind::kTuple;
      HLOGRAPH_TRY(table.ReadTypeList(r, type->elements, "tuple elements"));
      break;
    default:
      return r.ErrorAt(at, "a builtin type hlograph supports, found type code " + std::to_string(code));
  }
  out = std::move(type);
  return Status::Ok();
}

Status DecodeBuiltinAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out) {
  using Kind = DecodedAttr::Kind;
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a builtin attribute code"));
  auto attr = std::make_shared<DecodedAttr>();
  switch (code) {
    case 0: {
      attr->kind = Kind::kArray;
      uint64_t count = 0;
      HLOGRAPH_TRY(table.ReadCount(r, count, "the number of array elements"));
      attr->elements.resize(static_cast<size_t>(count));
      for (AttrPtr& e : attr->elements) HLOGRAPH_TRY(table.ReadAttr(r, e, "an array element"));
      break;
    }
    case 1: {
      HLOGRAPH_TRY(table.ReadDictionary(r, *attr));
      break;
    }
    case 2:
    case 3: {
      attr->kind = Kind::kString;
      HLOGRAPH_TRY(table.ReadString(r, attr->text, "a string"));
      if (code == 3) HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a string"));
      break;
    }
    case 4: {
      attr->kind = Kind::kSymbolRef;
      AttrPtr root;
      HLOGRAPH_TRY(table.ReadAttr(r, root, "a symbol name"));
      if (root->kind != Kind::kString) return r.ErrorAt(at, "a symbol reference whose name is a string");
      attr->text = root->text;
      break;
    }
    case 6:
      attr->kind = Kind::kType;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a type attribute"));
      break;
    case 7:
      attr->kind = Kind::kUnit;
      break;
    case 8: {
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of an integer"));
      ElementType t = attr->type->element;
      if (attr->type->kind != DecodedType::Kind::kElement || ir::IsFloat(t) || ir::IsComplex(t)) {
        return r.ErrorAt(at, "an integer attribute of an integer type");
      }
      uint64_t bits = 0;
      int width = t == ElementType::kIndex ? 64 : ir::BitWidth(t);
      HLOGRAPH_TRY(ReadApInt(r, width, bits, "an integer value"));
      if (ir::IsBool(t)) {
        attr->kind = Kind::kBool;  // MLIR's BoolAttr is an i1 IntegerAttr
        attr->value = bits != 0;
        break;
      }
      attr->kind = Kind::kInteger;
      int64_t value = static_cast<int64_t>(bits);
      if (width < 64 && ir::IsSignedInteger(t)) {
        uint64_t sign = uint64_t{1} << (width - 1);
        value = static_cast<int64_t>((bits ^ sign) - sign);
      }
      attr->integer = value;
      break;
    }
    case 9: {
      attr->kind = Kind::kFloat;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a float"));
      if (attr->type->kind != DecodedType::Kind::kElement || !ir::IsFloat(attr->type->element)) {
        return r.ErrorAt(at, "a float attribute of a float type");
      }
      uint64_t bits = 0;
      HLOGRAPH_TRY(ReadApInt(r, ir::BitWidth(attr->type->element), bits, "the bits of a float"));
      attr->integer = static_cast<int64_t>(bits);
      break;
    }
    case 10: case 11: case 12: case 13: case 14: case 15: case 22: {
      attr->kind = Kind::kLocation;
      HLOGRAPH_ASSIGN(attr->location, ReadLocation(table, r, code));
      break;
    }
    case 17: {  // array<E: ...>: element type, element count, raw little-endian data
      attr->kind = Kind::kDenseArray;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the element type of a dense array"));
      if (attr->type->kind != DecodedType::Kind::kElement) return r.ErrorAt(at, "a dense array of an element type");
      uint64_t count = 0, size = 0;
      Bytes data;
      HLOGRAPH_TRY(r.ReadVarInt(count, "the number of dense array elements"));
      HLOGRAPH_TRY(r.ReadVarInt(size, "the size of dense array data"));
      HLOGRAPH_TRY(r.ReadBytes(static_cast<size_t>(size), data, "dense array data"));
      const ElementType e = attr->type->element;
      // MLIR's DenseArrayAttr holds i1 (a byte each), i8 to i64, f32 and f64.
      const bool known = e == ElementType::kI1 || e == ElementType::kI8 || e == ElementType::kI16 ||
                         e == ElementType::kI32 || e == ElementType::kI64 || e == ElementType::kF32 ||
                         e == ElementType::kF64;
      if (!known) return r.ErrorAt(at, "a dense array of i1, i8, i16, i32, i64, f32 or f64");
      const uint64_t width = e == ElementType::kI1 ? 1 : static_cast<uint64_t>(ir::BitWidth(e) / 8);
      if (count > size || count * width != size) {
        return r.ErrorAt(at, "a dense array of " + std::to_string(count) + " elements of " + std::to_string(width) +
                                 " bytes, found " + std::to_string(size) + " bytes of data");
      }
      attr->integer = static_cast<int64_t>(count);
      attr->bytes.assign(data.begin(), data.end());
      break;
    }
    case 18: {
      attr->kind = Kind::kTensor;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a dense attribute"));
      if (attr->type->kind != DecodedType::Kind::kTensor) return r.ErrorAt(at, "a dense attribute of a tensor type");
      uint64_t size = 0;
      Bytes data;
      HLOGRAPH_TRY(r.ReadVarInt(size, "the size of dense data"));
      HLOGRAPH_TRY(r.ReadBytes(static_cast<size_t>(size), data, "dense data"));
      attr->bytes.assign(data.begin(), data.end());
      break;
    }
    default:
      return r.ErrorAt(at, "a builtin attribute hlograph supports, found attribute code " + std::to_string(code));
  }
  out = std::move(attr);
  return Status::Ok();
}

}  // namespace hlograph::frontend::bytecode

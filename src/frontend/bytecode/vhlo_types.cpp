// VHLO's type encodings: a varint code, then the type's fields.
#include <cstring>
#include <memory>
#include <optional>

#include "frontend/bytecode/attr_type_table.h"

namespace hlograph::frontend::bytecode {
namespace {

using ir::ElementType;

// Codes of VHLO's element types (their numbering is fixed by the format).
std::optional<ElementType> ElementOfCode(uint64_t code) {
  switch (code) {
    case 0: return ElementType::kI1;
    case 2: return ElementType::kBF16;
    case 3: return ElementType::kF16;
    case 4: return ElementType::kF32;
    case 5: return ElementType::kF64;
    case 6: return ElementType::kF8E4M3FN;
    case 7: return ElementType::kF8E5M2;
    case 9: return ElementType::kIndex;
    case 10: return ElementType::kI4;
    case 11: return ElementType::kI8;
    case 12: return ElementType::kI16;
    case 13: return ElementType::kI32;
    case 14: return ElementType::kI64;
    case 15: return ElementType::kU4;
    case 16: return ElementType::kU8;
    case 17: return ElementType::kU16;
    case 18: return ElementType::kU32;
    case 19: return ElementType::kU64;
    case 27: return ElementType::kF8E4M3FNUZ;
    case 28: return ElementType::kF8E5M2FNUZ;
    case 29: return ElementType::kF8E4M3B11FNUZ;
    case 31: return ElementType::kI2;
    case 32: return ElementType::kU2;
    case 34: return ElementType::kTF32;
    case 35: return ElementType::kF8E4M3;
    case 36: return ElementType::kF8E3M4;
    case 37: return ElementType::kF4E2M1FN;
    case 38: return ElementType::kF6E2M3FN;
    case 39: return ElementType::kF6E3M2FN;
    case 40: return ElementType::kF8E8M0FNU;
    default: return std::nullopt;
  }
}

enum TypeCode : uint64_t {
  kComplex = 1,
  kFunction = 8,
  kRankedTensor = 20,
  kRankedTensorWithEncoding = 21,
  kToken = 22,
  kTuple = 23,
  kUniformQuantized = 24,
  kUnrankedTensor = 25,
  kUniformQuantizedPerAxis = 30,
  kNone = 33,
};

// VHLO's UniformQuantizedV1 / UniformQuantizedPerAxisV1 after their code:
//   flags (bit 0: signed), storage type, expressed type, then
//   per tensor: scale (f64 bits as a signed varint), zero point, storage min, max;
//   per axis:   quantized dimension, storage min, max, [scales], [zero points].
Status DecodeQuantized(AttrTypeTable& table, ByteReader& r, bool per_axis, size_t at, DecodedType& type) {
  auto q = std::make_shared<ir::QuantParams>();
  uint64_t flags = 0;
  HLOGRAPH_TRY(r.ReadVarInt(flags, "the flags of a quantized type"));
  TypePtr storage, expressed;
  HLOGRAPH_TRY(table.ReadType(r, storage, "the storage type of a quantized type"));
  HLOGRAPH_TRY(table.ReadType(r, expressed, "the expressed type of a quantized type"));
  if (storage->kind != DecodedType::Kind::kElement || !ir::IsInteger(storage->element) ||
      storage->element == ElementType::kIndex) {
    return r.ErrorAt(at, "a quantized type with an integer storage type");
  }
  if (expressed->kind != DecodedType::Kind::kElement || !ir::IsFloat(expressed->element)) {
    return r.ErrorAt(at, "a quantized type with a floating-point expressed type");
  }
  // MLIR keeps `u8` as a signless i8 without the signed flag, `ui8` as ui8.
  const ElementType e = storage->element;
  if (ir::IsUnsignedInteger(e)) {
    q->storage = e;
  } else if ((flags & 1) != 0) {
    q->storage = e;
  } else {
    const auto unsigned_name = "ui" + std::to_string(ir::BitWidth(e));
    const auto u = ir::ElementTypeFromName(unsigned_name);
    if (!u) return r.ErrorAt(at, "a quantized type with a supported storage type");
    q->storage = *u;
    q->unsigned_spelled_u = true;
  }
  q->expressed = expressed->element;
  auto read_scale = [&](double& scale) {
    int64_t bits = 0;
    HLOGRAPH_TRY(r.ReadSignedVarInt(bits, "a quantization scale"));
    std::memcpy(&scale, &bits, sizeof(scale));
    return Status::Ok();
  };
  if (!per_axis) {
    double scale = 0;
    int64_t zero_point = 0;
    HLOGRAPH_TRY(read_scale(scale));
    HLOGRAPH_TRY(r.ReadSignedVarInt(zero_point, "a zero point"));
    q->scales.push_back(scale);
    q->zero_points.push_back(zero_point);
    HLOGRAPH_TRY(r.ReadSignedVarInt(q->storage_min, "the storage minimum of a quantized type"));
    HLOGRAPH_TRY(r.ReadSignedVarInt(q->storage_max, "the storage maximum of a quantized type"));
  } else {
    uint64_t dim = 0;
    HLOGRAPH_TRY(r.ReadVarInt(dim, "the quantization dimension"));
    if (dim > 64) return r.ErrorAt(at, "a quantization dimension below 64, found " + std::to_string(dim));
    q->quantized_dimension = static_cast<int32_t>(dim);
    HLOGRAPH_TRY(r.ReadSignedVarInt(q->storage_min, "the storage minimum of a quantized type"));
    HLOGRAPH_TRY(r.ReadSignedVarInt(q->storage_max, "the storage maximum of a quantized type"));
    uint64_t count = 0;
    HLOGRAPH_TRY(table.ReadCount(r, count, "the number of scales"));
    q->scales.resize(static_cast<size_t>(count));
    for (double& scale : q->scales) HLOGRAPH_TRY(read_scale(scale));
    HLOGRAPH_TRY(table.ReadCount(r, count, "the number of zero points"));
    q->zero_points.resize(static_cast<size_t>(count));
    for (int64_t& z : q->zero_points) HLOGRAPH_TRY(r.ReadSignedVarInt(z, "a zero point"));
  }
  const std::string invalid = q->Invalid();
  if (!invalid.empty()) return r.ErrorAt(at, "a valid quantized type: " + invalid);
  type.kind = DecodedType::Kind::kElement;
  type.element = q->storage;
  type.quant = std::move(q);
  return Status::Ok();
}

}  // namespace

Status DecodeVhloType(AttrTypeTable& table, ByteReader& r, TypePtr& out) {
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a VHLO type code"));
  auto type = std::make_shared<DecodedType>();
  if (auto element = ElementOfCode(code)) {
    type->kind = DecodedType::Kind::kElement;
    type->element = *element;
    out = std::move(type);
    return Status::Ok();
  }
  switch (code) {
    case kComplex: {
      TypePtr part;
      HLOGRAPH_TRY(table.ReadType(r, part, "the element type of a complex type"));
      std::optional<ElementType> complex;
      if (part->kind == DecodedType::Kind::kElement) complex = ir::ComplexOf(part->element);
      if (!complex) return r.ErrorAt(at, "a complex type of f32 or f64");
      type->element = *complex;
      break;
    }
    case kFunction:
      type->kind = DecodedType::Kind::kFunction;
      HLOGRAPH_TRY(table.ReadTypeList(r, type->elements, "function inputs"));
      HLOGRAPH_TRY(table.ReadTypeList(r, type->results, "function results"));
      break;
    case kRankedTensorWithEncoding:
    case kRankedTensor: {
      if (code == kRankedTensorWithEncoding) {
        return r.ErrorAt(at, "a tensor type without an encoding (hlograph has no bounded dynamic shapes)");
      }
      HLOGRAPH_TRY(table.ReadTensorType(r, *type));
      break;
    }
    case kToken:
      type->kind = DecodedType::Kind::kToken;
      break;
    case kTuple:
      type->kind = DecodedType::Kind::kTuple;
      HLOGRAPH_TRY(table.ReadTypeList(r, type->elements, "tuple elements"));
      break;
    case kNone:
      type->kind = DecodedType::Kind::kNone;
      break;
    case kUniformQuantized:
    case kUniformQuantizedPerAxis:
      HLOGRAPH_TRY(DecodeQuantized(table, r, code == kUniformQuantizedPerAxis, at, *type));
      break;
    case kUnrankedTensor:
      return r.ErrorAt(at, "a ranked tensor type, found an unranked one (not supported)");
    default:
      return r.ErrorAt(at, "a known VHLO type code, found " + std::to_string(code));
  }
  out = std::move(type);
  return Status::Ok();
}

bool ToIrType(const DecodedType& type, ir::Type& out) {
  switch (type.kind) {
    case DecodedType::Kind::kTensor:
      out = type.quant ? ir::Type::QuantizedTensor(type.quant, type.shape) : ir::Type::Tensor(type.element, type.shape);
      return true;
    case DecodedType::Kind::kToken:
      out = ir::Type::Token();
      return true;
    case DecodedType::Kind::kTuple: {
      std::vector<ir::Type> elements(type.elements.size());
      for (size_t i = 0; i < elements.size(); ++i) {
        if (!ToIrType(*type.elements[i], elements[i])) return false;
      }
      out = ir::Type::Tuple(std::move(elements));
      return true;
    }
    default:
      return false;
  }
}

bool ToIrFunctionType(const DecodedType& type, ir::FunctionType& out) {
  if (type.kind != DecodedType::Kind::kFunction) return false;
  out = ir::FunctionType{};
  for (const TypePtr& t : type.elements) {
    if (!ToIrType(*t, out.inputs.emplace_back())) return false;
  }
  for (const TypePtr& t : type.results) {
    if (!ToIrType(*t, out.results.emplace_back())) return false;
  }
  return true;
}

}  // namespace hlograph::frontend::bytecode

#include "frontend/bytecode/attr_type_table.h"

namespace hlograph::frontend::bytecode {
namespace {

// Nesting deeper than this is hostile input, not a program.
constexpr int kMaxDepth = 100;

std::string EntryName(const char* kind, size_t index, const Container& c, const AttrTypeEntry& e) {
  return std::string(kind) + " #" + std::to_string(index) + " (dialect " + c.dialects[e.dialect].name + ")";
}

}  // namespace

AttrTypeTable::AttrTypeTable(const Container& container)
    : container_(container),
      types_(container.types.size()),
      attrs_(container.attributes.size()),
      type_state_(container.types.size(), State::kUnread),
      attr_state_(container.attributes.size(), State::kUnread) {}

Status AttrTypeTable::DecodeType(size_t index) {
  const AttrTypeEntry& e = container_.types[index];
  ByteReader r(e.data, e.offset, EntryName("type", index, container_, e));
  const std::string& dialect = container_.dialects[e.dialect].name;
  TypePtr out;
  if (!e.custom_encoding) {
    std::string_view text;
    HLOGRAPH_TRY(r.ReadNullTerminated(text, "the assembly text of a type"));
    return r.Error("a type hlograph can decode (VHLO or builtin), found the text form '" + std::string(text) + "'");
  }
  if (dialect == "vhlo") {
    HLOGRAPH_TRY(DecodeVhloType(*this, r, out));
  } else if (dialect == "builtin") {
    HLOGRAPH_TRY(DecodeBuiltinType(*this, r, out));
  } else {
    return r.Error("a type of the vhlo or builtin dialect, found one of '" + dialect + "'");
  }
  if (!r.empty()) return r.Error("the end of the type's encoding");
  types_[index] = std::move(out);
  return Status::Ok();
}

Status AttrTypeTable::DecodeAttr(size_t index) {
  const AttrTypeEntry& e = container_.attributes[index];
  ByteReader r(e.data, e.offset, EntryName("attribute", index, container_, e));
  const std::string& dialect = container_.dialects[e.dialect].name;
  auto out = std::make_shared<DecodedAttr>();
  if (!e.custom_encoding) {
    std::string_view text;
    HLOGRAPH_TRY(r.ReadNullTerminated(text, "the assembly text of an attribute"));
    out->kind = text.starts_with("loc(") ? DecodedAttr::Kind::kLocation : DecodedAttr::Kind::kAsmText;
    out->text = std::string(text);
    attrs_[index] = std::move(out);
  } else {
    AttrPtr decoded;
    if (dialect == "vhlo") {
      HLOGRAPH_TRY(DecodeVhloAttr(*this, r, decoded));
    } else if (dialect == "builtin") {
      HLOGRAPH_TRY(DecodeBuiltinAttr(*this, r, decoded));
    } else if (dialect == "sdy") {
      HLOGRAPH_TRY(DecodeShardyAttr(*this, r, decoded));
    } else {
      return r.Error("an attribute of the vhlo, builtin or sdy dialect, found one of '" + dialect + "'");
    }
    attrs_[index] = std::move(decoded);
  }
  if (!r.empty()) return r.Error("the end of the attribute's encoding");
  return Status::Ok();
}

StatusOr<TypePtr> AttrTypeTable::Type(uint64_t index) {
  if (index >= types_.size()) {
    return Status::Error("bytecode: a type index below " + std::to_string(types_.size()) + ", found " +
                         std::to_string(index));
  }
  size_t i = static_cast<size_t>(index);
  if (type_state_[i] == State::kDone) return types_[i];
  const AttrTypeEntry& e = container_.types[i];
  if (type_state_[i] == State::kReading || depth_ >= kMaxDepth) {
    return Status::Error("bytecode: type #" + std::to_string(i) + ", byte " + std::to_string(e.offset) +
                         ": expected a type that does not contain itself or nest deeper than " +
                         std::to_string(kMaxDepth));
  }
  type_state_[i] = State::kReading;
  ++depth_;
  Status s = DecodeType(i);
  --depth_;
  if (!s.ok()) {
    type_state_[i] = State::kUnread;
    return s;
  }
  type_state_[i] = State::kDone;
  return types_[i];
}

StatusOr<AttrPtr> AttrTypeTable::Attr(uint64_t index) {
  if (index >= attrs_.size()) {
    return Status::Error("bytecode: an attribute index below " + std::to_string(attrs_.size()) + ", found " +
                         std::to_string(index));
  }
  size_t i = static_cast<size_t>(index);
  if (attr_state_[i] == State::kDone) return attrs_[i];
  const AttrTypeEntry& e = container_.attributes[i];
  if (attr_state_[i] == State::kReading || depth_ >= kMaxDepth) {
    return Status::Error("bytecode: attribute #" + std::to_string(i) + ", byte " + std::to_string(e.offset) +
                         ": expected an attribute that does not contain itself or nest deeper than " +
                         std::to_string(kMaxDepth));
  }
  attr_state_[i] = State::kReading;
  ++depth_;
  Status s = DecodeAttr(i);
  --depth_;
  if (!s.ok()) {
    attr_state_[i] = State::kUnread;
    return s;
  }
  attr_state_[i] = State::kDone;
  return attrs_[i];
}

Status AttrTypeTable::ReadType(ByteReader& r, TypePtr& out, std::string_view what) {
  uint64_t index = 0;
  size_t at = r.offset();
  HLOGRAPH_TRY(r.ReadVarInt(index, what));
  if (index >= types_.size()) {
    return r.ErrorAt(at, std::string(what) + " (a type index below " + std::to_string(types_.size()) + "), found " +
                             std::to_string(index));
  }
  HLOGRAPH_ASSIGN(out, Type(index));
  return Status::Ok();
}

Status AttrTypeTable::ReadAttr(ByteReader& r, AttrPtr& out, std::string_view what) {
  uint64_t index = 0;
  size_t at = r.offset();
  HLOGRAPH_TRY(r.ReadVarInt(index, what));
  if (index >= attrs_.size()) {
    return r.ErrorAt(at, std::string(what) + " (an attribute index below " + std::to_string(attrs_.size()) +
                             "), found " + std::to_string(index));
  }
  HLOGRAPH_ASSIGN(out, Attr(index));
  return Status::Ok();
}

Status AttrTypeTable::ReadString(ByteReader& r, std::string& out, std::string_view what) {
  uint64_t index = 0;
  size_t at = r.offset();
  HLOGRAPH_TRY(r.ReadVarInt(index, what));
  if (index >= container_.strings.size()) {
    return r.ErrorAt(at, std::string(what) + " (a string index below " + std::to_string(container_.strings.size()) +
                             "), found " + std::to_string(index));
  }
  out = container_.strings[static_cast<size_t>(index)];
  return Status::Ok();
}

Status AttrTypeTable::ReadCount(ByteReader& r, uint64_t& count, std::string_view what) {
  size_t at = r.offset();
  HLOGRAPH_TRY(r.ReadVarInt(count, what));
  if (count > r.remaining()) {
    return r.ErrorAt(at, std::string(what) + " no larger than the " + std::to_string(r.remaining()) +
                             " bytes left, found " + std::to_string(count));
  }
  return Status::Ok();
}

Status AttrTypeTable::ReadTypeList(ByteReader& r, std::vector<TypePtr>& out, std::string_view what) {
  uint64_t count = 0;
  HLOGRAPH_TRY(ReadCount(r, count, std::string("the number of ") + std::string(what)));
  out.resize(static_cast<size_t>(count));
  for (TypePtr& t : out) HLOGRAPH_TRY(ReadType(r, t, what));
  return Status::Ok();
}

Status AttrTypeTable::ReadTensorType(ByteReader& r, DecodedType& type) {
  type.kind = DecodedType::Kind::kTensor;
  uint64_t rank = 0;
  HLOGRAPH_TRY(ReadCount(r, rank, "the rank of a tensor type"));
  type.shape.resize(static_cast<size_t>(rank));
  for (int64_t& dim : type.shape) {
    HLOGRAPH_TRY(r.ReadSignedVarInt(dim, "a tensor dimension"));
    if (dim < 0) return r.Error("a static tensor dimension (hlograph has no dynamic shapes), found " + std::to_string(dim));
  }
  TypePtr element;
  HLOGRAPH_TRY(ReadType(r, element, "the element type of a tensor type"));
  if (element->kind != DecodedType::Kind::kElement) return r.Error("a tensor of a scalar element type");
  type.element = element->element;
  type.quant = element->quant;
  return Status::Ok();
}

Status AttrTypeTable::ReadDictionary(ByteReader& r, DecodedAttr& dict) {
  dict.kind = DecodedAttr::Kind::kDict;
  uint64_t count = 0;
  HLOGRAPH_TRY(ReadCount(r, count, "the number of dictionary entries"));
  for (uint64_t i = 0; i < count; ++i) {
    AttrPtr name, value;
    size_t name_at = r.offset();
    HLOGRAPH_TRY(ReadAttr(r, name, "a dictionary key"));
    if (name->kind != DecodedAttr::Kind::kString) return r.ErrorAt(name_at, "a dictionary key that is a string");
    HLOGRAPH_TRY(ReadAttr(r, value, "a dictionary value"));
    dict.names.push_back(name->text);
    dict.elements.push_back(std::move(value));
  }
  return Status::Ok();
}

Status ReadApInt(ByteReader& r, int bit_width, uint64_t& bits, std::string_view what) {
  if (bit_width <= 8) {
    uint8_t byte = 0;
    HLOGRAPH_TRY(r.ReadByte(byte, what));
    bits = byte;
  } else if (bit_width <= 64) {
    int64_t value = 0;
    HLOGRAPH_TRY(r.ReadSignedVarInt(value, what));
    bits = static_cast<uint64_t>(value);
  } else {
    return r.Error(std::string(what) + " of at most 64 bits, found one of " + std::to_string(bit_width));
  }
  if (bit_width < 64) bits &= (uint64_t{1} << bit_width) - 1;
  return Status::Ok();
}

}  // namespace hlograph::frontend::bytecode

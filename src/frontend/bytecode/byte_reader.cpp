#include "frontend/bytecode/byte_reader.h"

#include <bit>
#include <cstring>

namespace hlograph::frontend::bytecode {

std::string SectionName(uint8_t id) {
  switch (id) {
    case kStringSection: return "string section";
    case kDialectSection: return "dialect section";
    case kAttrTypeSection: return "attribute/type section";
    case kAttrTypeOffsetSection: return "attribute/type offset section";
    case kIrSection: return "IR section";
    case kResourceSection: return "resource section";
    case kResourceOffsetSection: return "resource offset section";
    case kDialectVersionsSection: return "dialect version section";
    case kPropertiesSection: return "properties section";
    default: return "section " + std::to_string(id);
  }
}

Status ByteReader::Error(std::string_view expected) const { return ErrorAt(offset(), expected); }

Status ByteReader::ErrorAt(size_t file_offset, std::string_view expected) const {
  return Status::Error("bytecode: " + where_ + ", byte " + std::to_string(file_offset) + ": expected " +
                       std::string(expected));
}

Status ByteReader::ReadByte(uint8_t& value, std::string_view what) {
  if (empty()) return Error(std::string(what) + " (a byte), found the end of the data");
  value = data_[pos_++];
  return Status::Ok();
}

// PrefixVarInt: the count of trailing zero bits of the first byte is the
// number of further bytes; a zero first byte means eight further bytes.
Status ByteReader::ReadVarInt(uint64_t& value, std::string_view what) {
  size_t start = offset();
  if (empty()) return Error(std::string(what) + " (a varint), found the end of the data");
  uint8_t first = data_[pos_];
  size_t extra = first == 0 ? 8 : static_cast<size_t>(std::countr_zero(first));
  if (remaining() < extra + 1) {
    return ErrorAt(start, std::string(what) + " (a varint of " + std::to_string(extra + 1) + " bytes), found " +
                              std::to_string(remaining()) + " bytes left");
  }
  if (first == 0) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v |= static_cast<uint64_t>(data_[pos_ + 1 + i]) << (8 * i);
    value = v;
  } else {
    uint64_t v = 0;
    for (size_t i = 0; i <= extra; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    value = v >> (extra + 1);
  }
  pos_ += extra + 1;
  return Status::Ok();
}

Status ByteReader::ReadSignedVarInt(int64_t& value, std::string_view what) {
  uint64_t raw = 0;
  HLOGRAPH_TRY(ReadVarInt(raw, what));
  value = static_cast<int64_t>((raw >> 1) ^ (~(raw & 1) + 1));
  return Status::Ok();
}

Status ByteReader::ReadVarIntWithFlag(uint64_t& value, bool& flag, std::string_view what) {
  HLOGRAPH_TRY(ReadVarInt(value, what));
  flag = (value & 1) != 0;
  value >>= 1;
  return Status::Ok();
}

Status ByteReader::ReadBytes(size_t length, Bytes& out, std::string_view what) {
  if (length > remaining()) {
    return Error(std::string(what) + " (" + std::to_string(length) + " bytes), found " +
                 std::to_string(remaining()) + " bytes left");
  }
  out = data_.subspan(pos_, length);
  pos_ += length;
  return Status::Ok();
}

Status ByteReader::ReadNullTerminated(std::string_view& out, std::string_view what) {
  const void* nul = std::memchr(data_.data() + pos_, 0, remaining());
  if (nul == nullptr) return Error(std::string(what) + " ending in a NUL byte, found none");
  size_t length = static_cast<size_t>(static_cast<const uint8_t*>(nul) - (data_.data() + pos_));
  out = std::string_view(reinterpret_cast<const char*>(data_.data() + pos_), length);
  pos_ += length + 1;
  return Status::Ok();
}

Status ByteReader::AlignTo(uint64_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > (1u << 20)) {
    return Error("an alignment that is a power of two (at most 2^20), found " + std::to_string(alignment));
  }
  while (offset() % alignment != 0) {
    uint8_t pad = 0;
    HLOGRAPH_TRY(ReadByte(pad, "alignment padding"));
    if (pad != 0xCB) return ErrorAt(offset() - 1, "alignment padding byte 0xCB, found " + std::to_string(pad));
  }
  return Status::Ok();
}

Status ByteReader::ReadSection(uint8_t& id, ByteReader& contents) {
  size_t start = offset();
  uint8_t id_and_align = 0;
  uint64_t length = 0;
  HLOGRAPH_TRY(ReadByte(id_and_align, "a section id"));
  id = id_and_align & 0x7F;
  if (id >= kNumSections) return ErrorAt(start, "a section id below 9, found " + std::to_string(id));
  HLOGRAPH_TRY(ReadVarInt(length, "the length of the " + SectionName(id)));
  if ((id_and_align & 0x80) != 0) {
    uint64_t alignment = 0;
    HLOGRAPH_TRY(ReadVarInt(alignment, "the alignment of the " + SectionName(id)));
    HLOGRAPH_TRY(AlignTo(alignment));
  }
  if (length > remaining()) {
    return ErrorAt(start, "the " + SectionName(id) + " of " + std::to_string(length) + " bytes, found " +
                              std::to_string(remaining()) + " bytes left");
  }
  size_t data_offset = offset();
  Bytes data = data_.subspan(pos_, static_cast<size_t>(length));
  pos_ += static_cast<size_t>(length);
  contents = ByteReader(data, data_offset, SectionName(id));
  return Status::Ok();
}

ByteReader ByteReader::Sub(Bytes bytes, std::string where) const {
  size_t start = static_cast<size_t>(bytes.data() - data_.data());
  return ByteReader(bytes, file_offset_ + start, std::move(where));
}

}  // namespace hlograph::frontend::bytecode

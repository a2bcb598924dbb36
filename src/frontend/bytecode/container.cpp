#include "frontend/bytecode/container.h"

#include <array>

namespace hlograph::frontend::bytecode {
namespace {

Status ReadStrings(ByteReader r, std::vector<std::string>& strings) {
  uint64_t count = 0;
  HLOGRAPH_TRY(r.ReadVarInt(count, "the number of strings"));
  if (count > r.remaining()) return r.Error("at most one string per byte of the section, found " + std::to_string(count));
  std::vector<uint64_t> sizes(static_cast<size_t>(count));
  // Sizes come in reverse order; the string data fills the end of the section.
  for (size_t i = 0; i < sizes.size(); ++i) {
    HLOGRAPH_TRY(r.ReadVarInt(sizes[sizes.size() - 1 - i], "the size of a string"));
  }
  Bytes data;
  size_t data_offset = r.offset();
  HLOGRAPH_TRY(r.ReadBytes(r.remaining(), data, "the string data"));
  strings.resize(sizes.size());
  size_t pos = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0 || sizes[i] > data.size() - pos) {
      return r.ErrorAt(data_offset + pos, "string #" + std::to_string(i) + " (with its NUL) within the section");
    }
    size_t n = static_cast<size_t>(sizes[i]);
    if (data[pos + n - 1] != 0) return r.ErrorAt(data_offset + pos + n - 1, "the NUL ending string #" + std::to_string(i));
    strings[i].assign(reinterpret_cast<const char*>(data.data() + pos), n - 1);
    pos += n;
  }
  if (pos != data.size()) return r.ErrorAt(data_offset + pos, "no bytes after the last string");
  return Status::Ok();
}

Status StringAt(const ByteReader& r, const std::vector<std::string>& strings, uint64_t index, std::string& out) {
  if (index >= strings.size()) {
    return r.Error("a string index below " + std::to_string(strings.size()) + ", found " + std::to_string(index));
  }
  out = strings[static_cast<size_t>(index)];
  return Status::Ok();
}

Status DialectIndex(ByteReader& r, size_t num_dialects, size_t& out) {
  uint64_t index = 0;
  HLOGRAPH_TRY(r.ReadVarInt(index, "a dialect index"));
  if (index >= num_dialects) {
    return r.Error("a dialect index below " + std::to_string(num_dialects) + ", found " + std::to_string(index));
  }
  out = static_cast<size_t>(index);
  return Status::Ok();
}

Status ReadDialects(ByteReader r, Container& c) {
  uint64_t count = 0;
  HLOGRAPH_TRY(r.ReadVarInt(count, "the number of dialects"));
  if (count > r.remaining()) return r.Error("at most one dialect per byte of the section");
  c.dialects.resize(static_cast<size_t>(count));
  for (DialectEntry& dialect : c.dialects) {
    uint64_t name = 0;
    bool has_version = false;
    if (c.version < kVersionDialectVersioning) {
      HLOGRAPH_TRY(r.ReadVarInt(name, "a dialect name"));
    } else {
      HLOGRAPH_TRY(r.ReadVarIntWithFlag(name, has_version, "a dialect name"));
    }
    HLOGRAPH_TRY(StringAt(r, c.strings, name, dialect.name));
    if (has_version) {
      uint8_t id = 0;
      size_t at = r.offset();
      ByteReader version(Bytes(), 0, "");
      HLOGRAPH_TRY(r.ReadSection(id, version));
      if (id != kDialectVersionsSection) return r.ErrorAt(at, "a dialect version section, found " + SectionName(id));
      HLOGRAPH_TRY(version.ReadBytes(version.remaining(), dialect.version, "the dialect version"));
    }
  }
  if (c.version >= kVersionElideUnknownBlockArgLocation) {
    uint64_t num_ops = 0;
    HLOGRAPH_TRY(r.ReadVarInt(num_ops, "the number of op names"));
  }
  while (!r.empty()) {
    size_t dialect = 0;
    uint64_t num = 0;
    HLOGRAPH_TRY(DialectIndex(r, c.dialects.size(), dialect));
    HLOGRAPH_TRY(r.ReadVarInt(num, "the number of op names of a dialect"));
    if (num > r.remaining()) return r.Error("at most one op name per byte of the section");
    for (uint64_t i = 0; i < num; ++i) {
      OpNameEntry op;
      op.dialect = dialect;
      uint64_t name = 0;
      if (c.version < kVersionNativeProperties) {
        HLOGRAPH_TRY(r.ReadVarInt(name, "an op name"));
      } else {
        bool registered = false;
        HLOGRAPH_TRY(r.ReadVarIntWithFlag(name, registered, "an op name"));
        op.registered = registered;
      }
      HLOGRAPH_TRY(StringAt(r, c.strings, name, op.name));
      c.op_names.push_back(std::move(op));
    }
  }
  return Status::Ok();
}

Status ReadAttrTypeOffsets(ByteReader r, const ByteReader& data_reader, Bytes data, Container& c) {
  uint64_t num_attrs = 0, num_types = 0;
  HLOGRAPH_TRY(r.ReadVarInt(num_attrs, "the number of attributes"));
  HLOGRAPH_TRY(r.ReadVarInt(num_types, "the number of types"));
  if (num_attrs > r.remaining() || num_types > r.remaining()) {
    return r.Error("at most one attribute and one type per byte of the offset section");
  }
  size_t offset = 0;
  auto read_group = [&](std::vector<AttrTypeEntry>& entries, uint64_t total, const char* what) -> Status {
    entries.reserve(static_cast<size_t>(total));
    while (entries.size() < total) {
      size_t dialect = 0;
      uint64_t num = 0;
      HLOGRAPH_TRY(DialectIndex(r, c.dialects.size(), dialect));
      HLOGRAPH_TRY(r.ReadVarInt(num, std::string("the number of ") + what + " of a dialect"));
      if (num > total - entries.size()) {
        return r.Error(std::string("at most ") + std::to_string(total - entries.size()) + " more " + what);
      }
      for (uint64_t i = 0; i < num; ++i) {
        AttrTypeEntry entry;
        entry.dialect = dialect;
        uint64_t size = 0;
        HLOGRAPH_TRY(r.ReadVarIntWithFlag(size, entry.custom_encoding, std::string("the size of one of the ") + what));
        if (size > data.size() - offset) {
          return r.Error(std::string("an entry of the ") + what + " within the attribute/type section (" +
                         std::to_string(data.size() - offset) + " bytes left), found " + std::to_string(size));
        }
        entry.data = data.subspan(offset, static_cast<size_t>(size));
        entry.offset = data_reader.offset() + offset;
        offset += static_cast<size_t>(size);
        entries.push_back(entry);
      }
    }
    return Status::Ok();
  };
  HLOGRAPH_TRY(read_group(c.attributes, num_attrs, "attributes"));
  HLOGRAPH_TRY(read_group(c.types, num_types, "types"));
  if (!r.empty()) return r.Error("the end of the attribute/type offset section");
  return Status::Ok();
}

Status ReadProperties(ByteReader r, Container& c) {
  if (r.empty()) return Status::Ok();
  uint64_t count = 0;
  HLOGRAPH_TRY(r.ReadVarInt(count, "the number of property blobs"));
  if (count > r.remaining()) return r.Error("at most one property blob per byte of the section");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    Bytes blob;
    HLOGRAPH_TRY(r.ReadVarInt(size, "the size of a property blob"));
    HLOGRAPH_TRY(r.ReadBytes(static_cast<size_t>(size), blob, "a property blob"));
    c.properties.push_back(blob);
  }
  if (!r.empty()) return r.Error("the end of the properties section");
  return Status::Ok();
}

}  // namespace

bool IsBytecode(Bytes file) {
  return file.size() >= 4 && file[0] == 'M' && file[1] == 'L' && file[2] == 0xEF && file[3] == 'R';
}

StatusOr<Container> ReadContainer(Bytes file) {
  Container c;
  c.file = file;
  ByteReader r(file, 0, "header");
  if (!IsBytecode(file)) return r.Error("the MLIR bytecode magic \"ML\\xEFR\"");
  Bytes magic;
  HLOGRAPH_TRY(r.ReadBytes(4, magic, "the magic"));
  size_t version_at = r.offset();
  HLOGRAPH_TRY(r.ReadVarInt(c.version, "the bytecode version"));
  if (c.version > kVersionLatestKnown) {
    return r.ErrorAt(version_at, "a bytecode version at most " + std::to_string(kVersionLatestKnown) + ", found " +
                   std::to_string(c.version));
  }
  std::string_view producer;
  HLOGRAPH_TRY(r.ReadNullTerminated(producer, "the producer string"));
  c.producer = std::string(producer);

  std::array<std::optional<ByteReader>, kNumSections> sections;
  while (!r.empty()) {
    size_t at = r.offset();
    uint8_t id = 0;
    ByteReader contents(Bytes(), 0, "");
    HLOGRAPH_TRY(r.ReadSection(id, contents));
    if (sections[id]) return r.ErrorAt(at, "each section once, found a second " + SectionName(id));
    sections[id] = contents;
  }
  for (uint8_t id : {kStringSection, kDialectSection, kAttrTypeSection, kAttrTypeOffsetSection, kIrSection}) {
    if (!sections[id]) return r.Error("a " + SectionName(id) + " before the end of the file");
  }
  if (sections[kResourceSection].has_value() != sections[kResourceOffsetSection].has_value()) {
    return r.Error("both resource sections or neither");
  }
  HLOGRAPH_TRY(ReadStrings(*sections[kStringSection], c.strings));
  HLOGRAPH_TRY(ReadDialects(*sections[kDialectSection], c));
  ByteReader attr_data = *sections[kAttrTypeSection];
  Bytes data;
  {
    ByteReader copy = attr_data;
    HLOGRAPH_TRY(copy.ReadBytes(copy.remaining(), data, "the attribute/type data"));
  }
  HLOGRAPH_TRY(ReadAttrTypeOffsets(*sections[kAttrTypeOffsetSection], attr_data, data, c));
  if (sections[kPropertiesSection]) HLOGRAPH_TRY(ReadProperties(*sections[kPropertiesSection], c));
  ByteReader ir = *sections[kIrSection];
  c.ir_offset = ir.offset();
  HLOGRAPH_TRY(ir.ReadBytes(ir.remaining(), c.ir, "the IR"));
  return c;
}

}  // namespace hlograph::frontend::bytecode

// Reads the primitives of MLIR bytecode (bytes, prefix varints, zigzag
// varints, null-terminated strings, sections) from one slice of a file.
// Every error names the section being read, the absolute byte offset in the
// file and what was expected there, so bad input is a Status, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "hlograph/status.h"

namespace hlograph::frontend::bytecode {

using Bytes = std::span<const uint8_t>;

// Top-level section ids of MLIR bytecode.
enum SectionId : uint8_t {
  kStringSection = 0,
  kDialectSection = 1,
  kAttrTypeSection = 2,
  kAttrTypeOffsetSection = 3,
  kIrSection = 4,
  kResourceSection = 5,
  kResourceOffsetSection = 6,
  kDialectVersionsSection = 7,
  kPropertiesSection = 8,
  kNumSections = 9,
};
std::string SectionName(uint8_t id);

class ByteReader {
 public:
  // `data` starts at byte `file_offset` of the file; `where` names the part
  // of the file being read in messages ("string section", "attribute #3").
  ByteReader(Bytes data, size_t file_offset, std::string where)
      : data_(data), file_offset_(file_offset), where_(std::move(where)) {}

  bool empty() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  size_t offset() const { return file_offset_ + pos_; }  // absolute, in the file
  const std::string& where() const { return where_; }

  // "bytecode: <where>, byte <offset>: expected <what>".
  Status Error(std::string_view expected) const;
  Status ErrorAt(size_t file_offset, std::string_view expected) const;

  Status ReadByte(uint8_t& value, std::string_view what);
  Status ReadVarInt(uint64_t& value, std::string_view what);
  Status ReadSignedVarInt(int64_t& value, std::string_view what);
  // `(value << 1) | flag`.
  Status ReadVarIntWithFlag(uint64_t& value, bool& flag, std::string_view what);
  Status ReadBytes(size_t length, Bytes& out, std::string_view what);
  Status ReadNullTerminated(std::string_view& out, std::string_view what);
  // Skips 0xCB padding up to `alignment` (a power of two), counted from the
  // start of the file, as MLIR's writer aligns.
  Status AlignTo(uint64_t alignment);
  // A section header and its data; `contents` reads the data.
  Status ReadSection(uint8_t& id, ByteReader& contents);
  // A reader over `bytes`, which must lie inside this reader's data.
  ByteReader Sub(Bytes bytes, std::string where) const;

 private:
  Bytes data_;
  size_t file_offset_;
  std::string where_;
  size_t pos_ = 0;
};

}  // namespace hlograph::frontend::bytecode

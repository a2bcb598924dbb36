// Decodes the attribute and type tables of a bytecode file on demand (each
// entry once, cached), handing every entry to the decoder of its dialect:
// VHLO's own encodings (vhlo_types.cpp, vhlo_attributes.cpp), the builtin
// dialect's (builtin_encoding.cpp), Shardy's (shardy_attributes.cpp), or the
// assembly text other dialects fall back to (kept verbatim).
#pragma once

#include <string_view>
#include <vector>

#include "frontend/bytecode/container.h"
#include "frontend/bytecode/decoded.h"

namespace hlograph::frontend::bytecode {

class AttrTypeTable {
 public:
  explicit AttrTypeTable(const Container& container);

  StatusOr<TypePtr> Type(uint64_t index);
  StatusOr<AttrPtr> Attr(uint64_t index);

  // Reads an index from `r` and decodes the entry it names.
  Status ReadType(ByteReader& r, TypePtr& out, std::string_view what);
  Status ReadAttr(ByteReader& r, AttrPtr& out, std::string_view what);
  // Reads a string-table index from `r`.
  Status ReadString(ByteReader& r, std::string& out, std::string_view what);
  // A varint count, bounded by the bytes left (each element takes one at least).
  Status ReadCount(ByteReader& r, uint64_t& count, std::string_view what);
  // A count, then that many type indices (function inputs, tuple elements).
  Status ReadTypeList(ByteReader& r, std::vector<TypePtr>& out, std::string_view what);
  // A ranked tensor's rank, static dims and element type index, into
  // `type` (builtin's and VHLO's tensor types alike).
  Status ReadTensorType(ByteReader& r, DecodedType& type);
  // A count, then that many (string key, value) attribute index pairs, into
  // `dict`'s names and elements (builtin's and VHLO's dictionaries alike).
  Status ReadDictionary(ByteReader& r, DecodedAttr& dict);

  const Container& container() const { return container_; }

 private:
  enum class State : uint8_t { kUnread, kReading, kDone };
  Status DecodeType(size_t index);
  Status DecodeAttr(size_t index);

  const Container& container_;
  std::vector<TypePtr> types_;
  std::vector<AttrPtr> attrs_;
  std::vector<State> type_state_, attr_state_;
  int depth_ = 0;
};

// Dialect decoders: each reads one entry's custom encoding.
Status DecodeVhloType(AttrTypeTable& table, ByteReader& r, TypePtr& out);
Status DecodeVhloAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out);
Status DecodeBuiltinType(AttrTypeTable& table, ByteReader& r, TypePtr& out);
Status DecodeBuiltinAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out);
Status DecodeShardyAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out);

// An integer of `bit_width` bits as MLIR writes APInts: one byte up to 8
// bits, a zigzag varint up to 64. Returns the raw low bits.
Status ReadApInt(ByteReader& r, int bit_width, uint64_t& bits, std::string_view what);

}  // namespace hlograph::frontend::bytecode

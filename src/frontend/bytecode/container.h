// The MLIR bytecode container: header, string table, dialects and op
// names, the attribute/type tables (located, not yet decoded), properties
// and the IR section. Decoding the attributes, types and ops is left to
// the dialect readers (vhlo_types.h, vhlo_attributes.h, ir_reader.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/bytecode/byte_reader.h"

namespace hlograph::frontend::bytecode {

// Bytecode format versions that changed the encoding (MLIR's numbering).
enum BytecodeVersion : uint64_t {
  kVersionDialectVersioning = 1,
  kVersionLazyLoading = 2,       // isolated regions in their own section
  kVersionUseListOrdering = 3,
  kVersionElideUnknownBlockArgLocation = 4,
  kVersionNativeProperties = 5,
  kVersionLatestKnown = 6,
};

struct DialectEntry {
  std::string name;
  Bytes version;  // the dialect's own version encoding; may be empty
};

struct OpNameEntry {
  size_t dialect = 0;
  std::string name;  // without the dialect prefix
  std::optional<bool> registered;
};

// One attribute or type: its dialect and where its encoding lies.
struct AttrTypeEntry {
  size_t dialect = 0;
  bool custom_encoding = false;  // false: the text of its assembly form
  Bytes data;
  size_t offset = 0;  // in the file
};

struct Container {
  Bytes file;
  uint64_t version = 0;
  std::string producer;  // "StableHLO_v1.20.0"
  std::vector<std::string> strings;
  std::vector<DialectEntry> dialects;
  std::vector<OpNameEntry> op_names;
  std::vector<AttrTypeEntry> attributes;
  std::vector<AttrTypeEntry> types;
  std::vector<Bytes> properties;  // each op's property blob, by index
  Bytes ir;
  size_t ir_offset = 0;

  std::string OpName(size_t index) const {
    const OpNameEntry& op = op_names[index];
    return dialects[op.dialect].name + "." + op.name;
  }
};

// True when `file` begins with the MLIR bytecode magic "ML\xEFR".
bool IsBytecode(Bytes file);

// Splits `file` into its sections and reads the tables. `file` must outlive
// the result, which points into it.
StatusOr<Container> ReadContainer(Bytes file);

}  // namespace hlograph::frontend::bytecode

// Two kinds of place: where an op sits in the text we parsed (SourcePos, used
// in every diagnostic) and the program location the producer attached with
// `loc(...)` (Location, e.g. the Python line JAX traced), kept for notes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hlograph::ir {

struct SourcePos {
  std::shared_ptr<const std::string> file;
  uint32_t line = 0;
  uint32_t col = 0;
  bool valid() const { return line != 0; }
  std::string ToString() const;  // "file:line:col"
};

struct Location;
using LocationPtr = std::shared_ptr<const Location>;

struct Location {
  enum class Kind : uint8_t { kUnknown, kFile, kName, kCallSite, kFused };
  Kind kind = Kind::kUnknown;
  std::string name;            // kFile: file name; kName: the name
  uint32_t line = 0, col = 0;  // kFile
  std::vector<LocationPtr> children;  // kName: [child]?; kCallSite: [callee, caller]; kFused: all
  std::string fused_metadata;  // kFused: text of <...>, verbatim
  std::string ToString() const;  // "loc(...)" body without the loc( ) wrapper
  // The innermost file position, e.g. "model.py":12:3, for diagnostics.
  std::string Describe() const;
};

}  // namespace hlograph::ir

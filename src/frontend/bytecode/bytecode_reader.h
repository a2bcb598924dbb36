// Reads StableHLO portable artifacts: MLIR bytecode in the VHLO dialect, as
// JAX and jaxlib serialize them (any VHLO version back to 0.9.0), into
// hlograph IR, without MLIR. The module prints as the text front end prints
// the same program (once StableHLO's own deserializer has dropped the
// attributes VHLO cannot tell from their defaults).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::frontend {

// True when `data` begins with MLIR bytecode's magic bytes "ML\xEFR".
bool IsMlirBytecode(std::span<const uint8_t> data);

// Decodes one portable artifact and verifies it. Errors name the byte
// offset, the part of the file and what was expected there; `path` is used
// in messages.
StatusOr<std::unique_ptr<ir::Module>> ReadBytecodeModule(std::span<const uint8_t> data, const std::string& path);

}  // namespace hlograph::frontend

// Parses MLIR text (StableHLO, CHLO, func, check and sdy ops, pretty or
// generic form) into modules. A file may hold several modules separated by
// `// -----` lines. Errors name file:line:col and what was expected.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::frontend {

struct ParsedFile {
  std::vector<std::unique_ptr<ir::Module>> modules;
};

// Parses every `// -----` chunk of `text`. `filename` is used in messages.
StatusOr<ParsedFile> ParseText(std::string_view text, const std::string& filename = "<input>");
// Parses one module (no chunk splitting).
StatusOr<std::unique_ptr<ir::Module>> ParseModule(std::string_view text, const std::string& filename = "<input>");
// Reads and parses a file.
StatusOr<ParsedFile> ParseFile(const std::string& path);
// Parses what a file holds: MLIR text or a portable artifact (VHLO
// bytecode), told apart by the bytecode's magic number. For input that has
// no path, such as standard input; `filename` is used in messages.
StatusOr<ParsedFile> ParseFileContents(std::string_view contents, const std::string& filename);

}  // namespace hlograph::frontend

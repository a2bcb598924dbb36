// The program a command reads: from the file its FILE argument names, or
// from standard input when that argument is "-".
#pragma once

#include <string>

#include "frontend/parser.h"
#include "hlograph/status.h"

namespace hlograph::cli {

// The FILE argument that stands for standard input.
inline constexpr const char* kStandardInput = "-";

// How messages and reports name the program of `path`: "<stdin>" for "-".
std::string ProgramName(const std::string& path);

// Reads and parses the program (MLIR text or a portable artifact).
StatusOr<frontend::ParsedFile> ParseProgram(const std::string& path);

// Parses and verifies it; the message of an error is ready to print.
StatusOr<frontend::ParsedFile> LoadVerified(const std::string& path);

}  // namespace hlograph::cli

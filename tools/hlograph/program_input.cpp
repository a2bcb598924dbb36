// Reading the program of a command, from a file or from standard input.
#include "program_input.h"

#include <cstdio>

#include "ir/verifier.h"

namespace hlograph::cli {
namespace {

// All of standard input, read as bytes: a portable artifact is binary.
StatusOr<std::string> ReadStandardInput() {
  std::string contents;
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, stdin)) > 0) contents.append(chunk, n);
  if (std::ferror(stdin)) return Status::Error(ProgramName(kStandardInput) + ": error: cannot read standard input");
  return contents;
}

}  // namespace

std::string ProgramName(const std::string& path) { return path == kStandardInput ? "<stdin>" : path; }

StatusOr<frontend::ParsedFile> ParseProgram(const std::string& path) {
  if (path != kStandardInput) return frontend::ParseFile(path);
  HLOGRAPH_ASSIGN(std::string contents, ReadStandardInput());
  return frontend::ParseFileContents(contents, ProgramName(path));
}

StatusOr<frontend::ParsedFile> LoadVerified(const std::string& path) {
  auto parsed = ParseProgram(path);
  if (!parsed.ok()) return parsed.status();
  std::string errors;
  for (const auto& module : parsed->modules) {
    Status s = ir::VerifyModule(*module);
    if (!s.ok()) errors += (errors.empty() ? "" : "\n") + s.message();
  }
  if (!errors.empty()) return Status::Error(errors);
  return parsed;
}

}  // namespace hlograph::cli

// Helpers shared by the unit tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace hlograph::testing {

inline std::string SourceDir() { return HLOGRAPH_SOURCE_DIR; }

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// All *.mlir files under `dir` (recursively), sorted.
inline std::vector<std::string> MlirFiles(const std::string& dir) {
  std::vector<std::string> files;
  if (!std::filesystem::exists(dir)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".mlir") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Parses `text`, failing the calling test with the parser's message.
inline std::vector<std::unique_ptr<ir::Module>> ParseOrDie(const std::string& text, const std::string& name = "<test>") {
  auto parsed = frontend::ParseText(text, name);
  if (!parsed.ok()) {
    ADD_FAILURE() << parsed.status().message();
    return {};
  }
  return std::move(parsed->modules);
}

inline std::string ParseError(const std::string& text) {
  auto parsed = frontend::ParseText(text, "t.mlir");
  return parsed.ok() ? std::string("<parsed fine>") : parsed.status().message();
}

inline std::string VerifyError(const std::string& text) {
  auto parsed = frontend::ParseText(text, "t.mlir");
  if (!parsed.ok()) return "<parse error> " + parsed.status().message();
  for (const auto& m : parsed->modules) {
    Status s = ir::VerifyModule(*m);
    if (!s.ok()) return s.message();
  }
  return "<verified fine>";
}

}  // namespace hlograph::testing

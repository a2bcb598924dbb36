// Helpers shared by the unit tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "frontend/parser.h"
#include "ir/attribute_printer.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace hlograph::ir {
// Readable gtest output for attributes and types.
inline void PrintTo(const Attribute& a, std::ostream* os) { *os << AttributeToString(a); }
inline void PrintTo(const Type& t, std::ostream* os) { *os << t.ToString(); }
}  // namespace hlograph::ir

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

// Passes when `text` contains `part`; the failure shows both.
inline ::testing::AssertionResult HasSubstr(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find\n  " << part << "\nin\n  " << text;
}

// Passes when `text` ends with `end`; the failure shows both.
inline ::testing::AssertionResult HasSuffix(const std::string& text, const std::string& end) {
  if (text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected\n  " << text << "\nto end with\n  " << end;
}

// "file:line:col" (1-based) of the `nth` occurrence of `needle` in `text`.
inline std::string PosOf(const std::string& file, const std::string& text, const std::string& needle,
                         size_t nth = 0) {
  size_t at = text.find(needle);
  for (size_t i = 0; i < nth && at != std::string::npos; ++i) at = text.find(needle, at + 1);
  if (at == std::string::npos) {
    ADD_FAILURE() << "'" << needle << "' does not occur in the test input";
    return file + ":?:?";
  }
  size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  line_start = (at == 0 || line_start == std::string::npos) ? 0 : line_start + 1;
  return file + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

// Sets an environment variable for the scope's duration; the previous
// value (or its absence) comes back afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);  // unset for the scope
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Runs work(t) on `threads` threads at once; returns what each reported
// (empty: no problem).
inline std::vector<std::string> OnThreads(size_t threads, const std::function<std::string(size_t)>& work) {
  std::vector<std::string> problems(threads);
  std::vector<std::thread> running;
  for (size_t t = 0; t < threads; ++t) running.emplace_back([&, t] { problems[t] = work(t); });
  for (std::thread& th : running) th.join();
  return problems;
}

}  // namespace hlograph::testing

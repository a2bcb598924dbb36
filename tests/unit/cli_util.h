// Running the hlograph binary from tests: exit code, stdout and stderr
// captured, and a scratch directory for files.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.h"

namespace hlograph::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// A scratch directory for this test binary, removed at exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hlograph_cli_XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline const TempDir& Scratch() {
  static TempDir dir;
  return dir;
}

inline std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `hlograph <args>` with stdout and stderr captured in files and
// standard input read from the file `input`.
inline CliResult HlographReading(const std::string& input, const std::string& args) {
  const std::string out = Scratch().path() + "/stdout";
  const std::string err = Scratch().path() + "/stderr";
  const std::string cmd =
      Quote(HLOGRAPH_BINARY) + " " + args + " >" + Quote(out) + " 2>" + Quote(err) + " <" + Quote(input);
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

// Runs `hlograph <args>` with stdout and stderr captured, and nothing to read.
inline CliResult Hlograph(const std::string& args) { return HlographReading("/dev/null", args); }

inline std::string WriteScratch(const std::string& name, const std::string& text) {
  const std::string path = Scratch().path() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string Corpus(const std::string& name) { return SourceDir() + "/tests/corpus/" + name; }

}  // namespace hlograph::testing

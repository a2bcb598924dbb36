// The hlograph command line: print, verify (more subcommands come with the
// backends). Errors go to stderr and give a non-zero exit status.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

#ifndef HLOGRAPH_VERSION
#define HLOGRAPH_VERSION "dev"
#endif

namespace {

constexpr const char* kUsage = R"(hlograph: compile and run StableHLO programs

usage: hlograph <command> [options] FILE

commands:
  print FILE     parse, verify and print the program in MLIR's pretty form
  verify FILE    parse and verify; prints "FILE: ok" or the errors

options:
  --debug-info   print: also print locations, loc(...)
  --generic      print: print every op in the generic form
  --no-verify    print: skip verification
  -h, --help     show this help
  --version      show the version

A FILE may hold several modules separated by lines '// -----'.
Exit status: 0 on success, 1 on an error in the program, 2 on bad usage.
)";

int Usage(const std::string& message) {
  std::cerr << "hlograph: " << message << "\n\n" << kUsage;
  return 2;
}

int RunPrintOrVerify(const std::string& command, const std::string& path, const hlograph::ir::PrintOptions& options,
                     bool verify) {
  auto parsed = hlograph::frontend::ParseFile(path);
  if (!parsed.ok()) {
    std::cerr << parsed.status().message() << "\n";
    return 1;
  }
  if (verify) {
    bool failed = false;
    for (const auto& module : parsed->modules) {
      hlograph::Status s = hlograph::ir::VerifyModule(*module);
      if (!s.ok()) {
        std::cerr << s.message() << "\n";
        failed = true;
      }
    }
    if (failed) return 1;
  }
  if (command == "verify") {
    std::cout << path << ": ok (" << parsed->modules.size() << (parsed->modules.size() == 1 ? " module" : " modules")
              << ")\n";
    return 0;
  }
  // Print everything at once, so that an error never leaves half a program.
  std::string text = hlograph::ir::PrintModules(parsed->modules, options);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("missing command");
  hlograph::ir::PrintOptions options;
  bool verify = true;
  std::string command, path;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help" || a == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--version") {
      std::cout << "hlograph " << HLOGRAPH_VERSION << "\n";
      return 0;
    }
  }
  for (const std::string& a : args) {
    if (a == "--debug-info") {
      options.debug_info = true;
    } else if (a == "--generic") {
      options.generic = true;
    } else if (a == "--no-verify") {
      verify = false;
    } else if (a.size() > 1 && a[0] == '-') {
      return Usage("unknown option '" + a + "'");
    } else if (command.empty()) {
      command = a;
    } else if (path.empty()) {
      path = a;
    } else {
      return Usage("unexpected argument '" + a + "'");
    }
  }
  if (command != "print" && command != "verify") return Usage("unknown command '" + command + "'");
  if (path.empty()) return Usage(command + " needs a FILE");
  return RunPrintOrVerify(command, path, options, verify);
}

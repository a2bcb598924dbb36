// `hlograph print` and `hlograph verify`.
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace hlograph::cli {

StatusOr<frontend::ParsedFile> LoadVerified(const std::string& path) {
  auto parsed = frontend::ParseFile(path);
  if (!parsed.ok()) return parsed.status();
  std::string errors;
  for (const auto& module : parsed->modules) {
    Status s = ir::VerifyModule(*module);
    if (!s.ok()) errors += (errors.empty() ? "" : "\n") + s.message();
  }
  if (!errors.empty()) return Status::Error(errors);
  return parsed;
}

int PrintOrVerify(const Options& o) {
  const std::string& path = o.files[0];
  auto parsed = (o.verify || o.command == "verify") ? LoadVerified(path) : frontend::ParseFile(path);
  if (!parsed.ok()) {
    std::cerr << parsed.status().message() << "\n";
    return 1;
  }
  if (o.command == "verify") {
    std::cout << path << ": ok (" << parsed->modules.size() << (parsed->modules.size() == 1 ? " module" : " modules")
              << ")\n";
    return 0;
  }
  ir::PrintOptions options;
  options.debug_info = o.debug_info;
  options.generic = o.generic;
  // Print everything at once, so that an error never leaves half a program.
  std::string text = ir::PrintModules(parsed->modules, options);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace hlograph::cli

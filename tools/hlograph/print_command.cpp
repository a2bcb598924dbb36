// `hlograph print` and `hlograph verify`.
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "ir/printer.h"
#include "program_input.h"

namespace hlograph::cli {

int PrintOrVerify(const Options& o) {
  const std::string& path = o.files[0];
  auto parsed = (o.verify || o.command == "verify") ? LoadVerified(path) : ParseProgram(path);
  if (!parsed.ok()) {
    std::cerr << parsed.status().message() << "\n";
    return 1;
  }
  if (o.command == "verify") {
    const size_t n = parsed->modules.size();
    std::cout << ProgramName(path) << ": ok (" << n << (n == 1 ? " module" : " modules") << ")\n";
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

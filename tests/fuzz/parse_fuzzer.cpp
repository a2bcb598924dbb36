// libFuzzer target over the front end: parse, verify, print. Any input must
// be rejected cleanly or, when it parses and verifies, print to text that
// parses again and prints identically (the printer's fixed point).
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = hlograph::frontend::ParseText(text, "fuzz.mlir");
  if (!parsed.ok()) return 0;
  for (const auto& module : parsed->modules) {
    if (!hlograph::ir::VerifyModule(*module).ok()) return 0;
  }
  for (bool debug : {false, true}) {
    hlograph::ir::PrintOptions options;
    options.debug_info = debug;
    const std::string once = hlograph::ir::PrintModules(parsed->modules, options);
    auto again = hlograph::frontend::ParseText(once, "printed.mlir");
    if (!again.ok()) __builtin_trap();  // printed IR must parse
    if (hlograph::ir::PrintModules(again->modules, options) != once) __builtin_trap();  // and be a fixed point
  }
  return 0;
}

// libFuzzer target over the bytecode front end: read, verify, print. Any
// input must be rejected with a Status, never a crash; an artifact that
// reads and verifies must print to text the text front end parses back to
// the same print. Seed it with artifacts from tests/bytecode/export_corpus.py --keep.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "frontend/bytecode/bytecode_reader.h"
#include "frontend/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = hlograph::frontend::ReadBytecodeModule(std::span<const uint8_t>(data, size), "fuzz.mlirbc");
  if (!module.ok()) return 0;
  if (!hlograph::ir::VerifyModule(**module).ok()) return 0;
  const std::string once = hlograph::ir::PrintModule(**module);
  auto again = hlograph::frontend::ParseText(once, "printed.mlir");
  if (!again.ok()) __builtin_trap();  // printed IR must parse
  if (hlograph::ir::PrintModules(again->modules) != once) __builtin_trap();  // and print the same
  return 0;
}

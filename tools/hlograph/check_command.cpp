// `hlograph check`: runs the test functions of every `// -----` chunk with
// no arguments on the CPU backend (through the runtime's client); their
// `check` ops decide pass or fail.
#include <iostream>

#include "commands.h"
#include "hlograph/hlograph.h"
#include "ir/clone.h"
#include "ir/module.h"
#include "program_input.h"
#include "runtime/client_access.h"

namespace hlograph::cli {

namespace {

// The functions a chunk tests: @main when it has one, else every function
// that is not private (private ones are helpers called by the tests).
std::vector<const ir::Operation*> TestFunctions(const ir::Module& module) {
  if (const ir::Operation* main = module.LookupFunction("main")) return {main};
  std::vector<const ir::Operation*> tests;
  for (const ir::Operation* f : module.Functions()) {
    const auto* vis = f->attr("sym_visibility").as<ir::StringAttr>();
    if (!vis || vis->value != "private") tests.push_back(f);
  }
  return tests;
}

}  // namespace

int Check(const Options& o) {
  auto loaded = LoadVerified(o.files[0]);
  if (!loaded.ok()) {
    std::cerr << loaded.status().message() << "\n";
    return 1;
  }
  ClientOptions client_options;
  client_options.backend = "cpu";  // the oracle: check ops run on the interpreter
  auto client = Client::Create(client_options);
  if (!client.ok()) {
    std::cerr << client.status().message() << "\n";
    return 1;
  }
  int passed = 0, failed = 0;
  for (const auto& module : loaded->modules) {
    for (const ir::Operation* func : TestFunctions(*module)) {
      const std::string name = func->pos().ToString() + " @" + ir::FunctionName(*func);
      if (!ir::FunctionSignature(*func).inputs.empty()) {
        std::cout << "FAIL " << name << ": a test function takes no arguments\n";
        ++failed;
        continue;
      }
      CompileOptions options;
      options.filename = o.files[0];
      options.function = ir::FunctionName(*func);
      auto exe = runtime::ClientAccess::CompileModule(**client, ir::CloneModule(*module), options);
      auto results = exe.ok() ? (*exe)->Execute({}) : StatusOr<std::vector<Array>>(exe.status());
      if (results.ok()) {
        std::cout << "PASS " << name << "\n";
        ++passed;
      } else {
        std::cout << "FAIL " << name << ": " << results.status().message() << "\n";
        ++failed;
      }
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace hlograph::cli

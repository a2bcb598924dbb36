// The runtime's entry points for hlograph's own clients (the `hlograph`
// command), beyond the public API: they parse and verify files themselves,
// for messages of their own, and hand the runtime the parsed module.
#pragma once

#include <memory>

#include "hlograph/client.h"
#include "hlograph/executable.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::runtime {

struct ClientAccess {
  // Client::Compile on a module already parsed and verified; options.filename
  // names it in messages.
  static StatusOr<std::unique_ptr<Executable>> CompileModule(const Client& client, std::unique_ptr<ir::Module> module,
                                                             const CompileOptions& options = {});
};

}  // namespace hlograph::runtime

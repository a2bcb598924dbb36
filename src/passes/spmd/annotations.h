// The shardings a JAX program states: on the entry function's arguments
// and results and on sharding constraints, spelled the Shardy way
// (`sdy.sharding`, sdy.sharding_constraint) or the GSPMD way
// (`mhlo.sharding`, custom_call @Sharding).
#pragma once

#include <optional>
#include <string>

#include "hlograph/status.h"
#include "ir/module.h"
#include "passes/spmd/device_sharding.h"

namespace hlograph::passes::spmd {

struct Annotation {
  DeviceSharding sharding;
  std::string text;  // as written, for messages
};

// The sharding `attr` spells for a value of rank `rank`: a Shardy
// `#sdy.sharding<...>` (an opaque attribute) or a GSPMD string.
StatusOr<Annotation> ReadSharding(const ir::Module& module, const ir::Attribute& attr, size_t rank, int64_t devices);

// Argument (or result) i of `func`, when its attributes give it a sharding.
StatusOr<std::optional<Annotation>> DeclaredSharding(const ir::Module& module, const ir::Operation& func, bool result,
                                                     size_t i, int64_t devices);

// The sharding an op of one result asks of it: a constraint's, or its own
// `sdy.sharding` / `mhlo.sharding` attribute.
StatusOr<std::optional<Annotation>> OpSharding(const ir::Module& module, const ir::Operation& op, int64_t devices);

// sdy.sharding_constraint, sdy.reshard and custom_call @Sharding: the value
// unchanged, laid out as the sharding says.
bool IsShardingConstraint(const ir::Operation& op);

}  // namespace hlograph::passes::spmd

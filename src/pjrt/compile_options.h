// What hlograph reads of the serialized xla.CompileOptionsProto that PJRT
// hands to Compile: the replica and partition counts of its
// executable_build_options (field 3; in it num_replicas = 4,
// num_partitions = 5). The rest (debug options, layouts) has no meaning
// here and is skipped.
#pragma once

#include <cstdint>
#include <string_view>

#include "hlograph/status.h"

namespace hlograph::pjrt {

struct CompileOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
};

// Errors name the byte offset where the protobuf wire format breaks.
StatusOr<CompileOptions> ReadCompileOptions(std::string_view serialized);

}  // namespace hlograph::pjrt

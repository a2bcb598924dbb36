// What hlograph reads of the serialized xla.CompileOptionsProto that PJRT
// hands to Compile: the replica and partition counts and the device
// assignment of its executable_build_options (field 3; in it num_replicas =
// 4, num_partitions = 5, device_assignment = 9). The rest (debug options,
// layouts) has no meaning here and is skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::pjrt {

struct CompileOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  // The device id of (replica r, partition p) at r * num_partitions + p;
  // empty when the options name none.
  std::vector<int64_t> device_assignment;
};

// Errors name the byte offset where the protobuf wire format breaks, or
// what does not fit in the device assignment.
StatusOr<CompileOptions> ReadCompileOptions(std::string_view serialized);

// An xla.DeviceAssignmentProto (replica_count = 1, computation_count = 2,
// computation_devices = 3, each holding replica_device_ids = 1) for
// `device_ids` laid out as CompileOptions::device_assignment.
std::string SerializeDeviceAssignment(int64_t replicas, int64_t partitions, const std::vector<int64_t>& device_ids);

}  // namespace hlograph::pjrt

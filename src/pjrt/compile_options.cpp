#include "pjrt/compile_options.h"

#include <functional>
#include <string>

namespace hlograph::pjrt {
namespace {

// Walks the fields of one protobuf message in wire format.
class WireReader {
 public:
  WireReader(std::string_view bytes, size_t base) : bytes_(bytes), base_(base) {}

  // Calls visit(field, wire_type, varint value, length-delimited bytes, offset)
  // for each field.
  Status ForEach(const std::function<Status(uint64_t, int, uint64_t, std::string_view, size_t)>& visit) {
    while (pos_ < bytes_.size()) {
      HLOGRAPH_ASSIGN(uint64_t key, Varint());
      const uint64_t field = key >> 3;
      const int wire_type = static_cast<int>(key & 7);
      uint64_t value = 0;
      std::string_view payload;
      switch (wire_type) {
        case 0: {
          HLOGRAPH_ASSIGN(value, Varint());
          break;
        }
        case 1:
          HLOGRAPH_TRY(Skip(8));
          break;
        case 2: {
          HLOGRAPH_ASSIGN(uint64_t length, Varint());
          if (length > bytes_.size() - pos_) return Error("a field's length runs past the end");
          payload = bytes_.substr(pos_, static_cast<size_t>(length));
          pos_ += static_cast<size_t>(length);
          break;
        }
        case 5:
          HLOGRAPH_TRY(Skip(4));
          break;
        default:
          return Error("wire type " + std::to_string(wire_type) + " of field " + std::to_string(field) +
                       " is not one of 0, 1, 2, 5");
      }
      HLOGRAPH_TRY(visit(field, wire_type, value, payload, base_ + pos_ - payload.size()));
    }
    return Status::Ok();
  }

 private:
  StatusOr<uint64_t> Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return Error("a varint runs past the end");
      const auto byte = static_cast<uint8_t>(bytes_[pos_++]);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    return Error("a varint is longer than 10 bytes");
  }
  Status Skip(size_t n) {
    if (n > bytes_.size() - pos_) return Error("a fixed-size field runs past the end");
    pos_ += n;
    return Status::Ok();
  }
  Status Error(const std::string& what) const {
    return Status::Error("compile options (xla.CompileOptionsProto) at byte " + std::to_string(base_ + pos_) + ": " +
                         what);
  }

  std::string_view bytes_;
  size_t base_;
  size_t pos_ = 0;
};

constexpr uint64_t kExecutableBuildOptions = 3;  // in CompileOptionsProto
constexpr uint64_t kNumReplicas = 4;             // in ExecutableBuildOptionsProto
constexpr uint64_t kNumPartitions = 5;
constexpr uint64_t kDeviceAssignment = 9;
constexpr uint64_t kReplicaCount = 1;  // in DeviceAssignmentProto
constexpr uint64_t kComputationCount = 2;
constexpr uint64_t kComputationDevices = 3;
constexpr uint64_t kReplicaDeviceIds = 1;  // in its ComputationDevice

// The device ids of a computation: packed (wire type 2) or one per field.
Status ReadDeviceIds(std::string_view bytes, size_t base, std::vector<int64_t>& ids) {
  return WireReader(bytes, base).ForEach([&](uint64_t f, int t, uint64_t value, std::string_view packed,
                                             size_t offset) -> Status {
    if (f != kReplicaDeviceIds) return Status::Ok();
    if (t == 0) ids.push_back(static_cast<int64_t>(value));
    for (size_t i = 0; t == 2 && i < packed.size();) {  // varints back to back
      uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        if (i >= packed.size() || shift > 63) {
          return Status::Error("compile options (xla.CompileOptionsProto) at byte " + std::to_string(offset + i) +
                               ": a packed device id runs past the end");
        }
        const auto byte = static_cast<uint8_t>(packed[i++]);
        v |= static_cast<uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) break;
      }
      ids.push_back(static_cast<int64_t>(v));
    }
    return Status::Ok();
  });
}

// [computation][replica] -> device ids at replica * partitions + partition.
StatusOr<std::vector<int64_t>> ReadDeviceAssignment(std::string_view bytes, size_t base) {
  int64_t replicas = 0, computations = 0;
  std::vector<std::vector<int64_t>> by_computation;
  HLOGRAPH_TRY(WireReader(bytes, base).ForEach([&](uint64_t f, int t, uint64_t value, std::string_view payload,
                                                   size_t offset) -> Status {
    if (t == 0 && f == kReplicaCount) replicas = static_cast<int64_t>(value);
    if (t == 0 && f == kComputationCount) computations = static_cast<int64_t>(value);
    if (t == 2 && f == kComputationDevices) {
      by_computation.emplace_back();
      return ReadDeviceIds(payload, offset, by_computation.back());
    }
    return Status::Ok();
  }));
  if (static_cast<int64_t>(by_computation.size()) != computations) {
    return Status::Error("the device assignment lists " + std::to_string(by_computation.size()) +
                         " computations of its " + std::to_string(computations));
  }
  std::vector<int64_t> ids(static_cast<size_t>(replicas * computations));
  for (int64_t c = 0; c < computations; ++c) {
    const auto& devices = by_computation[static_cast<size_t>(c)];
    if (static_cast<int64_t>(devices.size()) != replicas) {
      return Status::Error("the device assignment gives computation " + std::to_string(c) + " " +
                           std::to_string(devices.size()) + " devices for " + std::to_string(replicas) + " replicas");
    }
    for (int64_t r = 0; r < replicas; ++r) ids[static_cast<size_t>(r * computations + c)] = devices[r];
  }
  return ids;
}

void AppendVarint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
  out.push_back(static_cast<char>(v));
}

void AppendBytesField(std::string& out, uint64_t field, const std::string& bytes) {
  AppendVarint(out, field << 3 | 2);
  AppendVarint(out, bytes.size());
  out += bytes;
}

}  // namespace

StatusOr<CompileOptions> ReadCompileOptions(std::string_view serialized) {
  CompileOptions options;
  HLOGRAPH_TRY(WireReader(serialized, 0).ForEach([&](uint64_t field, int wire_type, uint64_t, std::string_view payload,
                                                     size_t offset) -> Status {
    if (field != kExecutableBuildOptions || wire_type != 2) return Status::Ok();
    return WireReader(payload, offset).ForEach([&](uint64_t f, int t, uint64_t value, std::string_view bytes,
                                                   size_t at) -> Status {
      if (t == 0 && f == kNumReplicas) options.num_replicas = static_cast<int64_t>(value);
      if (t == 0 && f == kNumPartitions) options.num_partitions = static_cast<int64_t>(value);
      if (t == 2 && f == kDeviceAssignment) {
        HLOGRAPH_ASSIGN(options.device_assignment, ReadDeviceAssignment(bytes, at));
      }
      return Status::Ok();
    });
  }));
  const size_t devices = static_cast<size_t>(options.num_replicas * options.num_partitions);
  if (!options.device_assignment.empty() && options.device_assignment.size() != devices) {
    return Status::Error("the device assignment has " + std::to_string(options.device_assignment.size()) +
                         " devices for " + std::to_string(options.num_replicas) + " replica(s) x " +
                         std::to_string(options.num_partitions) + " partition(s)");
  }
  return options;
}

std::string SerializeDeviceAssignment(int64_t replicas, int64_t partitions, const std::vector<int64_t>& device_ids) {
  std::string proto;
  AppendVarint(proto, kReplicaCount << 3);
  AppendVarint(proto, static_cast<uint64_t>(replicas));
  AppendVarint(proto, kComputationCount << 3);
  AppendVarint(proto, static_cast<uint64_t>(partitions));
  for (int64_t c = 0; c < partitions; ++c) {
    std::string ids;
    for (int64_t r = 0; r < replicas; ++r) {
      AppendVarint(ids, static_cast<uint64_t>(device_ids[static_cast<size_t>(r * partitions + c)]));
    }
    std::string computation;
    AppendBytesField(computation, kReplicaDeviceIds, ids);
    AppendBytesField(proto, kComputationDevices, computation);
  }
  return proto;
}

}  // namespace hlograph::pjrt

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

}  // namespace

StatusOr<CompileOptions> ReadCompileOptions(std::string_view serialized) {
  CompileOptions options;
  HLOGRAPH_TRY(WireReader(serialized, 0).ForEach([&](uint64_t field, int wire_type, uint64_t, std::string_view payload,
                                                     size_t offset) -> Status {
    if (field != kExecutableBuildOptions || wire_type != 2) return Status::Ok();
    return WireReader(payload, offset).ForEach([&](uint64_t f, int t, uint64_t value, std::string_view, size_t) {
      if (t == 0 && f == kNumReplicas) options.num_replicas = static_cast<int64_t>(value);
      if (t == 0 && f == kNumPartitions) options.num_partitions = static_cast<int64_t>(value);
      return Status::Ok();
    });
  }));
  return options;
}

}  // namespace hlograph::pjrt

// A multi-device run whose devices live in several processes (a
// multi-process PJRT client): which of the run's devices this process runs,
// and the store through which its devices reach the others'. The store is
// the one the framework hands the client (JAX's distributed key-value
// store); the CPU backend has no transport of its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::cpu {

// A key-value store shared by every process of the run: a key is written
// once (writing it again is an error) and read by any process.
class ProcessLink {
 public:
  virtual ~ProcessLink() = default;
  virtual Status Put(const std::string& key, std::string_view value) = 0;
  // The value under `key`, waiting up to `wait` for some process to put it;
  // nullopt when none has by then.
  virtual StatusOr<std::optional<std::string>> Get(const std::string& key, std::chrono::milliseconds wait) = 0;
};

struct ProcessSpan {
  // The logical ids (replica * partitions + partition) this process runs,
  // in the order of its arguments and results.
  std::vector<int64_t> local;
  std::shared_ptr<ProcessLink> link;
  // Unique to this run among every run of every process, and the same in
  // each process for the same run: what the keys of its exchanges start with.
  std::string key;
  // How long a device waits for another process's device before failing.
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
};

}  // namespace hlograph::cpu

// What a PJRT client runs on: the CPU interpreter or the GPU backend. The
// PJRT objects (buffers, executables, events) are the same for both; a
// backend keeps the bytes of arrays and runs compiled programs, much like a
// HAL driver under one command interface.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/process_span.h"
#include "hlograph/status.h"
#include "ir/module.h"
#include "ir/type.h"
#include "pjrt/event.h"

namespace hlograph::pjrt {

// The bytes of one array where the backend keeps them (dense, row-major).
class Array {
 public:
  virtual ~Array() = default;
  virtual int64_t byte_size() const = 0;
  // Copies the bytes to `dst` (byte_size() bytes) once they are computed.
  virtual Status ToHost(void* dst) const = 0;
  // Ready once the bytes are computed.
  virtual std::shared_ptr<EventState> Ready() const = 0;
};

// A program compiled for a backend's device.
class Runner {
 public:
  virtual ~Runner() = default;
  struct Results {
    std::vector<std::shared_ptr<Array>> arrays;  // one per result
    // An event ready once all are computed (made only when asked for).
    std::function<std::shared_ptr<EventState>()> done;
  };
  // `args` match the entry function's parameters (checked by the caller).
  // `donated[i]`: the caller gives up args[i]; a result aliasing it may take
  // its memory (the caller deletes the argument's buffer after the call).
  virtual StatusOr<Results> Execute(const std::vector<std::shared_ptr<Array>>& args,
                                    const std::vector<bool>& donated) = 0;
};

// A program compiled for the devices of a replicas x partitions grid, device
// d = replica * partitions + partition. Each device passes its own
// arguments and gets its own results: the pieces of sharded values, or
// values of its own (as backends/cpu/spmd_entry.h runs them).
class GridRunner {
 public:
  virtual ~GridRunner() = default;
  struct Signature {
    std::vector<ir::Type> inputs, results;  // each device's
    // As XLA spells them (HloSharding text), for the framework to read.
    std::vector<std::string> input_shardings, result_shardings;
  };
  virtual const Signature& signature() const = 0;
  // args[d]: device d's arguments, of the signature's types; the results
  // likewise. With `span` (other processes run some of the devices),
  // args[i] and the results are those of device span->local[i].
  virtual StatusOr<std::vector<std::vector<std::shared_ptr<Array>>>> Execute(
      const std::vector<std::vector<std::shared_ptr<Array>>>& args, const cpu::ProcessSpan* span = nullptr) = 0;
};

// What a backend's device memory holds, for PJRT_Device_MemoryStats. A
// field below 0 is unknown (not reported).
struct BackendMemoryStats {
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = -1;
  int64_t num_allocs = -1;  // made so far
  int64_t largest_alloc_size = -1;
  int64_t bytes_limit = -1;  // what the backend keeps itself within
  int64_t pool_bytes = -1;   // held from the system, in use or cached
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string device_kind() const = 0;  // "cpu", "gpu"
  // For the device's description and the platform version.
  virtual std::string description() const = 0;
  // A new array of `type` holding `dense_bytes` (row-major), copied before
  // this returns.
  virtual StatusOr<std::shared_ptr<Array>> FromHost(const ir::Type& type, const void* dense_bytes) = 0;
  // Compiles the verified `module` (kept alive by the caller while the runner lives).
  virtual StatusOr<std::shared_ptr<Runner>> Load(const ir::Module& module) = 0;
  // The same for replicas x partitions devices (more than one); a backend
  // of one device refuses.
  virtual StatusOr<std::shared_ptr<GridRunner>> LoadGrid(const ir::Module& module, int64_t replicas,
                                                         int64_t partitions) {
    return Status::Error("the " + device_kind() + " backend runs programs on one device; " +
                         std::to_string(replicas) + " replica(s) x " + std::to_string(partitions) +
                         " partition(s) run on the CPU backend (HLOGRAPH_PJRT_BACKEND=cpu with "
                         "HLOGRAPH_PJRT_CPU_DEVICES)");
  }
  virtual BackendMemoryStats MemoryStats() const = 0;
};

// The backend named by HLOGRAPH_PJRT_BACKEND: "cpu", "gpu", or "auto"
// (the default: the GPU when this build has the GPU backend and a device is
// there, else the CPU interpreter).
StatusOr<std::shared_ptr<Backend>> MakeBackend();

std::shared_ptr<Backend> MakeCpuBackend();
// An error saying why when this build has no GPU backend or there is no device.
StatusOr<std::shared_ptr<Backend>> MakeGpuBackend();
// Sets the GPU's process memory budget ("8G", "80%", "none"); an error
// names the expected forms. A build without the GPU backend has none and
// accepts any value.
Status SetMemoryBudget(const std::string& text);
// OK when this build has the GPU backend and a device is there, else why
// not; cheap (no context is made), for choosing before a client exists.
Status GpuBackendUsable();

}  // namespace hlograph::pjrt

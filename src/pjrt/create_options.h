// The create options the plugin reads from PJRT_Client_Create (others are
// ignored, as JAX may pass options meant for other plugins), and the
// environment variables they stand in for.
#pragma once

#include <chrono>
#include <cstddef>

#include "hlograph/status.h"
#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

// At most this many CPU devices: each is a thread of a multi-device call.
constexpr int kMaxCpuDevices = 1024;

struct CreateOptions {
  // How many devices the client offers on the CPU backend, as XLA's host
  // platform device count: "cpu_device_count" (an int64, or a string of
  // digits), else HLOGRAPH_PJRT_CPU_DEVICES, else 1. The GPU backend has
  // one device.
  int cpu_devices = 1;
  // This process and how many there are, for a client spanning several
  // processes: "node_id" and "num_nodes" (int64), as JAX passes them after
  // jax.distributed.initialize; both or neither.
  int process_index = 0;
  int process_count = 1;
  // How long a process waits for another (while the client is created, and
  // in a collective): "process_timeout_s" (seconds), else
  // HLOGRAPH_PJRT_PROCESS_TIMEOUT, else 5 minutes.
  std::chrono::milliseconds process_timeout{std::chrono::minutes(5)};
};

// Also sets the GPU's process memory budget from "memory_budget" (a string:
// "8G", "80%", "none"; or an int64 of bytes). Errors name the option and
// the forms it takes.
StatusOr<CreateOptions> ApplyCreateOptions(const PJRT_NamedValue* options, size_t count);

}  // namespace hlograph::pjrt

// The processes of a client that spans several (JAX after
// jax.distributed.initialize: one client per process, each told its index
// and the count, all sharing a key-value store): how many devices each
// has, learned through the store when the client is created.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "pjrt/create_options.h"
#include "pjrt/kv_store.h"
#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

struct ProcessGroup {
  int index = 0;  // this process
  std::vector<int> devices{1};  // how many each process has, by index
  std::shared_ptr<KvStore> store;  // null with one process
  std::chrono::milliseconds timeout{0};
  // What this client's keys start with: "client/<n>/" for the n-th client
  // of these processes on the store (JAX may make the client again, as
  // after clear_backends; the store keeps the earlier one's keys).
  std::string prefix;

  int count() const { return static_cast<int>(devices.size()); }
  // The global id of the first device of process `p`: each process's ids
  // follow the one before.
  int FirstId(int p) const;
};

// One process (no store needed) or several; `local_devices` is this
// process's. An error names what is missing (num_nodes without a store,
// a store missing one of its callbacks), the backend that cannot span
// processes, or the process that did not answer in time.
StatusOr<ProcessGroup> JoinProcesses(const CreateOptions& options, const PJRT_Client_Create_Args& args,
                                     int local_devices, bool backend_spans_processes);

}  // namespace hlograph::pjrt

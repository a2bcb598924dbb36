#include "pjrt/process_group.h"

#include <string>

namespace hlograph::pjrt {
namespace {

std::string DevicesKey(const std::string& prefix, int process) {
  return prefix + "process/" + std::to_string(process) + "/devices";
}

// The first "client/<n>/" under which this process has put nothing: every
// process has made as many clients before, so all find the same n.
StatusOr<std::string> FreshPrefix(KvStore& store, int process) {
  for (int n = 0;; ++n) {
    const std::string prefix = "client/" + std::to_string(n) + "/";
    HLOGRAPH_ASSIGN(const std::optional<std::string> mine,
                    store.Get(DevicesKey(prefix, process), std::chrono::milliseconds(1)));
    if (!mine) return prefix;
  }
}

}  // namespace

int ProcessGroup::FirstId(int p) const {
  int id = 0;
  for (int q = 0; q < p; ++q) id += devices[static_cast<size_t>(q)];
  return id;
}

StatusOr<ProcessGroup> JoinProcesses(const CreateOptions& options, const PJRT_Client_Create_Args& args,
                                     int local_devices, bool backend_spans_processes) {
  ProcessGroup group;
  group.devices = {local_devices};
  group.timeout = options.process_timeout;
  if (options.process_count == 1) return group;
  const std::string nodes = "create option num_nodes is " + std::to_string(options.process_count);
  if (args.kv_get_callback == nullptr && args.kv_put_callback == nullptr) {
    return Status::Error(nodes + " but no key-value store came with it (kv_get_callback and kv_put_callback): "
                         "the processes meet through the store jax.distributed.initialize hands the client");
  }
  if (args.kv_get_callback == nullptr || args.kv_put_callback == nullptr) {
    return Status::Error(nodes + " but the key-value store lacks its " +
                         (args.kv_get_callback == nullptr ? "kv_get_callback" : "kv_put_callback"));
  }
  if (!backend_spans_processes) {
    return Status::Error(nodes + ": a client spanning processes runs on the CPU backend only "
                         "(HLOGRAPH_PJRT_BACKEND=cpu)");
  }
  group.index = options.process_index;
  group.store = std::make_shared<KvStore>(args.kv_get_callback, args.kv_get_user_arg, args.kv_put_callback,
                                          args.kv_put_user_arg);
  HLOGRAPH_ASSIGN(group.prefix, FreshPrefix(*group.store, group.index));
  HLOGRAPH_TRY(group.store->Put(DevicesKey(group.prefix, group.index), std::to_string(local_devices)));
  group.devices.assign(static_cast<size_t>(options.process_count), 0);
  group.devices[static_cast<size_t>(group.index)] = local_devices;
  for (int p = 0; p < options.process_count; ++p) {
    if (p == group.index) continue;
    HLOGRAPH_ASSIGN(const std::optional<std::string> value,
                    group.store->Get(DevicesKey(group.prefix, p), group.timeout));
    if (!value) {
      return Status::Error("process " + std::to_string(p) + " of " + std::to_string(options.process_count) +
                           " did not say how many devices it has within " +
                           std::to_string(group.timeout.count()) + " ms (HLOGRAPH_PJRT_PROCESS_TIMEOUT)");
    }
    const bool digits =
        !value->empty() && value->size() <= 5 && value->find_first_not_of("0123456789") == std::string::npos;
    const int n = digits ? std::stoi(*value) : 0;
    if (n < 1) return Status::Error("process " + std::to_string(p) + " says it has \"" + *value + "\" devices");
    group.devices[static_cast<size_t>(p)] = n;
  }
  return group;
}

}  // namespace hlograph::pjrt

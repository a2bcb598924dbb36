#include "pjrt/client.h"

#include <cstring>

#include "pjrt/create_options.h"
#include "pjrt/error.h"

namespace hlograph::pjrt {
namespace {

PJRT_NamedValue StringAttribute(const char* name, const char* value) {
  PJRT_NamedValue v;
  std::memset(&v, 0, sizeof(v));
  v.struct_size = PJRT_STRUCT_SIZE(PJRT_NamedValue, value_size);
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = PJRT_NamedValue_kString;
  v.string_value = value;
  v.value_size = std::strlen(value);
  return v;
}

// Device `id`, the `local`-th of process `process`. Another process's device
// has no memory here: nothing of it is addressable.
void AddDevice(PJRT_Client& client, int id, int process, int local) {
  const std::string kind = client.backend->device_kind();
  const bool several = client.processes.count() > 1;
  auto device = std::make_unique<PJRT_Device>();
  device->client = &client;
  device->local_hardware_id = local;
  device->addressable = process == client.processes.index;
  PJRT_DeviceDescription& d = device->description;
  d.id = id;
  d.process_index = process;
  d.kind = kind;
  const std::string in_process = several ? ", process=" + std::to_string(process) : "";
  d.to_string = "HlographDevice(id=" + std::to_string(id) + in_process + ", kind=" + kind + ")";
  d.debug_string = "hlograph device " + std::to_string(id) + (several ? " of process " + std::to_string(process) : "") +
                   " (" + client.backend->description() + ")";
  d.attributes.push_back(StringAttribute("backend", kind == "cpu" ? "interpreter" : "gpu"));
  client.devices.push_back(device.get());
  if (device->addressable) {
    auto memory = std::make_unique<PJRT_Memory>();
    memory->id = id;
    memory->kind = "device";
    memory->to_string = "MEMORY_SPACE_" + std::to_string(id);
    memory->debug_string = "hlograph " + kind + " memory " + std::to_string(id) + " (kind device)";
    device->memories.push_back(memory.get());
    memory->devices.push_back(device.get());
    client.addressable_devices.push_back(device.get());
    client.memories.push_back(memory.get());
    client.memory_storage.push_back(std::move(memory));
  }
  client.device_storage.push_back(std::move(device));
}

PJRT_Device* FindDevice(PJRT_Client* client, int id) {
  for (PJRT_Device* d : client->devices) {
    if (d->description.id == id) return d;
  }
  return nullptr;
}

}  // namespace

PJRT_Error* ClientCreate(PJRT_Client_Create_Args* args) {
  if (PJRT_Error* e = CheckStructSize("PJRT_Client_Create", args->struct_size,
                                      PJRT_STRUCT_SIZE(PJRT_Client_Create_Args, client))) {
    return e;
  }
  auto options = ApplyCreateOptions(args->create_options, args->num_options);
  if (!options.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create: " + options.status().message());
  }
  auto client = std::make_unique<PJRT_Client>();
  auto backend = MakeBackend();
  if (!backend.ok()) {
    return MakeError(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Client_Create: " + backend.status().message());
  }
  client->backend = std::move(*backend);
#ifdef HLOGRAPH_VERSION
  client->platform_version = "hlograph " HLOGRAPH_VERSION " (" + client->backend->description() + ")";
#else
  client->platform_version = "hlograph (" + client->backend->description() + ")";
#endif
  // Each CPU device a thread of the interpreter; the GPU backend's one device.
  const bool cpu = client->backend->device_kind() == "cpu";
  auto processes = JoinProcesses(*options, *args, cpu ? options->cpu_devices : 1, cpu);
  if (!processes.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_Create: " + processes.status().message());
  }
  client->processes = std::move(*processes);
  for (int p = 0; p < client->processes.count(); ++p) {
    const int first = client->processes.FirstId(p);
    for (int k = 0; k < client->processes.devices[static_cast<size_t>(p)]; ++k) AddDevice(*client, first + k, p, k);
  }
  args->client = client.release();
  return nullptr;
}

PJRT_Error* ClientDestroy(PJRT_Client_Destroy_Args* args) {
  delete args->client;
  return nullptr;
}

PJRT_Error* ClientPlatformName(PJRT_Client_PlatformName_Args* args) {
  args->platform_name = args->client->platform_name.data();
  args->platform_name_size = args->client->platform_name.size();
  return nullptr;
}

PJRT_Error* ClientProcessIndex(PJRT_Client_ProcessIndex_Args* args) {
  args->process_index = args->client->processes.index;
  return nullptr;
}

PJRT_Error* ClientPlatformVersion(PJRT_Client_PlatformVersion_Args* args) {
  args->platform_version = args->client->platform_version.data();
  args->platform_version_size = args->client->platform_version.size();
  return nullptr;
}

PJRT_Error* ClientDevices(PJRT_Client_Devices_Args* args) {
  args->devices = args->client->devices.data();
  args->num_devices = args->client->devices.size();
  return nullptr;
}

PJRT_Error* ClientAddressableDevices(PJRT_Client_AddressableDevices_Args* args) {
  args->addressable_devices = args->client->addressable_devices.data();
  args->num_addressable_devices = args->client->addressable_devices.size();
  return nullptr;
}

PJRT_Error* ClientLookupDevice(PJRT_Client_LookupDevice_Args* args) {
  args->device = FindDevice(args->client, args->id);
  if (args->device == nullptr) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Client_LookupDevice: no device with id " + std::to_string(args->id));
  }
  return nullptr;
}

PJRT_Error* ClientLookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args) {
  for (PJRT_Device* d : args->client->addressable_devices) {
    if (d->local_hardware_id == args->local_hardware_id) {
      args->addressable_device = d;
      return nullptr;
    }
  }
  return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_LookupAddressableDevice: no device with hardware id " +
                                                         std::to_string(args->local_hardware_id));
}

PJRT_Error* ClientAddressableMemories(PJRT_Client_AddressableMemories_Args* args) {
  args->addressable_memories = args->client->memories.data();
  args->num_addressable_memories = args->client->memories.size();
  return nullptr;
}

PJRT_Error* ClientDefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args) {
  const size_t count = static_cast<size_t>(args->num_replicas) * static_cast<size_t>(args->num_partitions);
  if (args->num_replicas < 1 || args->num_partitions < 1 || count > args->client->devices.size()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Client_DefaultDeviceAssignment: " + std::to_string(args->num_replicas) + " replicas x " +
                         std::to_string(args->num_partitions) + " partitions need more than the " +
                         std::to_string(args->client->devices.size()) + " device(s) hlograph has");
  }
  if (args->default_assignment_size < count) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_DefaultDeviceAssignment: the array is too small");
  }
  for (size_t i = 0; i < count; ++i) args->default_assignment[i] = args->client->devices[i]->description.id;
  return nullptr;
}

PJRT_Error* ClientUpdateGlobalProcessInfo(PJRT_Client_UpdateGlobalProcessInfo_Args*) { return nullptr; }

}  // namespace hlograph::pjrt

#include "pjrt/device.h"

#include <cstddef>

#include "pjrt/client.h"
#include "pjrt/error.h"

namespace hlograph::pjrt {

PJRT_Error* DeviceDescriptionId(PJRT_DeviceDescription_Id_Args* args) {
  args->id = args->device_description->id;
  return nullptr;
}

PJRT_Error* DeviceDescriptionProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args) {
  args->process_index = args->device_description->process_index;
  return nullptr;
}

PJRT_Error* DeviceDescriptionAttributes(PJRT_DeviceDescription_Attributes_Args* args) {
  const auto& attributes = args->device_description->attributes;
  args->attributes = attributes.empty() ? nullptr : attributes.data();
  args->num_attributes = attributes.size();
  return nullptr;
}

PJRT_Error* DeviceDescriptionKind(PJRT_DeviceDescription_Kind_Args* args) {
  args->device_kind = args->device_description->kind.data();
  args->device_kind_size = args->device_description->kind.size();
  return nullptr;
}

PJRT_Error* DeviceDescriptionDebugString(PJRT_DeviceDescription_DebugString_Args* args) {
  args->debug_string = args->device_description->debug_string.data();
  args->debug_string_size = args->device_description->debug_string.size();
  return nullptr;
}

PJRT_Error* DeviceDescriptionToString(PJRT_DeviceDescription_ToString_Args* args) {
  args->to_string = args->device_description->to_string.data();
  args->to_string_size = args->device_description->to_string.size();
  return nullptr;
}

PJRT_Error* DeviceGetDescription(PJRT_Device_GetDescription_Args* args) {
  args->device_description = &args->device->description;
  return nullptr;
}

PJRT_Error* DeviceIsAddressable(PJRT_Device_IsAddressable_Args* args) {
  args->is_addressable = args->device->addressable;
  return nullptr;
}

PJRT_Error* DeviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args* args) {
  args->local_hardware_id = args->device->local_hardware_id;
  return nullptr;
}

PJRT_Error* DeviceAddressableMemories(PJRT_Device_AddressableMemories_Args* args) {
  args->memories = args->device->memories.data();
  args->num_memories = args->device->memories.size();
  return nullptr;
}

PJRT_Error* DeviceDefaultMemory(PJRT_Device_DefaultMemory_Args* args) {
  if (args->device->memories.empty()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Device_DefaultMemory: " +
                                                           args->device->description.to_string +
                                                           " belongs to another process: it has no memory here");
  }
  args->memory = args->device->memories.front();
  return nullptr;
}

namespace {
void KeepAttributes(PJRT_Device_Attributes*) {}
}  // namespace

PJRT_Error* DeviceGetAttributes(PJRT_Device_GetAttributes_Args* args) {
  const auto& attributes = args->device->description.attributes;
  args->attributes = attributes.empty() ? nullptr : attributes.data();
  args->num_attributes = attributes.size();
  args->device_attributes = nullptr;
  args->attributes_deleter = KeepAttributes;
  return nullptr;
}

PJRT_Error* DeviceMemoryStats(PJRT_Device_MemoryStats_Args* args) {
  static constexpr const char* kName = "PJRT_Device_MemoryStats";
  if (PJRT_Error* e = CheckStructSize(kName, args->struct_size,
                                      PJRT_STRUCT_SIZE(PJRT_Device_MemoryStats_Args, bytes_in_use))) {
    return e;
  }
  const BackendMemoryStats m = args->device->client->backend->MemoryStats();
  args->bytes_in_use = m.bytes_in_use;
  // Only what the caller's struct has (fields are appended over versions);
  // a value below 0 is one the backend does not know.
  const auto* end = reinterpret_cast<const char*>(args) + args->struct_size;
  const auto set = [end](int64_t value, int64_t& field, bool& is_set) {
    if (reinterpret_cast<const char*>(&is_set + 1) > end) return;
    field = value < 0 ? 0 : value;
    is_set = value >= 0;
  };
  set(m.peak_bytes_in_use, args->peak_bytes_in_use, args->peak_bytes_in_use_is_set);
  set(m.num_allocs, args->num_allocs, args->num_allocs_is_set);
  set(m.largest_alloc_size, args->largest_alloc_size, args->largest_alloc_size_is_set);
  set(m.bytes_limit, args->bytes_limit, args->bytes_limit_is_set);
  set(-1, args->bytes_reserved, args->bytes_reserved_is_set);
  set(-1, args->peak_bytes_reserved, args->peak_bytes_reserved_is_set);
  set(-1, args->bytes_reservable_limit, args->bytes_reservable_limit_is_set);
  set(-1, args->largest_free_block_bytes, args->largest_free_block_bytes_is_set);
  set(m.pool_bytes, args->pool_bytes, args->pool_bytes_is_set);
  set(-1, args->peak_pool_bytes, args->peak_pool_bytes_is_set);
  return nullptr;
}

PJRT_Error* MemoryId(PJRT_Memory_Id_Args* args) {
  args->id = args->memory->id;
  return nullptr;
}

PJRT_Error* MemoryKind(PJRT_Memory_Kind_Args* args) {
  args->kind = args->memory->kind.data();
  args->kind_size = args->memory->kind.size();
  return nullptr;
}

PJRT_Error* MemoryKindId(PJRT_Memory_Kind_Id_Args* args) {
  args->kind_id = args->memory->kind_id;
  return nullptr;
}

PJRT_Error* MemoryDebugString(PJRT_Memory_DebugString_Args* args) {
  args->debug_string = args->memory->debug_string.data();
  args->debug_string_size = args->memory->debug_string.size();
  return nullptr;
}

PJRT_Error* MemoryToString(PJRT_Memory_ToString_Args* args) {
  args->to_string = args->memory->to_string.data();
  args->to_string_size = args->memory->to_string.size();
  return nullptr;
}

PJRT_Error* MemoryAddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args) {
  args->devices = args->memory->devices.data();
  args->num_devices = args->memory->devices.size();
  return nullptr;
}

}  // namespace hlograph::pjrt

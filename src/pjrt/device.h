// Devices, their descriptions and memories, owned by the client. Each
// device has one memory of its own (kind "device"); the CPU backend offers
// as many devices as its create options ask (ids 0, 1, ...), the GPU
// backend one. A client spanning processes also lists the other
// processes' devices, not addressable here and without memories.
#pragma once

#include <string>
#include <vector>

#include "pjrt/pjrt_c_api.h"

struct PJRT_DeviceDescription {
  int id = 0;
  int process_index = 0;
  std::string kind;
  std::string to_string;
  std::string debug_string;
  std::vector<PJRT_NamedValue> attributes;
};

struct PJRT_Device {
  PJRT_Client* client = nullptr;
  PJRT_DeviceDescription description;
  int local_hardware_id = 0;     // its index among its process's devices
  bool addressable = true;        // this process's
  std::vector<PJRT_Memory*> memories;  // the first is the default; none when not addressable
};

struct PJRT_Memory {
  // Since API 0.105 the framework reads a PJRT_Memory's first word as a
  // pointer to a table of user-data functions (get at +0x18, set at +0x20)
  // and calls them when it is not null; null says there is none.
  const void* user_data_table = nullptr;
  int id = 0;
  int kind_id = 0;
  std::string kind;
  std::string to_string;
  std::string debug_string;
  std::vector<PJRT_Device*> devices;
};

namespace hlograph::pjrt {

PJRT_Error* DeviceDescriptionId(PJRT_DeviceDescription_Id_Args* args);
PJRT_Error* DeviceDescriptionProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args* args);
PJRT_Error* DeviceDescriptionAttributes(PJRT_DeviceDescription_Attributes_Args* args);
PJRT_Error* DeviceDescriptionKind(PJRT_DeviceDescription_Kind_Args* args);
PJRT_Error* DeviceDescriptionDebugString(PJRT_DeviceDescription_DebugString_Args* args);
PJRT_Error* DeviceDescriptionToString(PJRT_DeviceDescription_ToString_Args* args);

PJRT_Error* DeviceGetDescription(PJRT_Device_GetDescription_Args* args);
PJRT_Error* DeviceIsAddressable(PJRT_Device_IsAddressable_Args* args);
PJRT_Error* DeviceLocalHardwareId(PJRT_Device_LocalHardwareId_Args* args);
PJRT_Error* DeviceAddressableMemories(PJRT_Device_AddressableMemories_Args* args);
PJRT_Error* DeviceDefaultMemory(PJRT_Device_DefaultMemory_Args* args);
// The description's attributes: they live as long as the device, so there is
// nothing for the deleter to free.
PJRT_Error* DeviceGetAttributes(PJRT_Device_GetAttributes_Args* args);
// The backend's memory (pjrt/backend.h): on the GPU the process's device
// memory, on the CPU the bytes of live arrays. bytes_limit is the GPU
// memory budget (runtime/memory_budget.h) when there is one.
PJRT_Error* DeviceMemoryStats(PJRT_Device_MemoryStats_Args* args);

PJRT_Error* MemoryId(PJRT_Memory_Id_Args* args);
PJRT_Error* MemoryKind(PJRT_Memory_Kind_Args* args);
PJRT_Error* MemoryKindId(PJRT_Memory_Kind_Id_Args* args);
PJRT_Error* MemoryDebugString(PJRT_Memory_DebugString_Args* args);
PJRT_Error* MemoryToString(PJRT_Memory_ToString_Args* args);
PJRT_Error* MemoryAddressableByDevices(PJRT_Memory_AddressableByDevices_Args* args);

}  // namespace hlograph::pjrt

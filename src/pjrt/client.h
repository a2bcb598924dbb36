// PJRT_Client: the devices and memories of one hlograph backend (the GPU,
// or the CPU interpreter: pjrt/backend.h) and the entry to compiling and
// to making buffers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pjrt/backend.h"
#include "pjrt/device.h"
#include "pjrt/pjrt_c_api.h"

struct PJRT_Client {
  std::string platform_name = "hlograph";
  std::string platform_version;
  std::shared_ptr<hlograph::pjrt::Backend> backend;
  std::vector<std::unique_ptr<PJRT_Device>> device_storage;
  std::vector<std::unique_ptr<PJRT_Memory>> memory_storage;
  std::vector<PJRT_Device*> devices;  // all addressable (one process)
  std::vector<PJRT_Memory*> memories;
};

namespace hlograph::pjrt {

PJRT_Error* ClientCreate(PJRT_Client_Create_Args* args);
PJRT_Error* ClientDestroy(PJRT_Client_Destroy_Args* args);
PJRT_Error* ClientPlatformName(PJRT_Client_PlatformName_Args* args);
PJRT_Error* ClientProcessIndex(PJRT_Client_ProcessIndex_Args* args);
PJRT_Error* ClientPlatformVersion(PJRT_Client_PlatformVersion_Args* args);
PJRT_Error* ClientDevices(PJRT_Client_Devices_Args* args);
PJRT_Error* ClientAddressableDevices(PJRT_Client_AddressableDevices_Args* args);
PJRT_Error* ClientLookupDevice(PJRT_Client_LookupDevice_Args* args);
PJRT_Error* ClientLookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args* args);
PJRT_Error* ClientAddressableMemories(PJRT_Client_AddressableMemories_Args* args);
PJRT_Error* ClientDefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args* args);

}  // namespace hlograph::pjrt

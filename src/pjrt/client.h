// PJRT_Client: the devices and memories of one hlograph backend (the GPU,
// or the CPU interpreter: pjrt/backend.h) and the entry to compiling and
// to making buffers. A client spanning several processes (process_group.h)
// lists every process's devices; this process's are the addressable ones.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pjrt/backend.h"
#include "pjrt/device.h"
#include "pjrt/pjrt_c_api.h"
#include "pjrt/process_group.h"

struct PJRT_Client {
  std::string platform_name = "hlograph";
  std::string platform_version;
  std::shared_ptr<hlograph::pjrt::Backend> backend;
  std::vector<std::unique_ptr<PJRT_Device>> device_storage;
  std::vector<std::unique_ptr<PJRT_Memory>> memory_storage;
  std::vector<PJRT_Device*> devices;              // every process's, by id
  std::vector<PJRT_Device*> addressable_devices;  // this process's
  std::vector<PJRT_Memory*> memories;             // this process's devices'
  hlograph::pjrt::ProcessGroup processes;

  // The calls so far of each program spanning processes, by its key
  // (executable.h): the same count in every process, so a call's
  // exchanges have the same keys everywhere.
  int64_t NextCall(uint64_t program_key) {
    std::lock_guard<std::mutex> lock(calls_mutex);
    return calls[program_key]++;
  }

 private:
  std::mutex calls_mutex;
  std::map<uint64_t, int64_t> calls;
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
// The framework reports the processes' states (connected, failed) to a
// client spanning processes, and aborts where the call fails. Taken and
// not read: a collective waiting on a process that is gone fails by its
// timeout.
PJRT_Error* ClientUpdateGlobalProcessInfo(PJRT_Client_UpdateGlobalProcessInfo_Args* args);

}  // namespace hlograph::pjrt

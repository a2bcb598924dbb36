// The PJRT_Api table: every slot filled. Slots hlograph implements point at
// their implementation; the others at a stub that returns UNIMPLEMENTED
// naming the function.
#include "pjrt/buffer.h"
#include "pjrt/call_times.h"
#include "pjrt/client.h"
#include "pjrt/device.h"
#include "pjrt/error.h"
#include "pjrt/event.h"
#include "pjrt/executable.h"
#include "pjrt/plugin.h"

namespace hlograph::pjrt {
namespace {

#define HLOGRAPH_PJRT_STUB(name) \
  PJRT_Error* Stub_##name(name##_Args*) { return Unimplemented(#name); }
HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_STUB)
#undef HLOGRAPH_PJRT_STUB

PJRT_Api MakeApi() {
  PJRT_Api api{};
  api.struct_size = sizeof(PJRT_Api);
  api.extension_start = nullptr;
  api.pjrt_api_version.struct_size = PJRT_STRUCT_SIZE(PJRT_Api_Version, minor_version);
  api.pjrt_api_version.extension_start = nullptr;
  api.pjrt_api_version.major_version = PJRT_API_MAJOR;
  api.pjrt_api_version.minor_version = PJRT_API_MINOR;
#define HLOGRAPH_PJRT_SET_STUB(name) api.name = Stub_##name;
  HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_SET_STUB)
#undef HLOGRAPH_PJRT_SET_STUB

  api.PJRT_Error_Destroy = ErrorDestroy;
  api.PJRT_Error_Message = ErrorMessage;
  api.PJRT_Error_GetCode = ErrorGetCode;
  api.PJRT_Error_ForEachPayload = ErrorForEachPayload;
  api.PJRT_Plugin_Initialize = PluginInitialize;
  api.PJRT_Plugin_Attributes = PluginAttributes;

  api.PJRT_Event_Destroy = EventDestroy;
  api.PJRT_Event_IsReady = EventIsReady;
  api.PJRT_Event_Error = EventError;
  api.PJRT_Event_Await = EventAwait;
  api.PJRT_Event_OnReady = EventOnReady;

  api.PJRT_Client_Create = ClientCreate;
  api.PJRT_Client_Destroy = ClientDestroy;
  api.PJRT_Client_PlatformName = ClientPlatformName;
  api.PJRT_Client_ProcessIndex = ClientProcessIndex;
  api.PJRT_Client_PlatformVersion = ClientPlatformVersion;
  api.PJRT_Client_Devices = ClientDevices;
  api.PJRT_Client_AddressableDevices = ClientAddressableDevices;
  api.PJRT_Client_LookupDevice = ClientLookupDevice;
  api.PJRT_Client_LookupAddressableDevice = ClientLookupAddressableDevice;
  api.PJRT_Client_AddressableMemories = ClientAddressableMemories;
  api.PJRT_Client_Compile = ClientCompile;
  api.PJRT_Client_DefaultDeviceAssignment = ClientDefaultDeviceAssignment;
  api.PJRT_Client_UpdateGlobalProcessInfo = ClientUpdateGlobalProcessInfo;
  api.PJRT_Client_BufferFromHostBuffer = ClientBufferFromHostBuffer;

  api.PJRT_DeviceDescription_Id = DeviceDescriptionId;
  api.PJRT_DeviceDescription_ProcessIndex = DeviceDescriptionProcessIndex;
  api.PJRT_DeviceDescription_Attributes = DeviceDescriptionAttributes;
  api.PJRT_DeviceDescription_Kind = DeviceDescriptionKind;
  api.PJRT_DeviceDescription_DebugString = DeviceDescriptionDebugString;
  api.PJRT_DeviceDescription_ToString = DeviceDescriptionToString;
  api.PJRT_Device_GetDescription = DeviceGetDescription;
  api.PJRT_Device_IsAddressable = DeviceIsAddressable;
  api.PJRT_Device_LocalHardwareId = DeviceLocalHardwareId;
  api.PJRT_Device_AddressableMemories = DeviceAddressableMemories;
  api.PJRT_Device_DefaultMemory = DeviceDefaultMemory;
  api.PJRT_Device_GetAttributes = DeviceGetAttributes;
  api.PJRT_Device_MemoryStats = DeviceMemoryStats;
  api.PJRT_Memory_Id = MemoryId;
  api.PJRT_Memory_Kind = MemoryKind;
  api.PJRT_Memory_Kind_Id = MemoryKindId;
  api.PJRT_Memory_DebugString = MemoryDebugString;
  api.PJRT_Memory_ToString = MemoryToString;
  api.PJRT_Memory_AddressableByDevices = MemoryAddressableByDevices;

  api.PJRT_Executable_Destroy = ExecutableDestroy;
  api.PJRT_Executable_Name = ExecutableName;
  api.PJRT_Executable_NumReplicas = ExecutableNumReplicas;
  api.PJRT_Executable_NumPartitions = ExecutableNumPartitions;
  api.PJRT_Executable_NumOutputs = ExecutableNumOutputs;
  api.PJRT_Executable_OutputElementTypes = ExecutableOutputElementTypes;
  api.PJRT_Executable_OutputDimensions = ExecutableOutputDimensions;
  api.PJRT_Executable_OutputMemoryKinds = ExecutableOutputMemoryKinds;
  api.PJRT_Executable_OptimizedProgram = ExecutableOptimizedProgram;
  api.PJRT_LoadedExecutable_Destroy = LoadedExecutableDestroy;
  api.PJRT_LoadedExecutable_GetExecutable = LoadedExecutableGetExecutable;
  api.PJRT_LoadedExecutable_AddressableDevices = LoadedExecutableAddressableDevices;
  api.PJRT_LoadedExecutable_Delete = LoadedExecutableDelete;
  api.PJRT_LoadedExecutable_IsDeleted = LoadedExecutableIsDeleted;
  api.PJRT_LoadedExecutable_Execute = LoadedExecutableExecute;
  api.PJRT_LoadedExecutable_AddressableDeviceLogicalIds = LoadedExecutableAddressableDeviceLogicalIds;
  api.PJRT_LoadedExecutable_GetDeviceAssignment = LoadedExecutableGetDeviceAssignment;

  api.PJRT_Buffer_Destroy = BufferDestroy;
  api.PJRT_Buffer_ElementType = BufferElementType;
  api.PJRT_Buffer_Dimensions = BufferDimensions;
  api.PJRT_Buffer_UnpaddedDimensions = BufferUnpaddedDimensions;
  api.PJRT_Buffer_DynamicDimensionIndices = BufferDynamicDimensionIndices;
  api.PJRT_Buffer_OnDeviceSizeInBytes = BufferOnDeviceSizeInBytes;
  api.PJRT_Buffer_Device = BufferDevice;
  api.PJRT_Buffer_Memory = BufferMemory;
  api.PJRT_Buffer_Delete = BufferDelete;
  api.PJRT_Buffer_IsDeleted = BufferIsDeleted;
  api.PJRT_Buffer_ToHostBuffer = BufferToHostBuffer;
  api.PJRT_Buffer_IsOnCpu = BufferIsOnCpu;
  api.PJRT_Buffer_ReadyEvent = BufferReadyEvent;
  api.PJRT_Buffer_CopyToDevice = BufferCopyToDevice;
  api.PJRT_Buffer_CopyToMemory = BufferCopyToMemory;
  return api;
}

}  // namespace

const PJRT_Api* Api() {
  // HLOGRAPH_PJRT_STATS=1: every entry timed (pjrt/call_times.h).
  static const PJRT_Api api = CallTimesEnabled() ? TimedApi(MakeApi()) : MakeApi();
  return &api;
}

}  // namespace hlograph::pjrt

extern "C" __attribute__((visibility("default"))) const PJRT_Api* GetPjrtApi(void) { return hlograph::pjrt::Api(); }

// PJRT_Buffer: an array on a device, its bytes kept by the client's backend
// (pjrt/backend.h). Copies from the host are done before the call returns;
// copies to the host wait for the array to be computed.
#pragma once

#include <memory>
#include <vector>

#include "ir/type.h"
#include "pjrt/backend.h"
#include "pjrt/pjrt_c_api.h"

struct PJRT_Buffer {
  std::shared_ptr<hlograph::pjrt::Array> array;  // null once deleted (or donated)
  hlograph::ir::Type type;                        // the queries' element type and dims come from it
  PJRT_Device* device = nullptr;
};

namespace hlograph::pjrt {

// A new buffer holding `array` of `type` (whose element type must have a PJRT type).
PJRT_Buffer* MakeBuffer(std::shared_ptr<Array> array, const ir::Type& type, PJRT_Device* device);

PJRT_Error* ClientBufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args);
PJRT_Error* BufferDestroy(PJRT_Buffer_Destroy_Args* args);
PJRT_Error* BufferElementType(PJRT_Buffer_ElementType_Args* args);
PJRT_Error* BufferDimensions(PJRT_Buffer_Dimensions_Args* args);
PJRT_Error* BufferUnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args);
PJRT_Error* BufferDynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args);
PJRT_Error* BufferOnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args);
PJRT_Error* BufferDevice(PJRT_Buffer_Device_Args* args);
PJRT_Error* BufferMemory(PJRT_Buffer_Memory_Args* args);
PJRT_Error* BufferDelete(PJRT_Buffer_Delete_Args* args);
PJRT_Error* BufferIsDeleted(PJRT_Buffer_IsDeleted_Args* args);
PJRT_Error* BufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args);
PJRT_Error* BufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args* args);
PJRT_Error* BufferReadyEvent(PJRT_Buffer_ReadyEvent_Args* args);
// A copy of the buffer's array on another device (or memory) of the same
// client, made through the host: each device keeps arrays of its own, so a
// later donation of either buffer leaves the other intact.
PJRT_Error* BufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args* args);
PJRT_Error* BufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args* args);

}  // namespace hlograph::pjrt

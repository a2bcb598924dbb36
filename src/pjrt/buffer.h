// PJRT_Buffer: an array on a device. On the CPU backend it holds an
// interpreter tensor; copies in and out are done before the call returns.
#pragma once

#include <vector>

#include "backends/cpu/tensor.h"
#include "pjrt/pjrt_c_api.h"

struct PJRT_Buffer {
  hlograph::cpu::Tensor tensor;  // empty once deleted
  PJRT_Device* device = nullptr;
  PJRT_Buffer_Type type = PJRT_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  bool deleted = false;
};

namespace hlograph::pjrt {

// A new buffer holding `tensor` (whose element type must have a PJRT type).
PJRT_Buffer* MakeBuffer(cpu::Tensor tensor, PJRT_Device* device);

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

}  // namespace hlograph::pjrt

#include "pjrt/buffer.h"

#include <cstring>
#include <string>

#include "backends/cpu/tensor.h"
#include "pjrt/client.h"
#include "pjrt/element_types.h"
#include "pjrt/error.h"
#include "pjrt/event.h"

namespace hlograph::pjrt {
namespace {

// True when `layout` is absent or describes dense row-major storage of a
// `rank`-dimensional array (the only layout hlograph keeps).
bool IsRowMajor(const PJRT_Buffer_MemoryLayout* layout, size_t rank) {
  if (layout == nullptr) return true;
  if (layout->type != PJRT_Buffer_MemoryLayout_Type_Tiled) return false;
  const PJRT_Buffer_MemoryLayout_Tiled& tiled = layout->tiled;
  if (tiled.num_tiles != 0) return false;
  if (tiled.minor_to_major_size == 0) return true;
  if (tiled.minor_to_major_size != rank) return false;
  for (size_t i = 0; i < rank; ++i) {
    if (tiled.minor_to_major[i] != static_cast<int64_t>(rank - 1 - i)) return false;
  }
  return true;
}

PJRT_Error* Deleted(const char* function) {
  return MakeError(PJRT_Error_Code_FAILED_PRECONDITION, std::string(function) + ": the buffer has been deleted");
}

// Copies host data laid out with `byte_strides` into dense row-major `dst`.
void CopyStrided(const uint8_t* src, const int64_t* byte_strides, const std::vector<int64_t>& dims,
                 size_t element_bytes, uint8_t* dst) {
  cpu::ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) offset += index[d] * byte_strides[d];
    std::memcpy(dst, src + offset, element_bytes);
    dst += element_bytes;
  });
}

}  // namespace

PJRT_Buffer* MakeBuffer(std::shared_ptr<Array> array, const ir::Type& type, PJRT_Device* device) {
  auto* buffer = new PJRT_Buffer;
  buffer->type = type;
  buffer->device = device;
  buffer->array = std::move(array);
  return buffer;
}

PJRT_Error* ClientBufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args* args) {
  static constexpr const char* kName = "PJRT_Client_BufferFromHostBuffer";
  if (PJRT_Error* e = CheckStructSize(kName, args->struct_size,
                                      PJRT_STRUCT_SIZE(PJRT_Client_BufferFromHostBuffer_Args, buffer))) {
    return e;
  }
  std::optional<ir::ElementType> element = FromPjrtType(args->type);
  if (!element) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     std::string(kName) + ": element type " + std::to_string(args->type) + " is not supported");
  }
  PJRT_Device* device = args->device;
  if (args->memory != nullptr) device = args->memory->devices.front();
  if (device == nullptr) device = args->client->addressable_devices.front();
  if (!device->addressable) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     std::string(kName) + ": " + device->description.to_string + " belongs to another process");
  }
  if (!IsRowMajor(args->device_layout, args->num_dims)) {
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED, std::string(kName) + ": only row-major device layouts");
  }
  std::vector<int64_t> dims(args->dims, args->dims + args->num_dims);
  for (int64_t d : dims) {
    if (d < 0) return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": negative dimension");
  }
  const ir::Type type = ir::Type::Tensor(*element, dims);
  const auto* src = static_cast<const uint8_t*>(args->data);
  std::vector<uint8_t> dense;  // a row-major copy, when the host data is strided otherwise
  if (args->num_byte_strides != 0 && type.NumElements() > 0) {
    if (args->num_byte_strides != args->num_dims) {
      return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                       std::string(kName) + ": byte_strides and dims differ in length");
    }
    const auto element_bytes = static_cast<size_t>(ir::StorageBytes(*element));
    dense.resize(static_cast<size_t>(type.NumElements()) * element_bytes);
    CopyStrided(src, args->byte_strides, dims, element_bytes, dense.data());
    src = dense.data();
  }
  auto array = args->client->backend->FromHost(type, src);
  if (!array.ok()) {
    return MakeError(PJRT_Error_Code_RESOURCE_EXHAUSTED, std::string(kName) + ": " + array.status().message());
  }
  // The data is copied: the host buffer is free as soon as this returns.
  args->done_with_host_buffer = MakeReadyEvent();
  args->buffer = MakeBuffer(std::move(*array), type, device);
  return nullptr;
}

PJRT_Error* BufferDestroy(PJRT_Buffer_Destroy_Args* args) {
  delete args->buffer;
  return nullptr;
}

PJRT_Error* BufferElementType(PJRT_Buffer_ElementType_Args* args) {
  args->type = ToPjrtType(args->buffer->type.element()).value_or(PJRT_Buffer_Type_INVALID);
  return nullptr;
}

PJRT_Error* BufferDimensions(PJRT_Buffer_Dimensions_Args* args) {
  args->dims = args->buffer->type.shape().data();
  args->num_dims = args->buffer->type.shape().size();
  return nullptr;
}

PJRT_Error* BufferUnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args* args) {
  args->unpadded_dims = args->buffer->type.shape().data();
  args->num_dims = args->buffer->type.shape().size();
  return nullptr;
}

PJRT_Error* BufferDynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  args->dynamic_dim_indices = nullptr;  // every dimension is static
  args->num_dynamic_dims = 0;
  return nullptr;
}

PJRT_Error* BufferOnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  if (!args->buffer->array) return Deleted("PJRT_Buffer_OnDeviceSizeInBytes");
  args->on_device_size_in_bytes = static_cast<size_t>(args->buffer->array->byte_size());
  return nullptr;
}

PJRT_Error* BufferDevice(PJRT_Buffer_Device_Args* args) {
  args->device = args->buffer->device;
  return nullptr;
}

PJRT_Error* BufferMemory(PJRT_Buffer_Memory_Args* args) {
  args->memory = args->buffer->device->memories.front();
  return nullptr;
}

PJRT_Error* BufferDelete(PJRT_Buffer_Delete_Args* args) {
  args->buffer->array.reset();
  return nullptr;
}

PJRT_Error* BufferIsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  args->is_deleted = args->buffer->array == nullptr;
  return nullptr;
}

PJRT_Error* BufferToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  static constexpr const char* kName = "PJRT_Buffer_ToHostBuffer";
  if (PJRT_Error* e = CheckStructSize(kName, args->struct_size, PJRT_STRUCT_SIZE(PJRT_Buffer_ToHostBuffer_Args, event))) {
    return e;
  }
  const PJRT_Buffer& src = *args->src;
  if (!src.array) return Deleted(kName);
  if (!IsRowMajor(args->host_layout, src.type.shape().size())) {
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED, std::string(kName) + ": only row-major host layouts");
  }
  const auto size = static_cast<size_t>(src.array->byte_size());
  if (args->dst == nullptr) {
    args->dst_size = size;
    return nullptr;
  }
  if (args->dst_size < size) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": the destination holds " +
                                                           std::to_string(args->dst_size) + " bytes, the buffer " +
                                                           std::to_string(size));
  }
  if (Status s = src.array->ToHost(args->dst); !s.ok()) {
    return MakeError(PJRT_Error_Code_INTERNAL, std::string(kName) + ": " + s.message());
  }
  args->event = MakeReadyEvent();
  return nullptr;
}

PJRT_Error* BufferIsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  // On the CPU backend too hlograph lends no pointers into its memory (no
  // zero-copy views).
  args->is_on_cpu = false;
  return nullptr;
}

PJRT_Error* BufferReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  // Ready once the work that makes the array is done; a deleted buffer's
  // event carries an error.
  std::shared_ptr<EventState> state;
  if (args->buffer->array) {
    state = args->buffer->array->Ready();
  } else {
    state = std::make_shared<EventState>();
    state->SetReady(std::make_pair(PJRT_Error_Code_FAILED_PRECONDITION,
                                   std::string("PJRT_Buffer_ReadyEvent: the buffer has been deleted")));
  }
  args->event = MakeEvent(std::move(state));
  return nullptr;
}

namespace {

PJRT_Error* CopyTo(const char* function, const PJRT_Buffer& src, PJRT_Device* device, PJRT_Buffer** out) {
  if (!src.array) return Deleted(function);
  if (device == nullptr) return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(function) + ": no destination");
  if (device->client != src.device->client) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(function) + ": the destination is another client's");
  }
  if (!device->addressable) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     std::string(function) + ": " + device->description.to_string + " belongs to another process");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(src.array->byte_size()));
  if (Status s = src.array->ToHost(bytes.data()); !s.ok()) {
    return MakeError(PJRT_Error_Code_INTERNAL, std::string(function) + ": " + s.message());
  }
  auto array = device->client->backend->FromHost(src.type, bytes.data());
  if (!array.ok()) {
    return MakeError(PJRT_Error_Code_RESOURCE_EXHAUSTED, std::string(function) + ": " + array.status().message());
  }
  *out = MakeBuffer(std::move(*array), src.type, device);
  return nullptr;
}

}  // namespace

PJRT_Error* BufferCopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  return CopyTo("PJRT_Buffer_CopyToDevice", *args->buffer, args->dst_device, &args->dst_buffer);
}

PJRT_Error* BufferCopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  PJRT_Device* device = args->dst_memory != nullptr ? args->dst_memory->devices.front() : nullptr;
  return CopyTo("PJRT_Buffer_CopyToMemory", *args->buffer, device, &args->dst_buffer);
}

}  // namespace hlograph::pjrt

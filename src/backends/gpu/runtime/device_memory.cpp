#include "backends/gpu/runtime/device_memory.h"

#include <utility>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/memory_stats.h"

namespace hlograph::gpu {
namespace {

Status CheckBytes(int64_t bytes, const char* what) {
  if (bytes < 0) return Status::Error(std::string(what) + ": negative size " + std::to_string(bytes) + " bytes");
  return Status::Ok();
}

}  // namespace

StatusOr<DeviceBuffer> DeviceBuffer::Allocate(int64_t bytes) {
  HLOGRAPH_TRY(CheckBytes(bytes, "device allocation"));
  DeviceBuffer buffer;
  if (bytes == 0) return buffer;
  void* pointer = nullptr;
  cudaError_t error = cudaMalloc(&pointer, static_cast<size_t>(bytes));
  std::string call = "cudaMalloc(" + std::to_string(bytes) + " bytes)";
  if (error == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // an allocation failure is not sticky; clear it
    std::string message = call + " failed: out of device memory";
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      message += " (" + std::to_string(free_bytes) + " of " + std::to_string(total_bytes) + " bytes free)";
    } else {
      (void)cudaGetLastError();
    }
    return Status::Error(message + " (cudaErrorMemoryAllocation)");
  }
  HLOGRAPH_TRY(CudaStatus(error, call));
  buffer.data_ = pointer;
  buffer.size_ = bytes;
  DeviceAllocations().Add(bytes);
  return buffer;
}

void DeviceBuffer::Free() {
  if (data_ == nullptr) return;
  (void)cudaFree(data_);
  DeviceAllocations().Remove(size_);
  data_ = nullptr;
  size_ = 0;
}

DeviceBuffer::~DeviceBuffer() { Free(); }

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    Free();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

StatusOr<Stream> Stream::Create() {
  Stream stream;
  HLOGRAPH_CUDA(cudaStreamCreateWithFlags(&stream.stream_, cudaStreamNonBlocking));
  return stream;
}

Stream::~Stream() {
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

Stream::Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

Status Stream::Synchronize() const { return CudaStatus(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

namespace {

Status Copy(void* dst, const void* src, int64_t bytes, cudaMemcpyKind kind, const char* direction,
            cudaStream_t stream) {
  HLOGRAPH_TRY(CheckBytes(bytes, direction));
  if (bytes == 0) return Status::Ok();
  return CudaStatus(cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes), kind, stream),
                    std::string("cudaMemcpyAsync(") + direction + ", " + std::to_string(bytes) + " bytes)");
}

}  // namespace

Status CopyHostToDevice(void* dst, const void* src, int64_t bytes, cudaStream_t stream) {
  return Copy(dst, src, bytes, cudaMemcpyHostToDevice, "host to device", stream);
}

Status CopyDeviceToHost(void* dst, const void* src, int64_t bytes, cudaStream_t stream) {
  return Copy(dst, src, bytes, cudaMemcpyDeviceToHost, "device to host", stream);
}

Status CopyDeviceToDevice(void* dst, const void* src, int64_t bytes, cudaStream_t stream) {
  return Copy(dst, src, bytes, cudaMemcpyDeviceToDevice, "device to device", stream);
}

Status MemsetDevice(void* dst, int value, int64_t bytes, cudaStream_t stream) {
  HLOGRAPH_TRY(CheckBytes(bytes, "device memset"));
  if (bytes == 0) return Status::Ok();
  return CudaStatus(cudaMemsetAsync(dst, value, static_cast<size_t>(bytes), stream),
                    "cudaMemsetAsync(" + std::to_string(bytes) + " bytes)");
}

}  // namespace hlograph::gpu

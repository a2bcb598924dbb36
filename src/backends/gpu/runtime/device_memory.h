// Device memory owned by RAII objects, streams, and host<->device copies.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "hlograph/status.h"

namespace hlograph::gpu {

// One cudaMalloc'd block; freed on destruction. Move-only. Counted in the
// process's device memory (runtime/memory_stats.h) while it lives.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // 0 bytes gives an empty buffer with data() == nullptr. Out of memory is
  // an error naming the size (IsOutOfMemory(status) is true).
  static StatusOr<DeviceBuffer> Allocate(int64_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  void Free();
  void* data_ = nullptr;
  int64_t size_ = 0;
};

// A non-blocking stream; destroyed on destruction. Move-only.
class Stream {
 public:
  static StatusOr<Stream> Create();
  Stream() = default;
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }
  Status Synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

// Asynchronous on `stream` (pageable host memory makes them synchronous).
Status CopyHostToDevice(void* dst, const void* src, int64_t bytes, cudaStream_t stream);
Status CopyDeviceToHost(void* dst, const void* src, int64_t bytes, cudaStream_t stream);
Status CopyDeviceToDevice(void* dst, const void* src, int64_t bytes, cudaStream_t stream);
Status MemsetDevice(void* dst, int value, int64_t bytes, cudaStream_t stream);

}  // namespace hlograph::gpu

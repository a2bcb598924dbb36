#include "backends/gpu/runtime/device.h"

#include <cstdio>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {
namespace {

std::string VersionString(int version) {  // 13000 -> "13.0"
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string Bytes(int64_t bytes) {
  char buffer[64];
  if (bytes >= (int64_t{1} << 30)) {
    std::snprintf(buffer, sizeof(buffer), "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  } else {
    std::snprintf(buffer, sizeof(buffer), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  }
  return buffer;
}

int CountDevices() {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();  // no driver / no device: not sticky, clear it
    return 0;
  }
  return count < 0 ? 0 : count;
}

}  // namespace

std::string DeviceInfo::ToString() const {
  // "device 0: NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, L2 60.0 MiB, driver 13.0, runtime 13.0"
  return "device " + std::to_string(ordinal) + ": " + name + ", sm_" + std::to_string(cc_major) +
         std::to_string(cc_minor) + ", " + std::to_string(sm_count) + " SMs, " + Bytes(total_memory) + ", L2 " +
         Bytes(l2_bytes) + ", driver " + VersionString(driver_version) + ", runtime " +
         VersionString(runtime_version);
}

int DeviceCount() {
  // The answer cannot change while the process runs; asking once also avoids
  // repeated driver probing on machines without one.
  static const int count = CountDevices();
  return count;
}

StatusOr<DeviceInfo> GetDeviceInfo(int ordinal) {
  int count = DeviceCount();
  if (ordinal < 0 || ordinal >= count) {
    return Status::Error("GPU device " + std::to_string(ordinal) + " does not exist (" + std::to_string(count) +
                         " device" + (count == 1 ? "" : "s") + ")");
  }
  cudaDeviceProp prop{};
  HLOGRAPH_TRY(CudaStatus(cudaGetDeviceProperties(&prop, ordinal),
                          "cudaGetDeviceProperties(" + std::to_string(ordinal) + ")"));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  info.total_memory = static_cast<int64_t>(prop.totalGlobalMem);
  info.l2_bytes = prop.l2CacheSize;
  HLOGRAPH_CUDA(cudaDriverGetVersion(&info.driver_version));
  HLOGRAPH_CUDA(cudaRuntimeGetVersion(&info.runtime_version));
  return info;
}

Status SetDevice(int ordinal) {
  int count = DeviceCount();
  if (ordinal < 0 || ordinal >= count) {
    return Status::Error("cannot use GPU device " + std::to_string(ordinal) + ": this machine has " +
                         std::to_string(count) + " GPU" + (count == 1 ? "" : "s"));
  }
  return CudaStatus(cudaSetDevice(ordinal), "cudaSetDevice(" + std::to_string(ordinal) + ")");
}

}  // namespace hlograph::gpu

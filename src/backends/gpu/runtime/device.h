// The GPUs of this machine. Without a driver or a device, DeviceCount() is 0
// (never an error), so a binary built with the GPU backend runs everywhere.
#pragma once

#include <cstdint>
#include <string>

#include "hlograph/status.h"

namespace hlograph::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;               // "NVIDIA H200"
  int cc_major = 0, cc_minor = 0;  // compute capability, 9.0 on Hopper
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int64_t total_memory = 0;        // bytes
  int64_t l2_bytes = 0;
  int driver_version = 0, runtime_version = 0;  // 13000 = 13.0
  std::string ToString() const;
};

// Usable devices; 0 when there is no driver, no GPU or an incompatible driver.
int DeviceCount();
StatusOr<DeviceInfo> GetDeviceInfo(int ordinal);

// Makes `ordinal` the calling thread's current device.
Status SetDevice(int ordinal);

}  // namespace hlograph::gpu

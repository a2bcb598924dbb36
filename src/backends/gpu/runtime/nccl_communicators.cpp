#include "backends/gpu/runtime/nccl_communicators.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#if HLOGRAPH_HAVE_NCCL
#include <nccl.h>
#endif

namespace hlograph::gpu {

#if HLOGRAPH_HAVE_NCCL

namespace {

std::string DeviceList(const std::vector<int>& devices) {
  std::string s;
  for (size_t i = 0; i < devices.size(); ++i) s += (i ? ", " : "") + std::to_string(devices[i]);
  return "[" + s + "]";
}

}  // namespace

Status NcclUsable() {
  int version = 0;
  const ncclResult_t r = ncclGetVersion(&version);
  if (r != ncclSuccess) return Status::Error(std::string("NCCL: ") + ncclGetErrorString(r));
  return Status::Ok();
}

std::string NcclVersion() {
  int v = 0;
  if (const ncclResult_t r = ncclGetVersion(&v); r != ncclSuccess) return ncclGetErrorString(r);
  // NCCL_VERSION(X, Y, Z) is X * 10000 + Y * 100 + Z since 2.9.
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

StatusOr<ncclComm*> CommunicatorFor(const std::vector<int>& devices, int rank) {
  if (devices.empty() || rank < 0 || rank >= static_cast<int>(devices.size())) {
    return Status::Error("no rank " + std::to_string(rank) + " among devices " + DeviceList(devices));
  }
  if (std::set<int>(devices.begin(), devices.end()).size() != devices.size()) {
    return Status::Error("devices " + DeviceList(devices) + " name a device twice: NCCL puts one rank on a device");
  }
  // Kept until the process exits, never destroyed: ncclCommDestroy from a
  // static destructor may run after CUDA has unloaded.
  static std::mutex mutex;
  static auto* made = new std::map<std::vector<int>, std::vector<ncclComm_t>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = made->find(devices);
  if (it == made->end()) {
    HLOGRAPH_TRY(NcclUsable());
    std::vector<ncclComm_t> comms(devices.size(), nullptr);
    const ncclResult_t r = ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data());
    if (r != ncclSuccess) {
      return Status::Error("ncclCommInitAll over devices " + DeviceList(devices) +
                           " failed: " + ncclGetErrorString(r) + " (" + ncclGetLastError(nullptr) + ")");
    }
    it = made->emplace(devices, std::move(comms)).first;
  }
  return it->second[static_cast<size_t>(rank)];
}

#else  // built without nccl.h

namespace {
const char* const kNoNccl = "this build has no NCCL (nccl.h was not found when it was configured: set NCCL_ROOT)";
}

Status NcclUsable() { return Status::Error(kNoNccl); }
std::string NcclVersion() { return kNoNccl; }
StatusOr<ncclComm*> CommunicatorFor(const std::vector<int>&, int) { return Status::Error(kNoNccl); }

#endif

}  // namespace hlograph::gpu

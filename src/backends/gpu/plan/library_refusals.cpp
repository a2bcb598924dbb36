#include "backends/gpu/plan/library_refusals.h"

#include <map>
#include <mutex>

namespace hlograph::gpu {
namespace {

std::mutex& RefusalMutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, std::string>& Refusals() {
  static std::map<std::string, std::string> refusals;
  return refusals;
}

}  // namespace

void RefuseLibraryCall(const std::string& call, const std::string& why) {
  std::lock_guard<std::mutex> lock(RefusalMutex());
  Refusals()[call] = why;
}

std::optional<std::string> LibraryRefusal(const std::string& call) {
  std::lock_guard<std::mutex> lock(RefusalMutex());
  const auto it = Refusals().find(call);
  if (it == Refusals().end()) return std::nullopt;
  return it->second;
}

}  // namespace hlograph::gpu

#include "pjrt/create_options.h"

#include <cstdlib>
#include <string>

#include "pjrt/backend.h"

namespace hlograph::pjrt {
namespace {

constexpr char kCpuDevicesEnv[] = "HLOGRAPH_PJRT_CPU_DEVICES";

StatusOr<int> ParseDeviceCount(const std::string& text, const std::string& source) {
  const bool digits = !text.empty() && text.size() <= 5 && text.find_first_not_of("0123456789") == std::string::npos;
  const int n = digits ? std::stoi(text) : 0;
  if (n < 1 || n > kMaxCpuDevices) {
    return Status::Error(source + ": expected a number of devices from 1 to " + std::to_string(kMaxCpuDevices) +
                         ", got \"" + text + "\"");
  }
  return n;
}

Status ApplyMemoryBudget(const PJRT_NamedValue& v) {
  std::string text;
  if (v.type == PJRT_NamedValue_kString) {
    text.assign(v.string_value, v.value_size);
  } else if (v.type == PJRT_NamedValue_kInt64 && v.int64_value > 0) {
    text = std::to_string(v.int64_value);
  } else {
    return Status::Error("create option memory_budget: expected a string (\"8G\", \"80%\", \"none\") or a "
                         "positive int64 of bytes");
  }
  const Status set = SetMemoryBudget(text);
  if (!set.ok()) return Status::Error("create option memory_budget: " + set.message());
  return Status::Ok();
}

}  // namespace

StatusOr<CreateOptions> ApplyCreateOptions(const PJRT_NamedValue* options, size_t count) {
  CreateOptions out;
  bool counted = false;
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& v = options[i];
    const std::string name(v.name, v.name_size);
    if (name == "memory_budget") HLOGRAPH_TRY(ApplyMemoryBudget(v));
    if (name != "cpu_device_count") continue;
    std::string text;
    if (v.type == PJRT_NamedValue_kInt64) text = std::to_string(v.int64_value);
    if (v.type == PJRT_NamedValue_kString) text.assign(v.string_value, v.value_size);
    HLOGRAPH_ASSIGN(out.cpu_devices, ParseDeviceCount(text, "create option cpu_device_count"));
    counted = true;
  }
  const char* env = std::getenv(kCpuDevicesEnv);
  if (!counted && env != nullptr && *env != '\0') {
    HLOGRAPH_ASSIGN(out.cpu_devices, ParseDeviceCount(env, kCpuDevicesEnv));
  }
  return out;
}

}  // namespace hlograph::pjrt

#include "pjrt/create_options.h"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "pjrt/backend.h"

namespace hlograph::pjrt {
namespace {

constexpr char kCpuDevicesEnv[] = "HLOGRAPH_PJRT_CPU_DEVICES";
constexpr char kProcessTimeoutEnv[] = "HLOGRAPH_PJRT_PROCESS_TIMEOUT";
constexpr int kMaxProcesses = 1 << 16;

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

StatusOr<int64_t> Int64Of(const PJRT_NamedValue& v, const std::string& name) {
  if (v.type != PJRT_NamedValue_kInt64) return Status::Error("create option " + name + ": expected an int64");
  return v.int64_value;
}

// Seconds, a positive number (fractions allowed), as milliseconds.
StatusOr<std::chrono::milliseconds> ParseTimeout(const std::string& text, const std::string& source) {
  char* end = nullptr;
  const double seconds = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !(seconds > 0) || seconds > 1e6) {
    return Status::Error(source + ": expected a positive number of seconds, got \"" + text + "\"");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000 + 0.5));
}

// node_id and num_nodes: both or neither, 0 <= node_id < num_nodes.
Status CheckProcesses(bool has_index, bool has_count, int64_t index, int64_t count) {
  if (has_index != has_count) {
    return Status::Error(std::string("create option ") + (has_index ? "node_id" : "num_nodes") +
                         " is given without " + (has_index ? "num_nodes" : "node_id") +
                         ": a client spanning several processes needs both");
  }
  if (!has_count) return Status::Ok();
  if (count < 1 || count > kMaxProcesses) {
    return Status::Error("create option num_nodes: expected a number of processes from 1 to " +
                         std::to_string(kMaxProcesses) + ", got " + std::to_string(count));
  }
  if (index < 0 || index >= count) {
    return Status::Error("create option node_id: expected a process index from 0 to " + std::to_string(count - 1) +
                         " (num_nodes is " + std::to_string(count) + "), got " + std::to_string(index));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CreateOptions> ApplyCreateOptions(const PJRT_NamedValue* options, size_t count) {
  CreateOptions out;
  bool counted = false, has_index = false, has_count = false, timed = false;
  int64_t index = 0, processes = 1;
  for (size_t i = 0; i < count; ++i) {
    const PJRT_NamedValue& v = options[i];
    const std::string name(v.name, v.name_size);
    if (name == "memory_budget") HLOGRAPH_TRY(ApplyMemoryBudget(v));
    if (name == "node_id") {
      HLOGRAPH_ASSIGN(index, Int64Of(v, name));
      has_index = true;
    }
    if (name == "num_nodes") {
      HLOGRAPH_ASSIGN(processes, Int64Of(v, name));
      has_count = true;
    }
    if (name == "process_timeout_s") {
      std::string text;
      if (v.type == PJRT_NamedValue_kInt64) text = std::to_string(v.int64_value);
      if (v.type == PJRT_NamedValue_kFloat) text = std::to_string(v.float_value);
      if (v.type == PJRT_NamedValue_kString) text.assign(v.string_value, v.value_size);
      HLOGRAPH_ASSIGN(out.process_timeout, ParseTimeout(text, "create option process_timeout_s"));
      timed = true;
    }
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
  HLOGRAPH_TRY(CheckProcesses(has_index, has_count, index, processes));
  out.process_index = static_cast<int>(index);
  out.process_count = static_cast<int>(processes);
  const char* timeout = std::getenv(kProcessTimeoutEnv);
  if (!timed && timeout != nullptr && *timeout != '\0') {
    HLOGRAPH_ASSIGN(out.process_timeout, ParseTimeout(timeout, kProcessTimeoutEnv));
  }
  return out;
}

}  // namespace hlograph::pjrt

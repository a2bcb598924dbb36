#include "pjrt/kv_store.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>

#include "pjrt/error.h"

namespace hlograph::pjrt {
namespace {

constexpr char kPrefix[] = "hlograph/";

// What the framework's callbacks call to report an error: the error is
// this plugin's, freed here once read.
PJRT_Error* CallbackError(PJRT_Error_Code code, const char* message, size_t message_size) {
  return MakeError(code, std::string(message, message_size));
}
PJRT_CallbackError callback_error = CallbackError;

std::unique_ptr<PJRT_Error> Owned(PJRT_Error* e) { return std::unique_ptr<PJRT_Error>(e); }

}  // namespace

Status KvStore::Put(const std::string& key, std::string_view value) {
  const std::string full = kPrefix + key;
  PJRT_KeyValuePutCallback_Args args{};
  args.struct_size = sizeof(args);
  args.key = full.data();
  args.key_size = full.size();
  args.value = value.data();
  args.value_size = value.size();
  args.callback_error = &callback_error;
  args.user_arg = put_arg_;
  if (auto e = Owned(put_(&args))) {
    return Status::Error("putting \"" + full + "\" in the key-value store: " + e->message);
  }
  return Status::Ok();
}

StatusOr<std::optional<std::string>> KvStore::Get(const std::string& key, std::chrono::milliseconds wait) {
  const std::string full = kPrefix + key;
  PJRT_KeyValueGetCallback_Args args{};
  args.struct_size = sizeof(args);
  args.key = full.data();
  args.key_size = full.size();
  args.timeout_in_ms = static_cast<int>(std::min<int64_t>(std::max<int64_t>(wait.count(), 1), INT_MAX));
  args.callback_error = &callback_error;
  args.user_arg = get_arg_;
  if (auto e = Owned(get_(&args))) {
    if (e->code == PJRT_Error_Code_DEADLINE_EXCEEDED) return std::optional<std::string>();
    return Status::Error("reading \"" + full + "\" from the key-value store: " + e->message);
  }
  std::string value(args.value, args.value_size);
  if (args.value != nullptr && args.value_deleter_callback != nullptr) args.value_deleter_callback(args.value);
  return std::optional<std::string>(std::move(value));
}

}  // namespace hlograph::pjrt

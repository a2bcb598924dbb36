// The key-value store the framework hands PJRT_Client_Create (JAX's
// distributed runtime's, after jax.distributed.initialize): how the
// processes of a multi-process client learn of each other and how the CPU
// backend's devices hand values to another process's devices. Keys are put
// under "hlograph/", apart from other users of the same store.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "backends/cpu/process_span.h"
#include "hlograph/status.h"
#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

class KvStore : public cpu::ProcessLink {
 public:
  // The callbacks and their arguments live as long as the client.
  KvStore(PJRT_KeyValueGetCallback get, void* get_arg, PJRT_KeyValuePutCallback put, void* put_arg)
      : get_(get), get_arg_(get_arg), put_(put), put_arg_(put_arg) {}
  Status Put(const std::string& key, std::string_view value) override;
  StatusOr<std::optional<std::string>> Get(const std::string& key, std::chrono::milliseconds wait) override;

 private:
  PJRT_KeyValueGetCallback get_;
  void* get_arg_;
  PJRT_KeyValuePutCallback put_;
  void* put_arg_;
};

}  // namespace hlograph::pjrt

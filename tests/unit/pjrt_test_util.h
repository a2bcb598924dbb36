// The PJRT plugin as a framework sees it: libhlograph_pjrt.so loaded with
// dlopen, every call through the GetPjrtApi() table; a fixture owning a
// client, its buffers, and helpers to compile and execute.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pjrt/pjrt_c_api.h"
#include "test_util.h"

namespace hlograph::pjrt_test {

inline void* LoadLibrary() {
  static void* library = dlopen(HLOGRAPH_PJRT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  return library;
}

inline const PJRT_Api* LoadApi() {
  static const PJRT_Api* api = [] () -> const PJRT_Api* {
    if (LoadLibrary() == nullptr) return nullptr;
    auto get = reinterpret_cast<const PJRT_Api* (*)()>(dlsym(LoadLibrary(), "GetPjrtApi"));
    return get ? get() : nullptr;
  }();
  return api;
}

template <typename Args>
Args Init() {
  Args args;
  std::memset(&args, 0, sizeof(args));
  args.struct_size = sizeof(Args);
  return args;
}

// A create or compile option of the C API.
inline PJRT_NamedValue StringOption(const char* name, const char* value) {
  auto v = Init<PJRT_NamedValue>();
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = PJRT_NamedValue_kString;
  v.string_value = value;
  v.value_size = std::strlen(value);
  return v;
}

inline PJRT_NamedValue Int64Option(const char* name, int64_t value) {
  auto v = Init<PJRT_NamedValue>();
  v.name = name;
  v.name_size = std::strlen(name);
  v.type = PJRT_NamedValue_kInt64;
  v.int64_value = value;
  v.value_size = 1;
  return v;
}

// The error's code and message, and the error freed; "" when there is none.
inline std::string Consume(const PJRT_Api* api, PJRT_Error* error, PJRT_Error_Code* code = nullptr) {
  if (error == nullptr) return "";
  auto message = Init<PJRT_Error_Message_Args>();
  message.error = error;
  api->PJRT_Error_Message(&message);
  std::string text(message.message, message.message_size);
  auto get_code = Init<PJRT_Error_GetCode_Args>();
  get_code.error = error;
  EXPECT_EQ(api->PJRT_Error_GetCode(&get_code), nullptr);
  if (code != nullptr) *code = get_code.code;
  auto destroy = Init<PJRT_Error_Destroy_Args>();
  destroy.error = error;
  api->PJRT_Error_Destroy(&destroy);
  return text.empty() ? "(empty message)" : text;
}

#define PJRT_OK(call) ASSERT_EQ(Consume(api_, (call)), "")

// The client's devices: those this process addresses, or all of them.
inline std::vector<PJRT_Device*> ClientDevices(const PJRT_Api* api, PJRT_Client* client, bool addressable) {
  if (addressable) {
    auto args = Init<PJRT_Client_AddressableDevices_Args>();
    args.client = client;
    EXPECT_EQ(Consume(api, api->PJRT_Client_AddressableDevices(&args)), "");
    return {args.addressable_devices, args.addressable_devices + args.num_addressable_devices};
  }
  auto args = Init<PJRT_Client_Devices_Args>();
  args.client = client;
  EXPECT_EQ(Consume(api, api->PJRT_Client_Devices(&args)), "");
  return {args.devices, args.devices + args.num_devices};
}

inline PJRT_DeviceDescription* DescriptionOf(const PJRT_Api* api, PJRT_Device* device) {
  auto args = Init<PJRT_Device_GetDescription_Args>();
  args.device = device;
  EXPECT_EQ(Consume(api, api->PJRT_Device_GetDescription(&args)), "");
  return args.device_description;
}

// A device's id (its description's).
inline int DeviceId(const PJRT_Api* api, PJRT_Device* device) {
  auto id = Init<PJRT_DeviceDescription_Id_Args>();
  id.device_description = DescriptionOf(api, device);
  EXPECT_EQ(Consume(api, api->PJRT_DeviceDescription_Id(&id)), "");
  return id.id;
}
#define PJRT_EXPECT_OK(call) EXPECT_EQ(Consume(api_, (call)), "")

class PjrtApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_ = LoadApi();
    ASSERT_NE(api_, nullptr) << "cannot load " << HLOGRAPH_PJRT_LIBRARY << ": " << dlerror();
  }
  void TearDown() override {
    for (PJRT_Buffer* b : buffers_) {
      auto args = Init<PJRT_Buffer_Destroy_Args>();
      args.buffer = b;
      PJRT_EXPECT_OK(api_->PJRT_Buffer_Destroy(&args));
    }
    if (client_ != nullptr) {
      auto args = Init<PJRT_Client_Destroy_Args>();
      args.client = client_;
      PJRT_EXPECT_OK(api_->PJRT_Client_Destroy(&args));
    }
  }

  PJRT_Client* Client() {
    if (client_ == nullptr) {
      auto args = Init<PJRT_Client_Create_Args>();
      EXPECT_EQ(Consume(api_, api_->PJRT_Client_Create(&args)), "");
      client_ = args.client;
    }
    return client_;
  }

  // Makes the fixture's client with `options`; the error, "" when none.
  std::string CreateClient(const std::vector<PJRT_NamedValue>& options, PJRT_Error_Code* code = nullptr) {
    auto args = Init<PJRT_Client_Create_Args>();
    args.create_options = options.data();
    args.num_options = options.size();
    std::string error = Consume(api_, api_->PJRT_Client_Create(&args), code);
    if (error.empty()) client_ = args.client;
    return error;
  }

  void DestroyEvent(PJRT_Event* event) {
    auto args = Init<PJRT_Event_Destroy_Args>();
    args.event = event;
    PJRT_EXPECT_OK(api_->PJRT_Event_Destroy(&args));
  }

  void AwaitAndDestroy(PJRT_Event* event) {
    ASSERT_NE(event, nullptr);
    auto args = Init<PJRT_Event_Await_Args>();
    args.event = event;
    PJRT_EXPECT_OK(api_->PJRT_Event_Await(&args));
    DestroyEvent(event);
  }

  // A buffer owned by the fixture.
  PJRT_Buffer* FromHost(const void* data, PJRT_Buffer_Type type, std::vector<int64_t> dims,
                        std::vector<int64_t> byte_strides = {}) {
    auto args = Init<PJRT_Client_BufferFromHostBuffer_Args>();
    args.client = Client();
    args.data = data;
    args.type = type;
    args.dims = dims.data();
    args.num_dims = dims.size();
    args.byte_strides = byte_strides.empty() ? nullptr : byte_strides.data();
    args.num_byte_strides = byte_strides.size();
    args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    EXPECT_EQ(Consume(api_, api_->PJRT_Client_BufferFromHostBuffer(&args)), "");
    if (args.done_with_host_buffer != nullptr) AwaitAndDestroy(args.done_with_host_buffer);
    if (args.buffer != nullptr) buffers_.push_back(args.buffer);
    return args.buffer;
  }

  template <typename T>
  std::vector<T> ToHost(PJRT_Buffer* buffer) {
    auto args = Init<PJRT_Buffer_ToHostBuffer_Args>();
    args.src = buffer;
    EXPECT_EQ(Consume(api_, api_->PJRT_Buffer_ToHostBuffer(&args)), "");
    std::vector<T> values(args.dst_size / sizeof(T));
    args.dst = values.data();
    EXPECT_EQ(Consume(api_, api_->PJRT_Buffer_ToHostBuffer(&args)), "");
    if (args.event != nullptr) AwaitAndDestroy(args.event);
    return values;
  }

  PJRT_LoadedExecutable* Compile(const std::string& code, PJRT_Error_Code* code_out = nullptr,
                                 std::string* error = nullptr, const std::string& compile_options = "") {
    PJRT_Program program;
    std::memset(&program, 0, sizeof(program));
    program.struct_size = sizeof(program);
    program.code = const_cast<char*>(code.data());
    program.code_size = code.size();
    program.format = "mlir";
    program.format_size = 4;
    auto args = Init<PJRT_Client_Compile_Args>();
    args.client = Client();
    args.program = &program;
    args.compile_options = compile_options.data();
    args.compile_options_size = compile_options.size();
    std::string message = Consume(api_, api_->PJRT_Client_Compile(&args), code_out);
    if (error != nullptr) *error = message;
    else EXPECT_EQ(message, "");
    return args.executable;
  }

  // Runs `exe` on `inputs`; the outputs are owned by the fixture.
  std::vector<PJRT_Buffer*> Execute(PJRT_LoadedExecutable* exe, std::vector<PJRT_Buffer*> inputs, size_t num_outputs,
                                    PJRT_ExecuteOptions* options = nullptr) {
    std::vector<PJRT_Buffer*> outputs(num_outputs, nullptr);
    PJRT_Buffer* const* argument_list = inputs.data();
    PJRT_Buffer** output_list = outputs.data();
    PJRT_Event* done = nullptr;
    auto args = Init<PJRT_LoadedExecutable_Execute_Args>();
    args.executable = exe;
    args.argument_lists = &argument_list;
    args.num_devices = 1;
    args.num_args = inputs.size();
    args.output_lists = &output_list;
    args.device_complete_events = &done;
    args.options = options;
    EXPECT_EQ(Consume(api_, api_->PJRT_LoadedExecutable_Execute(&args)), "");
    if (done != nullptr) AwaitAndDestroy(done);
    for (PJRT_Buffer* b : outputs) {
      if (b != nullptr) buffers_.push_back(b);
    }
    return outputs;
  }

  void DestroyExecutable(PJRT_LoadedExecutable* exe) {
    auto args = Init<PJRT_LoadedExecutable_Destroy_Args>();
    args.executable = exe;
    PJRT_EXPECT_OK(api_->PJRT_LoadedExecutable_Destroy(&args));
  }

  const PJRT_Api* api_ = nullptr;
  PJRT_Client* client_ = nullptr;
  std::vector<PJRT_Buffer*> buffers_;
};

}  // namespace hlograph::pjrt_test

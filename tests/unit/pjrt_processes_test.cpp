// A client spanning processes, through the C API: the create options JAX
// passes after jax.distributed.initialize (node_id, num_nodes) and the
// key-value store it hands the client. Two clients in one process stand for
// two processes here, sharing a store kept in memory (as JAX's coordination
// service keeps one: a key is written once, a read waits for it); the
// two-process run through JAX itself is tests/pjrt/two_process_test.py.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "pjrt_test_util.h"

namespace {

using namespace hlograph::pjrt_test;  // NOLINT: the fixture and its helpers
using hlograph::testing::OnThreads;
using hlograph::testing::ScopedEnv;

class MemoryStore {
 public:
  static PJRT_Error* Get(PJRT_KeyValueGetCallback_Args* args) {
    auto* self = static_cast<MemoryStore*>(args->user_arg);
    const std::string key(args->key, args->key_size);
    std::unique_lock<std::mutex> lock(self->mutex_);
    const bool found = self->changed_.wait_for(lock, std::chrono::milliseconds(args->timeout_in_ms),
                                               [&] { return self->values_.count(key) != 0; });
    if (!found) {
      const std::string message = "no " + key + " yet";
      return (*args->callback_error)(PJRT_Error_Code_DEADLINE_EXCEEDED, message.data(), message.size());
    }
    const std::string& value = self->values_[key];
    args->value = new char[value.size() + 1];
    std::memcpy(args->value, value.data(), value.size());
    args->value_size = value.size();
    args->value_deleter_callback = +[](char* v) { delete[] v; };
    return nullptr;
  }

  static PJRT_Error* Put(PJRT_KeyValuePutCallback_Args* args) {
    auto* self = static_cast<MemoryStore*>(args->user_arg);
    const std::string key(args->key, args->key_size);
    std::lock_guard<std::mutex> lock(self->mutex_);
    if (self->values_.count(key) != 0) {
      const std::string message = key + " exists";
      return (*args->callback_error)(PJRT_Error_Code_ALREADY_EXISTS, message.data(), message.size());
    }
    self->values_[key].assign(args->value, args->value_size);
    self->changed_.notify_all();
    return nullptr;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::string> values_;
};

// Every partition adds its values (one group of partitions 0..3).
constexpr char kSumProgram[] = R"(
module @jit_sum attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}
        : (tensor<2xf32>) -> tensor<2xf32>
    return %s : tensor<2xf32>
  }
}
)";

// xla.CompileOptionsProto: executable_build_options (3) with num_partitions
// (5) = 4; the devices are the client's first four.
const std::string kFourPartitions("\x1a\x02\x28\x04", 4);

class PjrtProcessesTest : public PjrtApiTest {
 protected:
  ScopedEnv cpu_{"HLOGRAPH_PJRT_BACKEND", "cpu"};
  ScopedEnv no_count_{"HLOGRAPH_PJRT_CPU_DEVICES", nullptr};
  ScopedEnv no_timeout_{"HLOGRAPH_PJRT_PROCESS_TIMEOUT", nullptr};

  void TearDown() override {
    for (PJRT_Client* c : clients_) {
      auto args = Init<PJRT_Client_Destroy_Args>();
      args.client = c;
      PJRT_EXPECT_OK(api_->PJRT_Client_Destroy(&args));
    }
    PjrtApiTest::TearDown();
  }

  // Process `index` of `count`, with 2 devices, on `store` (none: null);
  // the error, "" when none. `timeout_s`: process_timeout_s.
  std::string Create(int64_t index, int64_t count, MemoryStore* store, PJRT_Client** out, double timeout_s = 10) {
    std::vector<PJRT_NamedValue> options = {Int64Option("cpu_device_count", 2), Int64Option("node_id", index),
                                            Int64Option("num_nodes", count)};
    const std::string timeout = std::to_string(timeout_s);
    options.push_back(StringOption("process_timeout_s", timeout.c_str()));
    auto args = Init<PJRT_Client_Create_Args>();
    args.create_options = options.data();
    args.num_options = options.size();
    if (store != nullptr) {
      args.kv_get_callback = MemoryStore::Get;
      args.kv_get_user_arg = store;
      args.kv_put_callback = MemoryStore::Put;
      args.kv_put_user_arg = store;
    }
    std::string error = Consume(api_, api_->PJRT_Client_Create(&args));
    *out = args.client;
    return error;
  }

  // Two processes on `store`, made at once (each waits for the other).
  void CreateTwo(MemoryStore& store, double timeout_s = 10) {
    PJRT_Client* clients[2] = {nullptr, nullptr};
    const std::vector<std::string> errors =
        OnThreads(2, [&](size_t p) { return Create(static_cast<int64_t>(p), 2, &store, &clients[p], timeout_s); });
    for (size_t p = 0; p < 2; ++p) {
      EXPECT_EQ(errors[p], "") << "process " << p;
      if (clients[p] != nullptr) clients_.push_back(clients[p]);
    }
  }

  std::vector<PJRT_Device*> Devices(PJRT_Client* client, bool addressable) {
    return ClientDevices(api_, client, addressable);
  }

  int Id(PJRT_Device* device) { return DeviceId(api_, device); }

  int ProcessOf(PJRT_Device* device) {
    auto args = Init<PJRT_DeviceDescription_ProcessIndex_Args>();
    args.device_description = DescriptionOf(api_, device);
    EXPECT_EQ(Consume(api_, api_->PJRT_DeviceDescription_ProcessIndex(&args)), "");
    return args.process_index;
  }

  PJRT_LoadedExecutable* CompileOn(PJRT_Client* client) {
    PJRT_Program program;
    std::memset(&program, 0, sizeof(program));
    program.struct_size = sizeof(program);
    program.code = const_cast<char*>(kSumProgram);
    program.code_size = std::strlen(kSumProgram);
    program.format = "mlir";
    program.format_size = 4;
    auto args = Init<PJRT_Client_Compile_Args>();
    args.client = client;
    args.program = &program;
    args.compile_options = kFourPartitions.data();
    args.compile_options_size = kFourPartitions.size();
    EXPECT_EQ(Consume(api_, api_->PJRT_Client_Compile(&args)), "");
    return args.executable;
  }

  PJRT_Buffer* OnDevice(PJRT_Client* client, const std::vector<float>& values, PJRT_Device* device) {
    auto args = Init<PJRT_Client_BufferFromHostBuffer_Args>();
    const int64_t dims[] = {static_cast<int64_t>(values.size())};
    args.client = client;
    args.data = values.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims;
    args.num_dims = 1;
    args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    args.device = device;
    EXPECT_EQ(Consume(api_, api_->PJRT_Client_BufferFromHostBuffer(&args)), "");
    if (args.done_with_host_buffer != nullptr) AwaitAndDestroy(args.done_with_host_buffer);
    Keep(args.buffer);
    return args.buffer;
  }

  // Runs `exe` with argument `values[k]` on the client's k-th device; each
  // device's result, or the error.
  std::string Run(PJRT_Client* client, PJRT_LoadedExecutable* exe, const std::vector<std::vector<float>>& values,
                  std::vector<std::vector<float>>& results) {
    const std::vector<PJRT_Device*> devices = Devices(client, true);
    std::vector<PJRT_Buffer*> inputs, outputs(devices.size(), nullptr);
    std::vector<PJRT_Buffer* const*> argument_lists;
    std::vector<PJRT_Buffer**> output_lists;
    for (size_t k = 0; k < devices.size(); ++k) inputs.push_back(OnDevice(client, values[k], devices[k]));
    for (size_t k = 0; k < devices.size(); ++k) {
      argument_lists.push_back(&inputs[k]);
      output_lists.push_back(&outputs[k]);
    }
    auto args = Init<PJRT_LoadedExecutable_Execute_Args>();
    args.executable = exe;
    args.argument_lists = argument_lists.data();
    args.num_devices = devices.size();
    args.num_args = 1;
    args.output_lists = output_lists.data();
    const std::string error = Consume(api_, api_->PJRT_LoadedExecutable_Execute(&args));
    results.clear();
    for (PJRT_Buffer* b : outputs) {
      if (b == nullptr) continue;
      Keep(b);
      results.push_back(ToHost<float>(b));
    }
    return error;
  }

  // The fixture frees the buffer; the two processes' threads both keep some.
  void Keep(PJRT_Buffer* buffer) {
    std::lock_guard<std::mutex> lock(buffers_mutex_);
    if (buffer != nullptr) buffers_.push_back(buffer);
  }

  std::vector<PJRT_Client*> clients_;
  std::mutex buffers_mutex_;
};

TEST_F(PjrtProcessesTest, EachProcessListsEveryDeviceAndAddressesItsOwn) {
  MemoryStore store;
  CreateTwo(store);
  ASSERT_EQ(clients_.size(), 2u);
  for (int p = 0; p < 2; ++p) {
    auto index = Init<PJRT_Client_ProcessIndex_Args>();
    index.client = clients_[static_cast<size_t>(p)];
    PJRT_OK(api_->PJRT_Client_ProcessIndex(&index));
    EXPECT_EQ(index.process_index, p);
    const std::vector<PJRT_Device*> all = Devices(clients_[static_cast<size_t>(p)], false);
    ASSERT_EQ(all.size(), 4u);
    for (int id = 0; id < 4; ++id) {
      EXPECT_EQ(Id(all[static_cast<size_t>(id)]), id);
      EXPECT_EQ(ProcessOf(all[static_cast<size_t>(id)]), id / 2);
      auto addressable = Init<PJRT_Device_IsAddressable_Args>();
      addressable.device = all[static_cast<size_t>(id)];
      PJRT_OK(api_->PJRT_Device_IsAddressable(&addressable));
      EXPECT_EQ(addressable.is_addressable, id / 2 == p);
    }
    const std::vector<PJRT_Device*> mine = Devices(clients_[static_cast<size_t>(p)], true);
    ASSERT_EQ(mine.size(), 2u);
    EXPECT_EQ(Id(mine[0]), 2 * p);
    EXPECT_EQ(Id(mine[1]), 2 * p + 1);
  }
  // Another process's device holds nothing here.
  auto memory = Init<PJRT_Device_DefaultMemory_Args>();
  memory.device = Devices(clients_[0], false)[3];
  const std::string error = Consume(api_, api_->PJRT_Device_DefaultMemory(&memory));
  EXPECT_NE(error.find("belongs to another process"), std::string::npos) << error;
}

TEST_F(PjrtProcessesTest, ACollectiveSumsOverBothProcessesCallAfterCall) {
  MemoryStore store;
  CreateTwo(store);
  ASSERT_EQ(clients_.size(), 2u);
  PJRT_LoadedExecutable* exes[2] = {CompileOn(clients_[0]), CompileOn(clients_[1])};
  ASSERT_NE(exes[0], nullptr);
  ASSERT_NE(exes[1], nullptr);
  auto addressable = Init<PJRT_LoadedExecutable_AddressableDevices_Args>();
  addressable.executable = exes[1];
  PJRT_OK(api_->PJRT_LoadedExecutable_AddressableDevices(&addressable));
  ASSERT_EQ(addressable.num_addressable_devices, 2u);
  EXPECT_EQ(Id(addressable.addressable_devices[0]), 2);
  for (int call = 0; call < 3; ++call) {
    // Partition d's argument: [d + call, 10 d].
    std::vector<std::vector<float>> values[2], results[2];
    for (int d = 0; d < 4; ++d) values[d / 2].push_back({float(d + call), float(10 * d)});
    const std::vector<std::string> errors =
        OnThreads(2, [&](size_t p) { return Run(clients_[p], exes[p], values[p], results[p]); });
    for (size_t p = 0; p < 2; ++p) {
      ASSERT_EQ(errors[p], "") << "process " << p << ", call " << call;
      ASSERT_EQ(results[p].size(), 2u);
      for (const std::vector<float>& r : results[p]) EXPECT_EQ(r, (std::vector<float>{float(6 + 4 * call), 60}));
    }
  }
  for (PJRT_LoadedExecutable* exe : exes) DestroyExecutable(exe);
}

TEST_F(PjrtProcessesTest, ClientsMadeAgainOnTheSameStoreMeetAfresh) {
  MemoryStore store;
  for (int round = 0; round < 2; ++round) {
    CreateTwo(store);
    ASSERT_EQ(clients_.size(), 2u) << "round " << round;
    PJRT_LoadedExecutable* exes[2] = {CompileOn(clients_[0]), CompileOn(clients_[1])};
    std::vector<std::vector<float>> values[2] = {{{1, 0}, {2, 0}}, {{3, 0}, {4, float(round)}}}, results[2];
    const std::vector<std::string> errors =
        OnThreads(2, [&](size_t p) { return Run(clients_[p], exes[p], values[p], results[p]); });
    for (size_t p = 0; p < 2; ++p) {
      ASSERT_EQ(errors[p], "") << "round " << round << ", process " << p;
      for (const std::vector<float>& r : results[p]) EXPECT_EQ(r, (std::vector<float>{10, float(round)}));
    }
    for (PJRT_LoadedExecutable* exe : exes) DestroyExecutable(exe);
    // The clients go (their buffers first), as when JAX clears its backends.
    for (PJRT_Buffer* b : buffers_) {
      auto args = Init<PJRT_Buffer_Destroy_Args>();
      args.buffer = b;
      PJRT_EXPECT_OK(api_->PJRT_Buffer_Destroy(&args));
    }
    buffers_.clear();
    for (PJRT_Client* c : clients_) {
      auto args = Init<PJRT_Client_Destroy_Args>();
      args.client = c;
      PJRT_EXPECT_OK(api_->PJRT_Client_Destroy(&args));
    }
    clients_.clear();
  }
}

TEST_F(PjrtProcessesTest, ACollectiveTheOtherProcessNeverJoinsTimesOut) {
  MemoryStore store;
  CreateTwo(store, 0.3);
  ASSERT_EQ(clients_.size(), 2u);
  PJRT_LoadedExecutable* exe = CompileOn(clients_[0]);
  ASSERT_NE(exe, nullptr);
  std::vector<std::vector<float>> results;
  const std::string error = Run(clients_[0], exe, {{1, 2}, {3, 4}}, results);
  EXPECT_NE(error.find("waited 300 ms for device (replica 0, partition 2) of another process"), std::string::npos)
      << error;
  EXPECT_NE(error.find("same programs in the same order"), std::string::npos) << error;
  DestroyExecutable(exe);
}

TEST_F(PjrtProcessesTest, AProcessThatNeverComesFailsTheClient) {
  MemoryStore store;
  PJRT_Client* client = nullptr;
  const std::string error = Create(0, 2, &store, &client, 0.2);
  EXPECT_EQ(client, nullptr);
  EXPECT_NE(error.find("process 1 of 2 did not say how many devices it has"), std::string::npos) << error;
}

TEST_F(PjrtProcessesTest, BadCombinationsNameTheOption) {
  PJRT_Client* client = nullptr;
  std::string error = Create(0, 2, nullptr, &client);
  EXPECT_NE(error.find("create option num_nodes is 2 but no key-value store"), std::string::npos) << error;
  error = Create(2, 2, nullptr, &client);
  EXPECT_NE(error.find("create option node_id: expected a process index from 0 to 1"), std::string::npos) << error;
  error = Create(0, 0, nullptr, &client);
  EXPECT_NE(error.find("create option num_nodes: expected a number of processes"), std::string::npos) << error;
  EXPECT_EQ(client, nullptr);

  const std::vector<PJRT_NamedValue> index_only = {Int64Option("node_id", 0)};
  EXPECT_NE(CreateClient(index_only).find("create option node_id is given without num_nodes"), std::string::npos);
  const std::vector<PJRT_NamedValue> bad_timeout = {StringOption("process_timeout_s", "soon")};
  EXPECT_NE(CreateClient(bad_timeout).find("create option process_timeout_s: expected a positive number"),
            std::string::npos);

  // A store with only one of its callbacks.
  MemoryStore store;
  const std::vector<PJRT_NamedValue> two = {Int64Option("node_id", 0), Int64Option("num_nodes", 2)};
  auto args = Init<PJRT_Client_Create_Args>();
  args.create_options = two.data();
  args.num_options = two.size();
  args.kv_get_callback = MemoryStore::Get;
  args.kv_get_user_arg = &store;
  error = Consume(api_, api_->PJRT_Client_Create(&args));
  EXPECT_NE(error.find("the key-value store lacks its kv_put_callback"), std::string::npos) << error;

  // One process needs no store, and a store with one process is not read.
  EXPECT_EQ(Create(0, 1, nullptr, &client), "");
  clients_.push_back(client);
  EXPECT_EQ(Create(0, 1, &store, &client), "");
  clients_.push_back(client);
  EXPECT_EQ(store.size(), 0u);
}

}  // namespace

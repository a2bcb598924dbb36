// Several devices on the plugin's CPU backend, through the C API: how many
// (the create option cpu_device_count, HLOGRAPH_PJRT_CPU_DEVICES), each
// with a memory of its own, copies between them, and a program compiled
// for several devices by its compile options' device assignment, run with
// an argument list per device.
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "pjrt_test_util.h"

namespace {

using namespace hlograph::pjrt_test;  // NOLINT: the fixture and its helpers

// Sets an environment variable for the test's lifetime.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class PjrtMultiDeviceTest : public PjrtApiTest {
 protected:
  ScopedEnv cpu_{"HLOGRAPH_PJRT_BACKEND", "cpu"};
  ScopedEnv no_count_{"HLOGRAPH_PJRT_CPU_DEVICES", nullptr};

  std::vector<PJRT_Device*> Devices() { return ClientDevices(api_, Client(), true); }

  PJRT_Memory* DefaultMemory(PJRT_Device* device) {
    auto args = Init<PJRT_Device_DefaultMemory_Args>();
    args.device = device;
    EXPECT_EQ(Consume(api_, api_->PJRT_Device_DefaultMemory(&args)), "");
    return args.memory;
  }

  PJRT_Device* DeviceOf(PJRT_Buffer* buffer) {
    auto args = Init<PJRT_Buffer_Device_Args>();
    args.buffer = buffer;
    EXPECT_EQ(Consume(api_, api_->PJRT_Buffer_Device(&args)), "");
    return args.device;
  }

  // A buffer of `values` on `device`, owned by the fixture.
  PJRT_Buffer* OnDevice(const std::vector<float>& values, PJRT_Device* device) {
    auto args = Init<PJRT_Client_BufferFromHostBuffer_Args>();
    const int64_t dims[] = {static_cast<int64_t>(values.size())};
    args.client = Client();
    args.data = values.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims;
    args.num_dims = 1;
    args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    args.device = device;
    EXPECT_EQ(Consume(api_, api_->PJRT_Client_BufferFromHostBuffer(&args)), "");
    if (args.done_with_host_buffer != nullptr) AwaitAndDestroy(args.done_with_host_buffer);
    buffers_.push_back(args.buffer);
    return args.buffer;
  }
};

TEST_F(PjrtMultiDeviceTest, TheCreateOptionSetsHowManyDevicesEachWithItsOwnMemory) {
  ASSERT_EQ(CreateClient({Int64Option("cpu_device_count", 3)}), "");
  const std::vector<PJRT_Device*> devices = Devices();
  ASSERT_EQ(devices.size(), 3u);
  for (size_t d = 0; d < devices.size(); ++d) {
    EXPECT_EQ(DeviceId(api_, devices[d]), static_cast<int>(d));
    auto hardware = Init<PJRT_Device_LocalHardwareId_Args>();
    hardware.device = devices[d];
    PJRT_OK(api_->PJRT_Device_LocalHardwareId(&hardware));
    EXPECT_EQ(hardware.local_hardware_id, static_cast<int>(d));

    PJRT_Memory* memory = DefaultMemory(devices[d]);
    // Since API 0.105 jaxlib calls through a PJRT_Memory's first word when
    // it is not null (a table of user-data functions): it must be null.
    EXPECT_EQ(*reinterpret_cast<void* const*>(memory), nullptr);
    auto by = Init<PJRT_Memory_AddressableByDevices_Args>();
    by.memory = memory;
    PJRT_OK(api_->PJRT_Memory_AddressableByDevices(&by));
    ASSERT_EQ(by.num_devices, 1u);
    EXPECT_EQ(by.devices[0], devices[d]);
    auto memory_id = Init<PJRT_Memory_Id_Args>();
    memory_id.memory = memory;
    PJRT_OK(api_->PJRT_Memory_Id(&memory_id));
    EXPECT_EQ(memory_id.id, static_cast<int>(d));
  }
  auto all = Init<PJRT_Client_AddressableMemories_Args>();
  all.client = Client();
  PJRT_OK(api_->PJRT_Client_AddressableMemories(&all));
  ASSERT_EQ(all.num_addressable_memories, 3u);
  EXPECT_NE(all.addressable_memories[0], all.addressable_memories[2]);
}

TEST_F(PjrtMultiDeviceTest, TheVariableSetsTheCountWhenTheOptionDoesNot) {
  ScopedEnv count("HLOGRAPH_PJRT_CPU_DEVICES", "2");
  ASSERT_EQ(CreateClient({}), "");
  EXPECT_EQ(Devices().size(), 2u);
}

TEST_F(PjrtMultiDeviceTest, CountsOutOfRangeAreRefusedNamingTheirSource) {
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  for (const PJRT_NamedValue& bad : {Int64Option("cpu_device_count", 0), Int64Option("cpu_device_count", 5000),
                                     StringOption("cpu_device_count", "two")}) {
    const std::string error = CreateClient({bad}, &code);
    EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
    EXPECT_NE(error.find("create option cpu_device_count"), std::string::npos) << error;
  }
  ScopedEnv count("HLOGRAPH_PJRT_CPU_DEVICES", "-1");
  const std::string error = CreateClient({}, &code);
  EXPECT_NE(error.find("HLOGRAPH_PJRT_CPU_DEVICES"), std::string::npos) << error;
  EXPECT_EQ(client_, nullptr);
}

TEST_F(PjrtMultiDeviceTest, BuffersCopyBetweenDevices) {
  ASSERT_EQ(CreateClient({Int64Option("cpu_device_count", 2)}), "");
  const std::vector<PJRT_Device*> devices = Devices();
  PJRT_Buffer* source = OnDevice({1, 2, 3}, devices[0]);
  auto to_device = Init<PJRT_Buffer_CopyToDevice_Args>();
  to_device.buffer = source;
  to_device.dst_device = devices[1];
  PJRT_OK(api_->PJRT_Buffer_CopyToDevice(&to_device));
  buffers_.push_back(to_device.dst_buffer);
  EXPECT_EQ(DeviceOf(to_device.dst_buffer), devices[1]);
  EXPECT_EQ(ToHost<float>(to_device.dst_buffer), (std::vector<float>{1, 2, 3}));
  auto to_memory = Init<PJRT_Buffer_CopyToMemory_Args>();
  to_memory.buffer = to_device.dst_buffer;
  to_memory.dst_memory = DefaultMemory(devices[0]);
  PJRT_OK(api_->PJRT_Buffer_CopyToMemory(&to_memory));
  buffers_.push_back(to_memory.dst_buffer);
  EXPECT_EQ(DeviceOf(to_memory.dst_buffer), devices[0]);
  EXPECT_EQ(ToHost<float>(to_memory.dst_buffer), (std::vector<float>{1, 2, 3}));
}

// Every partition adds its values (one group of partitions 0..3) and says
// which partition it is.
constexpr char kSumProgram[] = R"(
module @jit_sum attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<ui32>) {
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}
        : (tensor<2xf32>) -> tensor<2xf32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %s, %p : tensor<2xf32>, tensor<ui32>
  }
}
)";

// xla.CompileOptionsProto: executable_build_options (3) with num_replicas
// (4) = 1, num_partitions (5) = 4 and device_assignment (9) =
// {replica_count 1, computation_count 4, computation_devices [3], [2], [1],
// [0]}: partition p on device 3 - p.
std::string ReversedFourPartitions() {
  std::string assignment("\x08\x01\x10\x04", 4);
  for (char id = 3; id >= 0; --id) assignment += std::string("\x1a\x03\x0a\x01", 4) + id;
  const std::string build = std::string("\x20\x01\x28\x04\x4a", 5) + char(assignment.size()) + assignment;
  return "\x1a" + std::string(1, char(build.size())) + build;
}

TEST_F(PjrtMultiDeviceTest, AProgramForSeveralDevicesRunsOnTheAssignedOnes) {
  ASSERT_EQ(CreateClient({Int64Option("cpu_device_count", 4)}), "");
  const std::vector<PJRT_Device*> devices = Devices();
  PJRT_LoadedExecutable* exe = Compile(kSumProgram, nullptr, nullptr, ReversedFourPartitions());
  ASSERT_NE(exe, nullptr);

  auto assigned = Init<PJRT_LoadedExecutable_AddressableDevices_Args>();
  assigned.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_AddressableDevices(&assigned));
  ASSERT_EQ(assigned.num_addressable_devices, 4u);
  auto ids = Init<PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args>();
  ids.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_AddressableDeviceLogicalIds(&ids));
  for (size_t p = 0; p < 4; ++p) {
    EXPECT_EQ(assigned.addressable_devices[p], devices[3 - p]);
    EXPECT_EQ(ids.addressable_device_logical_ids[p].partition, static_cast<int>(p));
  }
  auto get = Init<PJRT_LoadedExecutable_GetExecutable_Args>();
  get.loaded_executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_GetExecutable(&get));
  auto partitions = Init<PJRT_Executable_NumPartitions_Args>();
  partitions.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_NumPartitions(&partitions));
  EXPECT_EQ(partitions.num_partitions, 4u);
  auto destroy = Init<PJRT_Executable_Destroy_Args>();
  destroy.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_Destroy(&destroy));

  // Partition p's argument on its device: [p, 10p].
  std::vector<std::vector<PJRT_Buffer*>> inputs(4), outputs(4, std::vector<PJRT_Buffer*>(2, nullptr));
  std::vector<PJRT_Buffer* const*> argument_lists;
  std::vector<PJRT_Buffer**> output_lists;
  std::vector<PJRT_Event*> done(4, nullptr);
  for (size_t p = 0; p < 4; ++p) {
    inputs[p].push_back(OnDevice({float(p), float(10 * p)}, devices[3 - p]));
    argument_lists.push_back(inputs[p].data());
    output_lists.push_back(outputs[p].data());
  }
  auto args = Init<PJRT_LoadedExecutable_Execute_Args>();
  args.executable = exe;
  args.argument_lists = argument_lists.data();
  args.num_devices = 4;
  args.num_args = 1;
  args.output_lists = output_lists.data();
  args.device_complete_events = done.data();
  PJRT_OK(api_->PJRT_LoadedExecutable_Execute(&args));
  for (size_t p = 0; p < 4; ++p) {
    AwaitAndDestroy(done[p]);
    buffers_.insert(buffers_.end(), outputs[p].begin(), outputs[p].end());
    EXPECT_EQ(ToHost<float>(outputs[p][0]), (std::vector<float>{6, 60}));
    EXPECT_EQ(ToHost<uint32_t>(outputs[p][1]), (std::vector<uint32_t>{static_cast<uint32_t>(p)}));
    EXPECT_EQ(DeviceOf(outputs[p][0]), devices[3 - p]);
  }

  // An argument on another device than its partition's is refused.
  std::swap(inputs[0][0], inputs[1][0]);
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  const std::string error = Consume(api_, api_->PJRT_LoadedExecutable_Execute(&args), &code);
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_NE(error.find("argument 0 of device 0 is on HlographDevice(id=2"), std::string::npos) << error;
  DestroyExecutable(exe);
}

// What the framework reads back to learn the layout of each device's
// arguments and results: XLA's spelling, manual computations as its custom
// calls.
TEST_F(PjrtMultiDeviceTest, TheCompiledTextSaysHowValuesAreSharded) {
  ASSERT_EQ(CreateClient({Int64Option("cpu_device_count", 4)}), "");
  PJRT_LoadedExecutable* exe = Compile(R"(
module @jit_f attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%a: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<2x2xf32> {
    %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>]
        manual_axes={"x", "y"} (%p: tensor<2x1xf32>) {
      sdy.return %p : tensor<2x1xf32>
    } : (tensor<4x2xf32>) -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
})", nullptr, nullptr, std::string("\x1a\x02\x28\x04", 4));
  ASSERT_NE(exe, nullptr);
  auto get = Init<PJRT_LoadedExecutable_GetExecutable_Args>();
  get.loaded_executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_GetExecutable(&get));
  PJRT_Program optimized;
  std::memset(&optimized, 0, sizeof(optimized));
  optimized.struct_size = sizeof(optimized);
  auto program = Init<PJRT_Executable_OptimizedProgram_Args>();
  program.executable = get.executable;
  program.program = &optimized;
  PJRT_OK(api_->PJRT_Executable_OptimizedProgram(&program));
  std::string code(optimized.code_size, '\0');
  optimized.code = code.data();
  PJRT_OK(api_->PJRT_Executable_OptimizedProgram(&program));
  EXPECT_NE(code.find(R"(mhlo.spmd_parameters_shardings = ["{devices=[2,2]0,1,2,3}"])"), std::string::npos) << code;
  EXPECT_NE(code.find(R"(mhlo.spmd_output_sharding = "{devices=[1,2,2]0,2,1,3 last_tile_dim_replicate}")"),
            std::string::npos)
      << code;
  EXPECT_NE(code.find("@SPMDFullToShardShape"), std::string::npos) << code;
  EXPECT_NE(code.find("@SPMDShardToFullShape"), std::string::npos) << code;
  EXPECT_EQ(code.find("sdy.manual_computation"), std::string::npos) << code;
  auto destroy = Init<PJRT_Executable_Destroy_Args>();
  destroy.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_Destroy(&destroy));
  DestroyExecutable(exe);
}

}  // namespace

// The PJRT plugin as a framework sees it: libhlograph_pjrt.so loaded with
// dlopen, every call through the GetPjrtApi() table.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "pjrt_test_util.h"

namespace {

using namespace hlograph::pjrt_test;  // NOLINT: the fixture and its helpers

TEST_F(PjrtApiTest, ReportsTheVersionJaxlibExpectsAndFillsEverySlot) {
  EXPECT_EQ(api_->pjrt_api_version.major_version, 0);
  EXPECT_EQ(api_->pjrt_api_version.minor_version, 115);
  // 3 header fields (40 bytes on LP64) and 138 function pointers.
  EXPECT_EQ(api_->struct_size, 40u + 138u * sizeof(void*));
  EXPECT_EQ(offsetof(PJRT_Api, PJRT_Error_Destroy), 40u);
  EXPECT_EQ(offsetof(PJRT_Api, PJRT_Client_Compile), 40u + 20u * 8u);
  EXPECT_EQ(offsetof(PJRT_Api, PJRT_TopologyDescription_Deserialize), 0x3b8u);
  EXPECT_EQ(offsetof(PJRT_Api, PJRT_Client_CreateErrorBuffer), 0x3d8u);
  const auto* slots = reinterpret_cast<void* const*>(reinterpret_cast<const char*>(api_) + 40);
  for (size_t i = 0; i < 138; ++i) EXPECT_NE(slots[i], nullptr) << "slot " << i;
}

TEST_F(PjrtApiTest, UnimplementedFunctionsSaySo) {
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string message = Consume(api_, api_->PJRT_TopologyDescription_Create(nullptr), &code);
  EXPECT_EQ(code, PJRT_Error_Code_UNIMPLEMENTED);
  EXPECT_NE(message.find("PJRT_TopologyDescription_Create"), std::string::npos) << message;
  message = Consume(api_, api_->PJRT_Executable_Serialize(nullptr), &code);
  EXPECT_EQ(code, PJRT_Error_Code_UNIMPLEMENTED);
  EXPECT_NE(message.find("PJRT_Executable_Serialize"), std::string::npos) << message;
}

TEST_F(PjrtApiTest, PluginAttributesGiveTheStablehloVersionRange) {
  auto init = Init<PJRT_Plugin_Initialize_Args>();
  PJRT_OK(api_->PJRT_Plugin_Initialize(&init));
  auto args = Init<PJRT_Plugin_Attributes_Args>();
  PJRT_OK(api_->PJRT_Plugin_Attributes(&args));
  bool found_current = false;
  bool found_minimum = false;
  for (size_t i = 0; i < args.num_attributes; ++i) {
    const PJRT_NamedValue& v = args.attributes[i];
    std::string name(v.name, v.name_size);
    ASSERT_EQ(v.type, PJRT_NamedValue_kInt64List) << name;
    ASSERT_EQ(v.value_size, 3u) << name;
    if (name == "stablehlo_current_version") {
      found_current = true;
      EXPECT_EQ(v.int64_array_value[0], 1);
    }
    if (name == "stablehlo_minimum_version") {
      found_minimum = true;
      EXPECT_EQ(std::vector<int64_t>(v.int64_array_value, v.int64_array_value + 3), (std::vector<int64_t>{0, 9, 0}));
    }
  }
  EXPECT_TRUE(found_current);
  EXPECT_TRUE(found_minimum);
}

TEST_F(PjrtApiTest, ClientDevicesAndMemories) {
  // The CPU interpreter's device, also where a GPU is there.
  const hlograph::testing::ScopedEnv cpu("HLOGRAPH_PJRT_BACKEND", "cpu");
  auto name = Init<PJRT_Client_PlatformName_Args>();
  name.client = Client();
  PJRT_OK(api_->PJRT_Client_PlatformName(&name));
  EXPECT_EQ(std::string(name.platform_name, name.platform_name_size), "hlograph");

  auto index = Init<PJRT_Client_ProcessIndex_Args>();
  index.client = Client();
  PJRT_OK(api_->PJRT_Client_ProcessIndex(&index));
  EXPECT_EQ(index.process_index, 0);

  auto devices = Init<PJRT_Client_AddressableDevices_Args>();
  devices.client = Client();
  PJRT_OK(api_->PJRT_Client_AddressableDevices(&devices));
  ASSERT_EQ(devices.num_addressable_devices, 1u);
  PJRT_Device* device = devices.addressable_devices[0];

  auto lookup = Init<PJRT_Client_LookupDevice_Args>();
  lookup.client = Client();
  lookup.id = 0;
  PJRT_OK(api_->PJRT_Client_LookupDevice(&lookup));
  EXPECT_EQ(lookup.device, device);
  lookup.id = 7;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  EXPECT_NE(Consume(api_, api_->PJRT_Client_LookupDevice(&lookup), &code), "");
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);

  auto description = Init<PJRT_Device_GetDescription_Args>();
  description.device = device;
  PJRT_OK(api_->PJRT_Device_GetDescription(&description));
  auto kind = Init<PJRT_DeviceDescription_Kind_Args>();
  kind.device_description = description.device_description;
  PJRT_OK(api_->PJRT_DeviceDescription_Kind(&kind));
  EXPECT_EQ(std::string(kind.device_kind, kind.device_kind_size), "cpu");
  auto to_string = Init<PJRT_DeviceDescription_ToString_Args>();
  to_string.device_description = description.device_description;
  PJRT_OK(api_->PJRT_DeviceDescription_ToString(&to_string));
  EXPECT_EQ(std::string(to_string.to_string, to_string.to_string_size), "HlographDevice(id=0, kind=cpu)");

  auto memory = Init<PJRT_Device_DefaultMemory_Args>();
  memory.device = device;
  PJRT_OK(api_->PJRT_Device_DefaultMemory(&memory));
  auto memory_kind = Init<PJRT_Memory_Kind_Args>();
  memory_kind.memory = memory.memory;
  PJRT_OK(api_->PJRT_Memory_Kind(&memory_kind));
  EXPECT_EQ(std::string(memory_kind.kind, memory_kind.kind_size), "device");
  auto by_devices = Init<PJRT_Memory_AddressableByDevices_Args>();
  by_devices.memory = memory.memory;
  PJRT_OK(api_->PJRT_Memory_AddressableByDevices(&by_devices));
  ASSERT_EQ(by_devices.num_devices, 1u);
  EXPECT_EQ(by_devices.devices[0], device);

  auto assignment = Init<PJRT_Client_DefaultDeviceAssignment_Args>();
  int ids[1] = {-1};
  assignment.client = Client();
  assignment.num_replicas = 1;
  assignment.num_partitions = 1;
  assignment.default_assignment_size = 1;
  assignment.default_assignment = ids;
  PJRT_OK(api_->PJRT_Client_DefaultDeviceAssignment(&assignment));
  EXPECT_EQ(ids[0], 0);
}

TEST_F(PjrtApiTest, BuffersCopyInAndOut) {
  std::vector<int32_t> host = {1, 2, 3, 4, 5, 6};
  PJRT_Buffer* buffer = FromHost(host.data(), PJRT_Buffer_Type_S32, {2, 3});
  ASSERT_NE(buffer, nullptr);
  host[0] = 100;  // copy semantics: the buffer keeps what it was given
  EXPECT_EQ(ToHost<int32_t>(buffer), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));

  auto type = Init<PJRT_Buffer_ElementType_Args>();
  type.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_ElementType(&type));
  EXPECT_EQ(type.type, PJRT_Buffer_Type_S32);
  auto dims = Init<PJRT_Buffer_Dimensions_Args>();
  dims.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_Dimensions(&dims));
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.num_dims), (std::vector<int64_t>{2, 3}));
  auto size = Init<PJRT_Buffer_OnDeviceSizeInBytes_Args>();
  size.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_OnDeviceSizeInBytes(&size));
  EXPECT_EQ(size.on_device_size_in_bytes, 24u);

  // Column-major host data (a transposed view) arrives row-major.
  std::vector<float> columns = {1, 4, 2, 5, 3, 6};  // [[1,2,3],[4,5,6]] stored by columns
  PJRT_Buffer* strided = FromHost(columns.data(), PJRT_Buffer_Type_F32, {2, 3}, {4, 8});
  EXPECT_EQ(ToHost<float>(strided), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  auto ready = Init<PJRT_Buffer_ReadyEvent_Args>();
  ready.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_ReadyEvent(&ready));
  AwaitAndDestroy(ready.event);

  auto del = Init<PJRT_Buffer_Delete_Args>();
  del.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_Delete(&del));
  auto deleted = Init<PJRT_Buffer_IsDeleted_Args>();
  deleted.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_IsDeleted(&deleted));
  EXPECT_TRUE(deleted.is_deleted);
  auto to_host = Init<PJRT_Buffer_ToHostBuffer_Args>();
  to_host.src = buffer;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  EXPECT_NE(Consume(api_, api_->PJRT_Buffer_ToHostBuffer(&to_host), &code), "");
  EXPECT_EQ(code, PJRT_Error_Code_FAILED_PRECONDITION);
}

// Device memory follows the buffers: a buffer's bytes are in use from its
// creation until it is deleted, and the peak and allocation count keep up.
// A caller whose struct ends earlier gets nothing written past its end.
TEST_F(PjrtApiTest, MemoryStatsFollowTheBuffers) {
  auto devices = Init<PJRT_Client_AddressableDevices_Args>();
  devices.client = Client();
  PJRT_OK(api_->PJRT_Client_AddressableDevices(&devices));
  PJRT_Device* device = devices.addressable_devices[0];
  const auto stats = [&] {
    auto args = Init<PJRT_Device_MemoryStats_Args>();
    args.device = device;
    EXPECT_EQ(Consume(api_, api_->PJRT_Device_MemoryStats(&args)), "");
    return args;
  };
  const auto before = stats();
  constexpr int64_t kBytes = int64_t{1} << 20;
  std::vector<float> host(kBytes / sizeof(float), 1.0f);
  PJRT_Buffer* buffer = FromHost(host.data(), PJRT_Buffer_Type_F32, {static_cast<int64_t>(host.size())});
  ASSERT_NE(buffer, nullptr);
  const auto during = stats();
  EXPECT_GE(during.bytes_in_use, before.bytes_in_use + kBytes);
  ASSERT_TRUE(during.peak_bytes_in_use_is_set);
  EXPECT_GE(during.peak_bytes_in_use, during.bytes_in_use);
  ASSERT_TRUE(during.num_allocs_is_set);
  EXPECT_GT(during.num_allocs, before.num_allocs);
  ASSERT_TRUE(during.largest_alloc_size_is_set);
  EXPECT_GE(during.largest_alloc_size, kBytes);
  EXPECT_FALSE(during.bytes_reserved_is_set);

  auto del = Init<PJRT_Buffer_Delete_Args>();
  del.buffer = buffer;
  PJRT_OK(api_->PJRT_Buffer_Delete(&del));
  const auto after = stats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_GE(after.peak_bytes_in_use, during.bytes_in_use);

  // A caller that knows the struct up to largest_alloc_size_is_set.
  auto older = Init<PJRT_Device_MemoryStats_Args>();
  std::memset(&older.bytes_limit, 0x5a, sizeof(older) - offsetof(PJRT_Device_MemoryStats_Args, bytes_limit));
  older.struct_size = PJRT_STRUCT_SIZE(PJRT_Device_MemoryStats_Args, largest_alloc_size_is_set);
  older.device = device;
  PJRT_OK(api_->PJRT_Device_MemoryStats(&older));
  EXPECT_TRUE(older.largest_alloc_size_is_set);
  const auto* tail = reinterpret_cast<const unsigned char*>(&older.bytes_limit);
  for (size_t i = 0; i < sizeof(older) - offsetof(PJRT_Device_MemoryStats_Args, bytes_limit); ++i) {
    ASSERT_EQ(tail[i], 0x5a) << "byte " << i << " past the caller's struct was written";
  }
  auto too_small = Init<PJRT_Device_MemoryStats_Args>();
  too_small.struct_size = PJRT_STRUCT_SIZE(PJRT_Device_MemoryStats_Args, device);
  too_small.device = device;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  EXPECT_NE(Consume(api_, api_->PJRT_Device_MemoryStats(&too_small), &code), "");
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
}

void CountCall(PJRT_Error* error, void* user_arg) {
  ++*static_cast<int*>(user_arg);
  EXPECT_EQ(error, nullptr);
}

TEST_F(PjrtApiTest, OnReadyFiresForAnEventAlreadyReady) {
  float value = 1.0f;
  auto args = Init<PJRT_Client_BufferFromHostBuffer_Args>();
  args.client = Client();
  args.data = &value;
  args.type = PJRT_Buffer_Type_F32;
  PJRT_OK(api_->PJRT_Client_BufferFromHostBuffer(&args));
  buffers_.push_back(args.buffer);
  PJRT_Event* event = args.done_with_host_buffer;
  auto is_ready = Init<PJRT_Event_IsReady_Args>();
  is_ready.event = event;
  PJRT_OK(api_->PJRT_Event_IsReady(&is_ready));
  EXPECT_TRUE(is_ready.is_ready);
  int calls = 0;
  auto on_ready = Init<PJRT_Event_OnReady_Args>();
  on_ready.event = event;
  on_ready.callback = CountCall;
  on_ready.user_arg = &calls;
  PJRT_OK(api_->PJRT_Event_OnReady(&on_ready));
  EXPECT_EQ(calls, 1);
  auto error = Init<PJRT_Event_Error_Args>();
  error.event = event;
  PJRT_OK(api_->PJRT_Event_Error(&error));
  DestroyEvent(event);
}

constexpr char kTextProgram[] = R"(
module @jit_f {
  func.func public @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<i32>) {
    %b = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %p = stablehlo.multiply %x, %b : tensor<2x3xf32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    return %p, %c : tensor<2x3xf32>, tensor<i32>
  }
}
)";

TEST_F(PjrtApiTest, CompilesTextAndExecutes) {
  PJRT_LoadedExecutable* exe = Compile(kTextProgram);
  ASSERT_NE(exe, nullptr);

  auto get = Init<PJRT_LoadedExecutable_GetExecutable_Args>();
  get.loaded_executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_GetExecutable(&get));
  auto num_outputs = Init<PJRT_Executable_NumOutputs_Args>();
  num_outputs.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_NumOutputs(&num_outputs));
  EXPECT_EQ(num_outputs.num_outputs, 2u);
  auto name = Init<PJRT_Executable_Name_Args>();
  name.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_Name(&name));
  EXPECT_EQ(std::string(name.executable_name, name.executable_name_size), "jit_f");
  auto types = Init<PJRT_Executable_OutputElementTypes_Args>();
  types.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_OutputElementTypes(&types));
  ASSERT_EQ(types.num_output_types, 2u);
  EXPECT_EQ(types.output_types[0], PJRT_Buffer_Type_F32);
  EXPECT_EQ(types.output_types[1], PJRT_Buffer_Type_S32);
  auto dims = Init<PJRT_Executable_OutputDimensions_Args>();
  dims.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_OutputDimensions(&dims));
  ASSERT_EQ(dims.num_outputs, 2u);
  EXPECT_EQ(dims.dim_sizes[0], 2u);
  EXPECT_EQ(dims.dim_sizes[1], 0u);
  EXPECT_EQ(dims.dims[0], 2);
  EXPECT_EQ(dims.dims[1], 3);
  // The compiled program: its size first, then the text, which prints the module.
  PJRT_Program optimized;
  std::memset(&optimized, 0, sizeof(optimized));
  optimized.struct_size = sizeof(optimized);
  auto program = Init<PJRT_Executable_OptimizedProgram_Args>();
  program.executable = get.executable;
  program.program = &optimized;
  PJRT_OK(api_->PJRT_Executable_OptimizedProgram(&program));
  EXPECT_EQ(std::string(optimized.format, optimized.format_size), "mlir");
  std::string code(optimized.code_size, '\0');
  optimized.code = code.data();
  PJRT_OK(api_->PJRT_Executable_OptimizedProgram(&program));
  EXPECT_NE(code.find("stablehlo.multiply"), std::string::npos) << code;
  EXPECT_NE(code.find("@jit_f"), std::string::npos) << code;
  auto destroy = Init<PJRT_Executable_Destroy_Args>();
  destroy.executable = get.executable;
  PJRT_OK(api_->PJRT_Executable_Destroy(&destroy));

  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  std::vector<float> y = {0.5f, -1, 2};
  PJRT_Buffer* bx = FromHost(x.data(), PJRT_Buffer_Type_F32, {2, 3});
  PJRT_Buffer* by = FromHost(y.data(), PJRT_Buffer_Type_F32, {3});
  for (int call = 0; call < 2; ++call) {  // an executable runs more than once
    std::vector<PJRT_Buffer*> out = Execute(exe, {bx, by}, 2);
    ASSERT_NE(out[0], nullptr);
    ASSERT_NE(out[1], nullptr);
    std::vector<float> expected;
    for (size_t i = 0; i < x.size(); ++i) expected.push_back(x[i] * y[i % 3]);
    EXPECT_EQ(ToHost<float>(out[0]), expected);
    EXPECT_EQ(ToHost<int32_t>(out[1]), std::vector<int32_t>{7});
  }

  auto del = Init<PJRT_LoadedExecutable_Delete_Args>();
  del.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_Delete(&del));
  auto is_deleted = Init<PJRT_LoadedExecutable_IsDeleted_Args>();
  is_deleted.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_IsDeleted(&is_deleted));
  EXPECT_TRUE(is_deleted.is_deleted);
  DestroyExecutable(exe);
}

TEST_F(PjrtApiTest, CompilesAPortableArtifact) {
  // loop.mlir as StableHLO serializes it (tests/bytecode/data).
  std::string code = hlograph::testing::ReadFile(hlograph::testing::SourceDir() +
                                                 "/tests/bytecode/data/loop.current.mlirbc");
  ASSERT_FALSE(code.empty());
  PJRT_LoadedExecutable* exe = Compile(code);
  ASSERT_NE(exe, nullptr);
  std::vector<float> x = {0.5f, -1.0f, 2.0f, 3.0f};
  int32_t n = 3;
  PJRT_Buffer* bx = FromHost(x.data(), PJRT_Buffer_Type_F32, {4});
  PJRT_Buffer* bn = FromHost(&n, PJRT_Buffer_Type_S32, {});
  std::vector<PJRT_Buffer*> out = Execute(exe, {bx, bn}, 1);
  ASSERT_NE(out[0], nullptr);

  // The same program, computed here in double precision.
  const double c[4] = {1, 2, 3, 4};
  double v[4] = {x[0], x[1], x[2], x[3]};
  for (int i = 0; i < n; ++i) {
    double s[4];
    double dot = 0;
    for (int k = 0; k < 4; ++k) s[k] = v[k] + c[k];
    for (int k = 0; k < 4; ++k) dot += s[k] * c[k];
    for (int k = 0; k < 4; ++k) v[k] = s[k] / dot;
  }
  double sum = v[0] + v[1] + v[2] + v[3];
  std::vector<float> got = ToHost<float>(out[0]);
  ASSERT_EQ(got.size(), 4u);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[k], v[k] * sum, 1e-6 * std::abs(v[k] * sum) + 1e-7) << k;
  DestroyExecutable(exe);
}

TEST_F(PjrtApiTest, DeviceAssignmentOfALoadedExecutable) {
  // jaxlib reads these when it wraps every loaded executable.
  PJRT_LoadedExecutable* exe = Compile(kTextProgram);
  ASSERT_NE(exe, nullptr);
  auto ids = Init<PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args>();
  ids.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_AddressableDeviceLogicalIds(&ids));
  ASSERT_EQ(ids.num_addressable_device_logical_ids, 1u);
  EXPECT_EQ(ids.addressable_device_logical_ids[0].replica, 0);
  EXPECT_EQ(ids.addressable_device_logical_ids[0].partition, 0);

  auto assignment = Init<PJRT_LoadedExecutable_GetDeviceAssignment_Args>();
  assignment.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_GetDeviceAssignment(&assignment));
  // replica_count 1, computation_count 1, computation_devices {replica_device_ids: [0]}
  const std::string expected("\x08\x01\x10\x01\x1a\x03\x0a\x01\x00", 9);
  EXPECT_EQ(std::string(assignment.serialized_bytes, assignment.serialized_bytes_size), expected);
  ASSERT_NE(assignment.serialized_device_assignment_deleter, nullptr);
  assignment.serialized_device_assignment_deleter(assignment.serialized_device_assignment);

  auto devices = Init<PJRT_LoadedExecutable_AddressableDevices_Args>();
  devices.executable = exe;
  PJRT_OK(api_->PJRT_LoadedExecutable_AddressableDevices(&devices));
  ASSERT_EQ(devices.num_addressable_devices, 1u);
  auto attributes = Init<PJRT_Device_GetAttributes_Args>();
  attributes.device = devices.addressable_devices[0];
  PJRT_OK(api_->PJRT_Device_GetAttributes(&attributes));
  ASSERT_EQ(attributes.num_attributes, 1u);
  EXPECT_EQ(std::string(attributes.attributes[0].name, attributes.attributes[0].name_size), "backend");
  ASSERT_NE(attributes.attributes_deleter, nullptr);
  attributes.attributes_deleter(attributes.device_attributes);
  DestroyExecutable(exe);
}

TEST_F(PjrtApiTest, CompileErrorsNameTheProblem) {
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string error;
  PJRT_LoadedExecutable* exe = Compile("module { func.func @main( }", &code, &error);
  EXPECT_EQ(exe, nullptr);
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_NE(error.find("<pjrt program>"), std::string::npos) << error;
}

TEST_F(PjrtApiTest, CompileOptionsAskingForMoreDevicesThanTheClientHasAreRefused) {
  // xla.CompileOptionsProto: executable_build_options (field 3) holding
  // device_ordinal (1), num_replicas (4) and num_partitions (5); fields
  // of other wire types around it are skipped.
  auto options = [](uint8_t replicas, uint8_t partitions) {
    const std::string build = std::string("\x08\x7f\x20", 3) + char(replicas) + "\x28" + char(partitions);
    return std::string("\x0a\x02\x08\x01", 4) + "\x1a" + char(build.size()) + build +
           std::string("\x29\x01\x02\x03\x04\x05\x06\x07\x08\x20\x00", 11);
  };
  PJRT_LoadedExecutable* exe = Compile(kTextProgram, nullptr, nullptr, options(1, 1));
  ASSERT_NE(exe, nullptr);
  DestroyExecutable(exe);

  PJRT_Error_Code code = PJRT_Error_Code_OK;
  std::string error;
  EXPECT_EQ(Compile(kTextProgram, &code, &error, options(2, 1)), nullptr);
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_NE(error.find("2 replica(s) x 1 partition(s); the client has 1 device(s)"), std::string::npos) << error;
  EXPECT_EQ(Compile(kTextProgram, &code, &error, options(1, 4)), nullptr);
  EXPECT_NE(error.find("1 replica(s) x 4 partition(s)"), std::string::npos) << error;

  const std::string truncated = options(1, 1).substr(0, 5);
  EXPECT_EQ(Compile(kTextProgram, &code, &error, truncated), nullptr);
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_NE(error.find("CompileOptionsProto) at byte"), std::string::npos) << error;
}

TEST_F(PjrtApiTest, DonatedArgumentsAreConsumedUnlessTheCallerKeepsThem) {
  PJRT_LoadedExecutable* exe = Compile(R"(
module @jit_double {
  func.func public @main(%x: tensor<3xf32> {tf.aliasing_output = 0 : i32}) -> tensor<3xf32> {
    %0 = stablehlo.add %x, %x : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
})");
  ASSERT_NE(exe, nullptr);
  auto is_deleted = [&](PJRT_Buffer* b) {
    auto args = Init<PJRT_Buffer_IsDeleted_Args>();
    args.buffer = b;
    PJRT_EXPECT_OK(api_->PJRT_Buffer_IsDeleted(&args));
    return args.is_deleted;
  };
  std::vector<float> x = {1, -2, 3.5f};
  PJRT_Buffer* donated = FromHost(x.data(), PJRT_Buffer_Type_F32, {3});
  std::vector<PJRT_Buffer*> out = Execute(exe, {donated}, 1);
  ASSERT_NE(out[0], nullptr);
  EXPECT_EQ(ToHost<float>(out[0]), (std::vector<float>{2, -4, 7}));
  EXPECT_TRUE(is_deleted(donated));

  PJRT_Buffer* kept = FromHost(x.data(), PJRT_Buffer_Type_F32, {3});
  const int64_t keep[] = {0};
  PJRT_ExecuteOptions options;
  std::memset(&options, 0, sizeof(options));
  options.struct_size = sizeof(options);
  options.non_donatable_input_indices = keep;
  options.num_non_donatable_input_indices = 1;
  out = Execute(exe, {kept}, 1, &options);
  ASSERT_NE(out[0], nullptr);
  EXPECT_EQ(ToHost<float>(out[0]), (std::vector<float>{2, -4, 7}));
  EXPECT_FALSE(is_deleted(kept));
  EXPECT_EQ(ToHost<float>(kept), x);
  DestroyExecutable(exe);
}

TEST_F(PjrtApiTest, CallTimesCountTheEnginesExecutes) {
  // What bench/pjrt_overhead.py reads: the engine's Execute, counted per call.
  auto call_times = reinterpret_cast<const char* (*)()>(dlsym(LoadLibrary(), "hlograph_pjrt_call_times"));
  ASSERT_NE(call_times, nullptr) << "hlograph_pjrt_call_times is not exported";
  auto engine_calls = [&] {
    const std::string json = call_times();
    const std::string key = "\"engine_execute\": [";
    const size_t at = json.find(key);
    EXPECT_NE(at, std::string::npos) << json;
    return at == std::string::npos ? -1LL : std::stoll(json.substr(at + key.size()));
  };
  PJRT_LoadedExecutable* exe = Compile(kTextProgram);
  ASSERT_NE(exe, nullptr);
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  std::vector<float> y = {0.5f, -1, 2};
  PJRT_Buffer* bx = FromHost(x.data(), PJRT_Buffer_Type_F32, {2, 3});
  PJRT_Buffer* by = FromHost(y.data(), PJRT_Buffer_Type_F32, {3});
  const long long before = engine_calls();
  for (int call = 0; call < 3; ++call) Execute(exe, {bx, by}, 2);
  EXPECT_EQ(engine_calls(), before + 3);
  DestroyExecutable(exe);
}

TEST_F(PjrtApiTest, ExecuteChecksArguments) {
  PJRT_LoadedExecutable* exe = Compile(kTextProgram);
  ASSERT_NE(exe, nullptr);
  std::vector<float> x = {1, 2, 3};
  PJRT_Buffer* bx = FromHost(x.data(), PJRT_Buffer_Type_F32, {3});
  std::vector<PJRT_Buffer*> outputs(2, nullptr);
  PJRT_Buffer* const* argument_list = &bx;
  PJRT_Buffer** output_list = outputs.data();
  auto args = Init<PJRT_LoadedExecutable_Execute_Args>();
  args.executable = exe;
  args.argument_lists = &argument_list;
  args.num_devices = 1;
  args.num_args = 1;
  args.output_lists = &output_list;
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  EXPECT_NE(Consume(api_, api_->PJRT_LoadedExecutable_Execute(&args), &code), "");
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_EQ(outputs[0], nullptr);
  DestroyExecutable(exe);
}

// The create option "memory_budget" sets the GPU's memory budget; a value
// of the wrong form fails client creation with INVALID_ARGUMENT naming it;
// options the plugin does not know are ignored.
TEST_F(PjrtApiTest, CreateOptionsSetTheMemoryBudget) {
  const auto create = [&](const PJRT_NamedValue& option, PJRT_Error_Code* code) {
    auto args = Init<PJRT_Client_Create_Args>();
    args.create_options = &option;
    args.num_options = 1;
    const std::string error = Consume(api_, api_->PJRT_Client_Create(&args), code);
    if (error.empty()) {
      auto destroy = Init<PJRT_Client_Destroy_Args>();
      destroy.client = args.client;
      PJRT_EXPECT_OK(api_->PJRT_Client_Destroy(&destroy));
    }
    return error;
  };
  PJRT_Error_Code code = PJRT_Error_Code_OK;
  EXPECT_EQ(create(StringOption("memory_budget", "none"), &code), "");
  EXPECT_EQ(create(StringOption("some_other_plugins_option", "12MB"), &code), "");
  auto bytes = Init<PJRT_NamedValue>();
  bytes.name = "memory_budget";
  bytes.name_size = std::strlen(bytes.name);
  bytes.type = PJRT_NamedValue_kInt64;
  bytes.int64_value = int64_t{1} << 40;
  bytes.value_size = 1;
  EXPECT_EQ(create(bytes, &code), "");
#ifdef HLOGRAPH_PJRT_HAS_GPU_BACKEND
  const std::string bad = create(StringOption("memory_budget", "12MB"), &code);
  EXPECT_EQ(code, PJRT_Error_Code_INVALID_ARGUMENT);
  EXPECT_TRUE(hlograph::testing::HasSubstr(bad, "create option memory_budget")) << bad;
  EXPECT_TRUE(hlograph::testing::HasSubstr(bad, "12MB")) << bad;
  (void)create(StringOption("memory_budget", "none"), &code);
#endif
}

}  // namespace

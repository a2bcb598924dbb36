// The public C++ API (include/hlograph/hlograph.h): compiling and running
// programs on the CPU backend, checked against values computed here, the
// errors it reports, and the GPU backend where there is one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/hlograph.h"
#include "ir/element_type.h"
#include "runtime/conversions.h"
#include "test_util.h"

namespace hlograph {
namespace {

// (a + broadcast(b)), and the sums of its squares along rows.
constexpr const char* kAddReduce = R"(
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %a, %bb : tensor<2x3xf32>
  %m = stablehlo.multiply %s, %s : tensor<2x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%m init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %s, %r : tensor<2x3xf32>, tensor<2xf32>
}
)";

// x * 3 and whether that exceeds 3.
constexpr const char* kIntegers = R"(
func.func @main(%x: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi1>) {
  %c = stablehlo.constant dense<3> : tensor<5xi32>
  %y = stablehlo.multiply %x, %c : tensor<5xi32>
  %p = stablehlo.compare GT, %y, %c, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  return %y, %p : tensor<5xi32>, tensor<5xi1>
}
)";

ClientOptions Backend(const std::string& name) {
  ClientOptions options;
  options.backend = name;
  return options;
}

std::unique_ptr<Client> CpuClient() {
  StatusOr<std::unique_ptr<Client>> client = Client::Create(Backend("cpu"));
  EXPECT_TRUE(client.ok()) << client.status().message();
  return client.ok() ? std::move(client.value()) : nullptr;
}

std::unique_ptr<Executable> CompileOrDie(const Client& client, const char* program) {
  StatusOr<std::unique_ptr<Executable>> exe = client.Compile(program);
  EXPECT_TRUE(exe.ok()) << exe.status().message();
  return exe.ok() ? std::move(exe.value()) : nullptr;
}

// Runs kAddReduce on `client` and checks its results against the same
// arithmetic done here.
void CheckAddReduce(const Client& client) {
  std::unique_ptr<Executable> exe = CompileOrDie(client, kAddReduce);
  ASSERT_NE(exe, nullptr);
  EXPECT_EQ(exe->backend_name(), client.backend_name());
  EXPECT_EQ(exe->name(), "main");
  ASSERT_EQ(exe->parameter_types().size(), 2u);
  EXPECT_EQ(exe->parameter_types()[0], (ArrayType{ElementType::kF32, {2, 3}}));
  EXPECT_EQ(exe->parameter_types()[1].ToString(), "tensor<3xf32>");
  ASSERT_EQ(exe->result_types().size(), 2u);
  EXPECT_EQ(exe->result_types()[1].ToString(), "tensor<2xf32>");

  const std::vector<float> a = {1.0f, -2.0f, 0.5f, 3.0f, 0.25f, -1.5f};
  const std::vector<float> b = {0.5f, 1.0f, -2.0f};
  StatusOr<std::vector<Array>> results =
      exe->Execute({Array::FromValues<float>({2, 3}, a), Array::FromValues<float>({3}, b)});
  ASSERT_TRUE(results.ok()) << results.status().message();
  ASSERT_EQ(results->size(), 2u);
  const Array& s = (*results)[0];
  const Array& r = (*results)[1];
  EXPECT_EQ(s.type_string(), "tensor<2x3xf32>");
  EXPECT_EQ(r.type_string(), "tensor<2xf32>");
  for (int i = 0; i < 2; ++i) {
    float sum = 0;
    for (int j = 0; j < 3; ++j) {
      const float expected = a[static_cast<size_t>(i * 3 + j)] + b[static_cast<size_t>(j)];
      EXPECT_FLOAT_EQ(s.at<float>(i * 3 + j), expected) << i << "," << j;
      sum += expected * expected;
    }
    EXPECT_NEAR(r.at<float>(i), sum, 1e-5f * std::fabs(sum)) << i;
  }
}

TEST(RuntimeApiTest, CpuAddAndReduce) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->backend_name(), "cpu");
  CheckAddReduce(*client);
}

TEST(RuntimeApiTest, CpuIntegersAndBools) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kIntegers);
  ASSERT_NE(exe, nullptr);
  const std::vector<int32_t> x = {-4, 0, 1, 2, 1000};
  for (int call = 0; call < 2; ++call) {  // an executable runs any number of times
    StatusOr<std::vector<Array>> results = exe->Execute({Array::FromValues<int32_t>({5}, x)});
    ASSERT_TRUE(results.ok()) << results.status().message();
    ASSERT_EQ(results->size(), 2u);
    EXPECT_EQ((*results)[0].element_type(), ElementType::kS32);
    EXPECT_EQ((*results)[1].element_type(), ElementType::kBool);
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ((*results)[0].at<int32_t>(i), x[static_cast<size_t>(i)] * 3);
      EXPECT_EQ((*results)[1].at<bool>(i), x[static_cast<size_t>(i)] * 3 > 3);
    }
  }
}

// CompileOptions::function compiles a function other than the entry; one
// the module lacks is an error naming it.
TEST(RuntimeApiTest, CompilesTheFunctionAsked) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  const std::string program = R"(
func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}
func.func @twice(%x: tensor<3xi32>) -> tensor<3xi32> {
  %y = stablehlo.add %x, %x : tensor<3xi32>
  return %y : tensor<3xi32>
}
)";
  CompileOptions options;
  options.function = "twice";
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(program, options);
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  EXPECT_EQ((*exe)->name(), "twice");
  const std::vector<int32_t> x = {1, -2, 7};
  StatusOr<std::vector<Array>> results = (*exe)->Execute({Array::FromValues<int32_t>({3}, x)});
  ASSERT_TRUE(results.ok()) << results.status().message();
  for (int i = 0; i < 3; ++i) EXPECT_EQ((*results)[0].at<int32_t>(i), 2 * x[static_cast<size_t>(i)]);
  options.function = "nope";
  StatusOr<std::unique_ptr<Executable>> missing = client->Compile(program, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no function @nope"), std::string::npos) << missing.status().message();
}

TEST(RuntimeApiTest, CompileFile) {
  const std::string path = ::testing::TempDir() + "runtime_api_test_program.mlir";
  {
    std::ofstream out(path);
    out << kIntegers;
  }
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  StatusOr<std::unique_ptr<Executable>> exe = client->CompileFile(path);
  std::remove(path.c_str());
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  EXPECT_EQ((*exe)->parameter_types().size(), 1u);
}

TEST(RuntimeApiTest, AutoPicksABackend) {
  StatusOr<std::unique_ptr<Client>> client = Client::Create();
  ASSERT_TRUE(client.ok()) << client.status().message();
  const std::string name = (*client)->backend_name();
  EXPECT_TRUE(name == "cpu" || name == "gpu") << name;
}

TEST(RuntimeApiTest, UnknownBackendIsAnError) {
  StatusOr<std::unique_ptr<Client>> client = Client::Create(Backend("tpu"));
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.status().message().find("\"tpu\""), std::string::npos) << client.status().message();
}

TEST(RuntimeApiTest, ParseErrorNamesLineAndColumn) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  const char* program =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %y = stablehlo.bogus %x : tensor<4xf32>\n"
      "  return %y : tensor<4xf32>\n"
      "}\n";
  CompileOptions options;
  options.filename = "bad.mlir";
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(program, options);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find("bad.mlir:2:8:"), std::string::npos) << exe.status().message();
  EXPECT_NE(exe.status().message().find("stablehlo.bogus"), std::string::npos) << exe.status().message();
}

TEST(RuntimeApiTest, VerifierErrorIsReported) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  // add of mismatched shapes parses but does not verify.
  const char* program =
      "func.func @main(%x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {\n"
      "  %z = stablehlo.add %x, %y : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>\n"
      "  return %z : tensor<4xf32>\n"
      "}\n";
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(program);
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.status().message().find(":2:"), std::string::npos) << exe.status().message();
}

TEST(RuntimeApiTest, WrongArgumentCount) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kAddReduce);
  ASSERT_NE(exe, nullptr);
  StatusOr<std::vector<Array>> results = exe->Execute({Array(ElementType::kF32, {2, 3})});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(), "@main takes 2 arguments (tensor<2x3xf32>, tensor<3xf32>); 1 given");
}

TEST(RuntimeApiTest, WrongArgumentShape) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kAddReduce);
  ASSERT_NE(exe, nullptr);
  StatusOr<std::vector<Array>> results =
      exe->Execute({Array(ElementType::kF32, {2, 3}), Array(ElementType::kF32, {4})});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(),
            "argument 1 of @main: expected tensor<3xf32>, got tensor<4xf32> (shape differs)");
}

TEST(RuntimeApiTest, WrongArgumentType) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kAddReduce);
  ASSERT_NE(exe, nullptr);
  StatusOr<std::vector<Array>> results =
      exe->Execute({Array(ElementType::kF64, {2, 3}), Array(ElementType::kF32, {3})});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(),
            "argument 0 of @main: expected tensor<2x3xf32>, got tensor<2x3xf64> (element type differs)");
}

TEST(RuntimeApiTest, TokensAreScalarsOfNoBytes) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, R"(
func.func @main(%t: !stablehlo.token, %x: tensor<2xf32>) -> (!stablehlo.token, tensor<2xf32>) {
  %a = stablehlo.after_all %t : !stablehlo.token
  return %a, %x : !stablehlo.token, tensor<2xf32>
})");
  ASSERT_NE(exe, nullptr);
  const ArrayType token{ElementType::kToken, {}};
  EXPECT_EQ(exe->parameter_types()[0], token);
  EXPECT_EQ(exe->result_types()[0].ToString(), "!stablehlo.token");
  const Array x = Array::FromValues<float>({2}, {1.5f, -2.0f});
  StatusOr<std::vector<Array>> out = exe->Execute({Array(token), x});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].element_type(), ElementType::kToken);
  EXPECT_EQ((*out)[0].byte_size(), 0u);
  EXPECT_EQ((*out)[1], x);
  StatusOr<std::vector<Array>> wrong = exe->Execute({x, x});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().message(),
            "argument 0 of @main: expected !stablehlo.token, got tensor<2xf32> (element type and shape differ)");
}

TEST(RuntimeApiTest, TupleParametersAreRefused) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(R"(
func.func @main(%t: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  return %x : tensor<f32>
})");
  ASSERT_FALSE(exe.ok());
  EXPECT_TRUE(testing::HasSubstr(exe.status().message(), "parameter 0 of @main is tuple<tensor<f32>, tensor<i32>>"));
  EXPECT_TRUE(testing::HasSubstr(exe.status().message(), "tensors and tokens only"));
}

TEST(RuntimeApiTest, GpuAddAndReduce) {
  StatusOr<std::unique_ptr<Client>> client = Client::Create(Backend("gpu"));
  if (!client.ok()) GTEST_SKIP() << client.status().message();
  EXPECT_EQ((*client)->backend_name(), "gpu");
  CheckAddReduce(**client);
}

TEST(RuntimeArrayTest, Basics) {
  Array a(ElementType::kS16, {2, 0, 3});
  EXPECT_EQ(a.num_elements(), 0);
  EXPECT_EQ(a.byte_size(), 0u);
  Array scalar = Array::Scalar(2.5);
  EXPECT_EQ(scalar.type_string(), "tensor<f64>");
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_EQ(scalar.at<double>(0), 2.5);
  Array bf16(ElementType::kBF16, {3});
  bf16.mutable_data<uint16_t>()[1] = 0x3f80;  // 1.0
  EXPECT_EQ(bf16.byte_size(), 6u);
  EXPECT_EQ(bf16.type_string(), "tensor<3xbf16>");
  Array copy = bf16;
  EXPECT_EQ(copy, bf16);
  copy.mutable_data<uint16_t>()[0] = 1;
  EXPECT_NE(copy, bf16);
}

// The public element types are the IR's, with its names and storage sizes,
// and survive the trip through a host tensor.
TEST(RuntimeArrayTest, ElementTypesMatchTheIr) {
  for (int i = 0; i <= static_cast<int>(ElementType::kC128); ++i) {
    const auto type = static_cast<ElementType>(i);
    const ir::ElementType ir_type = runtime::ToIr(type);
    EXPECT_EQ(ElementTypeName(type), ir::ElementTypeName(ir_type)) << i;
    EXPECT_EQ(ElementSize(type), static_cast<size_t>(ir::StorageBytes(ir_type))) << ElementTypeName(type);
    ASSERT_TRUE(runtime::FromIr(ir_type).has_value()) << ElementTypeName(type);
    EXPECT_EQ(*runtime::FromIr(ir_type), type);

    Array array(type, {3});
    for (size_t b = 0; b < array.byte_size(); ++b) array.mutable_bytes()[b] = std::byte{static_cast<uint8_t>(b & 1)};
    StatusOr<Array> back = runtime::FromTensor(runtime::ToTensor(array));
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, array) << ElementTypeName(type);
  }
}

}  // namespace
}  // namespace hlograph

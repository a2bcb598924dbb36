// Quantized (!quant.uniform) parameters and results through the public
// API: their types, the same results as the interpreter's on the same
// tensors, and arguments of other quantizations refused by name.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "hlograph/hlograph.h"
#include "quantized_programs.h"
#include "runtime/conversions.h"
#include "test_util.h"

namespace hlograph {
namespace {

constexpr const char* kQuantizeDequantize = R"(
func.func @main(%x: tensor<4xf32>, %q: tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4xf32>) {
  %a = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %d = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<4xf32>
  return %a, %d : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<4xf32>
}
)";

std::unique_ptr<Client> CpuClient() {
  ClientOptions options;
  options.backend = "cpu";
  StatusOr<std::unique_ptr<Client>> client = Client::Create(options);
  EXPECT_TRUE(client.ok()) << client.status().message();
  return client.ok() ? std::move(client.value()) : nullptr;
}

std::unique_ptr<Executable> CompileOrDie(const Client& client, const std::string& program) {
  StatusOr<std::unique_ptr<Executable>> exe = client.Compile(program);
  EXPECT_TRUE(exe.ok()) << exe.status().message();
  return exe.ok() ? std::move(exe.value()) : nullptr;
}

Quantization PerTensor(double scale, int64_t zero_point) {
  Quantization q;
  q.scales = {scale};
  q.zero_points = {zero_point};
  return q;
}

TEST(RuntimeQuantizedTest, TypesCarryTheQuantization) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kQuantizeDequantize);
  ASSERT_NE(exe, nullptr);
  const ArrayType& q = exe->parameter_types()[1];
  EXPECT_EQ(q.element_type, ElementType::kS8);
  EXPECT_EQ(q.shape, (std::vector<int64_t>{4}));
  ASSERT_TRUE(q.quantization.has_value());
  EXPECT_EQ(*q.quantization, PerTensor(0.5, -3));
  EXPECT_EQ(q.ToString(), "tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>");
  EXPECT_EQ(exe->result_types()[0], q);
  EXPECT_FALSE(exe->parameter_types()[0].quantization.has_value());
}

TEST(RuntimeQuantizedTest, QuantizeAndDequantize) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kQuantizeDequantize);
  ASSERT_NE(exe, nullptr);
  Array q(exe->parameter_types()[1]);
  const std::vector<int8_t> stored = {-3, -1, 7, -128};
  for (size_t i = 0; i < stored.size(); ++i) q.mutable_data<int8_t>()[i] = stored[i];
  StatusOr<std::vector<Array>> out =
      exe->Execute({Array::FromValues<float>({4}, {0.0f, 1.0f, -2.5f, 100.0f}), q});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const Array& quantized = (*out)[0];
  EXPECT_EQ(quantized.type(), exe->result_types()[0]);
  const std::vector<int8_t> expected_stored = {-3, -1, -8, 127};  // x / 0.5 - 3, rounded, clamped
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(quantized.at<int8_t>(i), expected_stored[static_cast<size_t>(i)]) << i;
  const std::vector<float> dequantized = {0.0f, 1.0f, 5.0f, -62.5f};  // (q + 3) * 0.5
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ((*out)[1].at<float>(i), dequantized[static_cast<size_t>(i)]) << i;
}

TEST(RuntimeQuantizedTest, OtherQuantizationsAreRefusedByArgument) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::unique_ptr<Executable> exe = CompileOrDie(*client, kQuantizeDequantize);
  ASSERT_NE(exe, nullptr);
  const Array x(ElementType::kF32, {4});
  StatusOr<std::vector<Array>> scale = exe->Execute({x, Array(ArrayType{ElementType::kS8, {4}, PerTensor(0.25, -3)})});
  ASSERT_FALSE(scale.ok());
  EXPECT_EQ(scale.status().message(),
            "argument 1 of @main: expected tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, got "
            "tensor<4x!quant.uniform<i8:f32, 2.500000e-01:-3>> (quantization differs)");
  StatusOr<std::vector<Array>> plain = exe->Execute({x, Array(ElementType::kS8, {4})});
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.status().message(),
            "argument 1 of @main: expected tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, got tensor<4xi8> "
            "(quantization differs)");
  StatusOr<std::vector<Array>> both = exe->Execute({x, Array(ArrayType{ElementType::kU8, {2}, PerTensor(0.25, -3)})});
  ASSERT_FALSE(both.ok());
  EXPECT_TRUE(testing::HasSubstr(both.status().message(), "(element type, shape and quantization differ)"));
}

// Every quantized test program of the lowering's tests, through the API and
// on the interpreter directly, on the same random arguments.
TEST(RuntimeQuantizedTest, SameResultsAsTheInterpreter) {
  std::unique_ptr<Client> client = CpuClient();
  ASSERT_NE(client, nullptr);
  std::mt19937_64 rng(11);
  for (const testing::QuantizedProgram& program : testing::QuantizedPrograms()) {
    SCOPED_TRACE(program.name);
    std::unique_ptr<Executable> exe = CompileOrDie(*client, program.text);
    ASSERT_NE(exe, nullptr);
    auto modules = testing::ParseOrDie(program.text);
    ASSERT_EQ(modules.size(), 1u);
    std::vector<cpu::Tensor> tensors;
    std::vector<Array> args;
    for (const ir::Type& type : ir::FunctionSignature(*modules[0]->EntryFunction()).inputs) {
      tensors.push_back(testing::QuantizedTestTensor(type, rng));
      StatusOr<Array> arg = runtime::FromTensor(tensors.back());
      ASSERT_TRUE(arg.ok()) << arg.status().message();
      args.push_back(std::move(*arg));
    }
    cpu::Interpreter interpreter(*modules[0]);
    auto expected = interpreter.RunEntry(tensors);
    ASSERT_TRUE(expected.ok()) << expected.status().message();
    StatusOr<std::vector<Array>> got = exe->Execute(args);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_EQ(got->size(), expected->size());
    for (size_t i = 0; i < got->size(); ++i) {
      StatusOr<Array> want = runtime::FromTensor((*expected)[i]);
      ASSERT_TRUE(want.ok()) << want.status().message();
      EXPECT_EQ((*got)[i], *want) << "result " << i << ": " << (*got)[i].type_string();
      EXPECT_EQ((*got)[i].type(), exe->result_types()[i]) << "result " << i;
    }
  }
}

}  // namespace
}  // namespace hlograph

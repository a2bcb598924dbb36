// An entry function run SPMD on the CPU backend's device grid
// (backends/cpu/spmd_entry.h): sharded arguments put together from the
// devices' pieces, each device's piece of a sharded result, a device's own
// value where there is no sharding, and errors naming the sharding.
#include <gtest/gtest.h>

#include "backends/cpu/spmd_entry.h"
#include "cpu_test_util.h"

namespace hlograph::cpu {
namespace {

using test_util::Make;
using test_util::Values;

constexpr const char* kProgram = R"(module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<i32>)
      -> (tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, tensor<i32>) {
    %c = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<i32>) -> tensor<4x2xi32>
    %d = stablehlo.add %a, %c : tensor<4x2xi32>
    %e = stablehlo.reduce(%a init: %b) applies stablehlo.add across dimensions = [0, 1]
        : (tensor<4x2xi32>, tensor<i32>) -> tensor<i32>
    return %d, %e : tensor<4x2xi32>, tensor<i32>
  }
})";

std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = frontend::ParseModule(text, "test.mlir");
  EXPECT_TRUE(module.ok()) << module.status().message();
  return module.ok() ? std::move(*module) : nullptr;
}

TEST(CpuSpmdEntry, ShardedValuesAreEachDevicesPieces) {
  auto module = Parse(kProgram);
  auto signature = ReadSpmdSignature(*module, 4);
  ASSERT_TRUE(signature.ok()) << signature.status().message();
  EXPECT_EQ(signature->local_inputs[0].ToString(), "tensor<2x2xi32>");
  EXPECT_EQ(signature->local_inputs[1].ToString(), "tensor<i32>");
  EXPECT_EQ(signature->local_results[0].ToString(), "tensor<4x1xi32>");
  // Device (x, y) = 2x + y holds rows 2x, 2x+1 of %a, and its own %b.
  std::vector<std::vector<Tensor>> args;
  for (int32_t d = 0; d < 4; ++d) {
    const int32_t row = d / 2 * 4;
    args.push_back({Make<int32_t>(ir::ElementType::kI32, {2, 2}, {row, row + 1, row + 2, row + 3}),
                    Make<int32_t>(ir::ElementType::kI32, {}, {100 * d})});
  }
  auto results = RunSpmd(*module, *signature, 1, 4, args);
  ASSERT_TRUE(results.ok()) << results.status().message();
  // Column y of %a + %b, and the sum of all of %a (28) + %b.
  EXPECT_EQ(Values<int32_t>((*results)[0][0]), (std::vector<int32_t>{0, 2, 4, 6}));
  EXPECT_EQ(Values<int32_t>((*results)[1][0]), (std::vector<int32_t>{101, 103, 105, 107}));
  EXPECT_EQ(Values<int32_t>((*results)[3][0]), (std::vector<int32_t>{301, 303, 305, 307}));
  EXPECT_EQ(Values<int32_t>((*results)[2][1]), (std::vector<int32_t>{228}));
}

TEST(CpuSpmdEntry, APieceThatDoesNotDivideIsRefusedNamingTheSharding) {
  std::string text = kProgram;
  for (size_t at; (at = text.find("4x2xi32")) != std::string::npos;) text.replace(at, 7, "3x2xi32");
  auto module = Parse(text);
  auto signature = ReadSpmdSignature(*module, 4);
  ASSERT_FALSE(signature.ok());
  EXPECT_NE(signature.status().message().find("argument 0 of @main"), std::string::npos);
  EXPECT_NE(signature.status().message().find(R"(#sdy.sharding<@mesh, [{"x"}, {}]>)"), std::string::npos);
  EXPECT_NE(signature.status().message().find("does not divide"), std::string::npos);
}

TEST(CpuSpmdEntry, AMeshOfAnotherSizeIsRefused) {
  auto module = Parse(kProgram);
  auto signature = ReadSpmdSignature(*module, 2);
  ASSERT_FALSE(signature.ok());
  EXPECT_NE(signature.status().message().find("4 devices"), std::string::npos);
}

// Without sdy.sharding, an argument only a manual computation takes, and a
// result it makes, are laid out as its in_shardings and out_shardings say;
// an argument something else reads too is each device's whole value.
TEST(CpuSpmdEntry, ValuesAManualComputationTakesOrMakesAreLaidOutAsItSays) {
  auto module = Parse(R"(module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %r:2 = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]
        out_shardings=[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>] manual_axes={"x"} (%p: tensor<2xf32>, %q: tensor<2xf32>) {
      sdy.return %p, %q : tensor<2xf32>, tensor<2xf32>
    } : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    %s = stablehlo.add %r#1, %b : tensor<8xf32>
    return %r#0, %s : tensor<8xf32>, tensor<8xf32>
  }
})");
  auto signature = ReadSpmdSignature(*module, 4);
  ASSERT_TRUE(signature.ok()) << signature.status().message();
  EXPECT_EQ(signature->local_inputs[0].ToString(), "tensor<2xf32>");
  EXPECT_EQ(signature->local_inputs[1].ToString(), "tensor<8xf32>");
  EXPECT_EQ(signature->local_results[0].ToString(), "tensor<2xf32>");
  EXPECT_EQ(signature->local_results[1].ToString(), "tensor<8xf32>");
}

TEST(CpuSpmdEntry, AManualComputationWhoseBodyTakesAnotherPieceIsRefused) {
  auto module = Parse(R"(module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
    %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>]
        manual_axes={"x"} (%p: tensor<4xf32>) {
      sdy.return %p : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
})");
  auto signature = ReadSpmdSignature(*module, 4);
  ASSERT_FALSE(signature.ok());
  const std::string& message = signature.status().message();
  EXPECT_NE(message.find("'sdy.manual_computation' op operand 0"), std::string::npos) << message;
  EXPECT_NE(message.find(R"(#sdy.sharding<@mesh, [{"x"}]>)"), std::string::npos) << message;
  EXPECT_NE(message.find("pieces of tensor<2xf32>"), std::string::npos) << message;
}

}  // namespace
}  // namespace hlograph::cpu

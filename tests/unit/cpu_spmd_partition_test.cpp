// passes/spmd/partition.h: programs with sharded arguments and results
// partitioned for N devices and run on the CPU interpreter's device grid
// (each device its own pieces), against the unpartitioned program on the
// whole arrays; and which collectives the partitioned program uses, and
// the errors naming what it cannot partition.
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "passes/spmd/partition.h"
#include "spmd_test_util.h"

namespace hlograph::passes {
namespace {

// x @ w1, relu, @ w2: the batch cut, the parameters whole.
constexpr const char* kDataParallel = R"(
  func.func @main(%w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %w2: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.maximum %0, %1 : tensor<8x32xf32>
    %3 = stablehlo.dot_general %2, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    return %3 : tensor<8x4xf32>
  }
})";

TEST(SpmdPartition, DataParallelForwardNeedsNoCollective) {
  for (int n : {2, 4, 8}) {
    EXPECT_EQ(PartitionAndCompare("module {\n" + Mesh1(n) + kDataParallel, n), "no collectives") << n;
  }
}

TEST(SpmdPartition, TheLocalProgramHasThePiecesShapes) {
  auto module = Parse("module {\n" + Mesh1(4) + kDataParallel);
  auto program = PartitionSpmd(*module, 4);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const ir::FunctionType local = ir::FunctionSignature(*program->module->EntryFunction());
  EXPECT_EQ(local.inputs[2].ToString(), "tensor<2x16xf32>");
  EXPECT_EQ(local.results[0].ToString(), "tensor<2x4xf32>");
  EXPECT_EQ(program->input_shardings[0], "{replicated}");
  EXPECT_EQ(program->input_shardings[2], "{devices=[4,1]0,1,2,3}");
  EXPECT_EQ(ir::PrintModule(*program->module).find("sdy.sharding ="), std::string::npos);
}

// The gradient step of the same MLP (as jax.grad exports it): the weights'
// gradients contract over the cut batch, summed by all_reduce.
constexpr const char* kGradStep = R"(
  func.func @main(%w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %w2: tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
          tensor<32x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %c0 = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %c0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.maximum %0, %z : tensor<8x32xf32>
    %4 = stablehlo.compare GT, %0, %z, FLOAT : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %c1 = stablehlo.constant dense<1.0> : tensor<f32>
    %one = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.select %4, %one, %z : tensor<8x32xi1>, tensor<8x32xf32>
    %12 = stablehlo.dot_general %2, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
    %c2 = stablehlo.constant dense<0.0625> : tensor<f32>
    %s = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %17 = stablehlo.multiply %s, %12 : tensor<8x4xf32>
    %18 = stablehlo.dot_general %17, %2, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
    %19 = stablehlo.transpose %18, dims = [1, 0] : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %20 = stablehlo.dot_general %17, %w2, contracting_dims = [1] x [1] : (tensor<8x4xf32>, tensor<32x4xf32>) -> tensor<8x32xf32>
    %21 = stablehlo.multiply %20, %11 : tensor<8x32xf32>
    %22 = stablehlo.dot_general %21, %x, contracting_dims = [0] x [0] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %lr = stablehlo.constant dense<0.1> : tensor<f32>
    %l1 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %25 = stablehlo.multiply %l1, %23 : tensor<16x32xf32>
    %26 = stablehlo.subtract %w1, %25 : tensor<16x32xf32>
    %l2 = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %28 = stablehlo.multiply %l2, %19 : tensor<32x4xf32>
    %29 = stablehlo.subtract %w2, %28 : tensor<32x4xf32>
    return %26, %29 : tensor<16x32xf32>, tensor<32x4xf32>
  }
})";

TEST(SpmdPartition, DataParallelGradientStepSumsTheGradients) {
  for (int n : {2, 4, 8}) {
    EXPECT_EQ(PartitionAndCompare("module {\n" + Mesh1(n) + kGradStep, n), "2 all_reduce") << n;
  }
}

// Megatron: w1 cut along its outputs, w2 along its inputs; the second
// product's partial sums added (all_reduce), or added and cut by rows
// (reduce_scatter) when the result is wanted cut so.
std::string Megatron(int n, const std::string& result) {
  return "module {\n" + Mesh1(n) + R"(
  func.func @main(%w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %w2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, )" + result + R"(>}) {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.tanh %0 : tensor<8x32xf32>
    %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
})";
}

TEST(SpmdPartition, MegatronColumnThenRowParallel) {
  for (int n : {2, 4, 8}) {
    EXPECT_EQ(PartitionAndCompare(Megatron(n, "[{}, {}]"), n), "1 all_reduce") << n;
    EXPECT_EQ(PartitionAndCompare(Megatron(n, R"([{"x"}, {}])"), n), "1 reduce_scatter") << n;
  }
}

// On a 2x4 mesh: the batch over "x", the layers' hidden dim over "y".
TEST(SpmdPartition, MegatronOnATwoDimensionalMesh) {
  const std::string text = R"(module {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                  %w2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                  %x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> tensor<8x16xf32> {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.logistic %0 : tensor<8x32xf32>
    %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 8), "1 all_reduce");
  auto program = PartitionSpmd(*Parse(text), 8);
  ASSERT_TRUE(program.ok());
  // Unannotated, the result keeps the rows' pieces over "x".
  EXPECT_EQ(program->result_shardings[0], "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}");
}

// Sums and maxima over a cut dim: each device's, then across devices.
TEST(SpmdPartition, ReductionsOverTheCutDim) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<6xf32>, tensor<8xf32>, tensor<f32>) {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
    %m = stablehlo.reduce(%a init: %low) applies stablehlo.maximum across dimensions = [1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
    %t = stablehlo.reduce(%a init: %low) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<f32>
    return %s, %m, %t : tensor<6xf32>, tensor<8xf32>, tensor<f32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "2 all_reduce");
}

// A sum whose init is not 0 would count it once per device: the dim is
// gathered instead.
TEST(SpmdPartition, ASumFromAnotherInitGathersFirst) {
  const std::string text = "module {\n" + Mesh1(2) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<6xf32> {
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %s = stablehlo.reduce(%a init: %one) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
    return %s : tensor<6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 2), "1 all_gather");
}

// Transposes and reshapes carry the cut dim; a constraint moving the cut
// to another dim gathers and slices at the device's offset.
TEST(SpmdPartition, LayoutOpsAndConstraints) {
  const std::string text = R"(module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
      -> (tensor<6x2x4xf32>, tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
    %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
    %e = stablehlo.exponential %t : tensor<6x8xf32>
    %r = stablehlo.reshape %e : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
    %b = stablehlo.reshape %a : (tensor<8x6xf32>) -> tensor<4x2x6xf32>
    %c = stablehlo.reshape %b : (tensor<4x2x6xf32>) -> tensor<8x6xf32>
    %d = sdy.sharding_constraint %c <@mesh, [{}, {"x"}]> : tensor<8x6xf32>
    %f = stablehlo.negate %d : tensor<8x6xf32>
    return %r, %f : tensor<6x2x4xf32>, tensor<8x6xf32>
  }
})";
  const std::string summary = PartitionAndCompare(text, 4);
  EXPECT_NE(summary.find("all_gather"), std::string::npos) << summary;
  EXPECT_NE(summary.find("dynamic_slice"), std::string::npos) << summary;
}

// The GSPMD spelling (mhlo.sharding, custom_call @Sharding) as JAX emits it
// with Shardy off.
TEST(SpmdPartition, GspmdAnnotations) {
  const std::string text = R"(module {
  func.func @main(%a: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"},
                  %w: tensor<16x32xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"})
      -> (tensor<8xf32> {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}) {
    %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.tanh %0 : tensor<8x32xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    return %3 : tensor<8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 8), "1 all_reduce");
}

// A whole argument wanted in pieces is sliced at the device's offset; a
// sort along the cut dim gathers that dim first; an op no rule divides
// (map) runs whole on the gathered value.
TEST(SpmdPartition, SlicesAndWholeOps) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x4xf32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                                          tensor<8x4xf32>) {
    %e = stablehlo.sine %a : tensor<8x4xf32>
    %s = "stablehlo.sort"(%e) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %lt = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) {dimension = 0 : i64, is_stable = true} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %e, %s : tensor<8x4xf32>, tensor<8x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 dynamic_slice");
  const std::string cut = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %s = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %lt = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) {dimension = 0 : i64, is_stable = true} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(cut, 4), "1 all_gather");
  const std::string whole = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %m = "stablehlo.map"(%a) ({
    ^bb0(%x: tensor<f32>):
      %y = stablehlo.negate %x : tensor<f32>
      stablehlo.return %y : tensor<f32>
    }) {dimensions = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %m : tensor<8x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(whole, 4), "1 all_gather; computed whole: stablehlo.map");
}

TEST(SpmdPartition, RefusalsNameTheOpAndTheSharding) {
  auto module = Parse("module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    %r = stablehlo.custom_call @host_effect(%a) {has_side_effect = true} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %r : tensor<8x4xf32>
  }
})");
  auto program = PartitionSpmd(*module, 4);
  ASSERT_FALSE(program.ok());
  const std::string& m = program.status().message();
  EXPECT_NE(m.find("cannot partition 'stablehlo.custom_call' at test.mlir:5:5"), std::string::npos) << m;
  EXPECT_NE(m.find("operand 0 sharded {devices=[4,1]0,1,2,3}"), std::string::npos) << m;
  EXPECT_NE(m.find("it has effects"), std::string::npos) << m;

  auto odd = Parse("module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<6x4xf32> {
    return %a : tensor<6x4xf32>
  }
})");
  program = PartitionSpmd(*odd, 4);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("argument 0 of @main"), std::string::npos);
  EXPECT_NE(program.status().message().find("does not divide"), std::string::npos);
}

}  // namespace
}  // namespace hlograph::passes

// Collectives run on a GPU through NCCL (a communicator of one rank on one
// device), inside the program's CUDA graph and in stream mode, against the
// interpreter on random inputs: every reduction, several element types
// (integers exact), the data-moving collectives with and without staging,
// variadic operands, a collective in a loop, replica_id and partition_id.
// Skipped without a GPU; select them with --gtest_filter='GpuCollective*'
// (the plan's tests without a GPU: gpu_collective_plan_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "backends/gpu/runtime/nccl_communicators.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

// Skips without a GPU or without NCCL (a build without nccl.h, or no libnccl).
#define SKIP_WITHOUT_NCCL()                                                       \
  do {                                                                            \
    if (!GpuAvailable()) GTEST_SKIP() << "no GPU";                                \
    if (const Status nccl = NcclUsable(); !nccl.ok()) GTEST_SKIP() << nccl.message(); \
  } while (0)

std::string Body(const std::string& op, const std::string& element) {
  const std::string s = "tensor<" + element + ">";
  return "({\n    ^bb0(%a: " + s + ", %b: " + s + "):\n      %t = stablehlo." + op + " %a, %b : " + s +
         "\n      stablehlo.return %t : " + s + "\n  })";
}

// The program's collectives ran through NCCL, captured in its graph.
void ExpectCollectivesInGraph(const std::string& name, const std::string& text, int64_t want) {
  auto modules = testing::ParseOrDie(text);
  auto graph = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kGraph));
  ASSERT_TRUE(graph.ok()) << name << ": " << graph.status().message();
  int64_t nodes = 0;
  for (const Graph& g : (*graph)->graph_plan().graphs) {
    for (const GraphNode& n : g.nodes) nodes += n.kind == NodeKind::kCollective;
  }
  EXPECT_EQ(nodes, want) << name;
  auto args = cpu::RandomTensors(ir::FunctionSignature(*modules[0]->EntryFunction()).inputs, 7);
  ASSERT_TRUE(args.ok());
  ASSERT_TRUE((*graph)->Run(*args).ok()) << name;
  EXPECT_GE((*graph)->stats().collective_calls, want) << name << ": captured from NCCL calls on the first call";
  EXPECT_EQ((*graph)->stats().graph_launches, 1) << name;
}

TEST(GpuCollectiveDevice, AllReduceOfEveryReductionAndSeveralTypes) {
  SKIP_WITHOUT_NCCL();
  const char* ops[] = {"add", "multiply", "maximum", "minimum"};
  const char* elements[] = {"f32", "i32", "bf16", "f16", "f64", "ui8", "i64", "ui32"};
  uint64_t seed = 1;
  for (const char* op : ops) {
    for (const char* element : elements) {
      const std::string t = std::string("tensor<3x1000x") + element + ">";
      const std::string text = "func.func @main(%x: " + t + ") -> " + t + " {\n  %r = \"stablehlo.all_reduce\"(%x) " +
                               Body(op, element) + " {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (" + t +
                               ") -> " + t + "\n  return %r : " + t + "\n}";
      ExpectMatchesInterpreterAndRepeats(std::string(op) + " " + element, text, seed++);
    }
  }
}

TEST(GpuCollectiveDevice, AllReduceOfBoolsAndVariadicOperands) {
  SKIP_WITHOUT_NCCL();
  ExpectMatchesInterpreterAndRepeats("or", R"(
func.func @main(%x: tensor<100xi1>) -> tensor<100xi1> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i1>, %b: tensor<i1>):
      %t = stablehlo.or %a, %b : tensor<i1>
      stablehlo.return %t : tensor<i1>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<100xi1>) -> tensor<100xi1>
  return %r : tensor<100xi1>
})", 3);
  const std::string variadic = R"(
func.func @main(%x: tensor<16x4xf32>, %y: tensor<5xf32>) -> (tensor<16x4xf32>, tensor<5xf32>) {
  %e = stablehlo.exponential %x : tensor<16x4xf32>
  %r:2 = "stablehlo.all_reduce"(%e, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<16x4xf32>, tensor<5xf32>) -> (tensor<16x4xf32>, tensor<5xf32>)
  %n = stablehlo.negate %r#0 : tensor<16x4xf32>
  return %n, %r#1 : tensor<16x4xf32>, tensor<5xf32>
})";
  ExpectMatchesInterpreterAndRepeats("variadic", variadic, 4);
  ExpectCollectivesInGraph("variadic", variadic, 1);
}

// Gathers and scatters along inner dims go through staging buffers; along
// dim 0 NCCL writes the result itself. all_to_all, permute and broadcast
// move bytes of any type.
TEST(GpuCollectiveDevice, DataMovingCollectives) {
  SKIP_WITHOUT_NCCL();
  const std::string text = R"(
func.func @main(%x: tensor<4x6xf32>, %i: tensor<3x5xi32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>,
    tensor<4x6xf32>, tensor<4x6xf32>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<4x6xf32>) {
  %g1 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
      : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %g0 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
      : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %s1 = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %s0 = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %a2a = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 1 : i64, split_count = 1 : i64,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = "stablehlo.collective_permute"(%i) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}
      : (tensor<3x5xi32>) -> tensor<3x5xi32>
  %b = "stablehlo.collective_broadcast"(%i) {replica_groups = dense<[[0]]> : tensor<1x1xi64>}
      : (tensor<3x5xi32>) -> tensor<3x5xi32>
  %a2a0 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64,
      replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %g1, %g0, %s1, %s0, %a2a, %p, %b, %a2a0 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>,
      tensor<4x6xf32>, tensor<4x6xf32>, tensor<3x5xi32>, tensor<3x5xi32>, tensor<4x6xf32>
})";
  ExpectMatchesInterpreterAndRepeats("moves", text, 11);
  ExpectCollectivesInGraph("moves", text, 8);
}

// A permute whose pairs leave this device out gives zeros, as the spec
// says (the interpreter, run without a grid, gives its operand back: not
// compared).
TEST(GpuCollectiveDevice, APermuteToNoOneGivesZeros) {
  SKIP_WITHOUT_NCCL();
  auto modules = testing::ParseOrDie(R"(
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<-1> : tensor<0x2xi64>}
      : (tensor<8xf32>) -> tensor<8xf32>
  return %p : tensor<8xf32>
})");
  for (ExecutionMode mode : {ExecutionMode::kGraph, ExecutionMode::kStream}) {
    auto e = GpuExecutable::Compile(*modules[0], Mode(mode));
    ASSERT_TRUE(e.ok()) << e.status().message();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*modules[0]->EntryFunction()).inputs, 12);
    ASSERT_TRUE(args.ok());
    auto got = (*e)->Run(*args);
    ASSERT_TRUE(got.ok()) << got.status().message();
    for (int64_t i = 0; i < 8; ++i) EXPECT_EQ((*got)[0].data<float>()[i], 0.0f) << ExecutionModeName(mode);
  }
}

TEST(GpuCollectiveDevice, ACollectiveInALoopAndTheDeviceIds) {
  SKIP_WITHOUT_NCCL();
  const std::string text = R"(
func.func @main(%x: tensor<32xf32>) -> (tensor<32xf32>, tensor<ui32>, tensor<2xui32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<32xf32>
    cond {
      %p = stablehlo.compare LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = "stablehlo.all_reduce"(%v) ({
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):
          %t = stablehlo.add %a, %b : tensor<f32>
          stablehlo.return %t : tensor<f32>
      }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<32xf32>) -> tensor<32xf32>
      %w = stablehlo.sine %s : tensor<32xf32>
      %j = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %j, %w : tensor<i32>, tensor<32xf32>
    }
  %id = stablehlo.replica_id : tensor<ui32>
  %pid = stablehlo.partition_id : tensor<ui32>
  %b = stablehlo.broadcast_in_dim %pid, dims = [] : (tensor<ui32>) -> tensor<2xui32>
  return %r#1, %id, %b : tensor<32xf32>, tensor<ui32>, tensor<2xui32>
})";
  ExpectMatchesInterpreterAndRepeats("loop", text, 13);
  ExpectCollectivesInGraph("loop", text, 4);
}

}  // namespace
}  // namespace hlograph::gpu

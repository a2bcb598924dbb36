// Collectives in the GPU plan, without a GPU (plan/collective_plan.h): the
// step each collective becomes (kind, reduction, group and rank for the
// device planned for, bytes, staging), its node in the graph plan, the
// order the graph keeps among collectives, what explain prints, and the
// errors for what NCCL cannot do. replica_id and partition_id become
// constants of the device's ids. (GPU runs: gpu_collective_test.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"
#include "ir/attribute.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Planned {
  std::vector<std::unique_ptr<ir::Module>> modules;
  StatusOr<GpuProgram> program = Status::Error("not planned");
};

Planned PlanFor(const std::string& text, const DevicePlace& place = {}) {
  Planned p;
  p.modules = testing::ParseOrDie(text);
  p.program = PlanProgram(*p.modules[0], place);
  return p;
}

std::vector<const CollectiveStep*> Collectives(const GpuProgram& program) {
  std::vector<const CollectiveStep*> found;
  ForEachStep(program.main, [&](const Step& s, int) {
    if (const auto* c = std::get_if<CollectiveStep>(&s.action)) found.push_back(c);
  });
  return found;
}

DevicePlace Replica(int64_t replica, int64_t replicas) {
  DevicePlace p;
  p.replicas = replicas;
  p.replica = replica;
  return p;
}

// An all_reduce of `type` over `groups` whose body is `op`.
std::string AllReduce(const std::string& op, const std::string& element, const std::string& shape = "1024",
                      const std::string& groups = "dense<[[0]]> : tensor<1x1xi64>") {
  const std::string t = "tensor<" + shape + "x" + element + ">", s = "tensor<" + element + ">";
  return "func.func @main(%x: " + t + ") -> " + t + " {\n"
         "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
         "    ^bb0(%a: " + s + ", %b: " + s + "):\n"
         "      %t = stablehlo." + op + " %a, %b : " + s + "\n"
         "      stablehlo.return %t : " + s + "\n"
         "  }) {replica_groups = " + groups + "} : (" + t + ") -> " + t + "\n"
         "  return %r : " + t + "\n}";
}

TEST(GpuCollectivePlan, AnAllReduceOnOneDeviceIsAStepOverAGroupOfOne) {
  Planned p = PlanFor(AllReduce("add", "f32"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Collectives(*p.program);
  ASSERT_EQ(steps.size(), 1u) << p.program->ToString();
  const CollectiveConfig& c = steps[0]->config;
  EXPECT_EQ(c.kind, CollectiveKind::kAllReduce);
  EXPECT_EQ(c.reduction, CollectiveReduction::kSum);
  EXPECT_EQ(c.group, (std::vector<int64_t>{0}));
  EXPECT_EQ(c.rank, 0);
  EXPECT_EQ(c.bytes(), 4096);
  ASSERT_EQ(c.operands.size(), 1u);
  EXPECT_EQ(c.operands[0].elements, 1024);
  EXPECT_EQ(c.operands[0].result_bytes, 4096);
  // The argument is read where it is, the result is a temp copied out (or written in place).
  EXPECT_EQ(p.program->buffers[static_cast<size_t>(steps[0]->inputs[0])].kind, BufferKind::kParameter);
  const std::string text = p.program->ToString();
  EXPECT_NE(text.find("collective all_reduce sum f32 over [0] (rank 0 of 1), 4096 bytes"), std::string::npos) << text;

  const GraphPlan graph = BuildGraphPlan(*p.program);
  ASSERT_TRUE(graph.Verify().ok());
  int nodes = 0;
  for (const GraphNode& n : graph.graphs[0].nodes) nodes += n.kind == NodeKind::kCollective;
  EXPECT_EQ(nodes, 1);
  const std::string printed = graph.ToString(*p.program);
  EXPECT_NE(printed.find("(NCCL child graph)"), std::string::npos) << printed;
}

TEST(GpuCollectivePlan, EachBodyIsItsReduction) {
  const struct {
    const char* op;
    const char* element;
    CollectiveReduction want;
  } cases[] = {
      {"add", "f32", CollectiveReduction::kSum},      {"multiply", "i32", CollectiveReduction::kProduct},
      {"maximum", "bf16", CollectiveReduction::kMax}, {"minimum", "ui64", CollectiveReduction::kMin},
      {"add", "f64", CollectiveReduction::kSum},      {"or", "i1", CollectiveReduction::kMax},
      {"and", "i1", CollectiveReduction::kMin},       {"add", "i8", CollectiveReduction::kSum},
  };
  for (const auto& c : cases) {
    Planned p = PlanFor(AllReduce(c.op, c.element));
    ASSERT_TRUE(p.program.ok()) << c.op << " " << c.element << ": " << p.program.status().message();
    const auto steps = Collectives(*p.program);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0]->config.reduction, c.want) << c.op << " " << c.element;
  }
}

TEST(GpuCollectivePlan, WhatNcclCannotReduceIsAnErrorNamingTheOp) {
  const struct {
    std::string text;
    const char* expected;
  } cases[] = {
      {AllReduce("and", "i32"), "NCCL has no reduction for"},
      {AllReduce("add", "i16"), "which NCCL does not"},
      {AllReduce("add", "f32", "4", "dense<[[0, 1]]> : tensor<1x2xi64>"), "outside the grid"},
  };
  for (const auto& c : cases) {
    Planned p = PlanFor(c.text);
    ASSERT_FALSE(p.program.ok()) << c.text;
    EXPECT_NE(p.program.status().message().find("'stablehlo.all_reduce' op"), std::string::npos)
        << p.program.status().message();
    EXPECT_NE(p.program.status().message().find(c.expected), std::string::npos) << p.program.status().message();
  }
}

TEST(GpuCollectivePlan, VariadicOperandsAreOneStep) {
  Planned p = PlanFor(R"(
func.func @main(%x: tensor<16xf32>, %y: tensor<8x2xf32>) -> (tensor<16xf32>, tensor<8x2xf32>) {
  %r:2 = "stablehlo.all_reduce"(%x, %y) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<16xf32>, tensor<8x2xf32>) -> (tensor<16xf32>, tensor<8x2xf32>)
  return %r#0, %r#1 : tensor<16xf32>, tensor<8x2xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Collectives(*p.program);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0]->config.operands.size(), 2u);
  EXPECT_EQ(steps[0]->inputs.size(), 2u);
  EXPECT_EQ(steps[0]->outputs.size(), 2u);
  EXPECT_EQ(steps[0]->config.bytes(), 128);
}

// Two replicas, planned as replica 1: its rank, its pieces, the staging an
// inner gather dim needs.
TEST(GpuCollectivePlan, GatherAndScatterAlongAnInnerDimAreStaged) {
  Planned p = PlanFor(R"(
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<8x8xf32>, tensor<4x4xf32>, tensor<2x8xf32>) {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<4x8xf32>) -> tensor<4x16xf32>
  %h = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>}
      : (tensor<4x8xf32>) -> tensor<8x8xf32>
  %s = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %u = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %g, %h, %s, %u : tensor<4x16xf32>, tensor<8x8xf32>, tensor<4x4xf32>, tensor<2x8xf32>
})", Replica(1, 2));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Collectives(*p.program);
  ASSERT_EQ(steps.size(), 4u) << p.program->ToString();
  // Gathered along dim 1: 4 rows, each 8 floats from each rank.
  EXPECT_EQ(steps[0]->config.kind, CollectiveKind::kAllGather);
  EXPECT_EQ(steps[0]->config.group, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(steps[0]->config.rank, 1);
  EXPECT_EQ(steps[0]->config.operands[0].receive.outer, 4);
  EXPECT_EQ(steps[0]->config.operands[0].receive.chunk_bytes, 32);
  ASSERT_GE(steps[0]->receive_staging[0], 0);
  EXPECT_EQ(p.program->buffers[static_cast<size_t>(steps[0]->receive_staging[0])].bytes, 4 * 16 * 4);
  EXPECT_EQ(steps[0]->send_staging[0], -1);
  // Along dim 0 NCCL writes the result itself; the group's order is the ranks'.
  EXPECT_EQ(steps[1]->config.group, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(steps[1]->config.rank, 0);
  EXPECT_EQ(steps[1]->receive_staging[0], -1);
  // Scattered along dim 1: the operand's pieces staged rank after rank.
  EXPECT_EQ(steps[2]->config.kind, CollectiveKind::kReduceScatter);
  EXPECT_EQ(steps[2]->config.operands[0].send.outer, 4);
  EXPECT_EQ(steps[2]->config.operands[0].send.chunk_bytes, 16);
  EXPECT_GE(steps[2]->send_staging[0], 0);
  EXPECT_EQ(steps[3]->send_staging[0], -1);
  EXPECT_NE(p.program->ToString().find("planned for replica 1 of 2, partition 0 of 1"), std::string::npos);
  EXPECT_NE(p.program->ToString().find("1 staged"), std::string::npos);
}

TEST(GpuCollectivePlan, PermuteAllToAllAndBroadcastKnowTheirPeers) {
  Planned p = PlanFor(R"(
func.func @main(%x: tensor<4x6xi32>) -> (tensor<4x6xi32>, tensor<2x12xi32>, tensor<4x6xi32>) {
  %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>}
      : (tensor<4x6xi32>) -> tensor<4x6xi32>
  %a = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64,
      replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<4x6xi32>) -> tensor<2x12xi32>
  %b = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[3, 1]]> : tensor<1x2xi64>}
      : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %p, %a, %b : tensor<4x6xi32>, tensor<2x12xi32>, tensor<4x6xi32>
})", Replica(2, 4));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Collectives(*p.program);
  ASSERT_EQ(steps.size(), 3u);
  const CollectiveConfig& permute = steps[0]->config;
  EXPECT_EQ(permute.group, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(permute.rank, 2);
  EXPECT_EQ(permute.send_to, 0);
  EXPECT_EQ(permute.receive_from, 1);
  const CollectiveConfig& all_to_all = steps[1]->config;
  EXPECT_EQ(all_to_all.group, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(all_to_all.rank, 0);
  EXPECT_TRUE(all_to_all.operands[0].send.contiguous());   // split along dim 0
  EXPECT_FALSE(all_to_all.operands[0].receive.contiguous());  // joined along dim 1
  EXPECT_EQ(all_to_all.operands[0].receive.outer, 2);
  EXPECT_EQ(all_to_all.operands[0].receive.chunk_bytes, 24);
  // Replica 2 is in no broadcast group: zeros, no communicator.
  EXPECT_TRUE(steps[2]->config.group.empty());
  EXPECT_NE(p.program->ToString().find("in no group (zeros)"), std::string::npos);
}

// All devices must meet their collectives in one order: the graph chains
// them even when no memory orders them.
TEST(GpuCollectivePlan, CollectivesAreChainedInTheGraph) {
  Planned p = PlanFor(R"(
func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<64xf32>) -> tensor<64xf32>
  %s = "stablehlo.all_gather"(%y) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}
      : (tensor<64xf32>) -> tensor<64xf32>
  return %r, %s : tensor<64xf32>, tensor<64xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GraphPlan graph = BuildGraphPlan(*p.program);
  std::vector<int> collectives;
  const auto& nodes = graph.graphs[0].nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind == NodeKind::kCollective) collectives.push_back(static_cast<int>(i));
  }
  ASSERT_EQ(collectives.size(), 2u) << graph.ToString(*p.program);
  const auto& deps = nodes[static_cast<size_t>(collectives[1])].deps;
  EXPECT_NE(std::find(deps.begin(), deps.end(), collectives[0]), deps.end()) << graph.ToString(*p.program);
}

// A collective in a loop unrolled into the graph: a node per iteration.
TEST(GpuCollectivePlan, ACollectiveInALoopIsANodePerIteration) {
  Planned p = PlanFor(R"(
func.func @main(%x: tensor<32xf32>) -> tensor<32xf32> {
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
      %w = stablehlo.multiply %s, %s : tensor<32xf32>
      %j = stablehlo.add %i, %c1 : tensor<i32>
      stablehlo.return %j, %w : tensor<i32>, tensor<32xf32>
    }
  return %r#1 : tensor<32xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GraphPlan graph = BuildGraphPlan(*p.program);
  ASSERT_TRUE(graph.Verify().ok());
  int collectives = 0;
  for (const Graph& g : graph.graphs) {
    for (const GraphNode& n : g.nodes) collectives += n.kind == NodeKind::kCollective;
  }
  EXPECT_EQ(collectives, 4) << graph.ToString(*p.program);
}

// replica_id and partition_id are the ids of the device planned for,
// constants the kernels reading them compute.
TEST(GpuCollectivePlan, DeviceIdsAreConstantsOfTheDevicePlannedFor) {
  const char* text = R"(
func.func @main(%x: tensor<8xui32>) -> tensor<8xui32> {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  %s = stablehlo.add %r, %p : tensor<ui32>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<ui32>) -> tensor<8xui32>
  %y = stablehlo.add %x, %b : tensor<8xui32>
  return %y : tensor<8xui32>
})";
  DevicePlace place;
  place.replicas = 2;
  place.partitions = 3;
  place.replica = 1;
  place.partition = 2;
  Planned p = PlanFor(text, place);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(p.program->fusions.size(), 1u) << p.program->ToString();
  std::vector<uint32_t> constants;
  for (const auto& op : p.program->module->EntryFunction()->region(0).front().operations()) {
    EXPECT_NE(op->name(), "stablehlo.replica_id");
    EXPECT_NE(op->name(), "stablehlo.partition_id");
    if (op->name() != "stablehlo.constant") continue;
    const auto* value = op->attr("value").as<ir::DenseElementsAttr>();
    ASSERT_NE(value, nullptr);
    ASSERT_EQ(value->bytes.size(), 4u);
    constants.push_back(static_cast<uint32_t>(value->bytes[0]));
  }
  EXPECT_EQ(constants, (std::vector<uint32_t>{1, 2}));

  DevicePlace outside = place;
  outside.replica = 2;
  Planned q = PlanFor(text, outside);
  ASSERT_FALSE(q.program.ok());
  EXPECT_NE(q.program.status().message().find("outside its grid"), std::string::npos) << q.program.status().message();
}

}  // namespace
}  // namespace hlograph::gpu

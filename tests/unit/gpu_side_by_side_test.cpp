// Small independent loop kernels side by side (plan/side_by_side.h): the
// plan without a GPU, the kernel's compilation, and on a GPU its results
// against the interpreter.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/gpu/executable.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/side_by_side.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// A decode step's start: an embedding row, a mask of the positions up to
// `pos` and a loop counter's start (`counter`: the constant the row's
// slice also reads, or one of its own), all the initial state of a loop.
// `mask` positions; the loop's results go through one more kernel each.
std::string LoopStart(bool shared_counter, int64_t mask) {
  const std::string m = std::to_string(mask);
  const std::string col = shared_counter ? "%zero" : "%col";
  return "func.func @main(%table: tensor<64x16xf32>, %row: tensor<i32>, %pos: tensor<i32>) -> (tensor<16xf32>, "
         "tensor<" + m + "xf32>) {\n"
         "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
         "  %col = stablehlo.constant dense<0> : tensor<i32>\n"
         "  %s = stablehlo.dynamic_slice %table, %row, " + col + ", sizes = [1, 16] : (tensor<64x16xf32>, "
         "tensor<i32>, tensor<i32>) -> tensor<1x16xf32>\n"
         "  %x0 = stablehlo.reshape %s : (tensor<1x16xf32>) -> tensor<16xf32>\n"
         "  %iota = stablehlo.iota dim = 0 : tensor<" + m + "xi32>\n"
         "  %p = stablehlo.broadcast_in_dim %pos, dims = [] : (tensor<i32>) -> tensor<" + m + "xi32>\n"
         "  %mask = stablehlo.compare LE, %iota, %p, SIGNED : (tensor<" + m + "xi32>, tensor<" + m + "xi32>) -> "
         "tensor<" + m + "xi1>\n"
         "  %r:3 = stablehlo.while(%i = %zero, %x = %x0, %k = %mask) : tensor<i32>, tensor<16xf32>, tensor<" + m +
         "xi1>\n"
         "   cond {\n"
         "    %three = stablehlo.constant dense<3> : tensor<i32>\n"
         "    %c = stablehlo.compare LT, %i, %three, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
         "    stablehlo.return %c : tensor<i1>\n"
         "  } do {\n"
         "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
         "    %i1 = stablehlo.add %i, %one : tensor<i32>\n"
         "    %x1 = stablehlo.tanh %x : tensor<16xf32>\n"
         "    stablehlo.return %i1, %x1, %k : tensor<i32>, tensor<16xf32>, tensor<" + m + "xi1>\n"
         "  }\n"
         "  %y = stablehlo.negate %r#1 : tensor<16xf32>\n"
         "  %f = stablehlo.convert %r#2 : (tensor<" + m + "xi1>) -> tensor<" + m + "xf32>\n"
         "  return %y, %f : tensor<16xf32>, tensor<" + m + "xf32>\n"
         "}\n";
}

// The kernels of `seq`'s steps, by their fusions' side_by_side counts.
std::vector<int> KernelsSideBySide(const GpuProgram& p, const Sequence& seq) {
  std::vector<int> counts;
  for (const Step& step : seq.steps) {
    if (const auto* k = std::get_if<KernelStep>(&step.action)) {
      counts.push_back(p.fusions[static_cast<size_t>(k->fusion)].side_by_side);
    }
  }
  return counts;
}

const WhileStep& OnlyLoop(const GpuProgram& p) {
  for (const Step& step : p.main.steps) {
    if (const auto* w = std::get_if<WhileStep>(&step.action)) return *w;
  }
  ADD_FAILURE() << "no loop";
  static const WhileStep none;
  return none;
}

TEST(GpuSideBySide, SmallIndependentLoopKernelsBecomeOne) {
  Planned p = Plan(LoopStart(false, 64));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_TRUE(g.Verify().ok()) << g.Verify().message();
  // The counter's start, the row and the mask: one kernel, each output over
  // its own shape; the loop's counter and tanh too; the two after the loop
  // write results and stay apart.
  EXPECT_EQ(KernelsSideBySide(g, g.main), (std::vector<int>{3, 1, 1})) << g.ToString();
  const Fusion& start = g.fusions[static_cast<size_t>(std::get<KernelStep>(g.main.steps[0].action).fusion)];
  ASSERT_EQ(start.output_types.size(), 3u);
  EXPECT_EQ(start.output_types[0].NumElements(), 1);
  EXPECT_EQ(start.output_types[1].NumElements(), 16);
  EXPECT_EQ(start.output_types[2].NumElements(), 64);
  EXPECT_EQ(KernelsSideBySide(g, OnlyLoop(g).body), (std::vector<int>{2})) << g.ToString();
  // Fusions are numbered again, in order, with none left unused.
  for (size_t i = 0; i < g.fusions.size(); ++i) EXPECT_EQ(g.fusions[i].name, "fusion_" + std::to_string(i));
  EXPECT_NE(g.ToString().find("fusion_0 loop"), std::string::npos);

  // In the graph, the loop's first kernel waits for that one kernel and
  // launches early behind it.
  GraphOptions options;
  options.programmatic_launch = true;
  const GraphPlan plan = BuildGraphPlan(g, options);
  ASSERT_TRUE(plan.Verify().ok()) << plan.Verify().message();
  const std::vector<GraphNode>& nodes = plan.graphs[0].nodes;
  ASSERT_GE(nodes.size(), 2u);
  EXPECT_EQ(nodes[1].deps, (std::vector<int>{0})) << plan.ToString(g);
  EXPECT_EQ(nodes[1].programmatic, (std::vector<int>{0})) << plan.ToString(g);

  const testing::ScopedEnv off("HLOGRAPH_GPU_SIDE_BY_SIDE", "0");
  Planned apart = Plan(LoopStart(false, 64));
  ASSERT_TRUE(apart.program.ok());
  EXPECT_EQ(KernelsSideBySide(*apart.program, apart.program->main), (std::vector<int>{1, 1, 1, 1, 1}));
  EXPECT_EQ(KernelsSideBySide(*apart.program, OnlyLoop(*apart.program).body), (std::vector<int>{1, 1}));
}

TEST(GpuSideBySide, KernelsThatMeetOrAreLargeStayApart) {
  // The row's kernel reads the counter's start: it waits for it. The mask
  // then joins the row.
  Planned shared = Plan(LoopStart(true, 64));
  ASSERT_TRUE(shared.program.ok()) << shared.program.status().message();
  EXPECT_EQ(KernelsSideBySide(*shared.program, shared.program->main), (std::vector<int>{1, 2, 1, 1}))
      << shared.program->ToString();
  // A mask over more than kSideBySideMaxElements positions stays alone.
  Planned large = Plan(LoopStart(false, 2 * kSideBySideMaxElements));
  ASSERT_TRUE(large.program.ok()) << large.program.status().message();
  EXPECT_EQ(KernelsSideBySide(*large.program, large.program->main), (std::vector<int>{2, 1, 1, 1}))
      << large.program->ToString();
}

TEST(GpuSideBySide, KernelsCompile) {
  ExpectEveryKernelCompiles("loop start", LoopStart(false, 64));
  ExpectEveryKernelCompiles("loop start, shared counter", LoopStart(true, 100));
}

TEST(GpuSideBySide, MatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (uint64_t seed : {1, 2}) {
    ExpectMatchesInterpreterAndRepeats("loop start", LoopStart(false, 64), seed);
    ExpectMatchesInterpreterAndRepeats("loop start, 300 positions", LoopStart(false, 300), seed);
  }
}

}  // namespace
}  // namespace hlograph::gpu

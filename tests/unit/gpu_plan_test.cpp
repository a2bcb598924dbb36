// The GPU plan without a GPU: fusion decisions, steps, the buffer plan,
// and every corpus program either planned and verified or refused with a
// message naming the op.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/planner.h"
#include "cli_util.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

int CountSteps(const Sequence& seq, bool kernels_only) {
  int n = 0;
  ForEachStep(seq, [&](const Step& s, int) {
    if (!kernels_only || std::holds_alternative<KernelStep>(s.action)) ++n;
  });
  return n;
}

// The last while loop among the program's top-level steps, or null.
const WhileStep* LastTopLevelLoop(const GpuProgram& g) {
  const WhileStep* loop = nullptr;
  for (const Step& s : g.main.steps) {
    if (const auto* ws = std::get_if<WhileStep>(&s.action)) loop = ws;
  }
  return loop;
}

TEST(GpuPlan, ElementwiseChainIsOneKernelWritingTheResult) {
  Planned p = Plan(kElementwiseChain);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.main.steps.size(), 1u) << g.ToString();
  ASSERT_EQ(g.fusions.size(), 1u);
  EXPECT_EQ(g.fusions[0].ops.size(), 4u);  // constant, multiply, add, tanh
  const auto& k = std::get<KernelStep>(g.main.steps[0].action);
  EXPECT_EQ(k.inputs, (std::vector<BufferId>{g.parameters[0], g.parameters[1]}));
  EXPECT_EQ(k.outputs, g.results);
  EXPECT_EQ(g.buffers[static_cast<size_t>(g.results[0])].kind, BufferKind::kOutput);
  EXPECT_EQ(g.arena_bytes, 0);
}

// exp(x) feeding two kernels (a reduction and the division), rows x cols.
std::string SoftmaxOfShape(int64_t rows, int64_t cols) {
  const std::string m = std::to_string(rows) + "x" + std::to_string(cols) + "xf32";
  const std::string v = std::to_string(rows) + "xf32";
  return "func.func @main(%x: tensor<" + m + ">) -> tensor<" + m + "> {\n"
         "  %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
         "  %e = stablehlo.exponential %x : tensor<" + m + ">\n"
         "  %s = stablehlo.reduce(%e init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<" + m +
         ">, tensor<f32>) -> tensor<" + v + ">\n"
         "  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<" + v + ">) -> tensor<" + m + ">\n"
         "  %r = stablehlo.divide %e, %b : tensor<" + m + ">\n"
         "  return %r : tensor<" + m + ">\n}\n";
}

TEST(GpuPlan, ExpensiveValueUsedTwiceIsRecomputedWhereThatMovesFewerBytes) {
  // 1M exponentials read by the sum and by the division: recomputed in
  // both (x read twice, 8 bytes an element) rather than stored (x read
  // once, e written and read twice: 16 bytes). Rows too few for a row
  // kernel (plan/row_fusion.h), which would compute the sum itself.
  Planned p = Plan(SoftmaxOfShape(128, 8192));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.fusions.size(), 2u) << g.ToString();
  EXPECT_EQ(g.fusions[0].kind, FusionKind::kReduction);  // exp + sum
  EXPECT_EQ(g.fusions[1].kind, FusionKind::kLoop);       // exp + broadcast + divide
}

TEST(GpuPlan, ExpensiveValueBroadcastIntoALargerLoopIsStored) {
  // Each of 1M exponentials evaluated 8 times: stored once.
  Planned p = Plan(R"(
func.func @main(%x: tensor<1024x1024xf32>, %y: tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf32> {
  %e = stablehlo.exponential %x : tensor<1024x1024xf32>
  %b = stablehlo.broadcast_in_dim %e, dims = [1, 2] : (tensor<1024x1024xf32>) -> tensor<8x1024x1024xf32>
  %r = stablehlo.add %b, %y : tensor<8x1024x1024xf32>
  return %r : tensor<8x1024x1024xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.fusions.size(), 2u) << g.ToString();
  EXPECT_EQ(g.fusions[0].output_types[0].NumElements(), 1024 * 1024);  // exp
}

TEST(GpuPlan, SmallExpensiveValueUsedTwiceIsRecomputedInBoth) {
  // 400 exponentials cost less than a kernel launch: the sum and the
  // division each compute them.
  Planned p = Plan(SoftmaxOfShape(4, 50));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.fusions.size(), 2u) << g.ToString();
  EXPECT_EQ(g.fusions[0].kind, FusionKind::kReduction);  // exp + sum
  EXPECT_EQ(g.fusions[1].kind, FusionKind::kLoop);       // exp + broadcast + divide
}

TEST(GpuPlan, BroadcastOfAnExpensiveValueIsNotRecomputedPerElement) {
  // exp of 8 elements broadcast to 8 x cols: recomputed per element while
  // that stays within the budget, else stored first.
  for (const int64_t cols : {1000, 200000}) {
    const std::string big = "tensor<8x" + std::to_string(cols) + "xf32>";
    Planned p = Plan("func.func @main(%x: tensor<8xf32>, %y: " + big + ") -> " + big + " {\n"
                     "  %e = stablehlo.exponential %x : tensor<8xf32>\n"
                     "  %b = stablehlo.broadcast_in_dim %e, dims = [0] : (tensor<8xf32>) -> " + big + "\n"
                     "  %r = stablehlo.add %b, %y : " + big + "\n"
                     "  return %r : " + big + "\n}\n");
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    EXPECT_EQ(p.program->fusions.size(), cols == 1000 ? 1u : 2u) << p.program->ToString();
  }
}

TEST(GpuPlan, TempsShareMemoryWhenTheirLivesDoNotOverlap) {
  // Four matrix products in a chain: each intermediate is dead once the
  // next is computed, so two slots suffice.
  Planned p = Plan(R"(
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.dot_general %0, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = stablehlo.dot_general %1, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = stablehlo.dot_general %2, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(p.program->arena_bytes, 2 * 64 * 64 * 4) << p.program->ToString();
  EXPECT_TRUE(p.program->Verify().ok());
}

// On sm_90 a product summing its splits in a cluster leaves its partial
// sums untouched: they take no memory (fori_tanh's 32 KB, which held its
// device memory above XLA's), and a program without one is unchanged.
TEST(GpuPlan, ClusterSummedProductsHoldNoPartialSums) {
  Planned p = Plan(BenchProgram("fori_tanh"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  GpuProgram& g = *p.program;
  std::vector<BufferId> partials;
  ForEachStep(g.main, [&](const Step& s, int) {
    const auto* k = std::get_if<KernelStep>(&s.action);
    if (k && !k->scratch.empty() && g.fusions[static_cast<size_t>(k->fusion)].tiling.cluster_sum) {
      partials.push_back(k->scratch[0]);
    }
  });
  ASSERT_FALSE(partials.empty()) << g.ToString();
  int64_t before = 0;
  for (BufferId id : partials) before += g.buffers[static_cast<size_t>(id)].bytes;
  const int64_t arena = g.arena_bytes;
  auto changed = PlanBuffersWithClusters(g);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  for (BufferId id : partials) EXPECT_EQ(g.buffers[static_cast<size_t>(id)].bytes, 0);
  EXPECT_GT(before, 0);
  EXPECT_LE(g.arena_bytes, arena - before + 256) << g.ToString();
  EXPECT_TRUE(g.Verify().ok());
  auto again = PlanBuffersWithClusters(g);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);

  Planned plain = Plan(R"(
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.tanh %0 : tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
})");
  ASSERT_TRUE(plain.program.ok());
  auto none = PlanBuffersWithClusters(*plain.program);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
}

TEST(GpuPlan, ElementwiseKernelWritesInPlaceOfAnInputThatDiesThere) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  // tanh(x @ x) @ x: the tanh kernel reads each element of the product
  // before writing the same element, and the product dies there: one slot.
  Planned p = Plan(R"(
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.tanh %0 : tensor<64x64xf32>
  %2 = stablehlo.dot_general %1, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(p.program->arena_bytes, 64 * 64 * 4) << p.program->ToString();
  EXPECT_NE(p.program->ToString().find("in place of"), std::string::npos) << p.program->ToString();
  EXPECT_TRUE(p.program->Verify().ok());

  // The product read again later, or read at other elements (transposed),
  // keeps its own memory.
  for (const char* tail : {"%1 = stablehlo.add %t, %0 : tensor<64x64xf32>\n  %2 = stablehlo.dot_general %1, %0",
                           "%r = stablehlo.transpose %0, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>\n"
                           "  %1 = stablehlo.add %t, %r : tensor<64x64xf32>\n  %2 = stablehlo.dot_general %1, %x"}) {
    Planned q = Plan(std::string(R"(
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = stablehlo.tanh %0 : tensor<64x64xf32>
  )") + tail + R"(, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
})");
    ASSERT_TRUE(q.program.ok()) << q.program.status().message();
    const auto* product = std::get_if<GemmStep>(&q.program->main.steps.front().action);
    ASSERT_NE(product, nullptr) << q.program->ToString();
    for (const Buffer& b : q.program->buffers) EXPECT_NE(b.in_place_of, product->out) << q.program->ToString();
    EXPECT_TRUE(q.program->Verify().ok());
  }
}

TEST(GpuPlan, BodiesReadingOutsideConstantsGetTheirOwnCopies) {
  // What jax.export serializes: the comparator's constants hoisted out.
  Planned p = Plan(R"(
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %b : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare LT, %2, %4, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %5 : tensor<i1>
  }) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_TRUE(p.program->Verify().ok());
  bool sorted = false;
  for (const Fusion& f : p.program->fusions) sorted |= f.kind == FusionKind::kSort;
  EXPECT_TRUE(sorted) << p.program->ToString();
}

TEST(GpuPlan, DotOperandsInOtherLayoutsAreTransposedFirst) {
  // Contracting over lhs dim 0 is a transposed GEMM operand; a batch dim
  // that is not leading needs a transpose kernel. (Products this small
  // would otherwise be generated kernels.)
  const testing::ScopedEnv cublas_only("HLOGRAPH_GPU_GENERATED_DOT", "0");
  Planned p = Plan(R"(
func.func @main(%a: tensor<16x8xf32>, %b: tensor<16x4xf32>, %c: tensor<3x5x7xf32>, %d: tensor<5x3x7xf32>) -> (tensor<8x4xf32>, tensor<5x3x3xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [1] x [0], contracting_dims = [2] x [2] : (tensor<3x5x7xf32>, tensor<5x3x7xf32>) -> tensor<5x3x3xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<5x3x3xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  std::vector<const GemmStep*> gemms;
  ForEachStep(g.main, [&](const Step& s, int) {
    if (const auto* gs = std::get_if<GemmStep>(&s.action)) gemms.push_back(gs);
  });
  ASSERT_EQ(gemms.size(), 2u);
  EXPECT_TRUE(gemms[0]->config.lhs_transposed);
  EXPECT_FALSE(gemms[0]->config.rhs_transposed);
  EXPECT_EQ(gemms[0]->config.m, 8);
  EXPECT_EQ(gemms[0]->config.k, 16);
  EXPECT_EQ(gemms[1]->config.batch, 5);
  EXPECT_TRUE(gemms[1]->config.rhs_transposed);  // [5][3][7] is [batch][n][k]
  ASSERT_EQ(g.fusions.size(), 1u);
  EXPECT_EQ(g.fusions[0].kind, FusionKind::kTranspose);
  EXPECT_EQ(g.fusions[0].permutation, (std::vector<int64_t>{1, 0, 2}));
}

TEST(GpuPlan, ValuesReadInsideALoopLiveUntilItEnds) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<256xf32>, %n: tensor<i32>) -> tensor<256xf32> {
  %w = stablehlo.exponential %x : tensor<256xf32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<256xf32>
   cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %a1 = stablehlo.multiply %acc, %w : tensor<256xf32>
    stablehlo.return %i1, %a1 : tensor<i32>, tensor<256xf32>
  }
  return %r#1 : tensor<256xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_TRUE(g.Verify().ok());
  // exp(x) is computed before the loop (materialised: the loop's body reads
  // it) and must stay live through the loop's last step.
  const auto& first = std::get<KernelStep>(g.main.steps[0].action);
  const Buffer& w = g.buffers[static_cast<size_t>(first.outputs[0])];
  int loop_end = -1;
  for (const Buffer& b : g.buffers) loop_end = std::max(loop_end, b.last_use);
  EXPECT_EQ(w.last_use, loop_end) << g.ToString();
  const WhileStep* loop = LastTopLevelLoop(g);
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->state.size(), 2u);
  // The counter's add and the product each write the next value into the
  // state (each reads it only at the element it writes): two kernels and
  // no copy an iteration.
  EXPECT_EQ(CountSteps(loop->body, true), 2);
  EXPECT_EQ(CountSteps(loop->body, false), 2);
  EXPECT_EQ(loop->next, loop->state);
}

TEST(GpuPlan, ALoopValueReadAfterItsNextIsComputedIsCopied) {
  // acc * 2 is the next acc, but the counter's next value reads acc after
  // it: acc cannot be overwritten in place.
  Planned p = Plan(R"(
func.func @main(%x: tensor<256xf32>, %n: tensor<i32>) -> tensor<256xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<256xf32>
   cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2.0> : tensor<256xf32>
    %a1 = stablehlo.multiply %acc, %two : tensor<256xf32>
    %s = stablehlo.slice %acc [7:8] : (tensor<256xf32>) -> tensor<1xf32>
    %f = stablehlo.reshape %s : (tensor<1xf32>) -> tensor<f32>
    %k = stablehlo.convert %f : (tensor<f32>) -> tensor<i32>
    %i1 = stablehlo.add %i, %k : tensor<i32>
    stablehlo.return %i1, %a1 : tensor<i32>, tensor<256xf32>
  }
  return %r#1 : tensor<256xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const WhileStep* loop = LastTopLevelLoop(*p.program);
  ASSERT_NE(loop, nullptr);
  // The counter's kernel reads acc after acc's next value is computed:
  // that value gets a buffer of its own (copied in after the body); the
  // counter, read only at its element, is written in place.
  EXPECT_NE(loop->next[1], loop->state[1]) << p.program->ToString();
  EXPECT_EQ(loop->next[0], loop->state[0]) << p.program->ToString();
}

TEST(GpuPlan, LoopThatSwapsItsStateCopiesAside) {
  Planned p = Plan(R"(
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %zero, %x = %a, %y = %b) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
   cond {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %c = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %y, %x : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const WhileStep* loop = LastTopLevelLoop(*p.program);
  ASSERT_NE(loop, nullptr);
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(std::count(loop->state.begin(), loop->state.end(), loop->next[i]), 0) << p.program->ToString();
  }
}

// The zeros a scan's stacked output starts from are computed straight
// into the loop's state (no temp, no copy), unless something else reads
// them too.
TEST(GpuPlan, ALoopsOwnInitialValueIsComputedInItsState) {
  // Two iterations write two of the stack's three rows: the third keeps
  // the initial value (ScanOutputsOverwrittenInFullStartFromNothing has
  // three of three).
  const auto program = [](const std::string& extra_result) {
    return R"(
func.func @main(%a: tensor<4xf32>) -> (tensor<3x4xf32>)" + std::string(extra_result.empty() ? "" : ", tensor<3x4xf32>") + R"() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %stack = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
  %r:3 = stablehlo.while(%i = %zero, %x = %a, %s = %stack) : tensor<i32>, tensor<4xf32>, tensor<3x4xf32>
   cond {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %c = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %x1 = stablehlo.add %x, %x : tensor<4xf32>
    %row = stablehlo.reshape %x1 : (tensor<4xf32>) -> tensor<1x4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %s1 = stablehlo.dynamic_update_slice %s, %row, %i, %c0 : (tensor<3x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %x1, %s1 : tensor<i32>, tensor<4xf32>, tensor<3x4xf32>
  }
  return %r#2)" + extra_result + R"(
})";
  };
  for (const std::string extra : {"", ", %stack : tensor<3x4xf32>, tensor<3x4xf32>"}) {
    std::string text = program(extra);
    if (extra.empty()) text.insert(text.rfind("\n}"), " : tensor<3x4xf32>");
    Planned p = Plan(text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message() << "\n" << text;
    const WhileStep* loop = nullptr;
    int stack_copies = 0;
    bool kernel_writes_state = false;
    for (const Step& s : p.program->main.steps) {
      if (const auto* ws = std::get_if<WhileStep>(&s.action)) loop = ws;
      if (const auto* c = std::get_if<CopyStep>(&s.action)) stack_copies += c->bytes == 3 * 4 * 4;
    }
    ASSERT_NE(loop, nullptr);
    for (const Step& s : p.program->main.steps) {
      if (const auto* k = std::get_if<KernelStep>(&s.action)) kernel_writes_state |= k->outputs[0] == loop->state[2];
    }
    const bool only_the_loop_reads_it = extra.empty();
    EXPECT_EQ(kernel_writes_state, only_the_loop_reads_it) << p.program->ToString();
    EXPECT_EQ(stack_copies, only_the_loop_reads_it ? 0 : 1) << p.program->ToString();
  }
}

// jaxlib's LAPACK calls run on the host: a step that names its target, with
// the op's operands and results as buffers.
TEST(GpuPlan, LapackCallsRunOnTheHost) {
  auto modules = testing::ParseOrDie(testing::ReadFile(testing::Corpus("cholesky_solve_triangular.mlir")));
  auto program = PlanProgram(*modules[0]);
  ASSERT_TRUE(program.ok()) << program.status().message();
  int host = 0;
  ForEachStep(program->main, [&](const Step& s, int) {
    const auto* h = std::get_if<HostStep>(&s.action);
    if (!h) return;
    ++host;
    EXPECT_EQ(h->inputs.size(), s.op->num_operands());
    EXPECT_EQ(h->outputs.size(), s.op->num_results());
  });
  EXPECT_EQ(host, 3);  // potrf and two trsm
  EXPECT_TRUE(testing::HasSubstr(program->ToString(), "host @lapack_spotrf_ffi"));
}

TEST(GpuPlan, UnsupportedOpsAreNamedWithTheirPosition) {
  Planned p = Plan(R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  ASSERT_FALSE(p.program.ok());
  EXPECT_TRUE(testing::HasSubstr(p.program.status().message(), "<test>:2:"));
  EXPECT_TRUE(testing::HasSubstr(p.program.status().message(), "'stablehlo.custom_call' op calls @my_target, which is not supported"));
}

TEST(GpuPlan, ExplainCommandPrintsThePlan) {
  testing::CliResult r = testing::Hlograph("explain " + testing::Quote(testing::Corpus("softmax.mlir")) + " --kernels");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"buffers (", "kernels (", "steps:", "kernel fusion_0 (reduction)", "extern \"C\" __global__",
                           "step floors (per run, at the limits of the NVIDIA H200", "fusion_0 (reduction: "}) {
    EXPECT_TRUE(testing::HasSubstr(r.out, part));
  }
  testing::CliResult conv = testing::Hlograph("explain " + testing::Quote(testing::Corpus("conv2d_nhwc_strided.mlir")) + " --kernels");
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  EXPECT_TRUE(testing::HasSubstr(conv.out, "cudnn conv forward f32 x 2x3x16x16 NHWC")) << conv.out;
  testing::CliResult transposed = testing::Hlograph("explain " + testing::Quote(testing::Corpus("conv2d_transpose.mlir")) + " --kernels");
  ASSERT_EQ(transposed.exit_code, 0) << transposed.err;
  // lax.conv_transpose: backward data over the kernel reversed as it is packed.
  EXPECT_TRUE(testing::HasSubstr(transposed.out, "reversing [1, 2]")) << transposed.out;
  EXPECT_TRUE(testing::HasSubstr(transposed.out, "cudnn conv backward data f32")) << transposed.out;
  const std::string unknown = testing::WriteScratch("unknown_call.mlir", R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  testing::CliResult bad = testing::Hlograph("explain " + testing::Quote(unknown));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(testing::HasSubstr(bad.err, "'stablehlo.custom_call' op calls @my_target, which is not supported"));
}

// Every corpus program: planned and verified, with every kernel emitted, or
// refused with a message naming an op. The count is printed.
TEST(GpuPlan, CorpusProgramsPlanOrNameWhatIsMissing) {
  int planned = 0, refused = 0;
  std::map<std::string, int> missing;
  for (const std::string& path : testing::MlirFiles(testing::SourceDir() + "/tests/corpus")) {
    if (path.find("/debug/") != std::string::npos) continue;
    auto parsed = frontend::ParseFile(path);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    for (const auto& module : parsed->modules) {
      auto program = PlanProgram(*module);
      if (!program.ok()) {
        ++refused;
        const std::string& m = program.status().message();
        EXPECT_TRUE(m.find("error: '") != std::string::npos || m.find("GPU backend") != std::string::npos)
            << path << ": " << m;
        const size_t q = m.find("error: '");
        missing[q == std::string::npos ? m.substr(0, 60) : m.substr(q + 8, m.find('\'', q + 8) - q - 8)]++;
        continue;
      }
      ++planned;
      EXPECT_TRUE(program->Verify().ok()) << path;
      for (const Fusion& f : program->fusions) {
        auto k = EmitKernel(f);
        EXPECT_TRUE(k.ok()) << path << ": " << k.status().message();
      }
    }
  }
  std::string summary;
  for (const auto& [op, n] : missing) summary += " " + op + " x" + std::to_string(n);
  std::cout << "GPU plan: " << planned << " corpus programs planned, " << refused << " refused:" << summary << "\n";
  EXPECT_GT(planned, 60);
}

// Complex numbers, FFTs and f8 types plan: no program of these is refused.
TEST(GpuPlan, ComplexFftAndF8ProgramsPlan) {
  for (const char* name : {"complex64_ops", "complex128_ops", "fft_ifft", "rfft_irfft", "fft2_real_input",
                           "rfft2_roundtrip", "splat_and_special_constants", "convert_chain"}) {
    auto parsed = frontend::ParseFile(testing::SourceDir() + "/tests/corpus/" + name + ".mlir");
    ASSERT_TRUE(parsed.ok()) << name;
    for (const auto& module : parsed->modules) {
      auto program = PlanProgram(*module);
      ASSERT_TRUE(program.ok()) << name << ": " << program.status().message();
      for (const Fusion& f : program->fusions) {
        auto k = EmitKernel(f);
        EXPECT_TRUE(k.ok()) << name << ": " << k.status().message();
      }
    }
  }
}

// An FFT is one kernel that reads its operand's producers inline.
TEST(GpuPlan, FftFusesItsProducers) {
  Planned p = Plan(R"(func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>> {
  %0 = stablehlo.convert %x : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
  %1 = stablehlo.fft %0, type = FFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  return %1 : tensor<4x8xcomplex<f32>>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 1u);
  const Fusion& f = p.program->fusions[0];
  EXPECT_EQ(f.kind, FusionKind::kFft);
  EXPECT_EQ(f.ops.size(), 2u);  // the convert and the fft
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "sincospi"));
  auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
  EXPECT_TRUE(cubin.ok()) << cubin.status().message();
}

// Every FFT type compiles as a direct DFT (pinned: the longest would go
// to cuFFT): 3-D, f64, and lengths too long for the tables of unit roots
// (computed per term instead).
TEST(GpuPlan, FftKernelsCompile) {
  const testing::ScopedEnv direct("HLOGRAPH_GPU_FFT", "direct");
  Planned p = Plan(R"(func.func @main(%x: tensor<2x3x4x5xcomplex<f64>>, %y: tensor<2x3x4x8xf64>,
                      %z: tensor<2x4096xcomplex<f32>>) ->
    (tensor<2x3x4x8xf64>, tensor<2x3x4x5xcomplex<f64>>, tensor<2x4096xcomplex<f32>>) {
  %0 = stablehlo.fft %x, type = IRFFT, length = [3, 4, 8] : (tensor<2x3x4x5xcomplex<f64>>) -> tensor<2x3x4x8xf64>
  %1 = stablehlo.fft %y, type = RFFT, length = [3, 4, 8] : (tensor<2x3x4x8xf64>) -> tensor<2x3x4x5xcomplex<f64>>
  %2 = stablehlo.fft %z, type = IFFT, length = [4096] : (tensor<2x4096xcomplex<f32>>) -> tensor<2x4096xcomplex<f32>>
  return %0, %1, %2 : tensor<2x3x4x8xf64>, tensor<2x3x4x5xcomplex<f64>>, tensor<2x4096xcomplex<f32>>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 3u);
  for (const Fusion& f : p.program->fusions) {
    auto k = EmitKernel(f);
    ASSERT_TRUE(k.ok()) << k.status().message();
    EXPECT_EQ(k->strategy.find("root tables") != std::string::npos, f.output_types[0].dim(1) != 4096) << k->strategy;
    auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
    EXPECT_TRUE(cubin.ok()) << cubin.status().message();
  }
}

// The generated kernels compile (NVRTC needs no GPU). A sample of the
// corpus covering each kernel kind; HLOGRAPH_ALL_CORPUS=1 compiles them all.
TEST(GpuPlan, GeneratedKernelsCompile) {
  std::vector<std::string> names = {"softmax", "mlp_grad", "layer_norm", "while_loop_newton_sqrt", "take_along_axis",
                                    "cumulative_ops", "int8_uint8_ops", "mlp_bf16_mixed_precision", "transcendental_functions",
                                    "integer_bitwise", "max_pool2d", "avg_pool2d_padded", "argmax_argmin", "bf16_ops", "sort_multi_operand",
                                    "argsort_axis0_descending", "composite_gelu", "scatter_add_duplicates",
                                    "vmap_scatter_add", "segment_sum_and_max", "conv2d_nhwc_strided",
                                    "conv2d_grouped_weight_grad", "complex64_ops", "complex128_ops",
                                    "fft_ifft", "rfft_irfft", "fft2_real_input", "rfft2_roundtrip",
                                    "splat_and_special_constants", "convert_chain", "top_k", "random_rbg",
                                    "random_unsafe_rbg", "max_pool2d_grad", "reduce_window_variadic_argmax",
                                    "bitcast_convert"};
  std::vector<std::string> paths;
  if (std::getenv("HLOGRAPH_ALL_CORPUS")) {
    paths = testing::MlirFiles(testing::SourceDir() + "/tests/corpus");
  } else {
    for (const auto& n : names) paths.push_back(testing::SourceDir() + "/tests/corpus/" + n + ".mlir");
  }
  int compiled = 0;
  for (const std::string& path : paths) {
    if (path.find("/debug/") != std::string::npos || !std::filesystem::exists(path)) continue;
    auto parsed = frontend::ParseFile(path);
    ASSERT_TRUE(parsed.ok()) << path;
    for (const auto& module : parsed->modules) {
      auto program = PlanProgram(*module);
      if (!program.ok()) continue;
      for (const Fusion& f : program->fusions) {
        auto k = EmitKernel(f);
        ASSERT_TRUE(k.ok()) << path << ": " << k.status().message();
        auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
        EXPECT_TRUE(cubin.ok()) << path << ": " << cubin.status().message();
        ++compiled;
      }
    }
  }
  std::cout << compiled << " kernels compiled\n";
  EXPECT_GT(compiled, 20);
}


// A product read only through a transpose of its free dims (a weight
// gradient as JAX writes it): one GEMM with the operands' roles swapped,
// writing the transposed result; no transpose kernel.
constexpr const char* kTransposedProduct = R"(
func.func @main(%g: tensor<3x64x96xf32>, %x: tensor<3x64x32xf32>) -> tensor<3x32x96xf32> {
  %d = stablehlo.dot_general %g, %x, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [HIGHEST, HIGHEST] : (tensor<3x64x96xf32>, tensor<3x64x32xf32>) -> tensor<3x96x32xf32>
  %t = stablehlo.transpose %d, dims = [0, 2, 1] : (tensor<3x96x32xf32>) -> tensor<3x32x96xf32>
  return %t : tensor<3x32x96xf32>
})";

TEST(GpuPlan, ProductReadTransposedIsComputedTransposed) {
  Planned p = Plan(kTransposedProduct);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->main.steps.size(), 1u) << p.program->ToString();
  const auto* g = std::get_if<GemmStep>(&p.program->main.steps[0].action);
  ASSERT_NE(g, nullptr);
  // C^T = x^T g: x [k=64][m=32] transposed, g [k=64][n=96] as it is.
  EXPECT_EQ(g->config.m, 32);
  EXPECT_EQ(g->config.n, 96);
  EXPECT_EQ(g->config.k, 64);
  EXPECT_TRUE(g->config.lhs_transposed);
  EXPECT_FALSE(g->config.rhs_transposed);
  EXPECT_EQ(g->lhs, p.program->parameters[1]);
  EXPECT_EQ(g->rhs, p.program->parameters[0]);
}

TEST(GpuPlan, ProductReadTransposedMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExpectMatchesInterpreterAndRepeats("transposed product", kTransposedProduct, 3);
}


// Integer and 8-bit products: i8 x i8 -> i32 and f8 on cuBLASLt's 8-bit
// tensor cores (both operands read along k: an rhs laid out [k][n] is
// transposed first), and what cuBLASLt does not take (an i32 product that
// wraps, i8 off its alignment) as generated kernels; an f8 product scaled
// by its operands' per-tensor scales and converted to bf16 in one GEMM.
// Operands are shifted by -4 so that signs matter (random integers are in
// [0, 8)), and the i32 one is scaled so that its sums overflow.
constexpr const char* kIntegerAndEightBitProducts = R"(
func.func @main(%a: tensor<32x64xi8>, %b: tensor<64x48xi8>, %c: tensor<16x32xf8E4M3FN>, %d: tensor<32x32xf8E5M2>,
                %e: tensor<2x5x7xi32>, %f: tensor<2x7x3xi32>, %g: tensor<6x10xi8>, %h: tensor<10x6xi8>,
                %sa: tensor<f32>, %sb: tensor<f32>)
    -> (tensor<32x48xi32>, tensor<16x32xbf16>, tensor<2x5x3xi32>, tensor<6x6xi32>, tensor<16x32xbf16>) {
  %four = stablehlo.constant dense<4> : tensor<i8>
  %f4a = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<i8>) -> tensor<32x64xi8>
  %f4b = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<i8>) -> tensor<64x48xi8>
  %as = stablehlo.subtract %a, %f4a : tensor<32x64xi8>
  %bs = stablehlo.subtract %b, %f4b : tensor<64x48xi8>
  %0 = stablehlo.dot_general %as, %bs, contracting_dims = [1] x [0] : (tensor<32x64xi8>, tensor<64x48xi8>) -> tensor<32x48xi32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [1] : (tensor<16x32xf8E4M3FN>, tensor<32x32xf8E5M2>) -> tensor<16x32xbf16>
  %big = stablehlo.constant dense<536870911> : tensor<2x5x7xi32>
  %es = stablehlo.multiply %e, %big : tensor<2x5x7xi32>
  %2 = stablehlo.dot_general %es, %f, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x5x7xi32>, tensor<2x7x3xi32>) -> tensor<2x5x3xi32>
  %f4g = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<i8>) -> tensor<6x10xi8>
  %gs = stablehlo.subtract %g, %f4g : tensor<6x10xi8>
  %3 = stablehlo.dot_general %gs, %h, contracting_dims = [1] x [0] : (tensor<6x10xi8>, tensor<10x6xi8>) -> tensor<6x6xi32>
  %p = stablehlo.dot_general %c, %d, contracting_dims = [1] x [1] : (tensor<16x32xf8E4M3FN>, tensor<32x32xf8E5M2>) -> tensor<16x32xf32>
  %s = stablehlo.multiply %sa, %sb : tensor<f32>
  %sx = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
  %ps = stablehlo.multiply %p, %sx : tensor<16x32xf32>
  %4 = stablehlo.convert %ps : (tensor<16x32xf32>) -> tensor<16x32xbf16>
  return %0, %1, %2, %3, %4 : tensor<32x48xi32>, tensor<16x32xbf16>, tensor<2x5x3xi32>, tensor<6x6xi32>, tensor<16x32xbf16>
})";

TEST(GpuPlan, IntegerAndEightBitProductsPickTheirKernels) {
  Planned p = Plan(kIntegerAndEightBitProducts);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  std::vector<const GemmStep*> gemms;
  int transposes = 0, direct = 0;
  ForEachStep(p.program->main, [&](const Step& s, int) {
    if (const auto* g = std::get_if<GemmStep>(&s.action)) gemms.push_back(g);
    if (const auto* k = std::get_if<KernelStep>(&s.action)) {
      const FusionKind kind = p.program->fusions[static_cast<size_t>(k->fusion)].kind;
      transposes += kind == FusionKind::kTranspose;
      direct += kind == FusionKind::kDirectDot;
    }
  });
  ASSERT_EQ(gemms.size(), 3u) << p.program->ToString();
  EXPECT_EQ(gemms[0]->config.ToString(), "gemm i8xi8->i32 batch 1 m 32 n 48 k 64 lhs N rhs T");
  EXPECT_EQ(gemms[1]->config.ToString(), "gemm f8E4M3FNxf8E5M2->bf16 batch 1 m 16 n 32 k 32 lhs N rhs T fast-accumulation");
  // The per-tensor scales' product is the GEMM's scale, the convert its
  // result type: no kernel after it.
  EXPECT_EQ(gemms[2]->config.ToString(),
            "gemm f8E4M3FNxf8E5M2->bf16 batch 1 m 16 n 32 k 32 lhs N rhs T *scale fast-accumulation");
  EXPECT_GE(gemms[2]->bias, 0);
  EXPECT_EQ(transposes, 1);  // b, read along n, into [n][k]
  EXPECT_EQ(direct, 2);      // the wrapping i32 product and the unaligned i8 one
  const std::string text = p.program->ToString();
  EXPECT_NE(text.find("not cuBLASLt: multiplies tensor<2x5x7xi32>"), std::string::npos) << text;
}

TEST(GpuPlan, IntegerAndEightBitProductKernelsCompile) {
  ExpectEveryKernelCompiles("integer and 8-bit products", kIntegerAndEightBitProducts);
}

TEST(GpuPlan, IntegerAndEightBitProductsMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (uint64_t seed : {1, 2}) {
    ExpectMatchesInterpreterAndRepeats("integer and 8-bit products", kIntegerAndEightBitProducts, seed);
  }
}


// GEMM operands permuted by tiled transposes: a lhs [k][batch][m] whose
// contiguous dim (m = 50) becomes the middle one and whose k (37) becomes
// contiguous, both off the 32-element tiles, 3 batches; an f16 rhs
// [batch][n][k] read as [batch][k][n] by its 8-bit-free GEMM as it is.
constexpr const char* kTiledTransposes = R"(
func.func @main(%x: tensor<37x3x50xf32>, %w: tensor<3x37x45xf32>, %y: tensor<3x70x40xf16>, %v: tensor<3x70x33xf16>) -> (tensor<3x50x45xf32>, tensor<3x40x33xf16>) {
  %0 = stablehlo.dot_general %x, %w, batching_dims = [1] x [0], contracting_dims = [0] x [1], precision = [HIGHEST, HIGHEST] : (tensor<37x3x50xf32>, tensor<3x37x45xf32>) -> tensor<3x50x45xf32>
  %1 = stablehlo.dot_general %y, %v, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<3x70x40xf16>, tensor<3x70x33xf16>) -> tensor<3x40x33xf16>
  return %0, %1 : tensor<3x50x45xf32>, tensor<3x40x33xf16>
})";

TEST(GpuPlan, TransposesOfTheContiguousDimGoThroughTiles) {
  const testing::ScopedEnv cublas_only("HLOGRAPH_GPU_GENERATED_DOT", "0");
  Planned p = Plan(kTiledTransposes);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  int tiled = 0;
  for (const Fusion& f : p.program->fusions) {
    if (f.kind != FusionKind::kTranspose) continue;
    auto k = EmitKernel(f);
    ASSERT_TRUE(k.ok()) << k.status().message();
    tiled += k->strategy.find("tiles") != std::string::npos;
    auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
    EXPECT_TRUE(cubin.ok()) << cubin.status().message();
  }
  EXPECT_EQ(tiled, 1) << p.program->ToString();  // x; y is read transposed by the GEMM
}

TEST(GpuPlan, TiledTransposesMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv cublas_only("HLOGRAPH_GPU_GENERATED_DOT", "0");
  ExpectMatchesInterpreterAndRepeats("tiled transposes", kTiledTransposes, 5);
}


// The program's own transposes (attention's output back to [b, t, h, d];
// a grouped-query one in two transposes, reshaped after): transpose
// kernels, tiled.
constexpr const char* kProgramTransposes = R"(
func.func @main(%x: tensor<2x3x40x70xf32>, %y: tensor<1x4x48x3x36xbf16>) -> (tensor<2x70x3x40xf32>, tensor<1x36x4x144xbf16>) {
  %t = stablehlo.transpose %x, dims = [0, 3, 1, 2] : (tensor<2x3x40x70xf32>) -> tensor<2x70x3x40xf32>
  %u0 = stablehlo.transpose %y, dims = [2, 0, 1, 4, 3] : (tensor<1x4x48x3x36xbf16>) -> tensor<48x1x4x36x3xbf16>
  %u = stablehlo.transpose %u0, dims = [1, 3, 2, 4, 0] : (tensor<48x1x4x36x3xbf16>) -> tensor<1x36x4x3x48xbf16>
  %r = stablehlo.reshape %u : (tensor<1x36x4x3x48xbf16>) -> tensor<1x36x4x144xbf16>
  return %t, %r : tensor<2x70x3x40xf32>, tensor<1x36x4x144xbf16>
})";

TEST(GpuPlan, AProgramsTransposeIsATiledTransposeKernel) {
  Planned p = Plan(kProgramTransposes);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 2u) << p.program->ToString();
  for (const Fusion& f : p.program->fusions) {
    EXPECT_EQ(f.kind, FusionKind::kTranspose) << p.program->ToString();
    auto k = EmitKernel(f);
    ASSERT_TRUE(k.ok()) << k.status().message();
    EXPECT_TRUE(testing::HasSubstr(k->strategy, "tiles")) << k->strategy;
    auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
    EXPECT_TRUE(cubin.ok()) << cubin.status().message();
  }
  EXPECT_EQ(p.program->fusions[1].permutation, (std::vector<int64_t>{0, 4, 1, 3, 2}));  // the two composed
  // A transpose with other work stays a loop kernel.
  std::string negated = kProgramTransposes;
  const std::string ret = "return %t, %r";
  negated.replace(negated.find(ret), ret.size(),
                  "%n = stablehlo.negate %t : tensor<2x70x3x40xf32>\n  return %n, %r");
  Planned q = Plan(negated);
  ASSERT_TRUE(q.program.ok()) << q.program.status().message();
  int loops = 0, transposes = 0;
  for (const Fusion& f : q.program->fusions) {
    loops += f.kind == FusionKind::kLoop;
    transposes += f.kind == FusionKind::kTranspose;
  }
  EXPECT_EQ(loops, 1) << q.program->ToString();
  EXPECT_EQ(transposes, 1) << q.program->ToString();
}

TEST(GpuPlan, AProgramsTransposesMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExpectMatchesInterpreterAndRepeats("program transposes", kProgramTransposes, 9);
}

// Outer products (a contraction of one element, or none) as a vmapped
// per-example gradient makes them: no library product writes them whole;
// the reductions reading them compute each element themselves.
constexpr const char* kOuterProducts = R"(
func.func @main(%a: tensor<3x5xf32>, %b: tensor<3x7xf32>, %c: tensor<4x1xbf16>, %d: tensor<1x6xbf16>) -> (tensor<3xf32>, tensor<5x7xf32>, tensor<4x6xf32>) {
  %o = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [] x [] : (tensor<3x5xf32>, tensor<3x7xf32>) -> tensor<3x5x7xf32>
  %sq = stablehlo.multiply %o, %o : tensor<3x5x7xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<3x5x7xf32>, tensor<f32>) -> tensor<3xf32>
  %m = stablehlo.reduce(%o init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3x5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %p = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<4x1xbf16>, tensor<1x6xbf16>) -> tensor<4x6xf32>
  return %s, %m, %p : tensor<3xf32>, tensor<5x7xf32>, tensor<4x6xf32>
})";

TEST(GpuPlan, OuterProductsAreComputedWhereTheyAreRead) {
  // As written (the sums below would otherwise become products: the next test).
  const testing::ScopedEnv as_written("HLOGRAPH_GPU_OUTER_PRODUCT_SUMS", "0");
  Planned p = Plan(kOuterProducts);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(GemmSteps(*p.program), 0) << p.program->ToString();
  // The two reductions and the bf16 product's own loop kernel.
  ASSERT_EQ(p.program->fusions.size(), 3u) << p.program->ToString();
  EXPECT_EQ(p.program->fusions[0].kind, FusionKind::kReduction);
  EXPECT_EQ(p.program->fusions[1].kind, FusionKind::kReduction);
  EXPECT_EQ(p.program->fusions[2].kind, FusionKind::kLoop);
  for (const Fusion& f : p.program->fusions) {
    auto k = EmitKernel(f);
    ASSERT_TRUE(k.ok()) << k.status().message();
    auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
    EXPECT_TRUE(cubin.ok()) << cubin.status().message();
  }
  // A contraction of more than one element stays a product.
  std::string two = kOuterProducts;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"4x1xbf16", "4x2xbf16"}, {"1x6xbf16", "2x6xbf16"}}) {
    for (size_t at = two.find(from); at != std::string::npos; at = two.find(from, at + 1)) two.replace(at, from.size(), to);
  }
  Planned q = Plan(two);
  ASSERT_TRUE(q.program.ok()) << q.program.status().message();
  EXPECT_EQ(q.program->fusions.size(), 3u) << q.program->ToString();
  EXPECT_NE(q.program->fusions[2].kind, FusionKind::kLoop) << q.program->ToString();
}

// By default the sums of those outer products are products
// (passes/sums_of_outer_products.h): the sum over the batch one GEMM, the
// per-example sums of squares two reductions of the factors; nothing
// computes an outer product.
TEST(GpuPlan, SumsOfOuterProductsAreProducts) {
  Planned p = Plan(kOuterProducts);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // One product (here of 5 rows: generated), the squares reduced per factor.
  EXPECT_EQ(GemmSteps(*p.program) + OfKind(*p.program, FusionKind::kDot).size(), 1u) << p.program->ToString();
  EXPECT_EQ(OfKind(*p.program, FusionKind::kReduction).size(), 2u) << p.program->ToString();
  for (const Fusion& f : p.program->fusions) {
    for (const ir::Operation* op : f.ops) {
      if (op->name() != "stablehlo.dot_general") continue;
      EXPECT_TRUE(op->attr("dot_dimension_numbers").as<ir::DotDimsAttr>()->lhs_batching.empty())
          << p.program->ToString();
    }
  }
}

TEST(GpuPlan, OuterProductsMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExpectMatchesInterpreterAndRepeats("outer products", kOuterProducts, 12);
  const testing::ScopedEnv as_written("HLOGRAPH_GPU_OUTER_PRODUCT_SUMS", "0");
  ExpectMatchesInterpreterAndRepeats("outer products as written", kOuterProducts, 13);
}

// x.sum(0) and x.mean((0, 2)) as reduce_every_axis writes them: the second
// sum reduces the first one's [24, 40] result, so x is read by one kernel
// (passes/reuse_finer_reductions.h).
constexpr const char* kNestedSums = R"(
func.func @main(%x: tensor<16x24x40xf32>) -> (tensor<24x40xf32>, tensor<24xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16x24x40xf32>, tensor<f32>) -> tensor<24x40xf32>
  %s02 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 2] : (tensor<16x24x40xf32>, tensor<f32>) -> tensor<24xf32>
  %n = stablehlo.constant dense<640.0> : tensor<24xf32>
  %mean = stablehlo.divide %s02, %n : tensor<24xf32>
  return %s0, %mean : tensor<24x40xf32>, tensor<24xf32>
})";

TEST(GpuPlan, ACoarserSumReadsTheFinerOnesResult) {
  Planned p = Plan(kNestedSums);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  int reading_x = 0;
  ForEachStep(p.program->main, [&](const Step& s, int) {
    const std::vector<BufferId> reads = StepReads(s);
    reading_x += std::count(reads.begin(), reads.end(), p.program->parameters[0]) > 0;
  });
  EXPECT_EQ(reading_x, 1) << p.program->ToString();
}

TEST(GpuPlan, ACoarserSumOfTheFinerOneMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExpectMatchesInterpreterAndRepeats("nested sums", kNestedSums, 11);
}

}  // namespace
}  // namespace hlograph::gpu

// Products of a few rows as generated kernels (plan/generated_dot.h): which
// products take them, what they fuse, how they tile, and (on a GPU) that
// they match the interpreter, repeat bit for bit, and agree between graph
// and stream mode.
#include <gtest/gtest.h>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Case {
  const char* name;
  const char* text;
  DotTiling::Lanes lanes;
  bool split;  // the contraction split over blocks
  const char* prologue_reduce = nullptr;  // HLOGRAPH_GPU_PROLOGUE_REDUCE while it is planned (else unset)
};


const Case kCases[] = {
    {"bias_relu_epilogue", R"(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x96xf32>, %b: tensor<96xf32>) -> tensor<8x96xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x96xf32>) -> tensor<8x96xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<96xf32>) -> tensor<8x96xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x96xf32>
  %z = stablehlo.constant dense<0.0> : tensor<8x96xf32>
  %3 = stablehlo.maximum %2, %z : tensor<8x96xf32>
  return %3 : tensor<8x96xf32>
})", DotTiling::Lanes::kOverN, false},
    {"gemv_split_ragged_columns", R"(
func.func @main(%x: tensor<1x1000xf32>, %w: tensor<1000x200xf32>) -> tensor<1x200xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x1000xf32>, tensor<1000x200xf32>) -> tensor<1x200xf32>
  return %0 : tensor<1x200xf32>
})", DotTiling::Lanes::kOverN, true},
    {"attention_scores_lanes_over_k", R"(
func.func @main(%q: tensor<6x40xf32>, %k: tensor<300x6x40xf32>) -> tensor<6x300xf32> {
  %0 = stablehlo.dot_general %q, %k, batching_dims = [0] x [1], contracting_dims = [1] x [2] : (tensor<6x40xf32>, tensor<300x6x40xf32>) -> tensor<6x300xf32>
  %c = stablehlo.constant dense<0.125> : tensor<6x300xf32>
  %1 = stablehlo.multiply %0, %c : tensor<6x300xf32>
  return %1 : tensor<6x300xf32>
})", DotTiling::Lanes::kOverK, false},
    {"attention_values_batched_split", R"(
func.func @main(%a: tensor<6x1100xf32>, %v: tensor<1100x6x40xf32>) -> tensor<6x40xf32> {
  %0 = stablehlo.dot_general %a, %v, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<6x1100xf32>, tensor<1100x6x40xf32>) -> tensor<6x40xf32>
  return %0 : tensor<6x40xf32>
})", DotTiling::Lanes::kOverN, true},
    {"bf16_to_f32_gelu_like", R"(
func.func @main(%x: tensor<4x1536xbf16>, %w: tensor<1536x160xbf16>, %r: tensor<4x160xf32>) -> tensor<4x160xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x1536xbf16>, tensor<1536x160xbf16>) -> tensor<4x160xf32>
  %1 = stablehlo.tanh %0 : tensor<4x160xf32>
  %2 = stablehlo.multiply %1, %0 : tensor<4x160xf32>
  %3 = stablehlo.add %2, %r : tensor<4x160xf32>
  return %3 : tensor<4x160xf32>
})", DotTiling::Lanes::kOverN, true},
    {"f16_rounded_once", R"(
func.func @main(%x: tensor<2x512xf16>, %w: tensor<512x64xf16>) -> tensor<2x64xf16> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x512xf16>, tensor<512x64xf16>) -> tensor<2x64xf16>
  return %0 : tensor<2x64xf16>
})", DotTiling::Lanes::kOverN, true},
    {"several_free_and_contracting_dims", R"(
func.func @main(%x: tensor<2x3x4x5xf32>, %w: tensor<4x5x7x3xf32>) -> tensor<2x3x7x3xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [2, 3] x [0, 1] : (tensor<2x3x4x5xf32>, tensor<4x5x7x3xf32>) -> tensor<2x3x7x3xf32>
  return %0 : tensor<2x3x7x3xf32>
})", DotTiling::Lanes::kOverN, false},
    {"transposed_weights_lanes_over_k", R"(
func.func @main(%x: tensor<3x128xf32>, %w: tensor<80x128xf32>) -> tensor<3x80xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<3x128xf32>, tensor<80x128xf32>) -> tensor<3x80xf32>
  return %0 : tensor<3x80xf32>
})", DotTiling::Lanes::kOverK, false},
    // A layer norm's mean and variance, reduced by every block of the
    // product before it stages its lhs.
    {"layer_norm_in_the_prologue", R"(
func.func @main(%x: tensor<768xf32>, %w: tensor<768x256xf32>) -> tensor<256xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<768.0> : tensor<f32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
  %mean = stablehlo.divide %s, %n : tensor<f32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [] : (tensor<f32>) -> tensor<768xf32>
  %c = stablehlo.subtract %x, %mb : tensor<768xf32>
  %sq = stablehlo.multiply %c, %c : tensor<768xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
  %var = stablehlo.divide %ss, %n : tensor<f32>
  %ve = stablehlo.add %var, %eps : tensor<f32>
  %r = stablehlo.rsqrt %ve : tensor<f32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<768xf32>
  %h = stablehlo.multiply %c, %rb : tensor<768xf32>
  %0 = stablehlo.dot_general %h, %w, contracting_dims = [0] x [0] : (tensor<768xf32>, tensor<768x256xf32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
})", DotTiling::Lanes::kOverN, true},
    // Attention's second product with its softmax: each block reduces its
    // head's max and sum before it stages its probabilities.
    {"softmax_in_the_prologue", R"(
func.func @main(%s: tensor<6x1100xf32>, %v: tensor<1100x6x40xf32>) -> tensor<6x40xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<6x1100xf32>, tensor<f32>) -> tensor<6xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<6xf32>) -> tensor<6x1100xf32>
  %d = stablehlo.subtract %s, %mb : tensor<6x1100xf32>
  %e = stablehlo.exponential %d : tensor<6x1100xf32>
  %z = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x1100xf32>, tensor<f32>) -> tensor<6xf32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [0] : (tensor<6xf32>) -> tensor<6x1100xf32>
  %p = stablehlo.divide %e, %zb : tensor<6x1100xf32>
  %0 = stablehlo.dot_general %p, %v, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<6x1100xf32>, tensor<1100x6x40xf32>) -> tensor<6x40xf32>
  return %0 : tensor<6x40xf32>
})", DotTiling::Lanes::kOverN, true, "all"},
    // The same over two batch dims: the probabilities read the max at
    // index variables of their own, which the block's bound value does not
    // match, so they fold it serially (BodyEmitter::SerialReduce).
    {"softmax_over_two_batch_dims", R"(
func.func @main(%s: tensor<2x3x100xf32>, %v: tensor<100x2x3x40xf32>) -> tensor<2x3x40xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x100xf32>, tensor<f32>) -> tensor<2x3xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x100xf32>
  %d = stablehlo.subtract %s, %mb : tensor<2x3x100xf32>
  %e = stablehlo.exponential %d : tensor<2x3x100xf32>
  %0 = stablehlo.dot_general %e, %v, batching_dims = [0, 1] x [1, 2], contracting_dims = [2] x [0] : (tensor<2x3x100xf32>, tensor<100x2x3x40xf32>) -> tensor<2x3x40xf32>
  return %0 : tensor<2x3x40xf32>
})", DotTiling::Lanes::kOverN, false, "all"},
    // A fori_loop over stacked weights: the slice by the counter is read
    // inside the product kernel.
    {"loop_over_stacked_weights", R"(
func.func @main(%x: tensor<4x64xf32>, %ws: tensor<5x64x64xf32>) -> tensor<4x64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<4x64xf32>
   cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %ws, %i, %z, %z, sizes = [1, 64, 64] : (tensor<5x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
    %w = stablehlo.reshape %s : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<4x64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
    %t = stablehlo.tanh %d : tensor<4x64xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %t : tensor<i32>, tensor<4x64xf32>
  }
  return %r#1 : tensor<4x64xf32>
})", DotTiling::Lanes::kOverN, false},
    {"residual_from_a_kernel_before", R"(
func.func @main(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>, %m: tensor<16x256xf32>) -> tensor<1x256xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<16x256xf32>, tensor<f32>) -> tensor<256xf32>
  %r1 = stablehlo.reshape %r : (tensor<256xf32>) -> tensor<1x256xf32>
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  %1 = stablehlo.add %0, %r1 : tensor<1x256xf32>
  return %1 : tensor<1x256xf32>
})", DotTiling::Lanes::kOverN, true},
    // A decode step's down projection: 8 splits of 384 rows, all 48 of a
    // thread's loaded before the wait.
    {"gemv_long_contraction", R"(
func.func @main(%x: tensor<1x3072xf32>, %w: tensor<3072x768xf32>, %r: tensor<1x768xf32>) -> tensor<1x768xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x3072xf32>, tensor<3072x768xf32>) -> tensor<1x768xf32>
  %1 = stablehlo.add %r, %0 : tensor<1x768xf32>
  return %1 : tensor<1x768xf32>
})", DotTiling::Lanes::kOverN, true},
};

const Case& Named(const std::string& name) {
  for (const Case& c : kCases) {
    if (name == c.name) return c;
  }
  ADD_FAILURE() << "no case " << name;
  return kCases[0];
}

std::vector<const Fusion*> Products(const GpuProgram& program) {
  std::vector<const Fusion*> out;
  for (const Fusion& f : program.fusions) {
    if (f.kind == FusionKind::kDot) out.push_back(&f);
  }
  return out;
}

int Steps(const GpuProgram& program) {
  int n = 0;
  ForEachStep(program.main, [&](const Step&, int) { ++n; });
  return n;
}

TEST(GpuGeneratedDot, EveryCasePlansOneProductKernel) {
  for (const Case& c : kCases) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_PROLOGUE_REDUCE", c.prologue_reduce);
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name << ": " << p.program.status().message();
    const auto products = Products(*p.program);
    ASSERT_EQ(products.size(), 1u) << c.name << "\n" << p.program->ToString();
    EXPECT_EQ(products[0]->tiling.lanes, c.lanes) << c.name;
    EXPECT_EQ(products[0]->tiling.splits > 1, c.split) << c.name << ": " << products[0]->tiling.ToString();
    ForEachStep(p.program->main, [&](const Step& s, int) {
      EXPECT_FALSE(std::holds_alternative<GemmStep>(s.action)) << c.name;
    });
  }
}

TEST(GpuGeneratedDot, TheEpilogueIsInTheKernel) {
  Planned p = Plan(kCases[0].text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // One step: the product, the bias and the relu, written to the result.
  EXPECT_EQ(Steps(*p.program), 1) << p.program->ToString();
  const Fusion& f = *Products(*p.program)[0];
  EXPECT_EQ(f.ops.back()->name(), "stablehlo.maximum");
  EXPECT_EQ(f.inputs.size(), 3u);  // x, w, b: read where they are
}

TEST(GpuGeneratedDot, StackedWeightsAreReadInPlaceByTheCounter) {
  Planned p = Plan(Named("loop_over_stacked_weights").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const Fusion& f = *Products(*p.program)[0];
  // The slice and reshape are index maps of the kernel, which reads the
  // stacked weights (argument 1) and the counter.
  bool slices = false;
  for (const ir::Operation* op : f.ops) slices |= op->name() == "stablehlo.dynamic_slice";
  EXPECT_TRUE(slices) << p.program->ToString();
  bool reads_stack = false;
  ForEachStep(p.program->main, [&](const Step& s, int) {
    const auto* k = std::get_if<KernelStep>(&s.action);
    if (k && p.program->fusions[static_cast<size_t>(k->fusion)].kind == FusionKind::kDot) {
      for (BufferId id : k->inputs) reads_stack |= id == p.program->parameters[1];
    }
  });
  EXPECT_TRUE(reads_stack) << p.program->ToString();
}

TEST(GpuGeneratedDot, ProductsLoadTheirWeightsBeforeWaitingForProducers) {
  // Lanes over n: the rhs (the weights, input 1) and the epilogue's bias
  // (an argument, input 2) are read before the wait, the lhs after it.
  Planned p = Plan(kCases[0].text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const Fusion& f = *Products(*p.program)[0];
  const ir::Block& entry = p.program->module->EntryFunction()->region(0).front();
  ASSERT_EQ(f.inputs[1], entry.argument(1));
  ASSERT_EQ(f.inputs[2], entry.argument(2));
  EXPECT_EQ(f.early_inputs, (std::vector<int>{1, 2}));
  EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "reads input 1 2 before waiting"));
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  const size_t wait = k->code.find("hlo_wait_for_producers();", k->code.find(f.name));
  ASSERT_NE(wait, std::string::npos) << k->code;
  EXPECT_EQ(k->code.find("hlo_wait_for_producers();", wait + 1), std::string::npos) << k->code;  // once
  EXPECT_LT(k->code.find("p1["), wait) << k->code;
  EXPECT_GT(k->code.find("p0["), wait) << k->code;
  EXPECT_LT(k->code.find("p2["), wait) << k->code;
  EXPECT_EQ(k->code.find("p2[", k->code.find("p2[") + 1), std::string::npos) << k->code;  // loaded once
  // An epilogue operand a kernel computes (here a product's result, the
  // residual of the second product) is read after the wait.
  Planned chain = Plan(R"(
func.func @main(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  %1 = stablehlo.tanh %0 : tensor<1x256xf32>
  %2 = stablehlo.dot_general %1, %w, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  %3 = stablehlo.add %2, %1 : tensor<1x256xf32>
  return %3 : tensor<1x256xf32>
})");
  ASSERT_TRUE(chain.program.ok()) << chain.program.status().message();
  const Fusion& second = *Products(*chain.program)[1];
  ASSERT_EQ(second.inputs.size(), 2u) << chain.program->ToString();  // the first's result and w
  EXPECT_EQ(second.early_inputs.size(), 1u) << chain.program->ToString();
  const ir::Value* weights = chain.program->module->EntryFunction()->region(0).front().argument(1);
  EXPECT_EQ(second.inputs[static_cast<size_t>(second.early_inputs[0])], weights);
  // The weights sliced by a loop counter: the counter is read early too.
  Planned loop = Plan(Named("loop_over_stacked_weights").text);
  ASSERT_TRUE(loop.program.ok());
  const Fusion& l = *Products(*loop.program)[0];
  EXPECT_GE(l.early_inputs.size(), 2u) << loop.program->ToString();
  // Lanes over k wait first, as every other kernel does.
  Planned over_k = Plan(kCases[2].text);
  ASSERT_TRUE(over_k.program.ok());
  const Fusion& o = *Products(*over_k.program)[0];
  EXPECT_TRUE(o.early_inputs.empty());
  auto ok = EmitKernel(o);
  ASSERT_TRUE(ok.ok());
  EXPECT_LT(ok->code.find("hlo_wait_for_producers();", ok->code.find(o.name)), ok->code.find("p1["));
}

TEST(GpuGeneratedDot, ProductsLoadingBeforeTheWaitAreCompiledToFitFourBlocksAnSm) {
  // Their registers capped so that more of their blocks fit beside the
  // kernel they launch early behind; a product that waits first (lanes
  // over k) is left to the compiler, as is every product where the
  // setting is 0.
  const auto opening = [](const std::string& text, size_t product) {
    Planned p = Plan(text);
    EXPECT_TRUE(p.program.ok()) << p.program.status().message();
    if (!p.program.ok()) return std::string();
    auto k = EmitKernel(*Products(*p.program)[product]);
    EXPECT_TRUE(k.ok()) << k.status().message();
    return k.ok() ? k->code.substr(k->code.find("__global__"), 64) : std::string();
  };
  EXPECT_TRUE(testing::HasSubstr(opening(kCases[0].text, 0), "__launch_bounds__(256, 4)"));
  EXPECT_TRUE(testing::HasSubstr(opening(Named("loop_over_stacked_weights").text, 0), "__launch_bounds__(256, 4)"));
  EXPECT_TRUE(testing::HasSubstr(opening(kCases[2].text, 0), "__launch_bounds__(256)"));
  const testing::ScopedEnv off("HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM", "0");
  EXPECT_TRUE(testing::HasSubstr(opening(kCases[0].text, 0), "__launch_bounds__(256)"));
}

TEST(GpuGeneratedDot, LoadsThatNeedNothingComputedGoRightAfterTheWait) {
  // The residual (input 2) comes from a kernel before: it is loaded after
  // the wait, by default before the block's first barrier (the lhs
  // staged), with the option turned off once the sum is there.
  Planned p = Plan(Named("residual_from_a_kernel_before").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const Fusion& f = *Products(*p.program)[0];
  ASSERT_EQ(f.early_inputs, std::vector<int>{1}) << p.program->ToString();
  const auto loaded_before_the_barrier = [&](const char* early) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_DOT_LOADS_EARLY", early);
    auto k = EmitKernel(f);
    EXPECT_TRUE(k.ok()) << k.status().message();
    const size_t wait = k->code.find("hlo_wait_for_producers();", k->code.find(f.name));
    const size_t residual = k->code.find("p2[", wait);
    EXPECT_NE(residual, std::string::npos) << k->code;
    return residual < k->code.find("__syncthreads();", wait);
  };
  EXPECT_TRUE(loaded_before_the_barrier(nullptr));
  EXPECT_FALSE(loaded_before_the_barrier("0"));
  EXPECT_TRUE(loaded_before_the_barrier("1"));
  EXPECT_FALSE(loaded_before_the_barrier("staged"));
  // A layer norm in the prologue: with HLOGRAPH_GPU_DOT_LOADS_EARLY=1 or
  // =staged the thread's element of the staged chunk (x at sk) is loaded
  // before the block reduces x, by default after (the reductions' passes
  // as a loop here, to find them).
  const testing::ScopedEnv loops("HLOGRAPH_GPU_LOADS_TOGETHER", "0");
  Planned ln = Plan(Named("layer_norm_in_the_prologue").text);
  ASSERT_TRUE(ln.program.ok()) << ln.program.status().message();
  const Fusion& g = *Products(*ln.program)[0];
  ASSERT_EQ(g.inputs[0], ln.program->module->EntryFunction()->region(0).front().argument(0));
  const auto staged_before_the_reductions = [&](const char* early) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_DOT_LOADS_EARLY", early);
    auto k = EmitKernel(g);
    EXPECT_TRUE(k.ok()) << k.status().message();
    const size_t wait = k->code.find("hlo_wait_for_producers();", k->code.find(g.name));
    const size_t staged = k->code.find("p0[sk]", wait), reduction = k->code.find("for (long long i = threadIdx.x", wait);
    EXPECT_NE(staged, std::string::npos) << k->code;
    EXPECT_NE(reduction, std::string::npos) << k->code;
    return staged < reduction;
  };
  EXPECT_FALSE(staged_before_the_reductions(nullptr));
  EXPECT_FALSE(staged_before_the_reductions("0"));
  EXPECT_TRUE(staged_before_the_reductions("1"));
  EXPECT_TRUE(staged_before_the_reductions("staged"));
}

// The text between `from` and the matching closing brace of the block it opens.
std::string BlockAt(const std::string& code, size_t from) {
  size_t open = code.find('{', from), depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{') ++depth;
    if (code[i] == '}' && --depth == 0) return code.substr(from, i + 1 - from);
  }
  return "";
}

TEST(GpuGeneratedDot, ProductsPrefetchTheirWeightsIntoL2) {
  // Stacked weights sliced by the counter: the first SM's worth of blocks
  // ask for the layer's slice (input 3, the stack, from its first to its
  // last element at the counter's layer) before the kernel waits.
  Planned p = Plan(Named("loop_over_stacked_weights").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const Fusion& f = *Products(*p.program)[0];
  EXPECT_TRUE(f.tiling.prefetch_l2);
  EXPECT_TRUE(testing::HasSubstr(f.tiling.ToString(), "the rhs prefetched into L2"));
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  const size_t at = k->code.find("if (blockIdx.x < 132)", k->code.find(f.name));
  ASSERT_NE(at, std::string::npos) << k->code;
  EXPECT_LT(at, k->code.find("hlo_wait_for_producers();", k->code.find(f.name))) << k->code;
  const std::string prefetch = BlockAt(k->code, at);
  int stack = -1;
  for (size_t i = 0; i < f.inputs.size(); ++i) {
    if (f.inputs[i]->type().rank() == 3) stack = static_cast<int>(i);
  }
  ASSERT_GE(stack, 0);
  const std::string p_stack = "(const char*)(p" + std::to_string(stack) + " + (";
  EXPECT_EQ(std::count(prefetch.begin(), prefetch.end(), '('), std::count(prefetch.begin(), prefetch.end(), ')'));
  // One address for the first element, one for the last (63, 63 of the
  // 64x64 layer, 4096 elements apart), each at the counter's layer.
  EXPECT_NE(prefetch.find("hlo_prefetch_l2(" + p_stack), std::string::npos) << prefetch;
  EXPECT_NE(prefetch.find(", " + p_stack), std::string::npos) << prefetch;
  EXPECT_NE(prefetch.find("63 + "), std::string::npos) << prefetch;
  EXPECT_NE(prefetch.find("4096LL"), std::string::npos) << prefetch;
  EXPECT_NE(prefetch.find(std::to_string(64 * 64 * 16) + "ULL, 132u);"), std::string::npos) << prefetch;
  // Weights the kernel computes (not just moves) have no address to ask for.
  Planned computed = Plan(R"(
func.func @main(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %e = stablehlo.exponential %w : tensor<256x256xf32>
  %0 = stablehlo.dot_general %x, %e, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  return %0 : tensor<1x256xf32>
})");
  ASSERT_TRUE(computed.program.ok()) << computed.program.status().message();
  auto ck = EmitKernel(*Products(*computed.program)[0]);
  ASSERT_TRUE(ck.ok()) << ck.status().message();
  EXPECT_EQ(ck->code.find("hlo_prefetch_l2(", ck->code.find("fusion_")), std::string::npos) << ck->code;
  // Lanes over k ask too; the environment turns it off.
  Planned over_k = Plan(kCases[2].text);
  ASSERT_TRUE(over_k.program.ok());
  auto ok = EmitKernel(*Products(*over_k.program)[0]);
  ASSERT_TRUE(ok.ok());
  EXPECT_NE(ok->code.find("hlo_prefetch_l2((const char*)(p1 + (", ok->code.find("fusion_")), std::string::npos)
      << ok->code;
  const testing::ScopedEnv off("HLOGRAPH_GPU_PREFETCH_L2", "0");
  Planned plain = Plan(Named("loop_over_stacked_weights").text);
  ASSERT_TRUE(plain.program.ok());
  EXPECT_FALSE(Products(*plain.program)[0]->tiling.prefetch_l2);
  auto pk = EmitKernel(*Products(*plain.program)[0]);
  ASSERT_TRUE(pk.ok());
  EXPECT_EQ(pk->code.find("hlo_prefetch_l2(", pk->code.find("fusion_")), std::string::npos);
}

TEST(GpuGeneratedDot, LayerNormAndSoftmaxReductionsRunInTheProductsPrologue) {
  Planned p = Plan(Named("layer_norm_in_the_prologue").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // One kernel: both reduces are the product's, reduced by each block.
  EXPECT_EQ(Steps(*p.program), 1) << p.program->ToString();
  const Fusion& f = *Products(*p.program)[0];
  EXPECT_EQ(std::count_if(f.ops.begin(), f.ops.end(),
                          [](const ir::Operation* op) { return op->name() == "stablehlo.reduce"; }),
            2);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "__shared__ float reduce_s["));
  EXPECT_LT(k->code.find("__shfl_down_sync"), k->code.find("lhs_s[sm][sj] ="));
  // A softmax's max and sum per head (the product's batch): their own
  // kernels by default, the product's with HLOGRAPH_GPU_PROLOGUE_REDUCE=all.
  Planned separate = Plan(Named("softmax_in_the_prologue").text);
  ASSERT_TRUE(separate.program.ok()) << separate.program.status().message();
  EXPECT_EQ(Steps(*separate.program), 3) << separate.program->ToString();
  const testing::ScopedEnv setting("HLOGRAPH_GPU_PROLOGUE_REDUCE", "all");
  Planned softmax = Plan(Named("softmax_in_the_prologue").text);
  ASSERT_TRUE(softmax.program.ok()) << softmax.program.status().message();
  EXPECT_EQ(Steps(*softmax.program), 1) << softmax.program->ToString();
  auto sk = EmitKernel(*Products(*softmax.program)[0]);
  ASSERT_TRUE(sk.ok()) << sk.status().message();
  EXPECT_FALSE(testing::HasSubstr(sk->code, "float fold")) << sk->code;  // no serial fallback
  Planned two = Plan(Named("softmax_over_two_batch_dims").text);
  ASSERT_TRUE(two.program.ok()) << two.program.status().message();
  EXPECT_EQ(Steps(*two.program), 1) << two.program->ToString();
  auto tk = EmitKernel(*Products(*two.program)[0]);
  ASSERT_TRUE(tk.ok()) << tk.status().message();
  EXPECT_TRUE(testing::HasSubstr(tk->code, "float fold")) << tk->code;
  // A reduce read elsewhere too is its own kernel.
  Planned shared = Plan(R"(
func.func @main(%x: tensor<768xf32>, %w: tensor<768x256xf32>) -> (tensor<256xf32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<768xf32>
  %h = stablehlo.multiply %x, %sb : tensor<768xf32>
  %0 = stablehlo.dot_general %h, %w, contracting_dims = [0] x [0] : (tensor<768xf32>, tensor<768x256xf32>) -> tensor<256xf32>
  return %0, %s : tensor<256xf32>, tensor<f32>
})");
  ASSERT_TRUE(shared.program.ok()) << shared.program.status().message();
  EXPECT_EQ(Steps(*shared.program), 2) << shared.program->ToString();
  for (const ir::Operation* op : Products(*shared.program)[0]->ops) EXPECT_NE(op->name(), "stablehlo.reduce");
}

TEST(GpuGeneratedDot, ASumReadTwiceIsStoredBeforeItsUsers) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<2x64xf32>, %w: tensor<64x64xf32>) -> (tensor<2x64xf32>, tensor<2x64xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
  %1 = stablehlo.tanh %0 : tensor<2x64xf32>
  %2 = stablehlo.exponential %1 : tensor<2x64xf32>
  return %1, %2 : tensor<2x64xf32>, tensor<2x64xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // tanh and exp are both read elsewhere: no single end, so the product stands alone.
  const auto products = Products(*p.program);
  ASSERT_EQ(products.size(), 1u);
  EXPECT_EQ(products[0]->ops.size(), 1u) << p.program->ToString();
}

TEST(GpuGeneratedDot, ManyRowsAreTilesOrTheEnvironmentKeepsCublasLt) {
  const std::string many_rows = R"(
func.func @main(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
})";
  Planned p = Plan(many_rows);
  ASSERT_TRUE(p.program.ok());
  ASSERT_EQ(Products(*p.program).size(), 1u);  // small: tiles on the tensor cores (gpu_tile_product_test.cpp)
  EXPECT_EQ(Products(*p.program)[0]->tiling.lanes, DotTiling::Lanes::kTensorTiles);
  const testing::ScopedEnv off("HLOGRAPH_GPU_GENERATED_DOT", "0");
  for (const std::string& text : {many_rows, std::string(kCases[0].text)}) {
    Planned q = Plan(text);
    ASSERT_TRUE(q.program.ok());
    EXPECT_TRUE(Products(*q.program).empty());
  }
}

TEST(GpuGeneratedDot, SplitsCoverTheContractionAndFillTheDevice) {
  for (const Case& c : kCases) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_PROLOGUE_REDUCE", c.prologue_reduce);
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name;
    const DotTiling& t = Products(*p.program)[0]->tiling;
    if (t.lanes == DotTiling::Lanes::kOverK) {
      EXPECT_EQ(t.tiles * DotTiling::kWarpColumns >= t.dims.batch * t.dims.n, true) << c.name;
      continue;
    }
    EXPECT_EQ(t.k_chunk % t.slices, 0) << c.name;
    EXPECT_EQ(t.threads(), 256) << c.name;
    // A split leaves each thread a full batch of rows, and splits stop once the device is full.
    EXPECT_TRUE(t.splits == 1 || t.k_chunk >= t.slices * DotTiling::kRowsPerThread) << c.name;
    EXPECT_LE(t.splits, std::max<int64_t>(1, (kDefaultDotBlocksPerSm * kPlannedSmCount + t.tiles - 1) / t.tiles))
        << c.name;
    EXPECT_EQ(t.cluster_sum, t.splits > 1 && t.splits <= DotTiling::kMaxClusterSplits) << c.name;
    EXPECT_GE(t.splits * t.k_chunk, t.dims.k) << c.name;
    EXPECT_LT((t.splits - 1) * t.k_chunk, t.dims.k) << c.name;  // no empty split
    EXPECT_EQ(t.tiles, t.dims.batch * ((t.dims.n + 31) / 32)) << c.name;
  }
  // A decode-step GEMV: 24 column tiles. 2 blocks for each of the H200's
  // 132 SMs would be 11 splits (of 72 rows: 9 a thread), and 8 splits, a
  // cluster's, still give every SM a block.
  const std::string gemv = R"(
func.func @main(%x: tensor<768xf32>, %w: tensor<768x768xf32>) -> tensor<768xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<768xf32>, tensor<768x768xf32>) -> tensor<768xf32>
  return %0 : tensor<768xf32>
})";
  Planned p = Plan(gemv);
  ASSERT_TRUE(p.program.ok());
  const DotTiling& t = Products(*p.program)[0]->tiling;
  EXPECT_TRUE(t.cluster_sum);
  EXPECT_EQ(t.tiles, 24);
  EXPECT_EQ(t.splits, 8);
  EXPECT_EQ(t.k_chunk, 96);
  EXPECT_GE(t.blocks(), kPlannedSmCount);
  {
    const testing::ScopedEnv off("HLOGRAPH_GPU_CLUSTER_SUM", "0");
    Planned q = Plan(gemv);
    ASSERT_TRUE(q.program.ok());
    EXPECT_EQ(Products(*q.program)[0]->tiling.splits, 11);
    EXPECT_FALSE(Products(*q.program)[0]->tiling.cluster_sum);
  }
  // One column tile keeps its splits: 8 would leave the device idle.
  Planned narrow = Plan(R"(
func.func @main(%x: tensor<4096xf32>, %w: tensor<4096x32xf32>) -> tensor<32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<4096xf32>, tensor<4096x32xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
})");
  ASSERT_TRUE(narrow.program.ok());
  EXPECT_EQ(Products(*narrow.program)[0]->tiling.splits, 64);
  EXPECT_FALSE(Products(*narrow.program)[0]->tiling.cluster_sum);
  // The counters are zero at rest and keep their memory; the partial sums are plain temps.
  const Step* step = nullptr;
  ForEachStep(p.program->main, [&](const Step& s, int) { step = &s; });
  const auto& k = std::get<KernelStep>(step->action);
  ASSERT_EQ(k.scratch.size(), 2u);
  EXPECT_FALSE(p.program->buffers[static_cast<size_t>(k.scratch[0])].zero_at_rest);
  EXPECT_TRUE(p.program->buffers[static_cast<size_t>(k.scratch[1])].zero_at_rest);
  EXPECT_EQ(p.program->buffers[static_cast<size_t>(k.scratch[1])].bytes, 24 * 4);
}

TEST(GpuGeneratedDot, AThreadLoadsAllItsRowsOfALongSplitBeforeTheWait) {
  Planned p = Plan(Named("gemv_long_contraction").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const Fusion& f = *Products(*p.program)[0];
  EXPECT_EQ(f.tiling.splits, 8) << f.tiling.ToString();
  EXPECT_EQ(f.tiling.k_chunk / f.tiling.slices, DotTiling::kFirstPassRows);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  const size_t wait = k->code.find("hlo_wait_for_producers();", k->code.find(f.name));
  ASSERT_NE(wait, std::string::npos);
  // Every load of the weights comes before the wait.
  const ir::Value* w = p.program->module->EntryFunction()->region(0).front().argument(1);
  const auto at = std::find(f.inputs.begin(), f.inputs.end(), w);
  ASSERT_NE(at, f.inputs.end());
  const std::string weights = "p" + std::to_string(at - f.inputs.begin()) + "[";
  EXPECT_NE(k->code.find(weights), std::string::npos) << k->code;
  EXPECT_EQ(k->code.find(weights, wait), std::string::npos) << k->code;
}

TEST(GpuGeneratedDot, SplitsThatFitAClusterSumThere) {
  // An MLP layer: 16 column tiles, 8 splits of 64 rows: one cluster per tile.
  const char* layer = R"(
func.func @main(%x: tensor<8x512xf32>, %w: tensor<512x512xf32>) -> tensor<8x512xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
  return %0 : tensor<8x512xf32>
})";
  Planned p = Plan(layer);
  ASSERT_TRUE(p.program.ok());
  const DotTiling& t = Products(*p.program)[0]->tiling;
  EXPECT_EQ(t.splits, 8);
  EXPECT_TRUE(t.cluster_sum);
  EXPECT_NE(t.ToString().find("summed in a cluster of 8 blocks"), std::string::npos) << t.ToString();
  auto k = EmitKernel(*Products(*p.program)[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_NE(k->code.find("__cluster_dims__(8, 1, 1)"), std::string::npos);
  EXPECT_NE(k->code.find("hlo_cluster_store"), std::string::npos);
  EXPECT_NE(k->code.find("atomicAdd(&arrivals"), std::string::npos);  // the path before sm_90
  const testing::ScopedEnv off("HLOGRAPH_GPU_CLUSTER_SUM", "0");
  Planned q = Plan(layer);
  ASSERT_TRUE(q.program.ok());
  EXPECT_FALSE(Products(*q.program)[0]->tiling.cluster_sum);
  auto plain = EmitKernel(*Products(*q.program)[0]);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->code.find("__cluster_dims__"), std::string::npos);
}

TEST(GpuGeneratedDot, BlocksStageTheirLhsChunkInSharedMemory) {
  // An MLP layer's chunk (8 rows x 64) fits; a long chunk of 8 rows does not.
  const auto layer = [](int64_t k, int64_t n) {
    const std::string x = "tensor<8x" + std::to_string(k) + "xf32>", w = "tensor<" + std::to_string(k) + "x" +
                                                                           std::to_string(n) + "xf32>";
    const std::string y = "tensor<8x" + std::to_string(n) + "xf32>";
    return "func.func @main(%x: " + x + ", %w: " + w + ") -> " + y + " {\n  %0 = stablehlo.dot_general %x, %w, " +
           "contracting_dims = [1] x [0] : (" + x + ", " + w + ") -> " + y + "\n  return %0 : " + y + "\n}\n";
  };
  Planned p = Plan(layer(512, 512));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const DotTiling& t = Products(*p.program)[0]->tiling;
  EXPECT_TRUE(t.stage_lhs);
  EXPECT_LE(t.dims.m * t.k_chunk * 4, DotTiling::kMaxStagedLhsBytes);
  EXPECT_NE(t.ToString().find("staged in shared memory"), std::string::npos) << t.ToString();
  auto k = EmitKernel(*Products(*p.program)[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_NE(k->code.find("__shared__ float lhs_s[8][" + std::to_string(t.k_chunk) + "]"), std::string::npos);
  Planned wide = Plan(layer(4096, 4096));
  ASSERT_TRUE(wide.program.ok()) << wide.program.status().message();
  const DotTiling& w = Products(*wide.program)[0]->tiling;
  EXPECT_GT(w.dims.m * w.k_chunk * 4, DotTiling::kMaxStagedLhsBytes);
  EXPECT_FALSE(w.stage_lhs);
  const testing::ScopedEnv off("HLOGRAPH_GPU_DOT_STAGE_LHS", "0");
  Planned q = Plan(layer(512, 512));
  ASSERT_TRUE(q.program.ok());
  EXPECT_FALSE(Products(*q.program)[0]->tiling.stage_lhs);
  auto plain = EmitKernel(*Products(*q.program)[0]);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->code.find("lhs_s"), std::string::npos);
}

TEST(GpuGeneratedDot, ProloguePassesIssueTheirLoadsTogether) {
  // The layer norm's 768 elements take three passes of the block's 256
  // threads: by default every pass's load is issued before the first is
  // folded (the same order of folding); turned off, a loop.
  Planned ln = Plan(Named("layer_norm_in_the_prologue").text);
  ASSERT_TRUE(ln.program.ok()) << ln.program.status().message();
  const Fusion& f = *Products(*ln.program)[0];
  ASSERT_EQ(f.tiling.threads(), 256);
  const auto after_wait = [&](const char* together) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_LOADS_TOGETHER", together);
    auto k = EmitKernel(f);
    EXPECT_TRUE(k.ok()) << k.status().message();
    const std::string body = k.ok() ? k->code.substr(k->code.find(f.name + "(")) : "";
    return body.substr(body.find("hlo_wait_for_producers();"));
  };
  const std::string loop = after_wait("0"), together = after_wait(nullptr);
  EXPECT_TRUE(testing::HasSubstr(loop, "i += blockDim.x)")) << loop;
  EXPECT_FALSE(testing::HasSubstr(loop, "for (int r = 0;")) << loop;
  EXPECT_FALSE(testing::HasSubstr(together, "i += blockDim.x)")) << together;
  const size_t held = together.find("held"), load = together.find("p0[i]"), fold = together.find("[r]);");
  ASSERT_NE(held, std::string::npos) << together;
  ASSERT_NE(fold, std::string::npos) << together;
  EXPECT_LT(together.find("for (int r = 0; r < 3; ++r)"), load) << together;
  EXPECT_LT(load, fold) << together;  // the loads' pass comes before the fold's
  // By warp: each warp folds the whole row (24 loads a lane), by butterfly
  // shuffles, and no barrier comes before the mean is known.
  const std::string by_warp = after_wait("warp");
  EXPECT_TRUE(testing::HasSubstr(by_warp, "for (int r = 0; r < 24; ++r)")) << by_warp;
  EXPECT_TRUE(testing::HasSubstr(by_warp, "__shfl_xor_sync")) << by_warp;
  EXPECT_FALSE(testing::HasSubstr(together, "__shfl_xor_sync")) << together;
  EXPECT_GT(by_warp.find("__syncthreads();"), by_warp.find("__shfl_xor_sync")) << by_warp;
  EXPECT_LT(together.find("__syncthreads();"), together.find("for (int r = 0; r < 3; ++r)", together.find("[r]);"))) << together;
}

// Each case with the defaults (the epilogue's operands loaded right after
// the wait, the prologue's passes unrolled by block), its loads as they
// are needed, every load that needs nothing computed right after the
// wait, the prologue's passes as a loop, or folded by warp, and the
// registers left to the compiler.
struct Setting {
  const char* variable;
  const char* value;
};
constexpr Setting kSettings[] = {{"HLOGRAPH_GPU_DOT_LOADS_EARLY", nullptr},
                                 {"HLOGRAPH_GPU_DOT_LOADS_EARLY", "0"},
                                 {"HLOGRAPH_GPU_DOT_LOADS_EARLY", "1"},
                                 {"HLOGRAPH_GPU_LOADS_TOGETHER", "0"},
                                 {"HLOGRAPH_GPU_LOADS_TOGETHER", "warp"},
                                 {"HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM", "0"}};

TEST(GpuGeneratedDot, EveryCaseCompiles) {
  for (const Setting& changed : kSettings) {
    const testing::ScopedEnv loads(changed.variable, changed.value);
    for (const Case& c : kCases) {
      const testing::ScopedEnv setting("HLOGRAPH_GPU_PROLOGUE_REDUCE", c.prologue_reduce);
      ExpectEveryKernelCompiles(c.name, c.text);
    }
  }
}

TEST(GpuGeneratedDot, EveryCaseMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const Setting& changed : kSettings) {
    const testing::ScopedEnv loads(changed.variable, changed.value);
    for (const Case& c : kCases) {
      const testing::ScopedEnv setting("HLOGRAPH_GPU_PROLOGUE_REDUCE", c.prologue_reduce);
      ExpectMatchesInterpreterAndRepeats(c.name, c.text, 11);
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

// Products of many rows as tiles on the tensor cores (plan/tile_product.h):
// which products take them (the cost estimates, types, precision), the
// plan of a loop body of small products with their activations, kernels
// that compile for every operand type and layout, and (on a GPU) results
// that match the interpreter's.
#include <gtest/gtest.h>

#include <string>

#include "backends/gpu/explain.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/tile_product.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

std::vector<const Fusion*> TileProducts(const GpuProgram& program) {
  std::vector<const Fusion*> found;
  for (const Fusion& f : program.fusions) {
    if (f.kind == FusionKind::kDot && f.tiling.lanes == DotTiling::Lanes::kTensorTiles) found.push_back(&f);
  }
  return found;
}

// x [m, k] times w [k, n] (types `t`), plus a bias, through tanh.
std::string Layer(int64_t m, int64_t k, int64_t n, const std::string& t, const std::string& precision = "") {
  const std::string M = std::to_string(m), K = std::to_string(k), N = std::to_string(n);
  const std::string x = "tensor<" + M + "x" + K + "x" + t + ">", w = "tensor<" + K + "x" + N + "x" + t + ">";
  const std::string y = "tensor<" + M + "x" + N + "x" + t + ">", b = "tensor<" + N + "x" + t + ">";
  return "func.func @main(%x: " + x + ", %w: " + w + ", %b: " + b + ") -> " + y + " {\n"
         "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]" + precision + " : (" + x + ", " + w +
         ") -> " + y + "\n"
         "  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (" + b + ") -> " + y + "\n"
         "  %2 = stablehlo.add %0, %1 : " + y + "\n"
         "  %3 = stablehlo.tanh %2 : " + y + "\n"
         "  return %3 : " + y + "\n}";
}

// The products tiles take, the operand layouts and types they read.
struct Case {
  std::string name, text;
};
const Case kCases[] = {
    {"layer_f32_256", Layer(256, 256, 256, "f32")},
    {"layer_f32_odd", Layer(50, 45, 70, "f32")},
    {"layer_bf16", Layer(64, 96, 128, "bf16")},
    {"layer_f16_odd", Layer(40, 24, 72, "f16")},
    {"transposed_rhs_bf16", R"(func.func @main(%q: tensor<4x64x32xbf16>, %k: tensor<4x96x32xbf16>) -> tensor<4x64x96xf32> {
  %0 = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x64x32xbf16>, tensor<4x96x32xbf16>) -> tensor<4x64x96xf32>
  return %0 : tensor<4x64x96xf32>
})"},
    {"transposed_lhs_f32", R"(func.func @main(%a: tensor<48x40xf32>, %b: tensor<48x24xf32>) -> tensor<40x24xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<48x40xf32>, tensor<48x24xf32>) -> tensor<40x24xf32>
  return %0 : tensor<40x24xf32>
})"},
    {"two_free_and_two_contracting_dims", R"(func.func @main(%a: tensor<2x4x24x3x16xf32>, %b: tensor<3x16x40xf32>) -> tensor<2x4x24x40xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [3, 4] x [0, 1] : (tensor<2x4x24x3x16xf32>, tensor<3x16x40xf32>) -> tensor<2x4x24x40xf32>
  return %0 : tensor<2x4x24x40xf32>
})"},
    {"prologue_and_residual", R"(func.func @main(%x: tensor<96x64xf32>, %w: tensor<64x64xf32>) -> tensor<96x64xf32> {
  %c = stablehlo.constant dense<0.5> : tensor<96x64xf32>
  %h = stablehlo.multiply %x, %c : tensor<96x64xf32>
  %e = stablehlo.exponential %h : tensor<96x64xf32>
  %0 = stablehlo.dot_general %e, %w, contracting_dims = [1] x [0] : (tensor<96x64xf32>, tensor<64x64xf32>) -> tensor<96x64xf32>
  %1 = stablehlo.add %0, %x : tensor<96x64xf32>
  return %1 : tensor<96x64xf32>
})"},
};

TEST(GpuTileProduct, SmallProductsAreTilesWithTheirActivation) {
  Planned p = Plan(Layer(256, 64, 256, "f32"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(GemmSteps(*p.program), 0);
  const auto tiles = TileProducts(*p.program);
  ASSERT_EQ(tiles.size(), 1u) << p.program->ToString();
  // The bias and tanh in the product's kernel: one kernel in all.
  EXPECT_EQ(p.program->fusions.size(), 1u) << p.program->ToString();
  const DotTiling& t = tiles[0]->tiling;
  EXPECT_EQ(t.tiles, t.dims.batch * ((t.dims.m + t.tile_m() - 1) / t.tile_m()) * ((t.dims.n + t.tile_n() - 1) / t.tile_n()));
  EXPECT_NE(p.program->ToString().find("on the tensor cores"), std::string::npos);
  // explain gives both estimates.
  auto explained = ExplainModule(*p.modules[0], ExplainOptions{});
  ASSERT_TRUE(explained.ok()) << explained.status().message();
  EXPECT_NE(explained->text.find("product 1x256x256x64 (batch x m x n x k): tiles, generated ~"), std::string::npos)
      << explained->text;
  EXPECT_NE(explained->text.find(", cuBLASLt ~"), std::string::npos);
}

TEST(GpuTileProduct, LargeProductsHighestPrecisionAndMixedTypesStayWithCublasLt) {
  const std::string mixed = R"(func.func @main(%x: tensor<64x64xbf16>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
})";
  for (const std::string& text : {Layer(4096, 4096, 4096, "bf16"), Layer(2048, 2048, 2048, "f32"),
                                  Layer(128, 128, 128, "f32", ", precision = [HIGHEST, HIGHEST]"), mixed}) {
    Planned p = Plan(text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    EXPECT_TRUE(TileProducts(*p.program).empty()) << text;
    if (text != mixed) {  // (mixed: the direct kernel)
      EXPECT_EQ(GemmSteps(*p.program), 1) << text;
    }
  }
}

TEST(GpuTileProduct, TheChoiceComesFromTheEstimatesOrTheEnvironment) {
  const auto choose = [](const std::string& text) {
    auto modules = testing::ParseOrDie(text);
    const ir::Operation* dot = nullptr;
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->id() == ir::OpId::kDotGeneral) dot = op.get();
    }
    return ChooseTileProduct(*dot, DeviceLimits::H200());
  };
  const TileProductChoice small = choose(Layer(256, 64, 256, "f32"));
  EXPECT_TRUE(small.generated) << small.why;
  EXPECT_NE(small.why.find("cuBLASLt ~"), std::string::npos) << small.why;
  const TileProductChoice large = choose(Layer(8192, 8192, 8192, "bf16"));
  EXPECT_FALSE(large.generated) << large.why;
  {
    const testing::ScopedEnv pin("HLOGRAPH_GPU_TILE_PRODUCT", "library");
    EXPECT_FALSE(choose(Layer(256, 64, 256, "f32")).generated);
    Planned p = Plan(Layer(256, 64, 256, "f32"));
    ASSERT_TRUE(p.program.ok());
    EXPECT_EQ(GemmSteps(*p.program), 1);
  }
  const testing::ScopedEnv pin("HLOGRAPH_GPU_TILE_PRODUCT", "generated");
  EXPECT_TRUE(choose(Layer(8192, 8192, 8192, "bf16")).generated);
}

TEST(GpuTileProduct, EveryCaseCompiles) {
  const testing::ScopedEnv pin("HLOGRAPH_GPU_TILE_PRODUCT", "generated");
  for (const Case& c : kCases) {
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name << ": " << p.program.status().message();
    EXPECT_EQ(TileProducts(*p.program).size(), 1u) << c.name << "\n" << p.program->ToString();
    ExpectEveryKernelCompiles(c.name, c.text);
  }
}

TEST(GpuTileProduct, EveryCaseMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv pin("HLOGRAPH_GPU_TILE_PRODUCT", "generated");
  uint64_t seed = 3;
  for (const Case& c : kCases) ExpectMatchesInterpreterAndRepeats(c.name, c.text, seed++);
}

}  // namespace
}  // namespace hlograph::gpu

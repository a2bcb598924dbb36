// The plan's cost of each step (bytes, FLOPs, compute unit) and the
// roofline built from measured times, without a GPU. Expected numbers are
// counted by hand from the shapes in each program.
#include <gtest/gtest.h>

#include <map>

#include "backends/gpu/plan/roofline.h"
#include "backends/gpu/plan/step_cost.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

// The leaf steps of a program, in order.
std::vector<const Step*> Leaves(const GpuProgram& program) {
  std::vector<const Step*> steps;
  ForEachStep(program.main, [&](const Step& s, int) {
    if (!std::holds_alternative<WhileStep>(s.action) && !std::holds_alternative<CaseStep>(s.action)) {
      steps.push_back(&s);
    }
  });
  return steps;
}

double Flops(const StepCost& c, ComputeUnit unit) { return c.flops[static_cast<size_t>(unit)]; }

TEST(GpuStepCost, ElementwiseKernelMovesItsOperandsAndResultOnce) {
  Planned p = Plan(kElementwiseChain);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Leaves(*p.program);
  ASSERT_EQ(steps.size(), 1u);
  const StepCost c = CostOfStep(*p.program, *steps[0]);
  EXPECT_EQ(c.bytes, 3 * 4096);                          // x, y in; the result out
  EXPECT_EQ(Flops(c, ComputeUnit::kFp32), 3 * 1024.0);  // multiply, add, tanh
  EXPECT_EQ(c.total_flops(), 3 * 1024.0);
  const DeviceLimits h200 = DeviceLimits::H200();
  EXPECT_DOUBLE_EQ(c.memory_seconds(h200), 3 * 4096 / 4.8e12);
  EXPECT_DOUBLE_EQ(c.floor_seconds(h200), c.memory_seconds(h200));
  EXPECT_EQ(StepName(*p.program, *steps[0]), p.program->fusions[0].name);
  EXPECT_NE(StepSummary(*p.program, *steps[0]).find("multiply add tanh"), std::string::npos)
      << StepSummary(*p.program, *steps[0]);
}

TEST(GpuStepCost, ProductsCountTwoFlopsPerMultiplyAddOnTheUnitTheirTypesAllow) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  // 64 rows: a cuBLASLt GEMM. f32 at DEFAULT is TF32, at HIGHEST fp32; bf16 on the half-precision tensor cores.
  const auto dot = [](const std::string& type, const std::string& precision) {
    return "func.func @main(%a: tensor<64x128x" + type + ">, %b: tensor<128x256x" + type + ">) -> tensor<64x256x" +
           type + "> {\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]" + precision +
           " : (tensor<64x128x" + type + ">, tensor<128x256x" + type + ">) -> tensor<64x256x" + type +
           ">\n  return %0 : tensor<64x256x" + type + ">\n}\n";
  };
  const double flops = 2.0 * 64 * 128 * 256;
  const struct {
    std::string type, precision;
    ComputeUnit unit;
    int bytes_per_element;
  } cases[] = {{"f32", "", ComputeUnit::kTf32, 4},
               {"f32", ", precision = [HIGHEST, HIGHEST]", ComputeUnit::kFp32, 4},
               {"bf16", "", ComputeUnit::kHalf, 2}};
  for (const auto& c : cases) {
    Planned p = Plan(dot(c.type, c.precision));
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    const auto steps = Leaves(*p.program);
    ASSERT_EQ(steps.size(), 1u) << p.program->ToString();
    ASSERT_TRUE(std::holds_alternative<GemmStep>(steps[0]->action));
    const StepCost cost = CostOfStep(*p.program, *steps[0]);
    EXPECT_EQ(Flops(cost, c.unit), flops) << c.type << c.precision;
    EXPECT_EQ(cost.total_flops(), flops);
    EXPECT_EQ(cost.unit(DeviceLimits::H200()), c.unit);
    EXPECT_EQ(cost.bytes, (64 * 128 + 128 * 256 + 64 * 256) * c.bytes_per_element);
  }
}

TEST(GpuStepCost, GeneratedProductOfOneRowCountsLikeAGemm) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<1x512xf32>, %w: tensor<512x1024xf32>) -> tensor<1x1024xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x512xf32>, tensor<512x1024xf32>) -> tensor<1x1024xf32>
  return %0 : tensor<1x1024xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Leaves(*p.program);
  ASSERT_EQ(steps.size(), 1u) << p.program->ToString();
  const StepCost c = CostOfStep(*p.program, *steps[0]);
  EXPECT_EQ(Flops(c, ComputeUnit::kTf32), 2.0 * 512 * 1024);
  EXPECT_EQ(c.bytes, (512 + 512 * 1024 + 1024) * 4);
  // 2 MB of weights for 1 MFLOP: bound by memory.
  const DeviceLimits h200 = DeviceLimits::H200();
  EXPECT_GT(c.memory_seconds(h200), c.compute_seconds(h200));
}

TEST(GpuStepCost, AKernelSlicingAnOperandReadsOnlyTheSlice) {
  // One row of a 1000x64 table by a dynamic index: 256 bytes read of the
  // table's 256000, the index, and the row written.
  Planned p = Plan(R"(
func.func @main(%t: tensor<1000x64xf32>, %i: tensor<i32>) -> tensor<1x64xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_slice %t, %i, %z, sizes = [1, 64] : (tensor<1000x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
  %1 = stablehlo.exponential %0 : tensor<1x64xf32>
  return %1 : tensor<1x64xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Leaves(*p.program);
  ASSERT_EQ(steps.size(), 1u) << p.program->ToString();
  const StepCost c = CostOfStep(*p.program, *steps[0]);
  EXPECT_EQ(c.bytes, 64 * 4 + 4 + 64 * 4);
  EXPECT_EQ(c.total_flops(), 64.0);  // the exponential
}

TEST(GpuStepCost, ReductionsConvolutionsAndFfts) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<256x1024xf32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>,
                %s: tensor<8x1024xcomplex<f32>>) -> (tensor<256xf32>, tensor<1x8x8x16xf32>, tensor<8x1024xcomplex<f32>>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<256x1024xf32>, tensor<f32>) -> tensor<256xf32>
  %c = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %f = stablehlo.fft %s, type = FFT, length = [1024] : (tensor<8x1024xcomplex<f32>>) -> tensor<8x1024xcomplex<f32>>
  return %r, %c, %f : tensor<256xf32>, tensor<1x8x8x16xf32>, tensor<8x1024xcomplex<f32>>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  double reduce = -1, conv = -1, fft = -1;
  for (const Step* s : Leaves(*p.program)) {
    const StepCost c = CostOfStep(*p.program, *s);
    const std::string summary = StepSummary(*p.program, *s);
    if (summary.find("reduce") != std::string::npos) reduce = c.total_flops();
    if (summary.find("conv") != std::string::npos) {
      conv = c.total_flops();
      EXPECT_EQ(c.unit(DeviceLimits::H200()), ComputeUnit::kTf32);
    }
    if (summary.find("fft") != std::string::npos) fft = c.total_flops();
  }
  EXPECT_EQ(reduce, 256.0 * 1024);                  // one add per element
  EXPECT_EQ(conv, 2.0 * (8 * 8 * 16) * (3 * 3 * 3));  // per output: a 3x3x3 window
  EXPECT_EQ(fft, 8 * 5.0 * 1024 * 10);              // 5 N log2 N per transform
}

TEST(GpuRoofline, RowsFromMeasurementsSortedByTimeWithRatesAndLosses) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<1048576xf32>, %a: tensor<512x512xf32>) -> (tensor<1048576xf32>, tensor<512x512xf32>) {
  %0 = stablehlo.exponential %x : tensor<1048576xf32>
  %1 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0, %1 : tensor<1048576xf32>, tensor<512x512xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto steps = Leaves(*p.program);
  ASSERT_EQ(steps.size(), 2u) << p.program->ToString();
  const Step* exp = std::holds_alternative<KernelStep>(steps[0]->action) ? steps[0] : steps[1];
  const Step* gemm = exp == steps[0] ? steps[1] : steps[0];
  // Over 10 calls: the exponential 10 x 4 us, the GEMM 10 x 2 us.
  std::map<const Step*, StepMeasurement> measured;
  measured[exp] = {10, 10, 40e-6, 0};
  measured[gemm] = {10, 10, 20e-6, 0};
  Roofline r = BuildRoofline(*p.program, measured, 10, DeviceLimits::H200());
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0].step, exp);  // most time first
  EXPECT_DOUBLE_EQ(r.rows[0].seconds, 4e-6);
  EXPECT_DOUBLE_EQ(r.rows[0].runs, 1);
  EXPECT_DOUBLE_EQ(r.rows[0].bytes, 8.0 * 1048576);
  EXPECT_DOUBLE_EQ(r.rows[0].bytes_per_s(), 8.0 * 1048576 / 4e-6);
  EXPECT_TRUE(r.rows[0].memory_bound());
  EXPECT_NEAR(r.rows[0].excess_seconds(), 4e-6 - 8.0 * 1048576 / 4.8e12, 1e-12);
  EXPECT_DOUBLE_EQ(r.rows[1].flops, 2.0 * 512 * 512 * 512);
  EXPECT_EQ(r.rows[1].unit, ComputeUnit::kTf32);
  EXPECT_DOUBLE_EQ(r.step_seconds, 6e-6);
  // Idle share from the wall and busy times the caller measures.
  EXPECT_EQ(r.idle_fraction(), -1);
  r.wall_seconds = 10e-6;
  r.busy_seconds = 6e-6;
  EXPECT_DOUBLE_EQ(r.idle_fraction(), 0.4);
  // The exponential loses 2.25 us over its floor, the GEMM ~1.5 us.
  const auto by_excess = r.ByExcess();
  EXPECT_EQ(by_excess[0]->step, exp);
  const std::string text = r.ToString();
  EXPECT_NE(text.find("the GPU idle 40.0% of the call"), std::string::npos) << text;
  EXPECT_NE(text.find("tf32"), std::string::npos) << text;
  // Without a busy time (conditional nodes' kernels go untraced) there is no idle share, only why.
  r.busy_seconds = -1;
  r.busy_unknown_why = "conditional nodes";
  EXPECT_EQ(r.idle_fraction(), -1);
  EXPECT_NE(r.ToString().find("idle share is not known: conditional nodes"), std::string::npos) << r.ToString();
}

TEST(GpuRoofline, StepsWithoutDeviceWorkAreLeftOut) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = stablehlo.exponential %x : tensor<16xf32>
  return %0 : tensor<16xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  std::map<const Step*, StepMeasurement> measured;
  measured[Leaves(*p.program)[0]] = {3, 0, 0, 0};
  EXPECT_TRUE(BuildRoofline(*p.program, measured, 3, DeviceLimits::H200()).rows.empty());
}

}  // namespace
}  // namespace hlograph::gpu

// FFTs on the GPU: the choice between cuFFT and the generated direct DFT
// (plan/fft_config.h), the plan of a cuFFT step, and (on a GPU) cuFFT's
// results against the interpreter's for every transform type.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "backends/gpu/plan/fft_config.h"
#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/step_cost.h"
#include "backends/gpu/runtime/fft_plan.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// An fft op of `type` from `in` to `out`, alone in a function.
std::string FftProgram(const std::string& type, const std::string& lengths, const std::string& in,
                       const std::string& out) {
  return "func.func @main(%x: " + in + ") -> " + out + " {\n  %0 = stablehlo.fft %x, type = " + type +
         ", length = [" + lengths + "] : (" + in + ") -> " + out + "\n  return %0 : " + out + "\n}";
}

std::vector<const FftStep*> FftSteps(const GpuProgram& program) {
  std::vector<const FftStep*> found;
  ForEachStep(program.main, [&](const Step& step, int) {
    if (const auto* f = std::get_if<FftStep>(&step.action)) found.push_back(f);
  });
  return found;
}

TEST(GpuFftPlan, ConfigsOfEachType) {
  struct Case {
    std::string type, lengths, in, out, printed;
    int64_t in_bytes, out_bytes;
  };
  const Case cases[] = {
      {"FFT", "16", "tensor<3x16xcomplex<f32>>", "tensor<3x16xcomplex<f32>>", "fft C2C forward f32 16 x 3", 3 * 16 * 8,
       3 * 16 * 8},
      {"IFFT", "4, 8", "tensor<2x4x8xcomplex<f64>>", "tensor<2x4x8xcomplex<f64>>",
       "fft C2C inverse f64 4x8 x 2, scaled by 1/32", 2 * 32 * 16, 2 * 32 * 16},
      {"RFFT", "10", "tensor<5x10xf32>", "tensor<5x6xcomplex<f32>>", "fft R2C forward f32 10 x 5", 5 * 10 * 4,
       5 * 6 * 8},
      {"IRFFT", "6, 10", "tensor<6x6xcomplex<f64>>", "tensor<6x10xf64>",
       "fft C2R inverse f64 6x10 x 1, scaled by 1/60", 6 * 6 * 16, 60 * 8},
  };
  for (const Case& c : cases) {
    auto modules = testing::ParseOrDie(FftProgram(c.type, c.lengths, c.in, c.out));
    const ir::Operation* fft = nullptr;
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "stablehlo.fft") fft = op.get();
    }
    ASSERT_NE(fft, nullptr);
    auto config = FftConfigOf(*fft);
    ASSERT_TRUE(config.ok()) << config.status().message();
    EXPECT_EQ(config->ToString(), c.printed);
    EXPECT_EQ(config->input_bytes(), c.in_bytes) << c.printed;
    EXPECT_EQ(config->output_bytes(), c.out_bytes) << c.printed;
  }
}

// By the estimates: short transforms stay direct DFTs (fused, no library
// call), long ones go to cuFFT; HLOGRAPH_GPU_FFT pins either.
TEST(GpuFftPlan, ChoiceByCost) {
  const DeviceLimits h200 = DeviceLimits::H200();
  FftConfig small;
  small.lengths = {16};
  small.batch = 4;
  FftConfig long_rows = small;
  long_rows.lengths = {4096};
  long_rows.batch = 1024;
  FftConfig many_short = small;  // short, but so many that the O(N) per output adds up
  many_short.lengths = {64};
  many_short.batch = 1 << 16;
  EXPECT_FALSE(ChooseFft(small, h200).library) << ChooseFft(small, h200).why;
  EXPECT_TRUE(ChooseFft(long_rows, h200).library) << ChooseFft(long_rows, h200).why;
  EXPECT_TRUE(ChooseFft(many_short, h200).library) << ChooseFft(many_short, h200).why;
  {
    const testing::ScopedEnv pin("HLOGRAPH_GPU_FFT", "library");
    const PlanOptions o = PlanOptions::FromEnvironment();
    const ScopedPlanOptions scoped(o);
    EXPECT_TRUE(ChooseFft(small, h200).library);
  }
  {
    // A transform cuFFT refused on this process's GPU (when an executable
    // was loaded) is a direct DFT from then on, saying why.
    FftConfig refused = long_rows;
    refused.batch = 1021;  // a config no other test plans
    ASSERT_TRUE(ChooseFft(refused, h200).library);
    RefuseLibraryCall(refused.ToString(), "CUFFT_ALLOC_FAILED");
    EXPECT_FALSE(ChooseFft(refused, h200).library);
    EXPECT_TRUE(testing::HasSubstr(ChooseFft(refused, h200).why, "CUFFT_ALLOC_FAILED")) << ChooseFft(refused, h200).why;
    EXPECT_TRUE(ChooseFft(long_rows, h200).library);
  }
  {
    const testing::ScopedEnv pin("HLOGRAPH_GPU_FFT", "direct");
    const PlanOptions o = PlanOptions::FromEnvironment();
    const ScopedPlanOptions scoped(o);
    EXPECT_FALSE(ChooseFft(long_rows, h200).library);
  }
}

// A spectral filter over long rows: both transforms through cuFFT, the
// inverse one scaled; the filter between them is one loop kernel that
// writes the inverse's operand (cuFFT reads buffers, it fuses nothing).
TEST(GpuFftPlan, LongTransformsAreCufftSteps) {
  Planned p = Plan(R"(func.func @main(%x: tensor<256x2048xcomplex<f32>>, %w: tensor<2048xf32>)
    -> tensor<256x2048xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [2048] : (tensor<256x2048xcomplex<f32>>) -> tensor<256x2048xcomplex<f32>>
  %1 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<2048xf32>) -> tensor<256x2048xf32>
  %2 = stablehlo.convert %1 : (tensor<256x2048xf32>) -> tensor<256x2048xcomplex<f32>>
  %3 = stablehlo.multiply %0, %2 : tensor<256x2048xcomplex<f32>>
  %4 = stablehlo.fft %3, type = IFFT, length = [2048] : (tensor<256x2048xcomplex<f32>>) -> tensor<256x2048xcomplex<f32>>
  return %4 : tensor<256x2048xcomplex<f32>>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const std::vector<const FftStep*> ffts = FftSteps(*p.program);
  ASSERT_EQ(ffts.size(), 2u);
  EXPECT_EQ(ffts[0]->config.ToString(), "fft C2C forward f32 2048 x 256");
  EXPECT_EQ(ffts[1]->config.ToString(), "fft C2C inverse f32 2048 x 256, scaled by 1/2048");
  EXPECT_EQ(p.program->fusions.size(), 1u);
  EXPECT_TRUE(OfKind(*p.program, FusionKind::kFft).empty());
  EXPECT_TRUE(p.program->Verify().ok());
  const std::string printed = p.program->ToString();
  EXPECT_TRUE(testing::HasSubstr(printed, "(cuFFT)")) << printed;
  GraphOptions options;
  const GraphPlan graph = BuildGraphPlan(*p.program, options);
  ASSERT_TRUE(graph.Verify().ok());
  int library = 0;
  for (const GraphNode& n : graph.graphs[0].nodes) library += n.kind == NodeKind::kFft;
  EXPECT_EQ(library, 2);
}

// On the device: cuFFT (pinned, whatever the sizes) matches the
// interpreter for every type, 1 to 3 dims, f32 and f64, lengths that are
// not powers of two; repeated calls on the same arguments give the same
// bits (a C2R transform does not overwrite its operand).
TEST(GpuFftPlan, RuntimeKernelsCompile) {
  auto cubin = CompileToCubin(FftKernelSource(), kFftHermitianCopyKernelName, CompileOptions{});
  ASSERT_TRUE(cubin.ok()) << cubin.status().message();
  EXPECT_FALSE(cubin->cubin.empty());
}

TEST(GpuFftDevice, CufftMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv pin("HLOGRAPH_GPU_FFT", "library");
  struct Case {
    std::string type, lengths, in, out;
  };
  const Case cases[] = {
      {"FFT", "256", "tensor<3x256xcomplex<f32>>", "tensor<3x256xcomplex<f32>>"},
      {"IFFT", "1000", "tensor<2x1000xcomplex<f32>>", "tensor<2x1000xcomplex<f32>>"},
      {"FFT", "8, 12", "tensor<2x8x12xcomplex<f64>>", "tensor<2x8x12xcomplex<f64>>"},
      {"IFFT", "4, 6, 8", "tensor<4x6x8xcomplex<f32>>", "tensor<4x6x8xcomplex<f32>>"},
      {"RFFT", "64", "tensor<5x64xf32>", "tensor<5x33xcomplex<f32>>"},
      {"RFFT", "6, 10", "tensor<2x6x10xf64>", "tensor<2x6x6xcomplex<f64>>"},
      {"IRFFT", "64", "tensor<5x33xcomplex<f32>>", "tensor<5x64xf32>"},
      {"IRFFT", "6, 10", "tensor<2x6x6xcomplex<f64>>", "tensor<2x6x10xf64>"},
      // Long and many-dimensional C2R transforms of random (not Hermitian)
      // half spectra: the self-conjugate bins' imaginary parts drop out.
      {"IRFFT", "4096", "tensor<4x2049xcomplex<f32>>", "tensor<4x4096xf32>"},
      {"IRFFT", "32, 64", "tensor<3x32x33xcomplex<f32>>", "tensor<3x32x64xf32>"},
      {"IRFFT", "4, 6, 9", "tensor<2x4x6x5xcomplex<f64>>", "tensor<2x4x6x9xf64>"},
  };
  uint64_t seed = 11;
  for (const Case& c : cases) {
    const std::string text = FftProgram(c.type, c.lengths, c.in, c.out);
    Planned p = Plan(text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    ASSERT_EQ(FftSteps(*p.program).size(), 1u) << text;
    ExpectMatchesInterpreterAndRepeats(c.type + " " + c.lengths + " " + c.in, text, seed++);
    // A plan cuFFT made but failed to run is a direct DFT instead: still
    // right, but say so.
    const std::string config = FftSteps(*p.program)[0]->config.ToString();
    if (const auto why = LibraryRefusal(config)) std::cerr << "cuFFT refused " << config << ": " << *why << "\n";
  }
}

// Without the pin, a long spectral filter (the plan above) on the device.
TEST(GpuFftDevice, SpectralFilterMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExpectMatchesInterpreterAndRepeats("spectral filter", R"(func.func @main(%x: tensor<64x4096xcomplex<f32>>, %w: tensor<4096xf32>)
    -> (tensor<64x4096xcomplex<f32>>, tensor<64x4096xf32>) {
  %0 = stablehlo.fft %x, type = FFT, length = [4096] : (tensor<64x4096xcomplex<f32>>) -> tensor<64x4096xcomplex<f32>>
  %1 = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<4096xf32>) -> tensor<64x4096xf32>
  %2 = stablehlo.convert %1 : (tensor<64x4096xf32>) -> tensor<64x4096xcomplex<f32>>
  %3 = stablehlo.multiply %0, %2 : tensor<64x4096xcomplex<f32>>
  %4 = stablehlo.fft %3, type = IFFT, length = [4096] : (tensor<64x4096xcomplex<f32>>) -> tensor<64x4096xcomplex<f32>>
  %5 = stablehlo.slice %3 [0:64, 0:2049] : (tensor<64x4096xcomplex<f32>>) -> tensor<64x2049xcomplex<f32>>
  %6 = stablehlo.fft %5, type = IRFFT, length = [4096] : (tensor<64x2049xcomplex<f32>>) -> tensor<64x4096xf32>
  return %4, %6 : tensor<64x4096xcomplex<f32>>, tensor<64x4096xf32>
})", 5);
}

}  // namespace
}  // namespace hlograph::gpu

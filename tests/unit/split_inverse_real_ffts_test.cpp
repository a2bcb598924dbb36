// passes/split_inverse_real_ffts.h: a multi-dim IRFFT becomes the complex
// inverse over its leading dims and the real inverse along the last, which
// compute what it does (the interpreter on random half spectra, not
// Hermitian ones included); the predicate picks which; and the GPU plan
// splits the transforms cuFFT refused.
#include <gtest/gtest.h>

#include <cmath>

#include "backends/cpu/random_tensor.h"
#include "backends/gpu/plan/fft_config.h"
#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/planner.h"
#include "cpu_test_util.h"
#include "ir/clone.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/split_inverse_real_ffts.h"
#include "test_util.h"

namespace hlograph::passes {
namespace {

// IRFFTs of 2 and 3 lengths (f32 and f64, odd and even last lengths) and
// one of 1 length, which stays.
constexpr const char* kProgram = R"(
func.func @main(%a: tensor<3x6x5xcomplex<f32>>, %b: tensor<2x4x3x4xcomplex<f64>>, %c: tensor<4x9xcomplex<f32>>) -> (tensor<3x6x8xf32>, tensor<2x4x3x7xf64>, tensor<4x16xf32>) {
  %0 = stablehlo.fft %a, type = IRFFT, length = [6, 8] : (tensor<3x6x5xcomplex<f32>>) -> tensor<3x6x8xf32>
  %1 = stablehlo.fft %b, type = IRFFT, length = [4, 3, 7] : (tensor<2x4x3x4xcomplex<f64>>) -> tensor<2x4x3x7xf64>
  %2 = stablehlo.fft %c, type = IRFFT, length = [16] : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
  return %0, %1, %2 : tensor<3x6x8xf32>, tensor<2x4x3x7xf64>, tensor<4x16xf32>
})";

int CountFfts(const ir::Module& m) {
  int n = 0;
  for (const auto& op : m.EntryFunction()->region(0).front().operations()) n += op->id() == ir::OpId::kFft;
  return n;
}

TEST(SplitInverseRealFfts, TheTwoPartsComputeTheWholeTransform) {
  auto modules = testing::ParseOrDie(kProgram);
  std::unique_ptr<ir::Module> split = ir::CloneModule(*modules[0]);
  EXPECT_EQ(SplitInverseRealFfts(*split, [](const ir::Operation&) { return true; }), 2);
  const Status verified = ir::VerifyModule(*split);
  ASSERT_TRUE(verified.ok()) << verified.message() << "\n" << ir::PrintModule(*split);
  EXPECT_EQ(CountFfts(*split), 5) << ir::PrintModule(*split);  // two each, and the 1-D one
  const ir::Operation& entry = *modules[0]->EntryFunction();
  for (uint64_t seed : {1, 2}) {
    auto args = cpu::RandomTensors(ir::FunctionSignature(entry).inputs, seed);
    ASSERT_TRUE(args.ok());
    auto want = cpu::Interpreter(*modules[0]).RunEntry(*args);
    auto got = cpu::Interpreter(*split).RunEntry(*args);
    ASSERT_TRUE(want.ok() && got.ok()) << (want.ok() ? got.status().message() : want.status().message());
    ASSERT_EQ(want->size(), got->size());
    for (size_t i = 0; i < want->size(); ++i) {
      const std::vector<double> w = cpu::test_util::Values<double>((*want)[i]);
      const std::vector<double> g = cpu::test_util::Values<double>((*got)[i]);
      ASSERT_EQ(w.size(), g.size());
      const double tol = i == 1 ? 1e-12 : 1e-5;
      for (size_t k = 0; k < w.size(); ++k) {
        EXPECT_FALSE(std::isnan(g[k]));
        EXPECT_NEAR(w[k], g[k], tol * (1 + std::fabs(w[k]))) << "result " << i << " element " << k;
      }
    }
  }
}

TEST(SplitInverseRealFfts, OnlyWhatThePredicateNames) {
  auto modules = testing::ParseOrDie(kProgram);
  const std::string before = ir::PrintModule(*modules[0]);
  EXPECT_EQ(SplitInverseRealFfts(*modules[0], [](const ir::Operation&) { return false; }), 0);
  EXPECT_EQ(ir::PrintModule(*modules[0]), before);
}

TEST(SplitInverseRealFfts, TheGpuPlanSplitsWhatCufftRefused) {
  const char* text = R"(func.func @main(%x: tensor<5x96x49xcomplex<f32>>) -> tensor<5x96x96xf32> {
  %0 = stablehlo.fft %x, type = IRFFT, length = [96, 96] : (tensor<5x96x49xcomplex<f32>>) -> tensor<5x96x96xf32>
  return %0 : tensor<5x96x96xf32>
})";
  auto modules = testing::ParseOrDie(text);
  const ir::Operation* fft = &*modules[0]->EntryFunction()->region(0).front().operations().front();
  auto config = gpu::FftConfigOf(*fft);
  ASSERT_TRUE(config.ok());
  const auto ffts = [&] {
    auto program = gpu::PlanProgram(*modules[0]);
    EXPECT_TRUE(program.ok()) << program.status().message();
    int n = 0;
    if (program.ok()) {
      gpu::ForEachStep(program->main, [&](const gpu::Step& step, int) { n += std::holds_alternative<gpu::FftStep>(step.action); });
    }
    return n;
  };
  const testing::ScopedEnv library("HLOGRAPH_GPU_FFT", "library");
  EXPECT_EQ(ffts(), 1);
  gpu::RefuseLibraryCall(config->ToString(), "a test's refusal");
  EXPECT_EQ(ffts(), 2);  // the C2C over the leading dim, then the 1-D C2R
}

}  // namespace
}  // namespace hlograph::passes

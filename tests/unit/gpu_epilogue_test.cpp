// Bias and relu after a product go into cuBLASLt's epilogue
// (plan/gemm_epilogue.h) when the bias is already in memory; the corpus
// test on a GPU checks the numbers (mlp_grad, the MLP programs).
#include <gtest/gtest.h>

#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// The products here have 8 rows, which generated kernels take by
// default (their own epilogues: gpu_generated_dot_test); these are about
// cuBLASLt's.
Planned PlanForCublasLt(const std::string& text) {
  const testing::ScopedEnv cublas_only("HLOGRAPH_GPU_GENERATED_DOT", "0");
  return Plan(text);
}

std::vector<const GemmStep*> Gemms(const GpuProgram& g) {
  std::vector<const GemmStep*> out;
  ForEachStep(g.main, [&](const Step& s, int) {
    if (const auto* gemm = std::get_if<GemmStep>(&s.action)) out.push_back(gemm);
  });
  return out;
}

int Kernels(const GpuProgram& g) {
  int n = 0;
  ForEachStep(g.main, [&](const Step& s, int) { n += std::holds_alternative<KernelStep>(s.action); });
  return n;
}

TEST(GpuEpilogue, BiasAndReluAfterAProductAreOneGemm) {
  Planned p = PlanForCublasLt(R"(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
  %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %4 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
  %5 = stablehlo.maximum %3, %4 : tensor<8x32xf32>
  return %5 : tensor<8x32xf32>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto gemms = Gemms(*p.program);
  ASSERT_EQ(gemms.size(), 1u) << p.program->ToString();
  EXPECT_EQ(gemms[0]->config.epilogue, GemmEpilogue::kBiasRelu);
  EXPECT_EQ(gemms[0]->bias, p.program->parameters[2]);  // read where it is
  EXPECT_EQ(gemms[0]->out, p.program->results[0]);
  EXPECT_EQ(Kernels(*p.program), 0) << p.program->ToString();
}

TEST(GpuEpilogue, ASumReadElsewhereKeepsOnlyTheBias) {
  // The sum feeds a comparison too (a relu's gradient mask): the GEMM adds
  // the bias, the maximum stays a kernel.
  Planned p = PlanForCublasLt(R"(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8x32xi1>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
  %2 = stablehlo.add %1, %0 : tensor<8x32xf32>
  %z = stablehlo.constant dense<0.0> : tensor<8x32xf32>
  %3 = stablehlo.maximum %2, %z : tensor<8x32xf32>
  %4 = stablehlo.compare GT, %2, %z, FLOAT : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
  return %3, %4 : tensor<8x32xf32>, tensor<8x32xi1>
})");
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto gemms = Gemms(*p.program);
  ASSERT_EQ(gemms.size(), 1u);
  EXPECT_EQ(gemms[0]->config.epilogue, GemmEpilogue::kBias);
}

TEST(GpuEpilogue, BiasAlongRowsOrComputedFirstStaysAKernel) {
  // bias[i] (along the rows) is not cuBLASLt's bias; a bias that would need
  // a kernel of its own (a convert) gains nothing.
  for (const char* text : {R"(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<8xf32>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xf32>) -> tensor<8x32xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
})",
                           R"(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xbf16>) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %c = stablehlo.convert %b : (tensor<32xbf16>) -> tensor<32xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
})"}) {
    Planned p = PlanForCublasLt(text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    const auto gemms = Gemms(*p.program);
    ASSERT_EQ(gemms.size(), 1u);
    EXPECT_EQ(gemms[0]->config.epilogue, GemmEpilogue::kNone) << p.program->ToString();
    EXPECT_EQ(Kernels(*p.program), 1);
  }
}

}  // namespace
}  // namespace hlograph::gpu

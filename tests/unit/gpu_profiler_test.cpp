// The profiler's attribution of device work to steps (what the roofline
// of `bench --profile` is built from), on a GPU: every step that queues
// work gets it, once per run, and nothing is left unattributed.
#include <gtest/gtest.h>

#include <map>

#include "backends/gpu/plan/roofline.h"
#include "backends/gpu/runtime/kernel_profiler.h"
#include "backends/gpu/step_profile.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

// A loop of three GEMMs (cuBLASLt: 64 rows) and tanh kernels, then an
// elementwise kernel after it.
constexpr const char* kLoopOfProducts = R"(
func.func @main(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<64x256xf32>
   cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %t = stablehlo.tanh %p : tensor<64x256xf32>
    %n = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %n, %t : tensor<i32>, tensor<64x256xf32>
  }
  %e = stablehlo.exponential %r#1 : tensor<64x256xf32>
  return %e : tensor<64x256xf32>
})";

TEST(GpuProfiler, DeviceWorkIsAttributedToTheStepThatQueuedIt) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto modules = testing::ParseOrDie(kLoopOfProducts);
  const ir::Operation* entry = modules[0]->EntryFunction();
  auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 1);
  ASSERT_TRUE(args.ok());
  auto exe = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kStream));
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  ASSERT_TRUE((*exe)->Run(*args).ok());  // warm: library handles made before profiling
  ASSERT_TRUE(KernelProfiler::Start(/*by_step=*/true).ok());
  StepTagger tagger;
  (*exe)->set_step_observer(&tagger);
  constexpr int kCalls = 2;
  for (int call = 0; call < kCalls; ++call) ASSERT_TRUE((*exe)->Run(*args).ok());
  (*exe)->set_step_observer(nullptr);
  auto totals = KernelProfiler::Stop();
  ASSERT_TRUE(totals.ok()) << totals.status().message();

  EXPECT_EQ(totals->unattributed_s, 0);
  std::map<const Step*, StepMeasurement> measured = StepMeasurements(tagger, *totals);
  ASSERT_FALSE(totals->by_step.empty());
  double attributed = 0;
  for (const auto& [step, m] : measured) {
    if (m.activities > 0) {
      ASSERT_GT(m.runs, 0) << "device work tagged with a step that never ran";
    }
    attributed += m.seconds;
  }
  // Every GEMM and kernel step has its own device work, once per run.
  int gemms = 0, kernels = 0;
  ForEachStep((*exe)->program().main, [&](const Step& step, int) {
    const bool gemm = std::holds_alternative<GemmStep>(step.action);
    const bool kernel = std::holds_alternative<KernelStep>(step.action);
    if (!gemm && !kernel) return;
    const StepMeasurement& m = measured[&step];
    EXPECT_GE(m.activities, m.runs) << StepName((*exe)->program(), step);
    EXPECT_GT(m.seconds, 0) << StepName((*exe)->program(), step);
    if (gemm) {
      ++gemms;
      EXPECT_EQ(m.runs, 3 * kCalls);  // three iterations a call
    }
    kernels += kernel;
  });
  EXPECT_EQ(gemms, 1);
  EXPECT_GE(kernels, 2);
  // Run serializes the steps: their times add up to the busy time.
  EXPECT_NEAR(attributed, totals->busy_s, 0.05 * totals->busy_s);

  const Roofline roofline = BuildRoofline((*exe)->program(), measured, kCalls, DeviceLimits::H200());
  ASSERT_FALSE(roofline.rows.empty());
  for (const RooflineRow& row : roofline.rows) {
    EXPECT_GT(row.seconds, 0) << row.name;
    if (row.name != "while") {  // a loop's own row: its measured copies only
      EXPECT_GT(row.bytes, 0) << row.name;
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

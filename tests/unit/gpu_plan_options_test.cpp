// The plan's switches and tuning values (plan/plan_options.h): read from
// the environment in one place, kept by the program, and in effect while
// its kernels are emitted even after the environment changes.
#include <gtest/gtest.h>

#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

TEST(GpuPlanOptions, DefaultsUnlessTheEnvironmentSaysOtherwise) {
  const PlanOptions d = PlanOptions::FromEnvironment();
  EXPECT_EQ(d.ToString(), "defaults");
  EXPECT_TRUE(d.flash_attention);
  EXPECT_EQ(d.dot_min_blocks_per_sm, -1);
  EXPECT_EQ(d.loads_together, LoadsTogether::kByBlock);
  EXPECT_TRUE(d.dot_loads_early.epilogue);
  EXPECT_FALSE(d.dot_loads_early.staged);

  const testing::ScopedEnv flash("HLOGRAPH_GPU_FLASH_ATTENTION", "0");
  const testing::ScopedEnv chunk("HLOGRAPH_GPU_ATTENTION_CHUNK", "2000");
  const testing::ScopedEnv threads("HLOGRAPH_GPU_ROW_THREADS", "100");  // not a multiple of 32: ignored
  const testing::ScopedEnv min_blocks("HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM", "0");
  const testing::ScopedEnv loads("HLOGRAPH_GPU_LOADS_TOGETHER", "warp");
  const testing::ScopedEnv early("HLOGRAPH_GPU_DOT_LOADS_EARLY", "staged");
  const PlanOptions o = PlanOptions::FromEnvironment();
  EXPECT_FALSE(o.flash_attention);
  EXPECT_EQ(o.attention_chunk, 1024);  // at most 1024 keys a block
  EXPECT_EQ(o.row_threads, 0);
  EXPECT_EQ(o.dot_min_blocks_per_sm, 0);
  EXPECT_EQ(o.loads_together, LoadsTogether::kByWarp);
  EXPECT_FALSE(o.dot_loads_early.epilogue);
  EXPECT_TRUE(o.dot_loads_early.staged);
  EXPECT_EQ(o.ToString(),
            "HLOGRAPH_GPU_FLASH_ATTENTION=0 HLOGRAPH_GPU_ATTENTION_CHUNK=1024 HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM=0 "
            "HLOGRAPH_GPU_LOADS_TOGETHER=warp HLOGRAPH_GPU_DOT_LOADS_EARLY=staged");
}

TEST(GpuPlanOptions, AScopeHoldsThemWhateverTheEnvironment) {
  PlanOptions off;
  off.generated_dot = false;
  {
    const ScopedPlanOptions scope(off);
    EXPECT_FALSE(PlanOptions::Current().generated_dot);
    {
      const PlanOptions inner;
      const ScopedPlanOptions nested(inner);
      EXPECT_TRUE(PlanOptions::Current().generated_dot);
    }
    EXPECT_FALSE(PlanOptions::Current().generated_dot);
  }
  // No scope: the environment, read now.
  EXPECT_TRUE(PlanOptions::Current().generated_dot);
  const testing::ScopedEnv env("HLOGRAPH_GPU_GENERATED_DOT", "0");
  EXPECT_FALSE(PlanOptions::Current().generated_dot);
}

TEST(GpuPlanOptions, TheProgramKeepsThePlansOptions) {
  // A product of 4 rows: a generated kernel by default, a library product
  // with HLOGRAPH_GPU_GENERATED_DOT=0.
  const std::string text = R"(
func.func @main(%x: tensor<4x256xf32>, %w: tensor<256x512xf32>) -> tensor<4x512xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x256xf32>, tensor<256x512xf32>) -> tensor<4x512xf32>
  return %y : tensor<4x512xf32>
})";
  Planned plain = Plan(text);
  ASSERT_TRUE(plain.program.ok()) << plain.program.status().message();
  EXPECT_EQ(plain.program->options.ToString(), "defaults");
  EXPECT_EQ(plain.program->ToString().find("plan options:"), std::string::npos);
  ASSERT_EQ(plain.program->fusions.size(), 1u);
  EXPECT_EQ(plain.program->fusions[0].kind, FusionKind::kDot);
  Planned off = [&] {
    const testing::ScopedEnv env("HLOGRAPH_GPU_GENERATED_DOT", "0");
    return Plan(text);
  }();
  ASSERT_TRUE(off.program.ok()) << off.program.status().message();
  EXPECT_FALSE(off.program->options.generated_dot);
  EXPECT_TRUE(off.program->fusions.empty()) << off.program->ToString();
  EXPECT_TRUE(testing::HasSubstr(off.program->ToString(), "plan options: HLOGRAPH_GPU_GENERATED_DOT=0\n"));
}

}  // namespace
}  // namespace hlograph::gpu

// Row kernels (plan/row_fusion.h): which reductions a loop kernel computes
// for its own rows, the kernels compiling, and on a GPU the results
// against the interpreter.
#include <gtest/gtest.h>

#include <string>

#include "backends/gpu/plan/row_fusion.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

// A softmax over the rows of ROWSxCOLS, in f32 from the element type E
// (JAX's form: max, maximum with -inf, exp(x - max), sum, divide).
std::string Softmax(int rows, int cols, const std::string& e) {
  const std::string r = std::to_string(rows), c = std::to_string(cols);
  const std::string x = "tensor<" + r + "x" + c + "x" + e + ">", f = "tensor<" + r + "x" + c + "xf32>",
                    v = "tensor<" + r + "xf32>", v1 = "tensor<" + r + "x1xf32>";
  return "func.func @main(%arg0: " + x + ") -> " + x + " {\n" +
         "  %0 = stablehlo.convert %arg0 : (" + x + ") -> " + f + "\n" +
         "  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>\n" +
         "  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (" + f +
         ", tensor<f32>) -> " + v + "\n" +
         "  %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> " + v + "\n" +
         "  %3 = stablehlo.maximum %2, %1 : " + v + "\n" +
         "  %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (" + v + ") -> " + v1 + "\n" +
         "  %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (" + v1 + ") -> " + f + "\n" +
         "  %6 = stablehlo.subtract %0, %5 : " + f + "\n" +
         "  %7 = stablehlo.exponential %6 : " + f + "\n" +
         "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n" +
         "  %8 = stablehlo.reduce(%7 init: %zero) applies stablehlo.add across dimensions = [1] : (" + f +
         ", tensor<f32>) -> " + v + "\n" +
         "  %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (" + v + ") -> " + v1 + "\n" +
         "  %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (" + v1 + ") -> " + f + "\n" +
         "  %11 = stablehlo.divide %7, %10 : " + f + "\n" +
         "  %12 = stablehlo.convert %11 : (" + f + ") -> " + x + "\n" +
         "  return %12 : " + x + "\n}\n";
}

// A layer norm over the last dim of 3-d bf16 activations, with a scale
// and a shift (mean, then the variance of x - mean, in f32).
constexpr const char* kLayerNorm = R"(
func.func @main(%x: tensor<4x96x768xbf16>, %g: tensor<768xbf16>, %b: tensor<768xbf16>) -> tensor<4x96x768xbf16> {
  %xf = stablehlo.convert %x : (tensor<4x96x768xbf16>) -> tensor<4x96x768xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%xf init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x96x768xf32>, tensor<f32>) -> tensor<4x96xf32>
  %n = stablehlo.constant dense<768.0> : tensor<4x96xf32>
  %mean = stablehlo.divide %s, %n : tensor<4x96xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0, 1] : (tensor<4x96xf32>) -> tensor<4x96x768xf32>
  %d = stablehlo.subtract %xf, %mb : tensor<4x96x768xf32>
  %d2 = stablehlo.multiply %d, %d : tensor<4x96x768xf32>
  %ss = stablehlo.reduce(%d2 init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<4x96x768xf32>, tensor<f32>) -> tensor<4x96xf32>
  %var = stablehlo.divide %ss, %n : tensor<4x96xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<4x96xf32>
  %ve = stablehlo.add %var, %eps : tensor<4x96xf32>
  %r = stablehlo.rsqrt %ve : tensor<4x96xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<4x96xf32>) -> tensor<4x96x768xf32>
  %y = stablehlo.multiply %d, %rb : tensor<4x96x768xf32>
  %gf = stablehlo.convert %g : (tensor<768xbf16>) -> tensor<768xf32>
  %gb = stablehlo.broadcast_in_dim %gf, dims = [2] : (tensor<768xf32>) -> tensor<4x96x768xf32>
  %bf = stablehlo.convert %b : (tensor<768xbf16>) -> tensor<768xf32>
  %bb = stablehlo.broadcast_in_dim %bf, dims = [2] : (tensor<768xf32>) -> tensor<4x96x768xf32>
  %yg = stablehlo.multiply %y, %gb : tensor<4x96x768xf32>
  %z = stablehlo.add %yg, %bb : tensor<4x96x768xf32>
  %out = stablehlo.convert %z : (tensor<4x96x768xf32>) -> tensor<4x96x768xbf16>
  return %out : tensor<4x96x768xbf16>
}
)";

// Row sums read at the column index (x[i, j] / s[j]): no block holds
// row j's sum while it computes row i.
constexpr const char* kSumReadAcross = R"(
func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<512x512xf32>, tensor<f32>) -> tensor<512xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<512xf32>) -> tensor<512x512xf32>
  %y = stablehlo.divide %x, %sb : tensor<512x512xf32>
  return %y : tensor<512x512xf32>
}
)";

int CountKind(const GpuProgram& p, FusionKind kind) {
  int n = 0;
  for (const Fusion& f : p.fusions) n += f.kind == kind;
  return n;
}

int ReducesIn(const Fusion& f) {
  int n = 0;
  for (const ir::Operation* op : f.ops) n += op->name() == "stablehlo.reduce";
  return n;
}

TEST(GpuRowKernelPlan, OffWhenTurnedOff) {
  const testing::ScopedEnv off("HLOGRAPH_GPU_ROW_KERNELS", "0");
  Planned p = Plan(Softmax(512, 1024, "bf16"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(CountKind(*p.program, FusionKind::kRows), 0) << p.program->ToString();
}

TEST(GpuRowKernelPlan, ASoftmaxIsOneKernelWithBothReductions) {
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  Planned p = Plan(Softmax(512, 1024, "bf16"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 1u) << p.program->ToString();
  EXPECT_EQ(p.program->fusions[0].kind, FusionKind::kRows);
  EXPECT_EQ(ReducesIn(p.program->fusions[0]), 2);
}

TEST(GpuRowKernelPlan, ALayerNormIsOneKernel) {
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  Planned p = Plan(kLayerNorm);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 1u) << p.program->ToString();
  EXPECT_EQ(p.program->fusions[0].kind, FusionKind::kRows);
  EXPECT_EQ(ReducesIn(p.program->fusions[0]), 2);
}

TEST(GpuRowKernelPlan, ShapesOutsideTheCostModelKeepReductionKernels) {
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  // Too few rows to fill the device, rows too short, rows too long for L2.
  for (const auto& [rows, cols] : {std::pair{64, 4096}, std::pair{4096, 128}, std::pair{512, 65536}}) {
    Planned p = Plan(Softmax(rows, cols, "f32"));
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    EXPECT_EQ(CountKind(*p.program, FusionKind::kRows), 0) << rows << "x" << cols << "\n" << p.program->ToString();
    EXPECT_EQ(CountKind(*p.program, FusionKind::kReduction), 2) << rows << "x" << cols;
  }
  const RowShape at_limit{kRowKernelMinRows, kRowKernelMaxRowBytes / 4, 1};
  EXPECT_TRUE(RowKernelWorthIt(at_limit));
}

TEST(GpuRowKernelPlan, AReductionReadAtAnotherRowKeepsItsKernel) {
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  Planned p = Plan(kSumReadAcross);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(CountKind(*p.program, FusionKind::kRows), 0) << p.program->ToString();
  EXPECT_EQ(CountKind(*p.program, FusionKind::kReduction), 1);
}

TEST(GpuRowKernelPlan, TheLayoutCoversTheRow) {
  // Rows of a multiple of 4 whose vectors fit 8 a thread of 1024 threads:
  // the fewest threads that hold them in registers.
  const RowKernelLayout wide = PlanRowKernel(8192, 32768);
  EXPECT_EQ(wide.threads, 1024);
  EXPECT_EQ(wide.resident_vectors, 8);
  EXPECT_NE(wide.ToString().find("block of 1024 per row of 32768, 8 vectors of 4 a thread held in registers"),
            std::string::npos)
      << wide.ToString();
  const RowKernelLayout narrow = PlanRowKernel(512, 300);
  EXPECT_EQ(narrow.threads, 128);
  EXPECT_EQ(narrow.resident_vectors, 1);
  // Longer rows, or rows off the vectors, stream in chunks.
  const RowKernelLayout longer = PlanRowKernel(512, 65536);
  EXPECT_EQ(longer.threads, 256);
  EXPECT_EQ(longer.resident_vectors, 0);
  EXPECT_EQ(longer.loads_in_flight, 8);
  EXPECT_NE(longer.ToString().find("block of 256 per row of 65536, 8 loads in flight"), std::string::npos);
  const RowKernelLayout odd = PlanRowKernel(512, 1001);
  EXPECT_EQ(odd.threads, 128);
  EXPECT_EQ(odd.resident_vectors, 0);
  EXPECT_EQ(odd.loads_in_flight, 8);
  const testing::ScopedEnv threads("HLOGRAPH_GPU_ROW_THREADS", "512");
  EXPECT_EQ(PlanRowKernel(8192, 32768).threads, 512);
  EXPECT_EQ(PlanRowKernel(8192, 32768).resident_vectors, 16);
  const testing::ScopedEnv fewer("HLOGRAPH_GPU_ROW_THREADS", "256");
  EXPECT_EQ(PlanRowKernel(8192, 32768).resident_vectors, 0);  // 32 vectors a thread: too many
}

TEST(GpuRowKernels, EveryKernelCompiles) {
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  ExpectEveryKernelCompiles("softmax bf16", Softmax(512, 1024, "bf16"));
  ExpectEveryKernelCompiles("softmax f32 ragged", Softmax(300, 1000, "f32"));
  ExpectEveryKernelCompiles("layer norm", kLayerNorm);
  ExpectEveryKernelCompiles("softmax f32 odd rows", Softmax(300, 1001, "f32"));  // element by element
  const testing::ScopedEnv shared("HLOGRAPH_GPU_ROW_CACHE", "shared");
  ExpectEveryKernelCompiles("softmax bf16 staged", Softmax(264, 32768, "bf16"));
  ExpectEveryKernelCompiles("layer norm staged", kLayerNorm);
}

TEST(GpuRowKernels, MatchTheInterpreterAndRepeat) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv on("HLOGRAPH_GPU_ROW_KERNELS", "1");
  ExpectMatchesInterpreterAndRepeats("softmax bf16", Softmax(512, 1024, "bf16"), 1);
  ExpectMatchesInterpreterAndRepeats("softmax f32 ragged", Softmax(300, 1000, "f32"), 2);
  ExpectMatchesInterpreterAndRepeats("softmax f32 long rows", Softmax(264, 32768, "f32"), 3);  // held
  ExpectMatchesInterpreterAndRepeats("softmax bf16 longer rows", Softmax(264, 65536, "bf16"), 6);  // streamed
  ExpectMatchesInterpreterAndRepeats("layer norm", kLayerNorm, 4);
  ExpectMatchesInterpreterAndRepeats("softmax f32 odd rows", Softmax(300, 1001, "f32"), 5);
  const testing::ScopedEnv shared("HLOGRAPH_GPU_ROW_CACHE", "shared");
  ExpectMatchesInterpreterAndRepeats("softmax bf16 staged", Softmax(264, 32768, "bf16"), 7);
  ExpectMatchesInterpreterAndRepeats("softmax f32 staged", Softmax(300, 1000, "f32"), 8);
  ExpectMatchesInterpreterAndRepeats("layer norm staged", kLayerNorm, 9);
}

}  // namespace
}  // namespace hlograph::gpu

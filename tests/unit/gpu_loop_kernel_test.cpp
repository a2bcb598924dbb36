// Large loop kernels: 4-element vectors for the element a thread computes,
// and for a vector broadcast along rows (a bias, a scale) one load for the
// four lanes when the rows' length is a multiple of four. The code needs
// no GPU; the comparison with the interpreter skips without one.
#include <gtest/gtest.h>

#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

// relu(x * s + b) over ROWSx COLS bf16, s and b along the rows.
std::string BiasReluProgram(int64_t rows, int64_t cols) {
  const std::string r = std::to_string(rows), c = std::to_string(cols);
  const std::string t = "tensor<" + r + "x" + c + "xbf16>", v = "tensor<" + c + "xbf16>";
  return "func.func @main(%x: " + t + ", %s: " + v + ", %b: " + v + ") -> " + t + " {\n" +
         "  %0 = stablehlo.broadcast_in_dim %s, dims = [1] : (" + v + ") -> " + t + "\n" +
         "  %1 = stablehlo.multiply %x, %0 : " + t + "\n" +
         "  %2 = stablehlo.broadcast_in_dim %b, dims = [1] : (" + v + ") -> " + t + "\n" +
         "  %3 = stablehlo.add %1, %2 : " + t + "\n" +
         "  %z = stablehlo.constant dense<0.000000e+00> : " + t + "\n" +
         "  %4 = stablehlo.maximum %3, %z : " + t + "\n" +
         "  return %4 : " + t + "\n}\n";
}

StatusOr<KernelSource> OnlyKernel(Planned& p) {
  if (!p.program.ok()) return p.program.status();
  if (p.program->fusions.size() != 1) return Status::Error("expected one kernel:\n" + p.program->ToString());
  return EmitKernel(p.program->fusions[0]);
}

TEST(GpuLoopKernel, RowVectorsLoadOnceForFourLanes) {
  Planned p = Plan(BiasReluProgram(16384, 64));
  auto k = OnlyKernel(p);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "r1 = ((const hlo_vec4<__nv_bfloat16>*)p1)[v * 4 % 64LL / 4]")) << k->code;
  EXPECT_TRUE(testing::HasSubstr(k->code, "r2 = ((const hlo_vec4<__nv_bfloat16>*)p2)[v * 4 % 64LL / 4]")) << k->code;
  EXPECT_TRUE(testing::HasSubstr(k->code, "(unsigned long long)p1 % 8")) << k->code;  // aligned, else the scalar loop
  EXPECT_TRUE(testing::HasSubstr(k->code, "r1.v[u]")) << k->code;
  ExpectEveryKernelCompiles("bias_relu", BiasReluProgram(16384, 64));
}

TEST(GpuLoopKernel, RowsOfOtherLengthsLoadPerElement) {
  Planned p = Plan(BiasReluProgram(16384, 66));  // four lanes may straddle two rows
  auto k = OnlyKernel(p);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "hlo_vec4<__nv_bfloat16>& q0")) << k->code;
  EXPECT_EQ(k->code.find(" r1 = "), std::string::npos) << k->code;
}

// A scalar operand (rank 0) beside the vectors: read as it is.
TEST(GpuLoopKernel, ScalarOperandsAreNoRows) {
  Planned p = Plan(R"(
func.func @main(%x: tensor<4096x256xbf16>, %a: tensor<bf16>) -> tensor<4096x256xbf16> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<bf16>) -> tensor<4096x256xbf16>
  %1 = stablehlo.multiply %x, %0 : tensor<4096x256xbf16>
  return %1 : tensor<4096x256xbf16>
})");
  auto k = OnlyKernel(p);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "p1[0]")) << k->code;
  EXPECT_EQ(k->code.find(" r1 = "), std::string::npos) << k->code;
}

TEST(GpuLoopKernel, RowVectorsMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (int64_t cols : {64, 66, 4}) {
    const std::string text = BiasReluProgram((int64_t{1} << 20) / cols + 3, cols);
    std::vector<std::unique_ptr<ir::Module>> modules = testing::ParseOrDie(text);
    ASSERT_FALSE(modules.empty());
    const ir::Operation* entry = modules[0]->EntryFunction();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 11);
    ASSERT_TRUE(args.ok());
    auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
    ASSERT_TRUE(want.ok()) << want.status().message();
    auto exe = GpuExecutable::Compile(*modules[0]);
    ASSERT_TRUE(exe.ok()) << exe.status().message();
    auto got = (*exe)->Run(*args);
    ASSERT_TRUE(got.ok()) << got.status().message();
    // Rounded after every op on both sides: the same bits.
    EXPECT_EQ(Compare((*want)[0], (*got)[0], 0.0), "") << cols << " columns";
  }
}

}  // namespace
}  // namespace hlograph::gpu

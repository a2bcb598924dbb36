// Quantized programs on the GPU backend, which plans them lowered to
// integer and float ops (passes/lower_quantized.h): each plans and its
// kernels compile with NVRTC (no device needed), an int8 product is a
// cuBLASLt int8 GEMM, a refused op is named, and on a GPU every result
// matches the interpreter's bits on random arguments (quantized ones
// passed and returned as their storage integers).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <variant>

#include "backends/cpu/interpreter.h"
#include "gpu_test_util.h"
#include "quantized_programs.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

using testing::QuantizedProgram;
using testing::QuantizedPrograms;

TEST(GpuQuantized, EveryProgramPlansAndItsKernelsCompile) {
  for (const QuantizedProgram& program : QuantizedPrograms()) {
    if (program.on_gpu) ExpectEveryKernelCompiles(program.name, program.text);
  }
}

TEST(GpuQuantized, AnInt8ProductIsACublasLtInt8Gemm) {
  for (const QuantizedProgram& program : QuantizedPrograms()) {
    if (std::string(program.name) != "dot_int8_gemm_layout") continue;
    Planned p = Plan(program.text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    const GemmStep* gemm = nullptr;
    ForEachStep(p.program->main, [&](const Step& s, int) {
      if (const auto* g = std::get_if<GemmStep>(&s.action)) gemm = g;
    });
    ASSERT_NE(gemm, nullptr) << p.program->ToString();
    EXPECT_EQ(gemm->config.lhs_type, ir::ElementType::kI8);
    EXPECT_EQ(gemm->config.rhs_type, ir::ElementType::kI8);
    EXPECT_EQ(gemm->config.out_type, ir::ElementType::kI32);
    // The entry still takes and gives the quantized types.
    EXPECT_TRUE(p.program->parameter_types[0].IsQuantized());
    EXPECT_TRUE(p.program->result_types[0].IsQuantized());
    return;
  }
  FAIL() << "no program dot_int8_gemm_layout";
}

TEST(GpuQuantized, AnOpTheLoweringCannotReproduceIsRefusedByName) {
  Planned p = Plan(R"(
func.func @main(%a: tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>) -> tensor<4xbf16> {
  %x = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>) -> tensor<4xbf16>
  return %x : tensor<4xbf16>
})");
  ASSERT_FALSE(p.program.ok());
  EXPECT_TRUE(testing::HasSubstr(p.program.status().message(), "'stablehlo.uniform_dequantize' op"));
}

TEST(GpuQuantized, MatchesTheInterpreterOnTheDevice) {
  if (!GpuAvailable()) GTEST_SKIP() << "no CUDA device";
  for (const QuantizedProgram& program : QuantizedPrograms()) {
    if (!program.on_gpu) continue;
    auto modules = testing::ParseOrDie(program.text, program.name);
    ASSERT_FALSE(modules.empty());
    const ir::Operation* entry = modules[0]->EntryFunction();
    auto graph = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kGraph));
    auto stream = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kStream));
    ASSERT_TRUE(graph.ok()) << program.name << ": " << graph.status().message();
    ASSERT_TRUE(stream.ok()) << program.name << ": " << stream.status().message();
    for (uint64_t seed = 0; seed < 4; ++seed) {
      const auto args = testing::QuantizedTestArgs(ir::FunctionSignature(*entry).inputs, seed);
      auto want = cpu::Interpreter(*modules[0]).Call(*entry, args);
      ASSERT_TRUE(want.ok()) << program.name << ": " << want.status().message();
      auto got = (*graph)->Run(args);
      auto again = (*stream)->Run(args);
      ASSERT_TRUE(got.ok()) << program.name << ": " << got.status().message();
      ASSERT_TRUE(again.ok()) << program.name << ": " << again.status().message();
      ASSERT_EQ(got->size(), want->size()) << program.name;
      for (size_t i = 0; i < want->size(); ++i) {
        const std::string where = std::string(program.name) + " seed " + std::to_string(seed) + " result " +
                                  std::to_string(i);
        const cpu::Tensor& w = (*want)[i];
        const cpu::Tensor& g = (*got)[i];
        ASSERT_EQ(g.type(), w.type()) << where;
        EXPECT_EQ(std::memcmp(g.bytes(), (*again)[i].bytes(), g.byte_size()), 0) << where << ": stream mode differs";
        // Float results may differ in the last bits: float products
        // (hybrid) are summed in another order, and a multiply feeding an
        // add (a dequantized value plus a float) is one FMA on the device,
        // as XLA compiles it. Integer and quantized results are exact.
        const bool exact = !ir::IsFloat(w.element());
        if (program.order_dependent) continue;
        if (exact) {
          EXPECT_EQ(std::memcmp(w.bytes(), g.bytes(), w.byte_size()), 0) << where << ": differs from the interpreter";
        } else {
          const std::string problem = Compare(w, g, 1e-5);
          EXPECT_TRUE(problem.empty()) << where << ": " << problem;
        }
      }
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

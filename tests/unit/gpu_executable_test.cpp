// Whole programs on the GPU (stream mode) against the CPU interpreter on
// the same random arguments: every corpus program the GPU backend plans.
// Skips without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

TEST(GpuExecutable, CorpusMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  int ran = 0;
  for (const std::string& path : testing::MlirFiles(testing::SourceDir() + "/tests/corpus")) {
    if (path.find("/debug/") != std::string::npos) continue;
    // Loops whose trip count depends on the data need their own argument
    // recipes (tools/corpus/programs.py): the conformance run covers them.
    if (path.find("collatz") != std::string::npos) continue;
    auto parsed = frontend::ParseFile(path);
    ASSERT_TRUE(parsed.ok());
    if (parsed->modules.size() != 1) continue;
    const ir::Module& module = *parsed->modules[0];
    if (!PlanProgram(module).ok()) continue;  // ops the GPU does not run yet
    const ir::Operation* entry = module.EntryFunction();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 42);
    ASSERT_TRUE(args.ok()) << path;
    cpu::Interpreter interpreter(module);
    auto want = interpreter.Call(*entry, *args);
    ASSERT_TRUE(want.ok()) << path << ": " << want.status().message();
    auto exe = GpuExecutable::Compile(module);
    ASSERT_TRUE(exe.ok()) << path << ": " << exe.status().message();
    auto got = (*exe)->Run(*args);
    ASSERT_TRUE(got.ok()) << path << ": " << got.status().message();
    ASSERT_EQ(got->size(), want->size()) << path;
    const std::string text = testing::ReadFile(path);
    for (size_t i = 0; i < want->size(); ++i) {
      const std::string problem = Compare((*want)[i], (*got)[i], Rtol(text, (*want)[i].element()));
      EXPECT_TRUE(problem.empty()) << path << " result " << i << ": " << problem;
    }
    ++ran;
  }
  std::cout << "GPU stream mode: " << ran << " corpus programs compared with the interpreter\n";
  EXPECT_GT(ran, 60);
}

// Calls from several threads on one executable (sharing its arena) give
// bit for bit what the same calls give one at a time. (Against the
// interpreter they could differ by more than a tolerance: TF32 rounding can
// flip a relu mask.)
TEST(GpuExecutable, ConcurrentCallsFromSeveralThreads) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/tests/corpus/mlp_grad.mlir");
  ASSERT_TRUE(parsed.ok());
  const ir::Module& module = *parsed->modules[0];
  auto exe = GpuExecutable::Compile(module);
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  const ir::Operation* entry = module.EntryFunction();
  constexpr size_t kThreads = 8, kCalls = 10;
  std::vector<std::vector<cpu::Tensor>> args, want;
  for (size_t i = 0; i < kThreads * kCalls; ++i) {
    auto a = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 100 + i);
    ASSERT_TRUE(a.ok());
    auto w = (*exe)->Run(*a);
    ASSERT_TRUE(w.ok()) << w.status().message();
    args.push_back(std::move(*a));
    want.push_back(std::move(*w));
  }
  const std::vector<std::string> problems = testing::OnThreads(kThreads, [&](size_t t) -> std::string {
    for (size_t call = 0; call < kCalls; ++call) {
      const size_t i = t * kCalls + call;
      auto got = (*exe)->Run(args[i]);
      if (!got.ok()) return "call " + std::to_string(call) + " failed: " + got.status().message();
      for (size_t r = 0; r < want[i].size(); ++r) {
        if (std::memcmp(want[i][r].bytes(), (*got)[r].bytes(), want[i][r].byte_size()) != 0) {
          return "call " + std::to_string(call) + " result " + std::to_string(r) + " differs";
        }
      }
    }
    return "";
  });
  for (size_t t = 0; t < kThreads; ++t) EXPECT_TRUE(problems[t].empty()) << "thread " << t << ": " << problems[t];
}

TEST(GpuExecutable, ReportsNoGpuCleanly) {
  if (GpuAvailable()) GTEST_SKIP() << "there is a GPU";
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/tests/corpus/softmax.mlir");
  ASSERT_TRUE(parsed.ok());
  auto exe = GpuExecutable::Compile(*parsed->modules[0]);
  ASSERT_FALSE(exe.ok());
  EXPECT_TRUE(testing::HasSubstr(exe.status().message(), "no GPU"));
}

}  // namespace
}  // namespace hlograph::gpu

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
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// Largest |gpu - cpu| / (atol + rtol * max|cpu|) over a float result (a
// normwise bound: summation order differs between the two); integers and
// bools must match exactly. NaN must meet NaN.
std::string Compare(const cpu::Tensor& want, const cpu::Tensor& got, double rtol) {
  if (want.type() != got.type()) return "type " + got.type().ToString() + ", expected " + want.type().ToString();
  std::string problem;
  cpu::DispatchElementType(want.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* w = want.data<T>();
    const T* g = got.data<T>();
    const int64_t n = want.num_elements();
    if constexpr (cpu::kIsFloat<T>) {
      double scale = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(cpu::Load(w[i]));
        if (std::isfinite(x)) scale = std::max(scale, std::fabs(x));
      }
      const double allowed = 1e-6 + rtol * scale;
      for (int64_t i = 0; i < n && problem.empty(); ++i) {
        const double x = static_cast<double>(cpu::Load(w[i])), y = static_cast<double>(cpu::Load(g[i]));
        const bool ok = (std::isnan(x) && std::isnan(y)) || x == y || std::fabs(x - y) <= allowed;
        if (!ok) {
          problem = "element " + std::to_string(i) + ": cpu " + std::to_string(x) + ", gpu " + std::to_string(y) +
                    " (allowed " + std::to_string(allowed) + ")";
        }
      }
    } else if constexpr (!cpu::kIsComplex<T>) {
      if (n > 0 && std::memcmp(w, g, want.byte_size()) != 0) problem = "integer results differ";
    }
  });
  return problem;
}

// Whether some f32 product of the program may run at TF32 (a dot_general
// or convolution not asking for HIGHEST).
bool HasTf32Products(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const bool product =
        line.find("dot_general") != std::string::npos || line.find("stablehlo.convolution") != std::string::npos;
    if (product && line.find("HIGHEST") == std::string::npos) return true;
  }
  return false;
}

double Rtol(const std::string& text, ir::ElementType e) {
  const bool tf32 = HasTf32Products(text);
  if (e == ir::ElementType::kBF16) return 2e-2;
  if (e == ir::ElementType::kF16) return 1e-2;
  if (e == ir::ElementType::kF64) return 1e-9;
  return tf32 ? 1e-2 : 1e-4;
}

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

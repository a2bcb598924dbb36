// What the GPU tests share: planning a program from text, and comparing a
// GPU result with the interpreter's.
#pragma once

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "backends/cpu/tensor.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#include "test_util.h"

namespace hlograph::gpu {

// A program planned from text, with the modules it points into.
struct Planned {
  std::vector<std::unique_ptr<ir::Module>> modules;
  StatusOr<GpuProgram> program = Status::Error("not planned");
};

inline Planned Plan(const std::string& text) {
  Planned p;
  p.modules = testing::ParseOrDie(text);
  if (!p.modules.empty()) p.program = PlanProgram(*p.modules[0]);
  return p;
}

// x * 2 + y, then tanh, over 1024 f32: one loop kernel.
constexpr const char* kElementwiseChain = R"(
func.func @main(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<1024xf32>
  %0 = stablehlo.multiply %x, %c : tensor<1024xf32>
  %1 = stablehlo.add %0, %y : tensor<1024xf32>
  %2 = stablehlo.tanh %1 : tensor<1024xf32>
  return %2 : tensor<1024xf32>
})";

// The fusions of `kind`, in order.
inline std::vector<const Fusion*> OfKind(const GpuProgram& program, FusionKind kind) {
  std::vector<const Fusion*> found;
  for (const Fusion& f : program.fusions) {
    if (f.kind == kind) found.push_back(&f);
  }
  return found;
}

// The library products (GEMM steps) the program runs, loops included.
inline int GemmSteps(const GpuProgram& program) {
  int gemms = 0;
  ForEachStep(program.main, [&](const Step& step, int) { gemms += std::holds_alternative<GemmStep>(step.action); });
  return gemms;
}

// The text of bench/programs/NAME.mlir.
inline std::string BenchProgram(const std::string& name) {
  std::ifstream in(testing::SourceDir() + "/bench/programs/" + name + ".mlir");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Largest |gpu - cpu| / (atol + rtol * max|cpu|) over a float result (a
// normwise bound: summation order differs between the two); integers and
// bools must match exactly. NaN must meet NaN.
inline std::string Compare(const cpu::Tensor& want, const cpu::Tensor& got, double rtol) {
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
inline bool HasTf32Products(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const bool product =
        line.find("dot_general") != std::string::npos || line.find("stablehlo.convolution") != std::string::npos;
    if (product && line.find("HIGHEST") == std::string::npos) return true;
  }
  return false;
}

inline double Rtol(const std::string& text, ir::ElementType e) {
  const bool tf32 = HasTf32Products(text);
  if (e == ir::ElementType::kBF16) return 2e-2;
  if (e == ir::ElementType::kF16) return 1e-2;
  if (e == ir::ElementType::kF64) return 1e-9;
  return tf32 ? 1e-2 : 1e-4;
}

// Every kernel of `text` compiles with NVRTC (no device needed).
inline void ExpectEveryKernelCompiles(const std::string& name, const std::string& text) {
  Planned p = Plan(text);
  ASSERT_TRUE(p.program.ok()) << name << ": " << p.program.status().message();
  for (const Fusion& f : p.program->fusions) {
    auto k = EmitKernel(f);
    ASSERT_TRUE(k.ok()) << name << ": " << k.status().message();
    auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
    EXPECT_TRUE(cubin.ok()) << name << ": " << cubin.status().message() << "\n" << k->code;
  }
}

inline GpuCompileOptions Mode(ExecutionMode mode) {
  GpuCompileOptions o;
  o.mode = mode;
  return o;
}

// How later calls must agree with the first: bit for bit (sums added in a
// fixed order), or within the tolerance (float atomics add in any order).
enum class Repeats { kBitwise, kWithinTolerance };

// On a GPU: `text` in graph mode matches the interpreter on random inputs
// from `seed`, and three more calls, alternating stream and graph mode,
// give the first call's bits (arrival counters zero again after each
// call, partial sums added in a fixed order) or, with
// Repeats::kWithinTolerance, match the interpreter again.
inline void ExpectMatchesInterpreterAndRepeats(const std::string& name, const std::string& text, uint64_t seed,
                                               Repeats repeats = Repeats::kBitwise) {
  std::vector<std::unique_ptr<ir::Module>> modules = testing::ParseOrDie(text);
  const ir::Operation* entry = modules[0]->EntryFunction();
  auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, seed);
  ASSERT_TRUE(args.ok()) << name;
  auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().message();
  auto graph = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kGraph));
  auto stream = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kStream));
  ASSERT_TRUE(graph.ok()) << name << ": " << graph.status().message();
  ASSERT_TRUE(stream.ok()) << name << ": " << stream.status().message();
  auto first = (*graph)->Run(*args);
  ASSERT_TRUE(first.ok()) << name << ": " << first.status().message();
  ASSERT_EQ(first->size(), want->size()) << name;
  for (size_t i = 0; i < want->size(); ++i) {
    const std::string problem = Compare((*want)[i], (*first)[i], Rtol(text, (*want)[i].element()));
    EXPECT_TRUE(problem.empty()) << name << " seed " << seed << " result " << i << ": " << problem;
  }
  for (int call = 0; call < 3; ++call) {
    auto again = (call % 2 ? *stream : *graph)->Run(*args);
    ASSERT_TRUE(again.ok()) << name;
    for (size_t i = 0; i < first->size(); ++i) {
      if (repeats == Repeats::kBitwise) {
        EXPECT_EQ(std::memcmp((*first)[i].bytes(), (*again)[i].bytes(), (*first)[i].byte_size()), 0)
            << name << " call " << call;
      } else {
        const std::string problem = Compare((*want)[i], (*again)[i], Rtol(text, (*want)[i].element()));
        EXPECT_TRUE(problem.empty()) << name << " call " << call << " result " << i << ": " << problem;
      }
    }
  }
}

}  // namespace hlograph::gpu

// Embedding hlograph in C++: parse a StableHLO program, verify it, and run
// its entry function on the CPU interpreter, or on the GPU backend where
// the build has it and a device is there. docs/USER_GUIDE.md walks through
// it; CTest runs it (example.run_program).
//
//   hlograph_example_run_program [FILE]   (default: a small built-in program)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "frontend/parser.h"
#include "hlograph/status.h"
#include "ir/verifier.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#endif

namespace {

// What jax.jit(lambda x: jnp.tanh(x) * 2).lower(jnp.zeros(4)).as_text() prints, trimmed.
constexpr const char* kProgram = R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<4xf32>
  %t = stablehlo.tanh %x : tensor<4xf32>
  %y = stablehlo.multiply %t, %two : tensor<4xf32>
  return %y : tensor<4xf32>
}
)";

using hlograph::StatusOr;
using hlograph::cpu::Tensor;

StatusOr<std::vector<Tensor>> Run(const hlograph::ir::Module& module, const std::vector<Tensor>& args) {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (hlograph::gpu::GpuAvailable()) {
    HLOGRAPH_ASSIGN(auto executable, hlograph::gpu::GpuExecutable::Compile(module));
    std::printf("on the GPU\n");
    return executable->Run(args);  // uploads, runs, waits, downloads
  }
#endif
  std::printf("on the CPU interpreter\n");
  hlograph::cpu::Interpreter interpreter(module);
  return interpreter.RunEntry(args);
}

hlograph::Status Main(int argc, char** argv) {
  HLOGRAPH_ASSIGN(hlograph::frontend::ParsedFile parsed,
                  argc > 1 ? hlograph::frontend::ParseFile(argv[1])
                           : hlograph::frontend::ParseText(kProgram, "<built-in>"));
  const hlograph::ir::Module& module = *parsed.modules.front();
  HLOGRAPH_TRY(hlograph::ir::VerifyModule(module));

  // Arguments are dense row-major host tensors: here f32[4] = 0, 0.5, 1, 1.5.
  Tensor x(hlograph::ir::Type::Tensor(hlograph::ir::ElementType::kF32, {4}));
  for (int i = 0; i < 4; ++i) x.mutable_data<float>()[i] = 0.5f * static_cast<float>(i);

  HLOGRAPH_ASSIGN(std::vector<Tensor> results, Run(module, {x}));
  for (const Tensor& r : results) {
    std::printf("%s:", r.type().ToString().c_str());
    for (int64_t i = 0; i < r.num_elements(); ++i) std::printf(" %.5f", r.data<float>()[i]);
    std::printf("\n");
  }
  return hlograph::Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  const hlograph::Status status = Main(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", status.message().c_str());
    return 1;
  }
  return 0;
}

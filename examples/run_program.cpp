// Embedding hlograph in C++ through its public API (include/hlograph/):
// compile a StableHLO program and run its entry function on the GPU
// backend where the build has it and a device is there, else on the CPU
// interpreter. docs/USER_GUIDE.md walks through it; CTest runs it from the
// build tree (example.run_program) and built against an installed package
// (example.installed_package: examples/consumer).
//
//   hlograph_example_run_program [FILE]   (default: a small built-in program)
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/hlograph.h"

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

hlograph::Status Main(int argc, char** argv) {
  // backend "auto": the GPU when there is one, else the CPU interpreter.
  HLOGRAPH_ASSIGN(std::unique_ptr<hlograph::Client> client, hlograph::Client::Create());
  // Parses, verifies and compiles the entry function (@main).
  hlograph::CompileOptions options;
  options.filename = "<built-in>";  // for error messages
  HLOGRAPH_ASSIGN(std::unique_ptr<hlograph::Executable> executable,
                  argc > 1 ? client->CompileFile(argv[1]) : client->Compile(kProgram, options));
  // With "auto", a program the GPU backend cannot run is compiled for the CPU.
  std::printf("on the %s\n", executable->backend_name() == "gpu" ? "GPU" : "CPU interpreter");
  if (!executable->backend_note().empty()) std::printf("(%s)\n", executable->backend_note().c_str());

  // Arguments are dense row-major host arrays: here f32[4] = 0, 0.5, 1, 1.5,
  // or zeros of each parameter's type for a program from a file.
  std::vector<hlograph::Array> args;
  if (argc > 1) {
    for (const hlograph::ArrayType& type : executable->parameter_types()) args.emplace_back(type);
  } else {
    args.push_back(hlograph::Array::FromValues<float>({4}, {0.0f, 0.5f, 1.0f, 1.5f}));
  }

  HLOGRAPH_ASSIGN(std::vector<hlograph::Array> results, executable->Execute(args));
  for (const hlograph::Array& r : results) {
    std::printf("%s:", r.type_string().c_str());
    if (r.element_type() == hlograph::ElementType::kF32) {
      for (int64_t i = 0; i < r.num_elements(); ++i) std::printf(" %.5f", r.at<float>(i));
    } else {
      std::printf(" (%zu bytes)", r.byte_size());
    }
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

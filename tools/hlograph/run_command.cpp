// `hlograph run`: the entry function on arguments from .npz/.npy files (or
// random ones), on the GPU or the CPU backend through the public API;
// results printed or written to an .npz file (completely or not at all).
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <utility>

#include "arguments.h"
#include "backends/cpu/kernel_util.h"
#include "commands.h"
#include "hlograph/hlograph.h"
#include "io/npz.h"
#include "program_input.h"
#include "progress.h"
#include "runtime/client_access.h"
#include "runtime/conversions.h"

namespace hlograph::cli {
namespace {

// The first few elements of a tensor, numpy style, for the terminal.
std::string Preview(const cpu::Tensor& t, int64_t max_elements = 16) {
  if (!t.type().IsTensor()) return t.type().ToString();
  std::ostringstream ss;
  ss.precision(7);
  ss << t.type().ToString() << " [";
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n && i < max_elements; ++i) {
    if (i) ss << ", ";
    cpu::DispatchElementType(t.element(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = t.data<T>()[i];
      if constexpr (cpu::kIsComplex<T>) {
        ss << "(" << v.real() << "," << v.imag() << ")";
      } else if constexpr (std::is_same_v<T, bool>) {
        ss << (v ? "true" : "false");
      } else if constexpr (std::is_integral_v<T>) {
        ss << +v;
      } else {
        ss << cpu::Load(v);
      }
    });
  }
  if (n > max_elements) ss << ", ... (" << n << " elements)";
  ss << "]";
  return ss.str();
}

// The runtime's messages about the client's options, named as the command
// line spells them ("backend \"gpu\": ..." is "--backend \"gpu\": ...").
std::string OptionMessage(const std::string& message) {
  for (const auto& [api, cli] : {std::pair<std::string, std::string>{"backend ", "--backend "},
                                 std::pair<std::string, std::string>{"memory_budget: ", "--memory-budget: "}}) {
    if (message.rfind(api, 0) == 0) return cli + message.substr(api.size());
  }
  return message;
}

// Compiles the program through the public API on the backend --backend
// asks for (saying why when "auto" keeps it off the GPU) and runs it.
StatusOr<std::vector<Array>> Execute(const Options& o, LoadedProgram program) {
  ClientOptions client_options;
  client_options.backend = o.backend;
  client_options.memory_budget = o.memory_budget;
  auto client = Client::Create(client_options);
  if (!client.ok()) return Status::Error(OptionMessage(client.status().message()));

  CompileOptions options;
  options.filename = ProgramName(o.files[0]);
  options.gpu_mode = o.mode == "stream" ? GpuExecutionMode::kStream : GpuExecutionMode::kGraph;
  std::unique_ptr<Executable> executable;
  {
    Progress progress("compiling kernels");  // erased before the run's output
    options.progress = [&progress](size_t done, size_t total) {
      progress.Update(static_cast<int64_t>(done), static_cast<int64_t>(total));
    };
    HLOGRAPH_ASSIGN(executable, runtime::ClientAccess::CompileModule(**client, std::move(program.file.modules[0]), options));
  }
  if (!executable->backend_note().empty()) {
    std::cerr << "hlograph: note: running on the CPU backend: " << executable->backend_note() << "\n";
  }
  std::vector<Array> args;
  args.reserve(program.args.size());
  for (const cpu::Tensor& tensor : program.args) {
    HLOGRAPH_ASSIGN(Array arg, runtime::FromTensor(tensor));
    args.push_back(std::move(arg));
  }
  return executable->Execute(args);
}

}  // namespace

int Run(const Options& o) {
  auto program = LoadProgram(o, "run");
  if (!program) return 1;
  auto results = Execute(o, std::move(*program));
  if (!results.ok()) {
    std::cerr << results.status().message() << "\n";
    return 1;
  }
  if (o.output.empty()) {
    for (size_t i = 0; i < results->size(); ++i) {
      std::cout << "result[" << i << "]: " << Preview(runtime::ToTensor((*results)[i])) << "\n";
    }
    return 0;
  }
  std::vector<std::pair<std::string, io::NpyArray>> arrays;
  for (size_t i = 0; i < results->size(); ++i) {
    const Array& result = (*results)[i];
    if (result.element_type() == ElementType::kToken) {
      std::cerr << "hlograph: result " << i << " is a " << result.type_string() << ", which an .npz file cannot hold\n";
      return 1;
    }
    arrays.emplace_back("arr_" + std::to_string(i), io::FromTensor(runtime::ToTensor(result)));
  }
  Status s = io::WriteNpz(o.output, arrays);
  if (!s.ok()) {
    std::cerr << "hlograph: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace hlograph::cli

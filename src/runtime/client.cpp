// The public API's entry point (include/hlograph/client.h): picks a
// backend, parses, verifies and compiles programs.
#include "hlograph/client.h"

#include <string>
#include <utility>

#include "frontend/parser.h"
#include "ir/module.h"
#include "ir/verifier.h"
#include "runtime/backend_choice.h"
#include "runtime/conversions.h"
#include "runtime/executable_impl.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#include "backends/gpu/runtime/memory_budget.h"
#endif

namespace hlograph {

struct Client::Impl {
  std::string backend_name;  // "cpu" or "gpu"

  StatusOr<std::unique_ptr<Executable::Impl>> Compile(frontend::ParsedFile parsed, const std::string& filename) const;
};

StatusOr<std::unique_ptr<Client>> Client::Create(const ClientOptions& options) {
  auto impl = std::make_unique<Impl>();
  HLOGRAPH_ASSIGN(const runtime::BackendChoice choice, runtime::ChooseBackend(options.backend, "backend"));
  impl->backend_name = choice.name();
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (impl->backend_name == "gpu" && !options.memory_budget.empty()) {
    const Status set = gpu::MemoryBudget::Global().SetLimit(
        options.memory_budget, "set to " + options.memory_budget + " by ClientOptions::memory_budget");
    if (!set.ok()) return Status::Error("memory_budget: " + set.message());
  }
#endif
  return std::unique_ptr<Client>(new Client(std::move(impl)));
}

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() = default;

const std::string& Client::backend_name() const { return impl_->backend_name; }

StatusOr<std::unique_ptr<Executable::Impl>> Client::Impl::Compile(frontend::ParsedFile parsed,
                                                                  const std::string& filename) const {
  if (parsed.modules.size() != 1) {
    return Status::Error(filename + ": holds " + std::to_string(parsed.modules.size()) +
                         " modules; a program is one");
  }
  auto exe = std::make_unique<Executable::Impl>();
  exe->backend_name = backend_name;
  exe->module = std::move(parsed.modules.front());
  HLOGRAPH_TRY(ir::VerifyModule(*exe->module));
  const ir::Operation* entry = exe->module->EntryFunction();
  if (entry == nullptr) {
    return Status::Error(filename + ": no entry function (@main, or the only public function)");
  }
  exe->name = ir::FunctionName(*entry);
  const ir::FunctionType signature = ir::FunctionSignature(*entry);
  for (size_t i = 0; i < signature.inputs.size(); ++i) {
    HLOGRAPH_ASSIGN(ArrayType type,
                    runtime::ArrayTypeOf(signature.inputs[i], "parameter " + std::to_string(i) + " of @" + exe->name));
    exe->parameter_types.push_back(std::move(type));
  }
  for (size_t i = 0; i < signature.results.size(); ++i) {
    HLOGRAPH_ASSIGN(ArrayType type,
                    runtime::ArrayTypeOf(signature.results[i], "result " + std::to_string(i) + " of @" + exe->name));
    exe->result_types.push_back(std::move(type));
  }
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (backend_name == "gpu") {
    HLOGRAPH_ASSIGN(exe->gpu, gpu::GpuExecutable::Compile(*exe->module));
  }
#endif
  return exe;
}

StatusOr<std::unique_ptr<Executable>> Client::Compile(std::string_view program, const CompileOptions& options) const {
  HLOGRAPH_ASSIGN(frontend::ParsedFile parsed, frontend::ParseFileContents(program, options.filename));
  HLOGRAPH_ASSIGN(std::unique_ptr<Executable::Impl> impl, impl_->Compile(std::move(parsed), options.filename));
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

StatusOr<std::unique_ptr<Executable>> Client::CompileFile(const std::string& path, const CompileOptions& options) const {
  HLOGRAPH_ASSIGN(frontend::ParsedFile parsed, frontend::ParseFile(path));
  (void)options;  // the file's path names it in messages
  HLOGRAPH_ASSIGN(std::unique_ptr<Executable::Impl> impl, impl_->Compile(std::move(parsed), path));
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

}  // namespace hlograph

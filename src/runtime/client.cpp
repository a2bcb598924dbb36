// The public API's entry point (include/hlograph/client.h): picks a
// backend, parses, verifies and compiles programs.
#include "hlograph/client.h"

#include <string>
#include <utility>

#include "frontend/parser.h"
#include "ir/module.h"
#include "ir/verifier.h"
#include "runtime/backend_choice.h"
#include "runtime/client_access.h"
#include "runtime/conversions.h"
#include "runtime/executable_impl.h"
#ifdef HLOGRAPH_WITH_GPU_BACKEND
#include "backends/gpu/executable.h"
#include "backends/gpu/runtime/memory_budget.h"
#endif

namespace hlograph {

struct Client::Impl {
  std::string requested;     // ClientOptions::backend: "auto" decides again per program
  std::string backend_name;  // "cpu" or "gpu"

  StatusOr<std::unique_ptr<Executable::Impl>> Compile(frontend::ParsedFile parsed, const CompileOptions& options,
                                                      const std::string& filename) const;
  StatusOr<std::unique_ptr<Executable::Impl>> Compile(std::unique_ptr<ir::Module> module,
                                                      const CompileOptions& options, const std::string& filename) const;
};

namespace {

#ifdef HLOGRAPH_WITH_GPU_BACKEND
gpu::GpuCompileOptions GpuOptions(const CompileOptions& options) {
  gpu::GpuCompileOptions gpu_options;
  gpu_options.mode =
      options.gpu_mode == GpuExecutionMode::kStream ? gpu::ExecutionMode::kStream : gpu::ExecutionMode::kGraph;
  gpu_options.kernel_compiled = options.progress;
  return gpu_options;
}
#endif

}  // namespace

StatusOr<std::unique_ptr<Client>> Client::Create(const ClientOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->requested = options.backend;
  HLOGRAPH_ASSIGN(const runtime::BackendChoice choice, runtime::ChooseBackend(options.backend, "backend"));
  impl->backend_name = choice.name();
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (impl->backend_name == "gpu" && !options.memory_budget.empty()) {
    const Status set = gpu::MemoryBudget::Global().SetLimit(options.memory_budget, "set to " + options.memory_budget);
    if (!set.ok()) return Status::Error("memory_budget: " + set.message());
  }
#endif
  return std::unique_ptr<Client>(new Client(std::move(impl)));
}

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() = default;

const std::string& Client::backend_name() const { return impl_->backend_name; }

StatusOr<std::unique_ptr<Executable::Impl>> Client::Impl::Compile(frontend::ParsedFile parsed,
                                                                  const CompileOptions& options,
                                                                  const std::string& filename) const {
  if (parsed.modules.size() != 1) {
    return Status::Error(filename + ": holds " + std::to_string(parsed.modules.size()) +
                         " modules; a program is one");
  }
  HLOGRAPH_TRY(ir::VerifyModule(*parsed.modules.front()));
  return Compile(std::move(parsed.modules.front()), options, filename);
}

StatusOr<std::unique_ptr<Executable::Impl>> Client::Impl::Compile(std::unique_ptr<ir::Module> module,
                                                                  const CompileOptions& options,
                                                                  const std::string& filename) const {
  auto exe = std::make_unique<Executable::Impl>();
  exe->backend_name = backend_name;
  exe->module = std::move(module);
  const ir::Operation* entry = options.function.empty() ? exe->module->EntryFunction()
                                                         : exe->module->LookupFunction(options.function);
  if (entry == nullptr) {
    return Status::Error(filename + (options.function.empty()
                                         ? ": no entry function (@main, or the only public function)"
                                         : ": no function @" + options.function));
  }
  exe->function = entry;
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
  if (requested == "auto" && backend_name == "gpu") {  // the program may need the CPU
    HLOGRAPH_ASSIGN(const runtime::BackendChoice choice, runtime::ChooseBackend(requested, "backend", exe->module.get()));
    exe->backend_name = choice.name();
    exe->backend_note = choice.note;
  }
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (exe->backend_name == "gpu" && entry != exe->module->EntryFunction()) {
    const std::string why = "the GPU backend compiles the module's entry function, not @" + exe->name;
    if (requested != "auto") return Status::Error(filename + ": " + why + " (the CPU backend runs any function)");
    exe->backend_name = "cpu";
    exe->backend_note = why;
  }
  if (exe->backend_name == "gpu") {
    HLOGRAPH_ASSIGN(exe->gpu, gpu::GpuExecutable::Compile(*exe->module, GpuOptions(options)));
  }
#else
  (void)options;  // what it holds is the GPU backend's
#endif
  return exe;
}

StatusOr<std::unique_ptr<Executable>> Client::Compile(std::string_view program, const CompileOptions& options) const {
  HLOGRAPH_ASSIGN(frontend::ParsedFile parsed, frontend::ParseFileContents(program, options.filename));
  HLOGRAPH_ASSIGN(std::unique_ptr<Executable::Impl> impl, impl_->Compile(std::move(parsed), options, options.filename));
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

StatusOr<std::unique_ptr<Executable>> Client::CompileFile(const std::string& path, const CompileOptions& options) const {
  HLOGRAPH_ASSIGN(frontend::ParsedFile parsed, frontend::ParseFile(path));
  // The file's path names it in messages.
  HLOGRAPH_ASSIGN(std::unique_ptr<Executable::Impl> impl, impl_->Compile(std::move(parsed), options, path));
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

namespace runtime {

StatusOr<std::unique_ptr<Executable>> ClientAccess::CompileModule(const Client& client,
                                                                  std::unique_ptr<ir::Module> module,
                                                                  const CompileOptions& options) {
  HLOGRAPH_ASSIGN(std::unique_ptr<Executable::Impl> impl,
                  client.impl_->Compile(std::move(module), options, options.filename));
  return std::unique_ptr<Executable>(new Executable(std::move(impl)));
}

}  // namespace runtime

}  // namespace hlograph

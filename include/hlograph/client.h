// hlograph's public C++ API: the entry point. A Client picks a backend and
// compiles StableHLO programs into Executables.
//
//   HLOGRAPH_ASSIGN(std::unique_ptr<hlograph::Client> client, hlograph::Client::Create());
//   HLOGRAPH_ASSIGN(std::unique_ptr<hlograph::Executable> exe, client->Compile(text));
//   HLOGRAPH_ASSIGN(std::vector<hlograph::Array> out, exe->Execute({x}));
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "hlograph/executable.h"
#include "hlograph/status.h"

namespace hlograph {

namespace runtime {
struct ClientAccess;  // the implementation's own entry points
}  // namespace runtime

struct ClientOptions {
  // "auto": the GPU when this build has the GPU backend and a device is
  // there, else the CPU interpreter, decided again for each program: one
  // the GPU backend cannot run is compiled for the CPU (Executable::
  // backend_note says why); "cpu"; or "gpu" (an error without one).
  std::string backend = "auto";
  // The GPU backend's device memory budget ("8G", "80%", "none"; empty:
  // the default). It is one for the whole process. The CPU backend has
  // none and ignores it.
  std::string memory_budget;
};

// How the GPU backend runs a call: as CUDA graph launches (loops and cases
// on the device), or step by step on a stream (loops and cases decided on
// the host).
enum class GpuExecutionMode { kGraph, kStream };

struct CompileOptions {
  // The name given to the program text in error messages
  // ("<program>:3:7: error: ..."). CompileFile uses the path.
  std::string filename = "<program>";
  // The function to compile (its symbol name, without '@'); empty: the
  // module's entry, @main or the only public function. The GPU backend
  // compiles the entry only; another function runs on the CPU backend.
  std::string function;
  // The GPU backend's; the CPU backend ignores it.
  GpuExecutionMode gpu_mode = GpuExecutionMode::kGraph;
  // Told as the GPU backend compiles the program's kernels (`compiled` of
  // `total` so far, rising, one call at a time, from the compiler's
  // threads), for a progress report; never on the CPU backend.
  std::function<void(size_t compiled, size_t total)> progress;
};

class Client {
 public:
  static StatusOr<std::unique_ptr<Client>> Create(const ClientOptions& options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // "cpu" or "gpu": where this client's executables run (with backend
  // "auto", a program the GPU backend cannot run excepted).
  const std::string& backend_name() const;

  // Parses a StableHLO program (MLIR text, or a portable artifact: VHLO
  // bytecode), verifies it and compiles its entry function (@main, or the
  // only function). Errors name the line and column they are about.
  StatusOr<std::unique_ptr<Executable>> Compile(std::string_view program, const CompileOptions& options = {}) const;
  // The same, on what the file at `path` holds.
  StatusOr<std::unique_ptr<Executable>> CompileFile(const std::string& path, const CompileOptions& options = {}) const;

  struct Impl;  // the implementation's

 private:
  friend struct runtime::ClientAccess;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hlograph

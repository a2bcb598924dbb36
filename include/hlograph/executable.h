// hlograph's public C++ API: a compiled program, run on host arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/array.h"
#include "hlograph/status.h"

namespace hlograph {

namespace runtime {
struct ClientAccess;  // the implementation's own entry points
}  // namespace runtime

// A program's entry function, compiled for the client's backend (Client::
// Compile). Execute may be called any number of times, from any thread
// (calls on one executable run one at a time).
class Executable {
 public:
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  // "cpu" or "gpu": where Execute runs.
  const std::string& backend_name() const;
  // Why a client of backend "auto" compiled this program for the CPU
  // although it has a GPU (the GPU backend cannot run some op of it: the
  // message names it); else empty.
  const std::string& backend_note() const;
  // The entry function's symbol name ("main").
  const std::string& name() const;
  // What Execute takes and returns, in order.
  const std::vector<ArrayType>& parameter_types() const;
  const std::vector<ArrayType>& result_types() const;

  // Runs the program on `args` (one per parameter, each of its type) and
  // returns its results. A wrong number of arguments, or an argument of
  // another element type, shape or quantization, is an error naming the
  // argument and what was expected; nothing runs.
  StatusOr<std::vector<Array>> Execute(const std::vector<Array>& args);

  struct Impl;  // the implementation's

 private:
  friend class Client;
  friend struct runtime::ClientAccess;
  explicit Executable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hlograph

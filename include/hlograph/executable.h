// hlograph's public C++ API: a compiled program, run on host arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/array.h"
#include "hlograph/status.h"

namespace hlograph {

// The type of a parameter or result: an element type and a shape.
struct ArrayType {
  ElementType element_type = ElementType::kF32;
  std::vector<int64_t> shape;
  std::string ToString() const { return TypeString(element_type, shape); }  // "tensor<4xf32>"
  bool operator==(const ArrayType& other) const = default;
};

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
  // The entry function's symbol name ("main").
  const std::string& name() const;
  // What Execute takes and returns, in order.
  const std::vector<ArrayType>& parameter_types() const;
  const std::vector<ArrayType>& result_types() const;

  // Runs the program on `args` (one per parameter, each of its type) and
  // returns its results. A wrong number of arguments, or an argument of
  // another element type or shape, is an error naming the argument and
  // what was expected; nothing runs.
  StatusOr<std::vector<Array>> Execute(const std::vector<Array>& args);

  struct Impl;  // the implementation's

 private:
  friend class Client;
  explicit Executable(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hlograph

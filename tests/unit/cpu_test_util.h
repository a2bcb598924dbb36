// Helpers for the CPU kernel tests: tensors from values and back, and
// running a program's entry function on the interpreter.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "frontend/parser.h"
#include "ir/verifier.h"

namespace hlograph::cpu::test_util {

// A tensor holding `values` (raw: a complex element takes two values).
template <typename T>
inline Tensor Make(ir::ElementType e, std::vector<int64_t> shape, const std::vector<T>& values) {
  Tensor t(ir::Type::Tensor(e, std::move(shape)));
  EXPECT_EQ(t.byte_size(), values.size() * sizeof(T));
  if (!values.empty() && t.byte_size() == values.size() * sizeof(T)) {
    std::memcpy(t.mutable_bytes(), values.data(), t.byte_size());
  }
  return t;
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  std::vector<T> v(t.byte_size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), t.bytes(), v.size() * sizeof(T));
  return v;
}

// Parses and verifies `text`, then runs its entry function.
inline StatusOr<std::vector<Tensor>> RunProgram(const std::string& text, const std::vector<Tensor>& args = {}) {
  auto parsed = frontend::ParseText(text, "test.mlir");
  if (!parsed.ok()) return parsed.status();
  const ir::Module& module = *parsed->modules.at(0);
  HLOGRAPH_TRY(ir::VerifyModule(module));
  Interpreter interpreter(module);
  return interpreter.RunEntry(args);
}

inline std::vector<Tensor> RunOk(const std::string& text, const std::vector<Tensor>& args = {}) {
  auto r = RunProgram(text, args);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? r.value() : std::vector<Tensor>{};
}

}  // namespace hlograph::cpu::test_util

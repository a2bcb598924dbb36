// The public API's executables (include/hlograph/executable.h).
#include "hlograph/executable.h"

#include <string>

#include "backends/cpu/interpreter.h"
#include "ir/type.h"
#include "runtime/conversions.h"
#include "runtime/executable_impl.h"

namespace hlograph {
namespace {

std::string TypeListString(const std::vector<ArrayType>& types) {
  std::string s;
  for (const ArrayType& type : types) s += (s.empty() ? "" : ", ") + type.ToString();
  return s;
}

// "element type differs", "shape and quantization differ", ...
std::string Differences(const ArrayType& expected, const ArrayType& got) {
  std::vector<std::string> parts;
  if (got.element_type != expected.element_type) parts.emplace_back("element type");
  if (got.shape != expected.shape) parts.emplace_back("shape");
  if (got.quantization != expected.quantization) parts.emplace_back("quantization");
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    s += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return s + (parts.size() == 1 ? " differs" : " differ");
}

}  // namespace

Status Executable::Impl::CheckArguments(const std::vector<Array>& args) const {
  if (args.size() != parameter_types.size()) {
    return Status::Error("@" + name + " takes " + std::to_string(parameter_types.size()) + " argument" +
                         (parameter_types.size() == 1 ? "" : "s") + " (" + TypeListString(parameter_types) +
                         "); " + std::to_string(args.size()) + " given");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ArrayType& expected = parameter_types[i];
    const ArrayType got = args[i].type();
    if (got == expected) continue;
    return Status::Error("argument " + std::to_string(i) + " of @" + name + ": expected " + expected.ToString() +
                         ", got " + got.ToString() + " (" + Differences(expected, got) + ")");
  }
  return Status::Ok();
}

StatusOr<std::vector<cpu::Tensor>> Executable::Impl::Run(const std::vector<cpu::Tensor>& args) {
#ifdef HLOGRAPH_WITH_GPU_BACKEND
  if (gpu) return gpu->Run(args);  // uploads, runs, waits, downloads
#endif
  cpu::Interpreter interpreter(*module);
  return interpreter.Call(*function, args);
}

Executable::Executable(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Executable::~Executable() = default;

const std::string& Executable::backend_name() const { return impl_->backend_name; }
const std::string& Executable::backend_note() const { return impl_->backend_note; }
const std::string& Executable::name() const { return impl_->name; }
const std::vector<ArrayType>& Executable::parameter_types() const { return impl_->parameter_types; }
const std::vector<ArrayType>& Executable::result_types() const { return impl_->result_types; }

StatusOr<std::vector<Array>> Executable::Execute(const std::vector<Array>& args) {
  HLOGRAPH_TRY(impl_->CheckArguments(args));
  std::vector<cpu::Tensor> tensors;
  tensors.reserve(args.size());
  for (const Array& arg : args) tensors.push_back(runtime::ToTensor(arg));

  std::vector<cpu::Tensor> outputs;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    HLOGRAPH_ASSIGN(outputs, impl_->Run(tensors));
  }
  if (outputs.size() != impl_->result_types.size()) {
    return Status::Error("@" + impl_->name + " returned " + std::to_string(outputs.size()) + " values; expected " +
                         std::to_string(impl_->result_types.size()));
  }
  std::vector<Array> results;
  results.reserve(outputs.size());
  for (const cpu::Tensor& output : outputs) {
    HLOGRAPH_ASSIGN(Array result, runtime::FromTensor(output));
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace hlograph

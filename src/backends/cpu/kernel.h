// The CPU backend's kernel interface: one function per op, registered
// against the op's name. A kernel reads its operands and attributes and
// produces one Tensor per result; region-holding ops call back into the
// interpreter to run their bodies.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::cpu {

class Interpreter;

struct KernelContext {
  const ir::Operation& op;
  const std::vector<const Tensor*>& operands;
  std::vector<Tensor>& results;  // empty on entry; the kernel fills one per op result
  Interpreter& interpreter;

  const Tensor& operand(size_t i) const { return *operands[i]; }
  const ir::Type& result_type(size_t i) const { return op.result(i)->type(); }
  // An error naming this op (the interpreter adds the position).
  Status Error(const std::string& message) const { return Status::Error(message); }
};

using KernelFn = Status (*)(KernelContext& ctx);

// Kernels by op id: a table indexed by the id, read on every op the
// interpreter runs.
class KernelRegistry {
 public:
  void Register(ir::OpId op, KernelFn fn) { kernels_[static_cast<size_t>(op)] = fn; }
  KernelFn Find(ir::OpId op) const {
    const auto i = static_cast<size_t>(op);
    return i < kernels_.size() ? kernels_[i] : nullptr;
  }

 private:
  std::array<KernelFn, ir::kNumOpIds> kernels_{};
};

// The registry with every kernel of the CPU backend.
const KernelRegistry& CpuKernels();

// Each kernel family adds its kernels (kernels/*.cpp).
void RegisterElementwiseKernels(KernelRegistry& r);
void RegisterShapeKernels(KernelRegistry& r);
void RegisterReductionKernels(KernelRegistry& r);
void RegisterLinalgKernels(KernelRegistry& r);
void RegisterIndexingKernels(KernelRegistry& r);
void RegisterControlFlowKernels(KernelRegistry& r);
void RegisterScanKernels(KernelRegistry& r);
void RegisterRandomKernels(KernelRegistry& r);
void RegisterMiscKernels(KernelRegistry& r);
void RegisterCollectiveKernels(KernelRegistry& r);
void RegisterManualComputationKernels(KernelRegistry& r);  // manual_computation.cpp
void RegisterCheckKernels(KernelRegistry& r);
void RegisterQuantizedKernels(KernelRegistry& r);  // quantized.cpp

}  // namespace hlograph::cpu

#include <algorithm>

#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void KernelRegistry::Register(std::string_view op_name, KernelFn fn) {
  auto it = std::lower_bound(kernels_.begin(), kernels_.end(), op_name,
                             [](const auto& e, std::string_view n) { return e.first < n; });
  if (it != kernels_.end() && it->first == op_name) {
    it->second = fn;
  } else {
    kernels_.insert(it, {std::string(op_name), fn});
  }
}

KernelFn KernelRegistry::Find(std::string_view op_name) const {
  auto it = std::lower_bound(kernels_.begin(), kernels_.end(), op_name,
                             [](const auto& e, std::string_view n) { return e.first < n; });
  return it != kernels_.end() && it->first == op_name ? it->second : nullptr;
}

std::vector<std::string> KernelRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& e : kernels_) names.push_back(e.first);
  return names;
}

const KernelRegistry& CpuKernels() {
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    RegisterElementwiseKernels(*r);
    RegisterShapeKernels(*r);
    RegisterReductionKernels(*r);
    RegisterLinalgKernels(*r);
    RegisterIndexingKernels(*r);
    RegisterControlFlowKernels(*r);
    RegisterScanKernels(*r);
    RegisterRandomKernels(*r);
    RegisterMiscKernels(*r);
    RegisterCollectiveKernels(*r);
    RegisterManualComputationKernels(*r);
    RegisterCheckKernels(*r);
    RegisterQuantizedKernels(*r);
    return r;
  }();
  return *registry;
}

}  // namespace hlograph::cpu

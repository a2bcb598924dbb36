#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

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

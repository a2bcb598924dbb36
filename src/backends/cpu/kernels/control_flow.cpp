#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterControlFlowKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

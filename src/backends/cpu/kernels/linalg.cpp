#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterLinalgKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

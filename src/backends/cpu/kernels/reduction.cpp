#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterReductionKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

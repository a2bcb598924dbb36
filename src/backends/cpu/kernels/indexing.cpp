#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterIndexingKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

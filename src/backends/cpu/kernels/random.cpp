#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterRandomKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

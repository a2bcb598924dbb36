#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterElementwiseKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterShapeKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

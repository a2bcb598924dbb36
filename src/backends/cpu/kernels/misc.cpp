#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

void RegisterMiscKernels(KernelRegistry& r) { (void)r; }

}  // namespace hlograph::cpu

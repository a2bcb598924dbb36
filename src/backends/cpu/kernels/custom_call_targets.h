// Custom-call targets implemented by the linear-algebra kernels, for the
// custom_call dispatcher: jaxlib's LAPACK FFI targets (lapack_spotrf_ffi,
// lapack_dgesdd_ffi, ...), XLA's Qr and ProductOfElementaryHouseholderReflectors
// (what JAX lowers QR to on a platform without LAPACK lowerings) and mhlo.topk.
#pragma once

#include <string_view>

#include "backends/cpu/kernel.h"

namespace hlograph::cpu {

// chlo.top_k, also serving the mhlo.topk custom call (k and `largest` from
// its mhlo.attributes dictionary).
Status TopK(KernelContext& ctx);

// The kernel for custom_call target `target`, or null when it is not one of
// the targets implemented here. The kernel receives the custom_call's own
// operands, attributes (mhlo.backend_config, operand_layouts, ...) and
// results.
KernelFn FindLinalgCustomCall(std::string_view target);

}  // namespace hlograph::cpu

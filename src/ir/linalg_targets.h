// The custom-call targets of dense linear algebra that hlograph runs (on
// the host, with LAPACK, as XLA:CPU does): jaxlib's LAPACK FFI targets
// (lapack_spotrf_ffi, lapack_zgesdd_ffi, ...), XLA's Qr and
// ProductOfElementaryHouseholderReflectors (what JAX lowers QR to on a
// platform without LAPACK lowerings) and mhlo.topk. Which targets exist is
// known here, below the backends: the CPU backend maps each to its kernel
// and the GPU plan hands them to the host.
#pragma once

#include <optional>
#include <string_view>

namespace hlograph::ir {

struct LinalgTarget {
  std::string_view routine;  // LAPACK's name ("potrf", "gesdd", ...), or "topk"
  // 's', 'd', 'c' or 'z' for a lapack_ target; 0 where the operand's
  // element type decides (Qr, ProductOfElementaryHouseholderReflectors,
  // mhlo.topk).
  char precision = 0;
};

// The routine `target` names, or nothing when it is not one of them.
std::optional<LinalgTarget> ParseLinalgTarget(std::string_view target);

}  // namespace hlograph::ir

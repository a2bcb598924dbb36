// The ops the GPU backend runs as scans (codegen/scan_kernel.cpp, laid out
// by plan/scan_layout.h), recognised in one place:
//
//   chlo.scan            one input and one carry, an elementwise body (the
//                        body's ops each act element by element on the
//                        slices). Associative (is_associative, the output
//                        slice is the next carry, one element type
//                        throughout) it runs in parallel; otherwise a lane
//                        applies the body along each line in order.
//   stablehlo.reduce_window  a prefix scan in disguise, as JAX lowers
//                        cumsum, cumprod, cummax, cummin and cumlogsumexp
//                        on every platform but CUDA: one input, a window
//                        covering the whole of one axis padded by its
//                        length - 1 before it (after it: reversed), 1
//                        everywhere else, strides and dilations 1, and a
//                        scalar elementwise body. Output i then folds the
//                        init value once per padded position and the
//                        elements up to i: the same as a scan starting
//                        from the init when folding the init into itself
//                        gives the init (0 for a sum, -inf for a maximum
//                        or a logaddexp, any value for a maximum, ...),
//                        checked on the init, a constant, with the CPU
//                        interpreter. The spec leaves a window's fold
//                        order open, so the body is taken as associative.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "ir/operation.h"

namespace hlograph::gpu {

struct PrefixScan {
  const ir::Value* input = nullptr;  // the array scanned
  // The carry before the first element: a slice of the input's shape
  // without the axis (chlo.scan), or a scalar (reduce_window).
  const ir::Value* init = nullptr;
  int64_t axis = 0;
  bool reverse = false;    // from the axis's last position to its first
  bool associative = false;
  const ir::Block* body = nullptr;
  // The body takes (carry, element) (reduce_window) rather than (element,
  // carry) (chlo.scan).
  bool carry_first = false;
  size_t output = 0;       // the body's result that is the output element
  size_t next_carry = 0;   // the body's result that is the next carry
  bool final_carry = false;  // the op's result 1 is the last carry (chlo.scan)
};

// `op` as a scan the GPU runs, or nothing.
std::optional<PrefixScan> MatchPrefixScan(const ir::Operation& op);

}  // namespace hlograph::gpu

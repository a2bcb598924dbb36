// Row kernels (FusionKind::kRows): a loop over an array [rows..., cols...]
// that first computes the reductions of its own row it reads (a softmax's
// maximum and sum, a layer norm's mean and variance), a block per row.
// Each reduction kernel would read every row from memory again; here the
// row comes from HBM once and from cache in the later passes (a block's
// row is at most kRowKernelMaxRowBytes, and the rows in flight on the
// device fit in L2).
//
// The planner (planner.cpp, Decide) makes a reduce a row reduction of the
// loop kernel `root` when only that kernel reads it, it folds the trailing
// dims of an operand shaped like root's result, the shape passes the cost
// model below, and every read of it from root's element (b, j) is at row b
// (ReadsRowReductionsAtTheirRow): a block holds only its own row's values.
// HLOGRAPH_GPU_ROW_KERNELS=0 turns them off (the separate kernels).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/gpu/plan/generated_dot.h"  // kPlannedSmCount
#include "ir/operation.h"

namespace hlograph::gpu {

// At least two blocks of the widest layout per SM of the planned device:
// fewer rows leave SMs idle, where split reduction kernels use them all.
constexpr int64_t kRowKernelMinRows = 2 * kPlannedSmCount;
// Rows shorter than this are folded by a warp each in the reduction
// kernels; a block per row would spend more on its barriers.
constexpr int64_t kRowKernelMinCols = 256;
// A row's elements, at 4 bytes each (the f32 they are computed in), at
// most this: 2 blocks of 1024 threads per SM then keep 132 * 2 * 128 KB =
// 33 MB of rows in flight, under the H100's and H200's 50 MB of L2, so
// the later passes over a row read it from cache.
constexpr int64_t kRowKernelMaxRowBytes = int64_t{128} << 10;

// The [rows, cols] view of an array whose trailing `cols_rank` dims are
// folded.
struct RowShape {
  int64_t rows = 0, cols = 0;
  int row_rank = 0;  // the leading dims (the reduce's result rank)
};

// The row shape of `reduce` when it is one a row kernel computes: a single
// f32/bf16/f16 operand (the kernels fold in float) with one result, folding
// exactly its trailing dims, at least one dim kept.
std::optional<RowShape> RowReductionShape(const ir::Operation& reduce);

// Whether a row kernel pays for this shape (the limits above).
bool RowKernelWorthIt(const RowShape& shape);

// Whether every read of a row reduction (`is_row_reduce` of its defining
// op) made computing element (b, j) of `root`'s result, walking through
// the values `computed_inline` accepts, is at row b: index maps carried
// through elementwise ops, broadcast_in_dim, transposes and reshapes that
// add or drop dims of size 1. A row reduction's operand is walked at
// (b, its folded index). `is_elementwise`: the ops computed per element.
bool ReadsRowReductionsAtTheirRow(const ir::Operation& root, int row_rank,
                                  const std::function<bool(const ir::Value*)>& computed_inline,
                                  const std::function<bool(const ir::Operation&)>& is_row_reduce,
                                  const std::function<bool(const ir::Operation&)>& is_elementwise);

// A thread's share of a row it may hold in registers, in 4-element
// vectors of each input read along the row: the row then comes from HBM
// once and every pass reads the registers (no L2 round trips, no
// reloads). The layout aims at 8 (16 registers an input for bf16) and
// holds at most 16 (HLOGRAPH_GPU_ROW_THREADS picking fewer threads).
constexpr int kRowKernelTargetResidentVectors = 8;
constexpr int kRowKernelMaxResidentVectors = 16;

// How the kernel covers a row: `threads` a block, each with
// `loads_in_flight` elements loaded before it folds them, or, when
// `resident_vectors` > 0 (rows of a multiple of 4 short enough), each
// loading its `resident_vectors` vectors of the row once.
struct RowKernelLayout {
  int64_t rows = 0, cols = 0;
  int threads = 0;
  int loads_in_flight = 0;
  int resident_vectors = 0;
  // Instead: the block copies its row's vector inputs into shared memory
  // once and every pass reads them there (HLOGRAPH_GPU_ROW_CACHE=shared,
  // to compare; blocks of 512).
  bool stage_in_shared = false;
  std::string ToString() const;  // "rows (block of 1024 per row of 32768, 8 loads in flight)"
};
RowKernelLayout PlanRowKernel(int64_t rows, int64_t cols);

}  // namespace hlograph::gpu

// Skinny products (a few rows: decode steps, small batches, attention of
// one query) as a generated kernel instead of cuBLASLt. Such a product is
// bound by reading the weights once, and a kernel of the fusion's own can
//  - compute its operands inline: a dynamic_slice of stacked weights by a
//    loop counter reads the counter from device memory, so one instantiated
//    graph serves every iteration and no slice is copied out first;
//  - apply the elementwise ops that consume the product (bias, activation,
//    residual add) before storing it, in the same kernel;
//  - split the contraction over enough blocks to fill the device, the
//    partial sums added in a fixed order (deterministic, no second kernel):
//    on sm_90 and later the splits of a column tile run as one thread-block
//    cluster and write their sums into its first block's shared memory;
//    before sm_90 the blocks leave them in a buffer and the last to arrive
//    at the tile adds them;
//  - load its weights before it waits for the kernel before it
//    (programmatic launch), and reduce a layer norm's row in its prologue.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/gpu/plan/plan_options.h"
#include "ir/dot_dims.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// The dims of a product: out[b, m, n] = sum over k of lhs[b, m, k] * rhs[b, k, n].
using DotDims = ir::DotShape;
inline DotDims DotDimsOf(const ir::Operation& dot) { return ir::DotShapeOf(dot); }

// How a generated product kernel covers its output.
struct DotTiling {
  enum class Lanes {
    kOverN,  // a warp's lanes take 32 neighbouring columns (rhs rows are contiguous along n)
    kOverK,  // a warp takes one column, its lanes split the sum (rhs contiguous along k)
    // A block takes a tile of rows and columns and sums it on the tensor
    // cores (plan/tile_product.h: products of more rows).
    kTensorTiles,
  };
  static constexpr int kTileColumns = 32;    // kOverN: columns per block
  static constexpr int kWarpColumns = 8;     // kOverK: columns (warps) per block
  // kOverN: rows of the contraction a thread loads at once after its
  // first pass (one memory latency for all of them), and the fewest a
  // split leaves each thread.
  static constexpr int kRowsPerThread = 8;
  // kOverN: the rows of a thread's first pass, loaded before the kernel
  // waits for its producers and stages its lhs (dot_kernel.cpp): all of a
  // split of 384 rows over 8 warps (gpt_decode's down projection).
  static constexpr int64_t kFirstPassRows = 48;
  Lanes lanes = Lanes::kOverN;
  DotDims dims;
  int64_t tiles = 0;    // kOverN: (batch, 32 columns) tiles; kOverK: blocks of 8 columns
  int slices = 8;       // kOverN: warps of a block, each summing every slices-th row
  int64_t splits = 1;   // blocks per tile, each summing k_chunk of the contraction
  int64_t k_chunk = 0;
  // 1 < splits <= kMaxClusterSplits (the portable cluster size): the tile's
  // blocks form a cluster on sm_90+; the buffer and counter below are still
  // there for older devices.
  bool cluster_sum = false;
  static constexpr int64_t kMaxClusterSplits = 8;
  // kOverN: each block first computes its chunk's lhs rows into shared
  // memory (at most kMaxStagedLhsBytes), and its lanes read them there
  // instead of each computing (loading) every lhs element of its rows
  // (docs/PERF.md). HLOGRAPH_GPU_DOT_STAGE_LHS=0 turns it off.
  bool stage_lhs = false;
  static constexpr int64_t kMaxStagedLhsBytes = 16384;
  // The kernel's first blocks (one per SM) ask for shares of its weights
  // (the rhs) in L2 before anything else (sm_90+): the blocks that start
  // only once the kernel before has left the SMs then find them there.
  // HLOGRAPH_GPU_PREFETCH_L2=0 turns it off.
  bool prefetch_l2 = false;
  // kTensorTiles: warps_m x warps_n warps a block, each summing 16 *
  // frags_m rows by 8 * frags_n columns of the tile (mma.sync fragments),
  // `depth` of the contraction (a multiple of 32) staged in shared memory
  // at a time.
  int warps_m = 0, warps_n = 0, frags_m = 0, frags_n = 0;
  int depth = 0;
  // The floats of shared memory it stages a step in (the sums, stored
  // after the last step, reuse them).
  int64_t staged_floats() const;
  int64_t tile_m() const { return 16 * int64_t{warps_m} * frags_m; }
  int64_t tile_n() const { return 8 * int64_t{warps_n} * frags_n; }
  int threads() const {
    return lanes == Lanes::kOverN ? 32 * slices : lanes == Lanes::kOverK ? 32 * kWarpColumns : 32 * warps_m * warps_n;
  }
  // splits > 1: partial sums [splits][tiles][m][32] (f32) and one arrival
  // counter per tile, zero between calls (the last block resets it).
  int64_t partial_bytes() const;
  int64_t counter_bytes() const;
  int64_t blocks() const { return tiles * splits; }
  // kTensorTiles: the operand elements its blocks compute, each lhs element
  // once per tile across and each rhs element once per tile down.
  int64_t operand_evaluations() const;
  std::string ToString() const;
};

// Whether `dot` (a stablehlo.dot_general) runs as a generated kernel:
// f32/f16/bf16 operands and result, and either at most kMaxRows rows (the
// product of the lhs's free dims) and enough columns to spread, or tiles
// on the tensor cores estimated faster than cuBLASLt
// (plan/tile_product.h). HLOGRAPH_GPU_GENERATED_DOT=0 sends every product
// to cuBLASLt.
constexpr int64_t kMaxGeneratedDotRows = 8;
bool TakesGeneratedDot(const ir::Operation& dot);
// A generated product of more rows: tiles on the tensor cores.
bool IsTileProduct(const ir::Operation& dot);

// The SM count plans are made for (the H200's); a smaller device runs
// the same blocks in more waves.
constexpr int kPlannedSmCount = 132;
// The blocks per SM a split product aims for (HLOGRAPH_GPU_DOT_BLOCKS_PER_SM
// overrides): enough loads in flight to approach the memory's bandwidth,
// few enough registers that the kernel after it, launched early, finds
// room to load its own weights beside it (docs/PERF.md, "Dependents
// launched as a big kernel starts, 2 blocks per SM").
constexpr int kDefaultDotBlocksPerSm = 2;
// HLOGRAPH_GPU_CLUSTER_SUM=0: split products add their partial sums through
// the buffer and counter on every device (for comparison).
DotTiling PlanDotTiling(const ir::Operation& dot, int sm_count);

// The elementwise ops after `dot` in its block that its kernel applies
// before storing (see the top of this file), ending in `exit`, the one
// value of them read elsewhere. Empty (exit null) when there is none, or
// when more than one of their values is read elsewhere.
struct DotEpilogue {
  std::vector<const ir::Operation*> ops;
  const ir::Value* exit = nullptr;
};
DotEpilogue FindDotEpilogue(const ir::Operation& dot);

// The positions in `inputs` (a kernel's inputs) of those that computing
// `v` inside the kernel reads: values not among them are computed from theirs.
std::vector<int> InputsReadFor(const ir::Value* v, const std::vector<const ir::Value*>& inputs);

// The blocks per SM a product loading its weights before its wait is
// compiled to fit (the second bound of its __launch_bounds__, a cap of 64
// registers a thread at 256 threads): where it launches early behind
// another kernel, more of its blocks then fit beside that kernel's and load
// their weights before the wait (gpt_decode's down product beside the up
// product's). Weights of 16 bits take more registers to widen: 3 blocks
// (85 registers) for them (docs/PERF.md, "Products capped at 64
// registers"). HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM=N sets it for every
// product, 0 leaves the registers to the compiler.
constexpr int kDefaultDotMinBlocksPerSm = 4;
constexpr int kDefaultNarrowDotMinBlocksPerSm = 3;
int DotMinBlocksPerSm(ir::ElementType weights);

// Whether generated kernels prefetch what they read into L2 before they
// wait (HLOGRAPH_GPU_PREFETCH_L2=0: no).
bool PrefetchIntoL2Wanted();

// Which loads that need nothing it computes a product kernel issues
// right after it waits for its producers: its epilogue's operands (a
// residual), in flight while it sums, rather than once the sum is there;
// and, where one pass stages its lhs chunk, what the chunk reads beside
// its prologue's reductions (a layer norm's input and scale), in flight
// while it reduces. The epilogue's by default (HLOGRAPH_GPU_DOT_LOADS_EARLY
// =0 neither, =1 both, =staged the staged chunk's alone): the epilogue's
// alone measured best (docs/PERF.md).
DotEarlyLoads DotLoadsEarlyWanted();

// How a product lays out its prologue's passes over a row (its
// reductions' loads, the staging of an lhs chunk larger than the block).
// kNo: a loop whose every pass waits for its own load. kByBlock: the
// passes unrolled, every pass's load issued before the first is used
// (gpt_decode's layer norms: 768 elements, three passes of 256 threads,
// two reductions each); the same values in the same order, the same bits.
// kByWarp: besides, each warp folds a reduction's whole row itself (up to
// 1024 elements, 32 loads a lane in flight; a commutative body) by
// butterfly shuffles, with no barrier between the warps: another order of
// folding. kByBlock by default (by warp measured about the same:
// docs/PERF.md, "A prologue's loads together by default").
// HLOGRAPH_GPU_LOADS_TOGETHER=0 turns it off, =warp folds by warp.
LoadsTogether LoadsTogetherWanted();

// Whether `op` only moves its first operand's elements (reshape,
// transpose, slice, broadcast_in_dim, convert, dynamic_slice): each of its
// elements is one of the operand's, found by index arithmetic.
bool MovesElements(const ir::Operation& op);

// The positions in `inputs` of those read to find the addresses of the
// elements each of `values` reads (BodyEmitter::AddressOf: the moved
// input itself and the start indices of slices on the way), or nothing
// when one of them does more than move an input's elements.
std::vector<int> AddressingInputs(const std::vector<const ir::Value*>& values,
                                  const std::vector<const ir::Value*>& inputs);

// The operands of a product kernel's epilogue (its `ops` after `dot` that
// read the product) not computed from the product: a bias, a residual.
std::vector<const ir::Value*> EpilogueOperands(const std::vector<const ir::Operation*>& ops, const ir::Operation& dot);

}  // namespace hlograph::gpu

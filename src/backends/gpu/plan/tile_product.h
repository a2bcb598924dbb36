// Products of tens to hundreds of rows as a generated tensor-core kernel
// (codegen/tile_product_kernel.cpp) where a cuBLASLt call's fixed cost
// would dominate: the small GEMMs of a loop body (an ODE's MLP, a
// recurrent cell), each a library call of ~5 us for under a microsecond
// of work. The generated kernel, like the skinny products of
// generated_dot.h, computes its operands inline and applies the ops after
// the product (an activation cuBLASLt's epilogue lacks) before it stores.
//
//   block      a tile of tile_m x tile_n outputs of one batch element:
//              warps_m x warps_n warps, each summing 16 * frags_m rows by
//              8 * frags_n columns in mma.sync fragments (f32 sums; TF32
//              operands for f32 at DEFAULT precision, as cuBLASLt runs
//              them, else bf16 or f16).
//   steps      `depth` elements of the contraction at a time: the
//              block computes the operands' tiles into registers, stores
//              them in shared memory, and loads the next step's while its
//              warps multiply these.
//   epilogue   the sums through shared memory, stored by consecutive
//              threads along the row with the epilogue's ops applied.
//
// The choice is a cost estimate of both, from the shape, types and the
// device's limits: the library's fixed call cost, its throughput and the
// kernel its epilogue needs, against the generated kernel's steps (each at
// least a memory latency), waves of blocks and a lower efficiency.
// HLOGRAPH_GPU_TILE_PRODUCT=library or =generated pins either.
#pragma once

#include <string>

#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/step_cost.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct TileProductChoice {
  bool generated = false;
  DotTiling tiling;  // generated: the tile shape estimated fastest
  std::string why;   // the estimates, for explain
};

// Whether `dot` can be a tile product at all (types, precision, a
// non-empty shape), and which is faster at `limits`.
TileProductChoice ChooseTileProduct(const ir::Operation& dot, const DeviceLimits& limits);

// The shapes of operand and result types a tile product takes: both
// operands f32 (at DEFAULT precision: TF32), bf16 or f16, the same; the
// result f32 or the operands' type.
bool TileProductTypes(const ir::Operation& dot);

}  // namespace hlograph::gpu

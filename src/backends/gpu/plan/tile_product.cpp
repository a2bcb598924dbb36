#include "backends/gpu/plan/tile_product.h"

#include <algorithm>

#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/epilogue_patterns.h"
#include "backends/gpu/plan/gemm_epilogue.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

// A generated kernel's own cost in a graph: its node's launch and tail.
constexpr double kKernelSeconds = 1.5e-6;
// One step of the contraction: the next step's operand loads (a memory
// latency; the steps' few blocks keep little else in flight) and the
// block's two barriers, plus the issue of each load a thread makes.
// Measured on an H100: 1.0 us a step of 16 loads a thread, 1.16 us of 32.
constexpr double kTileStepSeconds = 0.9e-6;
constexpr double kTileLoadSeconds = 8e-9;
// The most operand elements a thread loads a step (registers), and the
// shared memory a block stages them in (the static limit).
constexpr int64_t kMostLoadsPerThread = 64;
constexpr int64_t kMostStagedBytes = 48 * 1024;
// The share of a unit's peak the staged mma.sync kernel reaches per SM
// (no ldmatrix, no asynchronous copies: measured 2.9% of bf16's on a
// 2048 x 512 x 2048 product, 4.6% of TF32's on 8192 x 2048 x 256), and
// cuBLASLt's on large shapes.
constexpr double kTileEfficiency = 0.04;
constexpr double kLibraryEfficiency = 0.7;
// The tile kernel is taken only where its estimate is this far below the
// library's: its time per step was measured on many-block shapes, and a
// block alone on an SM (the small products it is for) multiplies slower.
constexpr double kMargin = 0.6;
// Blocks of a tile product an SM holds at once (registers: 128 threads of
// up to 64 loads and 32 accumulators; shared memory: under 48 KB).
constexpr int kResidentTiles = 4;

struct TileShape {
  int warps_m, warps_n, frags_m, frags_n;
};
// 32 x 32, 64 x 32, 32 x 64 and 64 x 64 outputs a block, four warps each.
constexpr TileShape kShapes[] = {{2, 2, 1, 2}, {2, 2, 2, 2}, {2, 2, 1, 4}, {2, 2, 2, 4}};

int64_t Ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Whether a block computing `v` inline reads memory in `v`'s own order:
// through elementwise ops, converts, broadcasts, slices and dynamic slices
// of values a kernel stores (or arguments). A transpose or reshape on the
// way would make the consecutive threads of a tile's loads read strided
// addresses (measured: products with transposed operands 5x slower than
// their estimate).
bool ReadsInOrder(const ir::Value* v, int depth = 0) {
  const ir::Operation* op = v->defining_op();
  // (A product's result is a kernel's or in order: not classified here,
  // which would estimate a chain of products again from each.)
  if (op == nullptr || op->id() == ir::OpId::kDotGeneral || ClassifyOp(*op) != OpClass::kFusible) return true;
  if (depth > 8) return false;
  const ir::OpId id = op->id();
  const bool keeps_order = IsElementwise(*op) || id == ir::OpId::kConvert || id == ir::OpId::kBroadcastInDim ||
                           id == ir::OpId::kSlice || id == ir::OpId::kDynamicSlice || id == ir::OpId::kConstant ||
                           id == ir::OpId::kIota;
  if (!keeps_order) return false;
  for (size_t i = 0; i < op->num_operands(); ++i) {
    if (!ReadsInOrder(op->operand(i), depth + 1)) return false;
  }
  return true;
}

}  // namespace

bool TileProductTypes(const ir::Operation& dot) {
  if (dot.id() != ir::OpId::kDotGeneral || dot.num_operands() != 2 || dot.num_results() != 1) return false;
  if (!dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) return false;
  const ir::ElementType a = dot.operand(0)->type().element(), b = dot.operand(1)->type().element();
  const ir::ElementType out = dot.result(0)->type().element();
  if (a != b || (out != ir::ElementType::kF32 && out != a)) return false;
  if (a == ir::ElementType::kF32) return PrecisionOf(dot) == GemmPrecision::kDefault;
  return a == ir::ElementType::kBF16 || a == ir::ElementType::kF16;
}

TileProductChoice ChooseTileProduct(const ir::Operation& dot, const DeviceLimits& limits) {
  TileProductChoice c;
  if (!TileProductTypes(dot) || !ReadsInOrder(dot.operand(0)) || !ReadsInOrder(dot.operand(1))) return c;
  const DotDims d = DotDimsOf(dot);
  if (d.batch * d.m * d.n * d.k == 0) return c;
  const std::string& pinned = PlanOptions::Current().tile_product;
  const bool tf32 = dot.operand(0)->type().element() == ir::ElementType::kF32;
  const double peak = limits.peak(tf32 ? ComputeUnit::kTf32 : ComputeUnit::kHalf);
  const double hbm = limits.memory_bytes_per_s;
  const double flops = 2.0 * static_cast<double>(d.batch) * static_cast<double>(d.m) * static_cast<double>(d.n) *
                       static_cast<double>(d.k);
  const double out_bytes = static_cast<double>(dot.result(0)->type().StorageBytes());
  const double bytes = static_cast<double>(dot.operand(0)->type().StorageBytes()) +
                       static_cast<double>(dot.operand(1)->type().StorageBytes()) + out_bytes;
  double library = kLibraryCallSeconds + std::max(flops / (peak * kLibraryEfficiency), bytes / hbm);
  // An elementwise op after what cuBLASLt's epilogue takes (a bias, a
  // relu) runs as a kernel of its own, reading and writing the product
  // once more; the generated kernel applies it before it stores.
  if (auto lowered = LowerDot(dot); lowered.ok()) {
    const EpilogueMatch absorbed = MatchEpilogue(dot, lowered->config);
    const ir::Operation* next = SoleUser(absorbed.result ? absorbed.result : dot.result(0));
    if (next != nullptr && IsElementwise(*next) && next->num_results() == 1 &&
        next->result(0)->type().shape() == dot.result(0)->type().shape()) {
      library += kKernelSeconds + 2 * out_bytes / hbm;
    }
  }
  double best = 0;
  for (const TileShape& s : kShapes) {
    for (const int depth : {128, 64, 32}) {
      DotTiling t;
      t.lanes = DotTiling::Lanes::kTensorTiles;
      t.dims = d;
      t.warps_m = s.warps_m;
      t.warps_n = s.warps_n;
      t.frags_m = s.frags_m;
      t.frags_n = s.frags_n;
      t.depth = depth;
      const int64_t loads = (t.tile_m() + t.tile_n()) * depth / t.threads();
      // No deeper than the contraction needs (past its end the steps load zeros).
      if (depth > 32 && depth / 2 >= d.k) continue;
      if (loads > kMostLoadsPerThread || t.staged_floats() * 4 > kMostStagedBytes) continue;
      t.tiles = d.batch * Ceil(d.m, t.tile_m()) * Ceil(d.n, t.tile_n());
      t.k_chunk = d.k;
      const int64_t waves = Ceil(t.tiles, int64_t{kPlannedSmCount} * kResidentTiles);
      const double steps = static_cast<double>(Ceil(d.k, depth));
      // The blocks sharing an SM share its tensor cores: a wave's step
      // takes the longer of the latency and their arithmetic.
      const double per_sm = peak / kPlannedSmCount * kTileEfficiency;
      const double resident =
          static_cast<double>(std::min<int64_t>(kResidentTiles, Ceil(t.tiles, kPlannedSmCount)));
      const double step_flops = 2.0 * static_cast<double>(t.tile_m() * t.tile_n()) * depth;
      const double step = std::max(kTileStepSeconds + static_cast<double>(loads) * kTileLoadSeconds,
                                   resident * step_flops / per_sm);
      const double generated = kKernelSeconds + std::max(static_cast<double>(waves) * steps * step, bytes / hbm);
      if (best == 0 || generated < best) {
        best = generated;
        c.tiling = t;
      }
    }
  }
  c.generated = pinned == "generated" || (pinned != "library" && best < kMargin * library);
  const std::string estimates = "generated ~" + MicrosecondsText(best) + ", cuBLASLt ~" + MicrosecondsText(library) +
                                " (tiles where under " + std::to_string(static_cast<int>(kMargin * 100)) +
                                "% of it; " + limits.name + ")";
  c.why = pinned.empty() ? estimates : "HLOGRAPH_GPU_TILE_PRODUCT=" + pinned;
  return c;
}

}  // namespace hlograph::gpu

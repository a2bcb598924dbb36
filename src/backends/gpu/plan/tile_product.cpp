#include "backends/gpu/plan/tile_product.h"

#include <algorithm>
#include <cstdio>

#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/epilogue_patterns.h"
#include "backends/gpu/plan/gemm_epilogue.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

// A generated kernel's own cost in a graph: its node's launch and tail.
constexpr double kKernelSeconds = 1.5e-6;
// The least time of one step of the contraction: the next step's operand
// loads (one memory latency) and the block's two barriers.
constexpr double kTileStepSeconds = 0.3e-6;
// The share of a unit's peak the staged mma.sync kernel reaches per SM
// (no ldmatrix, no asynchronous copies), and cuBLASLt's on large shapes.
constexpr double kTileEfficiency = 0.35;
constexpr double kLibraryEfficiency = 0.7;
// Blocks of a tile product an SM holds at once (registers: 128 threads of
// up to 32 accumulators; shared memory: 33 KB at 64 x 64).
constexpr int kResidentTiles = 4;

struct TileShape {
  int warps_m, warps_n, frags_m, frags_n;
};
// 32 x 32, 64 x 32, 32 x 64 and 64 x 64 outputs a block, four warps each.
constexpr TileShape kShapes[] = {{2, 2, 1, 2}, {2, 2, 2, 2}, {2, 2, 1, 4}, {2, 2, 2, 4}};

std::string Micro(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  return buf;
}

int64_t Ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }

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
  if (!TileProductTypes(dot)) return c;
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
    DotTiling t;
    t.lanes = DotTiling::Lanes::kTensorTiles;
    t.dims = d;
    t.warps_m = s.warps_m;
    t.warps_n = s.warps_n;
    t.frags_m = s.frags_m;
    t.frags_n = s.frags_n;
    t.tiles = d.batch * Ceil(d.m, t.tile_m()) * Ceil(d.n, t.tile_n());
    t.k_chunk = d.k;
    const int64_t waves = Ceil(t.tiles, int64_t{kPlannedSmCount} * kResidentTiles);
    const double steps = static_cast<double>(Ceil(d.k, DotTiling::kTileDepth));
    // The blocks sharing an SM share its tensor cores: a wave's step takes
    // the longer of the latency and their arithmetic.
    const double per_sm = peak / kPlannedSmCount * kTileEfficiency;
    const double resident = static_cast<double>(std::min<int64_t>(kResidentTiles, Ceil(t.tiles, kPlannedSmCount)));
    const double step_flops = 2.0 * static_cast<double>(t.tile_m() * t.tile_n()) * DotTiling::kTileDepth;
    const double step = std::max(kTileStepSeconds, resident * step_flops / per_sm);
    // Each block reads its rows of the lhs and columns of the rhs: the
    // operands again for every tile across, mostly from L2.
    const double generated =
        kKernelSeconds + std::max(static_cast<double>(waves) * steps * step, bytes / hbm);
    if (best == 0 || generated < best) {
      best = generated;
      c.tiling = t;
    }
  }
  c.generated = pinned == "generated" || (pinned != "library" && best < library);
  const std::string estimates = "generated ~" + Micro(best) + ", cuBLASLt ~" + Micro(library);
  c.why = pinned.empty() ? estimates + " (" + limits.name + ")" : "HLOGRAPH_GPU_TILE_PRODUCT=" + pinned;
  return c;
}

}  // namespace hlograph::gpu

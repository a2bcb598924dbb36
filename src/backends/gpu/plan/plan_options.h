// Every switch and tuning value of the GPU plan and its kernels, in one
// place. The planner's choices come from shapes, bytes and FLOPs (the
// layouts, step_cost.h); these only turn a kind of kernel off, for a
// comparison, or pin a value the planner would choose. They are read
// from the environment once per plan (docs/ENVIRONMENT.md lists the
// variables), held by the program, printed by `explain` where they differ
// from the defaults, and in effect on the thread while the plan is made
// and its kernels are emitted (ScopedPlanOptions).
#pragma once

#include <string>

namespace hlograph::gpu {

// How a product's prologue issues its passes' loads (generated_dot.h).
enum class LoadsTogether { kNo, kByBlock, kByWarp };

// Which loads a product issues right after its wait (generated_dot.h).
struct DotEarlyLoads {
  bool epilogue = false;
  bool staged = false;
};

struct PlanOptions {
  // Kernels and fusions; "0" in the variable turns each off.
  bool generated_dot = true;          // HLOGRAPH_GPU_GENERATED_DOT: products of a few rows as generated kernels
  bool attention = true;              // HLOGRAPH_GPU_ATTENTION: a decode step's attention as one kernel
  bool attention_stores = true;       // HLOGRAPH_GPU_ATTENTION_STORES: it stores the caches a scan stacks
  bool attention_early_loads = true;  // HLOGRAPH_GPU_ATTENTION_EARLY_LOADS: it loads the caches before it waits
  bool flash_attention = true;        // HLOGRAPH_GPU_FLASH_ATTENTION: many queries' attention as one kernel
  bool row_kernels = true;            // HLOGRAPH_GPU_ROW_KERNELS: row reductions inside their loop kernel
  bool row_vectors = true;            // HLOGRAPH_GPU_ROW_VECTORS: row vectors loaded once for a vector's lanes
  bool sibling_reductions = true;     // HLOGRAPH_GPU_SIBLING_REDUCTIONS: reductions of one array in one kernel
  bool side_by_side = true;           // HLOGRAPH_GPU_SIDE_BY_SIDE: independent steps in parallel branches
  bool prefetch_l2 = true;            // HLOGRAPH_GPU_PREFETCH_L2: weights asked of L2 before the wait
  bool prefetch_ahead = true;         // HLOGRAPH_GPU_PREFETCH_AHEAD: a later product's weights asked of L2
  bool cluster_sum = true;            // HLOGRAPH_GPU_CLUSTER_SUM: split products summed in a cluster
  bool dot_stage_lhs = true;          // HLOGRAPH_GPU_DOT_STAGE_LHS: a product's lhs staged in shared memory
  bool cudnn = true;                  // HLOGRAPH_GPU_CUDNN: convolutions through cuDNN
  bool conv_epilogue = true;          // HLOGRAPH_GPU_CONV_EPILOGUE: bias and activation in cuDNN's epilogue
  bool tf32 = true;                   // HLOGRAPH_GPU_TF32: f32 products at DEFAULT precision on TF32
  bool outer_products = true;         // HLOGRAPH_GPU_OUTER_PRODUCTS: one-element contractions fused where read
  bool outer_product_sums = true;     // HLOGRAPH_GPU_OUTER_PRODUCT_SUMS: sums of outer products as products
  // Values; 0 (or the default named) leaves them to the planner.
  int attention_chunk = 0;            // HLOGRAPH_GPU_ATTENTION_CHUNK: keys a decode attention block takes (>= 8)
  int dot_blocks_per_sm = 0;          // HLOGRAPH_GPU_DOT_BLOCKS_PER_SM: blocks a split product aims for (1-64)
  int dot_min_blocks_per_sm = -1;     // HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM: register cap (1-32; other: none; -1 unset)
  int row_threads = 0;                // HLOGRAPH_GPU_ROW_THREADS: a row kernel's block (32-1024, a multiple of 32)
  bool row_cache_shared = false;      // HLOGRAPH_GPU_ROW_CACHE=shared: rows staged in shared memory
  LoadsTogether loads_together = LoadsTogether::kByBlock;  // HLOGRAPH_GPU_LOADS_TOGETHER: 1 (block), warp or 0
  DotEarlyLoads dot_loads_early{true, false};  // HLOGRAPH_GPU_DOT_LOADS_EARLY: epilogue, staged, 1 (both) or 0
  std::string prologue_reduce;        // HLOGRAPH_GPU_PROLOGUE_REDUCE: "" (scalars), all, or 0
  std::string fft;                    // HLOGRAPH_GPU_FFT: "" (by cost), library (cuFFT) or direct (fft_config.h)
  std::string tile_product;           // HLOGRAPH_GPU_TILE_PRODUCT: "" (by cost), library or generated (tile_product.h)

  static PlanOptions FromEnvironment();

  // "k=v" for each option not at its default, by variable; "defaults".
  std::string ToString() const;

  // The options in effect on this thread: the innermost ScopedPlanOptions'
  // (a plan being made, a program's kernels being emitted), else read
  // from the environment now (a kernel emitted on its own, in a test).
  static const PlanOptions& Current();
};

// Makes `options` those in effect on this thread while it lives.
class ScopedPlanOptions {
 public:
  explicit ScopedPlanOptions(const PlanOptions& options);
  ~ScopedPlanOptions();
  ScopedPlanOptions(const ScopedPlanOptions&) = delete;
  ScopedPlanOptions& operator=(const ScopedPlanOptions&) = delete;

 private:
  const PlanOptions* previous_;
};

}  // namespace hlograph::gpu

#include "backends/gpu/plan/plan_options.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace hlograph::gpu {
namespace {

const char* Env(const char* name) { return std::getenv(name); }

// A default-on switch: "0" turns it off.
bool Switch(const char* name) {
  const char* v = Env(name);
  return v == nullptr || std::string(v) != "0";
}

// An integer in [lo, hi], or `otherwise` (unset or out of range).
int Number(const char* name, int lo, int hi, int otherwise) {
  const char* v = Env(name);
  if (v == nullptr) return otherwise;
  const int x = std::atoi(v);
  return x >= lo && x <= hi ? x : otherwise;
}

thread_local const PlanOptions* current = nullptr;

}  // namespace

PlanOptions PlanOptions::FromEnvironment() {
  PlanOptions o;
  o.generated_dot = Switch("HLOGRAPH_GPU_GENERATED_DOT");
  o.attention = Switch("HLOGRAPH_GPU_ATTENTION");
  o.attention_stores = Switch("HLOGRAPH_GPU_ATTENTION_STORES");
  o.attention_early_loads = Switch("HLOGRAPH_GPU_ATTENTION_EARLY_LOADS");
  o.flash_attention = Switch("HLOGRAPH_GPU_FLASH_ATTENTION");
  o.row_kernels = Switch("HLOGRAPH_GPU_ROW_KERNELS");
  o.row_vectors = Switch("HLOGRAPH_GPU_ROW_VECTORS");
  o.sibling_reductions = Switch("HLOGRAPH_GPU_SIBLING_REDUCTIONS");
  o.side_by_side = Switch("HLOGRAPH_GPU_SIDE_BY_SIDE");
  o.prefetch_l2 = Switch("HLOGRAPH_GPU_PREFETCH_L2");
  o.prefetch_ahead = Switch("HLOGRAPH_GPU_PREFETCH_AHEAD");
  o.cluster_sum = Switch("HLOGRAPH_GPU_CLUSTER_SUM");
  o.dot_stage_lhs = Switch("HLOGRAPH_GPU_DOT_STAGE_LHS");
  o.cudnn = Switch("HLOGRAPH_GPU_CUDNN");
  o.conv_epilogue = Switch("HLOGRAPH_GPU_CONV_EPILOGUE");
  o.tf32 = Switch("HLOGRAPH_GPU_TF32");
  o.outer_products = Switch("HLOGRAPH_GPU_OUTER_PRODUCTS");
  o.outer_product_sums = Switch("HLOGRAPH_GPU_OUTER_PRODUCT_SUMS");
  if (const int chunk = Number("HLOGRAPH_GPU_ATTENTION_CHUNK", 8, 1 << 30, 0); chunk > 0) {
    o.attention_chunk = std::min(chunk, 1024) / 8 * 8;
  }
  o.dot_blocks_per_sm = Number("HLOGRAPH_GPU_DOT_BLOCKS_PER_SM", 1, 64, 0);
  if (Env("HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM") != nullptr) {
    o.dot_min_blocks_per_sm = Number("HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM", 1, 32, 0);
  }
  if (Env("HLOGRAPH_GPU_ROW_THREADS") != nullptr) {
    const int t = Number("HLOGRAPH_GPU_ROW_THREADS", 32, 1024, 0);
    o.row_threads = t % 32 == 0 ? t : 0;
  }
  if (const char* v = Env("HLOGRAPH_GPU_ROW_CACHE")) o.row_cache_shared = std::string(v) == "shared";
  if (const char* v = Env("HLOGRAPH_GPU_LOADS_TOGETHER")) {
    const std::string s = v;
    o.loads_together = s == "0" ? LoadsTogether::kNo : s == "warp" ? LoadsTogether::kByWarp : LoadsTogether::kByBlock;
  }
  if (const char* v = Env("HLOGRAPH_GPU_DOT_LOADS_EARLY")) {
    const std::string s = v;
    o.dot_loads_early = {s == "1" || s == "epilogue", s == "1" || s == "staged"};
  }
  if (const char* v = Env("HLOGRAPH_GPU_PROLOGUE_REDUCE")) o.prologue_reduce = v;
  if (const char* v = Env("HLOGRAPH_GPU_FFT"); v && (std::string(v) == "library" || std::string(v) == "direct")) {
    o.fft = v;
  }
  if (const char* v = Env("HLOGRAPH_GPU_TILE_PRODUCT");
      v && (std::string(v) == "library" || std::string(v) == "generated")) {
    o.tile_product = v;
  }
  return o;
}

std::string PlanOptions::ToString() const {
  const PlanOptions d;
  std::vector<std::string> set;
  const auto flag = [&](bool value, bool dflt, const char* name) {
    if (value != dflt) set.push_back(std::string(name) + "=" + (value ? "1" : "0"));
  };
  flag(generated_dot, d.generated_dot, "HLOGRAPH_GPU_GENERATED_DOT");
  flag(attention, d.attention, "HLOGRAPH_GPU_ATTENTION");
  flag(attention_stores, d.attention_stores, "HLOGRAPH_GPU_ATTENTION_STORES");
  flag(attention_early_loads, d.attention_early_loads, "HLOGRAPH_GPU_ATTENTION_EARLY_LOADS");
  flag(flash_attention, d.flash_attention, "HLOGRAPH_GPU_FLASH_ATTENTION");
  flag(row_kernels, d.row_kernels, "HLOGRAPH_GPU_ROW_KERNELS");
  flag(row_vectors, d.row_vectors, "HLOGRAPH_GPU_ROW_VECTORS");
  flag(sibling_reductions, d.sibling_reductions, "HLOGRAPH_GPU_SIBLING_REDUCTIONS");
  flag(side_by_side, d.side_by_side, "HLOGRAPH_GPU_SIDE_BY_SIDE");
  flag(prefetch_l2, d.prefetch_l2, "HLOGRAPH_GPU_PREFETCH_L2");
  flag(prefetch_ahead, d.prefetch_ahead, "HLOGRAPH_GPU_PREFETCH_AHEAD");
  flag(cluster_sum, d.cluster_sum, "HLOGRAPH_GPU_CLUSTER_SUM");
  flag(dot_stage_lhs, d.dot_stage_lhs, "HLOGRAPH_GPU_DOT_STAGE_LHS");
  flag(cudnn, d.cudnn, "HLOGRAPH_GPU_CUDNN");
  flag(conv_epilogue, d.conv_epilogue, "HLOGRAPH_GPU_CONV_EPILOGUE");
  flag(tf32, d.tf32, "HLOGRAPH_GPU_TF32");
  flag(outer_products, d.outer_products, "HLOGRAPH_GPU_OUTER_PRODUCTS");
  flag(outer_product_sums, d.outer_product_sums, "HLOGRAPH_GPU_OUTER_PRODUCT_SUMS");
  const auto number = [&](int value, int dflt, const char* name) {
    if (value != dflt) set.push_back(std::string(name) + "=" + std::to_string(value));
  };
  number(attention_chunk, d.attention_chunk, "HLOGRAPH_GPU_ATTENTION_CHUNK");
  number(dot_blocks_per_sm, d.dot_blocks_per_sm, "HLOGRAPH_GPU_DOT_BLOCKS_PER_SM");
  number(dot_min_blocks_per_sm, d.dot_min_blocks_per_sm, "HLOGRAPH_GPU_DOT_MIN_BLOCKS_PER_SM");
  number(row_threads, d.row_threads, "HLOGRAPH_GPU_ROW_THREADS");
  if (row_cache_shared) set.push_back("HLOGRAPH_GPU_ROW_CACHE=shared");
  if (loads_together != d.loads_together) {
    set.push_back(std::string("HLOGRAPH_GPU_LOADS_TOGETHER=") + (loads_together == LoadsTogether::kNo ? "0" : "warp"));
  }
  if (dot_loads_early.epilogue != d.dot_loads_early.epilogue || dot_loads_early.staged != d.dot_loads_early.staged) {
    const char* v = dot_loads_early.epilogue ? "1" : dot_loads_early.staged ? "staged" : "0";
    set.push_back(std::string("HLOGRAPH_GPU_DOT_LOADS_EARLY=") + v);
  }
  if (!prologue_reduce.empty()) set.push_back("HLOGRAPH_GPU_PROLOGUE_REDUCE=" + prologue_reduce);
  if (!fft.empty()) set.push_back("HLOGRAPH_GPU_FFT=" + fft);
  if (!tile_product.empty()) set.push_back("HLOGRAPH_GPU_TILE_PRODUCT=" + tile_product);
  if (set.empty()) return "defaults";
  std::string s;
  for (const std::string& x : set) s += (s.empty() ? "" : " ") + x;
  return s;
}

const PlanOptions& PlanOptions::Current() {
  if (current != nullptr) return *current;
  thread_local PlanOptions now;
  now = FromEnvironment();
  return now;
}

ScopedPlanOptions::ScopedPlanOptions(const PlanOptions& options) : previous_(current) { current = &options; }

ScopedPlanOptions::~ScopedPlanOptions() { current = previous_; }

}  // namespace hlograph::gpu

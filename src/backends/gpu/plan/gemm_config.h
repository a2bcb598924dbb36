// A matrix product as the planner describes it to cuBLASLt: plain data,
// printed by `explain` and tested without a GPU (runtime/gemm.h binds it
// to a cuBLASLt handle).
//
// Layout: everything row-major and dense. lhs is [batch][m][k] (or
// [batch][k][m] when lhs_transposed), rhs is [batch][k][n] (or [batch][n][k]
// when rhs_transposed), out is [batch][m][n]; out = lhs x rhs (alpha 1,
// beta 0). A batch stride of 0 on lhs or rhs broadcasts it over the batch.
#pragma once

#include <cstdint>
#include <string>

#include "ir/element_type.h"

namespace hlograph::gpu {

// stablehlo precision_config: DEFAULT and HIGH use TF32 for f32 operands
// (as XLA does on Hopper), HIGHEST computes in full f32.
enum class GemmPrecision { kDefault, kHighest };

// What cuBLASLt's epilogue adds to the product: out[i][j] += bias[j], then
// max(., 0) for kBiasRelu (as XLA's GEMM rewriter fuses them; batch 1
// only); kScale multiplies the product by a scalar in device memory (f8
// products: their per-tensor scale).
enum class GemmEpilogue { kNone, kBias, kBiasRelu, kScale };

struct GemmConfig {
  ir::ElementType lhs_type = ir::ElementType::kF32;
  ir::ElementType rhs_type = ir::ElementType::kF32;
  ir::ElementType out_type = ir::ElementType::kF32;
  int64_t batch = 1, m = 1, n = 1, k = 1;
  bool lhs_transposed = false;
  bool rhs_transposed = false;
  bool lhs_broadcast = false;  // lhs has no batch dimension (stride 0)
  bool rhs_broadcast = false;
  GemmPrecision precision = GemmPrecision::kDefault;
  GemmEpilogue epilogue = GemmEpilogue::kNone;
  std::string ToString() const;  // "gemm f32xf32->f32 batch 1 m 8 n 512 k 512 lhs N rhs N tf32"
};

// Whether cuBLASLt runs this combination of types and layout: f32, f64,
// complex<f32>, complex<f64>, f16 and bf16 (f16/bf16 operands with an
// f16/bf16 or f32 result, f32 accumulation); i8 x i8 -> i32 (integer
// tensor cores, exact); f8 (e4m3fn, e5m2; not both e5m2) -> f32, bf16 or
// f16 (f32 accumulation). The 8-bit products have rules of their own: see
// TakesKMajorOperands and the alignment in the .cpp.
bool IsSupportedByCublasLt(const GemmConfig& config);

// The 8-bit tensor-core products (i8, f8) read both operands along k (the
// "TN" layout of cuBLASLt's docs): lhs [batch][m][k] and rhs [batch][n][k],
// i.e. lhs_transposed false and rhs_transposed true. The lowering permutes
// operands laid out otherwise.
bool TakesKMajorOperands(ir::ElementType lhs, ir::ElementType rhs);

}  // namespace hlograph::gpu

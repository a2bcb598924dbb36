// Matrix products through cuBLASLt. A GemmConfig is plain data (printable,
// testable without a GPU); a GemmPlan is the config bound to a cuBLASLt
// handle with its descriptors and chosen algorithm, created once at compile
// time and run many times.
//
// Layout: everything row-major and dense. lhs is [batch][m][k] (or
// [batch][k][m] when lhs_transposed), rhs is [batch][k][n] (or [batch][n][k]
// when rhs_transposed), out is [batch][m][n]; out = lhs x rhs (alpha 1,
// beta 0). A batch stride of 0 on lhs or rhs broadcasts it over the batch.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "hlograph/status.h"
#include "ir/element_type.h"

namespace hlograph::gpu {

// stablehlo precision_config: DEFAULT and HIGH use TF32 for f32 operands
// (as XLA does on Hopper), HIGHEST computes in full f32.
enum class GemmPrecision { kDefault, kHighest };

// What cuBLASLt's epilogue adds to the product: out[i][j] += bias[j], then
// max(., 0) for kBiasRelu (as XLA's GEMM rewriter fuses them). Batch 1 only.
enum class GemmEpilogue { kNone, kBias, kBiasRelu };

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

// Whether cuBLASLt runs this combination of types: f32, f64, complex<f32>,
// complex<f64>, f16 and bf16 (f16/bf16 operands with an f16/bf16 or f32
// result, f32 accumulation).
bool IsSupportedByCublasLt(const GemmConfig& config);

// One cuBLASLt handle; create one per executable (or per thread).
class BlasHandle {
 public:
  static StatusOr<std::shared_ptr<BlasHandle>> Create();
  ~BlasHandle();
  cublasLtHandle_t get() const { return handle_; }

 private:
  cublasLtHandle_t handle_ = nullptr;
};

class GemmPlan {
 public:
  // Builds the descriptors and asks cuBLASLt's heuristic for the best
  // algorithm that fits in `max_workspace_bytes`.
  static StatusOr<std::unique_ptr<GemmPlan>> Create(const GemmConfig& config, std::shared_ptr<BlasHandle> handle,
                                                    size_t max_workspace_bytes = 32 << 20);
  ~GemmPlan();
  const GemmConfig& config() const { return config_; }
  size_t workspace_bytes() const { return workspace_bytes_; }
  // `workspace` must hold workspace_bytes(); nothing is allocated here, so a
  // Run can be captured into a CUDA graph. lhs, rhs and out must be 16-byte
  // aligned (the algorithm is chosen for that; cudaMalloc gives 256).
  // `bias` (n elements of the output type) for the bias epilogues.
  Status Run(const void* lhs, const void* rhs, void* out, void* workspace, cudaStream_t stream,
             const void* bias = nullptr) const;

  // Times the heuristic's candidates on scratch buffers and keeps the
  // fastest (XLA autotunes too: for big products the first pick can be
  // several percent off). Allocates and frees scratch device memory.
  Status Autotune(cudaStream_t stream);

 private:
  GemmPlan() = default;
  struct Descriptors;
  GemmConfig config_;
  std::shared_ptr<BlasHandle> handle_;
  std::unique_ptr<Descriptors> descriptors_;
  size_t workspace_bytes_ = 0;
};

}  // namespace hlograph::gpu

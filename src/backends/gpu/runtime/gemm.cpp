#include "backends/gpu/runtime/gemm.h"

#include <cstdint>
#include <limits>
#include <utility>

#include "backends/gpu/runtime/cuda_status.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

// Pointers passed to Run must be aligned to this (cudaMalloc gives 256). The
// heuristic otherwise assumes 256 and may pick a kernel that needs it.
constexpr uint32_t kMinAlignmentBytes = 16;

cudaDataType DataType(ElementType t) {
  switch (t) {
    case ElementType::kF64:
      return CUDA_R_64F;
    case ElementType::kF16:
      return CUDA_R_16F;
    case ElementType::kBF16:
      return CUDA_R_16BF;
    default:
      return CUDA_R_32F;
  }
}

template <typename T>
Status SetDescAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute, T value,
                        const char* what) {
  return CublasStatus(cublasLtMatmulDescSetAttribute(desc, attribute, &value, sizeof(value)),
                      std::string("cublasLtMatmulDescSetAttribute(") + what + ")");
}

template <typename T>
Status SetLayoutAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attribute, T value,
                          const char* what) {
  return CublasStatus(cublasLtMatrixLayoutSetAttribute(layout, attribute, &value, sizeof(value)),
                      std::string("cublasLtMatrixLayoutSetAttribute(") + what + ")");
}

template <typename T>
Status SetPreference(cublasLtMatmulPreference_t preference, cublasLtMatmulPreferenceAttributes_t attribute, T value,
                     const char* what) {
  return CublasStatus(cublasLtMatmulPreferenceSetAttribute(preference, attribute, &value, sizeof(value)),
                      std::string("cublasLtMatmulPreferenceSetAttribute(") + what + ")");
}

}  // namespace

std::string GemmConfig::ToString() const {
  std::string s = "gemm ";
  s += ElementTypeName(lhs_type);
  s += "x";
  s += ElementTypeName(rhs_type);
  s += "->";
  s += ElementTypeName(out_type);
  s += " batch " + std::to_string(batch) + " m " + std::to_string(m) + " n " + std::to_string(n) + " k " +
       std::to_string(k);
  s += lhs_transposed ? " lhs T" : " lhs N";
  s += rhs_transposed ? " rhs T" : " rhs N";
  if (lhs_broadcast) s += " lhs-broadcast";
  if (rhs_broadcast) s += " rhs-broadcast";
  if (precision == GemmPrecision::kHighest) {
    s += " highest";
  } else {
    s += lhs_type == ElementType::kF32 ? " tf32" : " default";
  }
  return s;
}

bool IsSupportedByCublasLt(const GemmConfig& c) {
  if (c.batch < 1 || c.m < 1 || c.n < 1 || c.k < 1) return false;
  if (c.batch > std::numeric_limits<int32_t>::max()) return false;  // CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT is int32
  if (c.lhs_type != c.rhs_type) return false;
  switch (c.lhs_type) {
    case ElementType::kF32:
    case ElementType::kF64:
      return c.out_type == c.lhs_type;
    case ElementType::kF16:
    case ElementType::kBF16:
      return c.out_type == c.lhs_type || c.out_type == ElementType::kF32;
    default:
      return false;
  }
}

StatusOr<std::shared_ptr<BlasHandle>> BlasHandle::Create() {
  cublasLtHandle_t handle = nullptr;
  HLOGRAPH_TRY(CublasStatus(cublasLtCreate(&handle), "cublasLtCreate"));
  std::shared_ptr<BlasHandle> result(new BlasHandle());
  result->handle_ = handle;
  return result;
}

BlasHandle::~BlasHandle() {
  if (handle_ != nullptr) (void)cublasLtDestroy(handle_);
}

struct GemmPlan::Descriptors {
  cublasLtMatmulDesc_t matmul = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;  // cuBLASLt's A (our rhs), B (our lhs), C = D
  cublasLtMatmulAlgo_t algo{};
  bool double_scale = false;  // alpha/beta are double (f64) rather than float

  Descriptors() = default;
  Descriptors(const Descriptors&) = delete;
  Descriptors& operator=(const Descriptors&) = delete;
  ~Descriptors() {
    if (d != nullptr) (void)cublasLtMatrixLayoutDestroy(d);
    if (b != nullptr) (void)cublasLtMatrixLayoutDestroy(b);
    if (a != nullptr) (void)cublasLtMatrixLayoutDestroy(a);
    if (matmul != nullptr) (void)cublasLtMatmulDescDestroy(matmul);
  }
};

namespace {

// A matrix layout: `rows` x `cols` column-major with leading dimension `ld`,
// repeated `batch` times `stride` elements apart.
Status MakeLayout(cublasLtMatrixLayout_t* layout, cudaDataType type, int64_t rows, int64_t cols, int64_t ld,
                  int64_t batch, int64_t stride, const char* which) {
  HLOGRAPH_TRY(CublasStatus(cublasLtMatrixLayoutCreate(layout, type, static_cast<uint64_t>(rows),
                                                       static_cast<uint64_t>(cols), ld),
                            std::string("cublasLtMatrixLayoutCreate(") + which + ")"));
  if (batch > 1) {
    HLOGRAPH_TRY(SetLayoutAttribute(*layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, static_cast<int32_t>(batch),
                                    "batch count"));
    HLOGRAPH_TRY(SetLayoutAttribute(*layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride, "batch stride"));
  }
  return Status::Ok();
}

class PreferenceGuard {
 public:
  ~PreferenceGuard() {
    if (preference != nullptr) (void)cublasLtMatmulPreferenceDestroy(preference);
  }
  cublasLtMatmulPreference_t preference = nullptr;
};

}  // namespace

StatusOr<std::unique_ptr<GemmPlan>> GemmPlan::Create(const GemmConfig& config, std::shared_ptr<BlasHandle> handle,
                                                     size_t max_workspace_bytes) {
  if (!IsSupportedByCublasLt(config)) return Status::Error("cuBLASLt does not support " + config.ToString());
  if (handle == nullptr) return Status::Error("no cuBLASLt handle for " + config.ToString());
  std::unique_ptr<GemmPlan> plan(new GemmPlan());
  plan->config_ = config;
  plan->handle_ = std::move(handle);
  plan->descriptors_ = std::make_unique<Descriptors>();
  Descriptors& desc = *plan->descriptors_;
  const GemmConfig& c = config;

  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  cudaDataType scale = CUDA_R_32F;
  if (c.lhs_type == ElementType::kF64) {
    compute = CUBLAS_COMPUTE_64F;
    scale = CUDA_R_64F;
    desc.double_scale = true;
  } else if (c.lhs_type == ElementType::kF32 && c.precision == GemmPrecision::kDefault) {
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  }
  // f16/bf16 accumulate in f32 with an f32 scale: the defaults above.

  // Row-major out[m][n] = lhs[m][k] x rhs[k][n] is, read column-major,
  // out^T (n x m) = rhs^T (n x k) x lhs^T (k x m): cuBLASLt's A is our rhs and
  // its B our lhs, with M = n, N = m, K = k.
  HLOGRAPH_TRY(CublasStatus(cublasLtMatmulDescCreate(&desc.matmul, compute, scale), "cublasLtMatmulDescCreate"));
  const int32_t trans_a = c.rhs_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int32_t trans_b = c.lhs_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_TRANSA, trans_a, "TRANSA"));
  HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_TRANSB, trans_b, "TRANSB"));

  // A: rhs. [k][n] row-major is n x k column-major (ld n); [n][k] (transposed)
  // is k x n column-major (ld k), used with op T.
  const int64_t rhs_stride = c.rhs_broadcast ? 0 : c.k * c.n;
  if (c.rhs_transposed) {
    HLOGRAPH_TRY(MakeLayout(&desc.a, DataType(c.rhs_type), c.k, c.n, c.k, c.batch, rhs_stride, "A"));
  } else {
    HLOGRAPH_TRY(MakeLayout(&desc.a, DataType(c.rhs_type), c.n, c.k, c.n, c.batch, rhs_stride, "A"));
  }
  // B: lhs. [m][k] row-major is k x m column-major (ld k); [k][m]
  // (transposed) is m x k column-major (ld m), used with op T.
  const int64_t lhs_stride = c.lhs_broadcast ? 0 : c.m * c.k;
  if (c.lhs_transposed) {
    HLOGRAPH_TRY(MakeLayout(&desc.b, DataType(c.lhs_type), c.m, c.k, c.m, c.batch, lhs_stride, "B"));
  } else {
    HLOGRAPH_TRY(MakeLayout(&desc.b, DataType(c.lhs_type), c.k, c.m, c.k, c.batch, lhs_stride, "B"));
  }
  // C = D: out, [m][n] row-major is n x m column-major (ld n).
  HLOGRAPH_TRY(MakeLayout(&desc.d, DataType(c.out_type), c.n, c.m, c.n, c.batch, c.m * c.n, "D"));

  PreferenceGuard preference;
  HLOGRAPH_TRY(CublasStatus(cublasLtMatmulPreferenceCreate(&preference.preference), "cublasLtMatmulPreferenceCreate"));
  HLOGRAPH_TRY(SetPreference(preference.preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                             static_cast<uint64_t>(max_workspace_bytes), "max workspace"));
  HLOGRAPH_TRY(SetPreference(preference.preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, kMinAlignmentBytes,
                             "A alignment"));
  HLOGRAPH_TRY(SetPreference(preference.preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, kMinAlignmentBytes,
                             "B alignment"));
  HLOGRAPH_TRY(SetPreference(preference.preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, kMinAlignmentBytes,
                             "C alignment"));
  HLOGRAPH_TRY(SetPreference(preference.preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, kMinAlignmentBytes,
                             "D alignment"));

  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  HLOGRAPH_TRY(CublasStatus(cublasLtMatmulAlgoGetHeuristic(plan->handle_->get(), desc.matmul, desc.a, desc.b, desc.d,
                                                           desc.d, preference.preference, 1, &result, &returned),
                            "cublasLtMatmulAlgoGetHeuristic(" + c.ToString() + ")"));
  if (returned < 1 || result.state != CUBLAS_STATUS_SUCCESS) {
    return Status::Error("cuBLASLt has no algorithm for " + c.ToString() + " within " +
                         std::to_string(max_workspace_bytes) + " bytes of workspace");
  }
  desc.algo = result.algo;
  plan->workspace_bytes_ = result.workspaceSize;
  return plan;
}

GemmPlan::~GemmPlan() = default;

Status GemmPlan::Run(const void* lhs, const void* rhs, void* out, void* workspace, cudaStream_t stream) const {
  for (const void* p : {lhs, rhs, static_cast<const void*>(out)}) {
    if (reinterpret_cast<uintptr_t>(p) % kMinAlignmentBytes != 0) {
      return Status::Error(config_.ToString() + ": operand pointers must be " + std::to_string(kMinAlignmentBytes) +
                           "-byte aligned");
    }
  }
  if (workspace_bytes_ > 0 && workspace == nullptr) {
    return Status::Error(config_.ToString() + ": needs " + std::to_string(workspace_bytes_) + " bytes of workspace");
  }
  const Descriptors& desc = *descriptors_;
  const float alpha_f = 1.0f, beta_f = 0.0f;
  const double alpha_d = 1.0, beta_d = 0.0;
  const void* alpha = desc.double_scale ? static_cast<const void*>(&alpha_d) : static_cast<const void*>(&alpha_f);
  const void* beta = desc.double_scale ? static_cast<const void*>(&beta_d) : static_cast<const void*>(&beta_f);
  cublasStatus_t status =
      cublasLtMatmul(handle_->get(), desc.matmul, alpha, rhs, desc.a, lhs, desc.b, beta, out, desc.d, out, desc.d,
                     &desc.algo, workspace_bytes_ > 0 ? workspace : nullptr, workspace_bytes_, stream);
  if (status == CUBLAS_STATUS_SUCCESS) return Status::Ok();  // no string building on the hot path
  return CublasStatus(status, "cublasLtMatmul(" + config_.ToString() + ")");
}

}  // namespace hlograph::gpu

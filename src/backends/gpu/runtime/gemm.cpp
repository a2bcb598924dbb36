#include "backends/gpu/runtime/gemm.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device_memory.h"

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
    case ElementType::kC64:
      return CUDA_C_32F;
    case ElementType::kC128:
      return CUDA_C_64F;
    case ElementType::kI8:
      return CUDA_R_8I;
    case ElementType::kI32:
      return CUDA_R_32I;
    case ElementType::kF8E4M3FN:
      return CUDA_R_8F_E4M3;
    case ElementType::kF8E5M2:
      return CUDA_R_8F_E5M2;
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
  std::vector<cublasLtMatmulHeuristicResult_t> candidates;  // the heuristic's, best first
  // alpha = 1 and beta = 0 in the scale type (float, double or complex).
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};

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
  if (c.lhs_type == ElementType::kI8) {
    // Integer tensor cores: exact i32 sums, an i32 scale.
    compute = CUBLAS_COMPUTE_32I;
    scale = CUDA_R_32I;
    const int32_t one = 1;
    std::memcpy(desc.alpha, &one, sizeof one);
  } else if (c.lhs_type == ElementType::kF64 || c.lhs_type == ElementType::kC128) {
    compute = CUBLAS_COMPUTE_64F;
    scale = c.lhs_type == ElementType::kF64 ? CUDA_R_64F : CUDA_C_64F;
    const double one = 1.0;
    std::memcpy(desc.alpha, &one, sizeof one);  // the real part; the rest stays 0
  } else {
    // complex<f32> products are full f32 whatever the precision asks.
    if (c.lhs_type == ElementType::kC64) scale = CUDA_C_32F;
    if (c.lhs_type == ElementType::kF32 && c.precision == GemmPrecision::kDefault) {
      compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    }
    const float one = 1.0f;
    std::memcpy(desc.alpha, &one, sizeof one);
  }
  // f16/bf16 and f8 accumulate in f32 with an f32 scale: the defaults above.

  // Row-major out[m][n] = lhs[m][k] x rhs[k][n] is, read column-major,
  // out^T (n x m) = rhs^T (n x k) x lhs^T (k x m): cuBLASLt's A is our rhs and
  // its B our lhs, with M = n, N = m, K = k.
  HLOGRAPH_TRY(CublasStatus(cublasLtMatmulDescCreate(&desc.matmul, compute, scale), "cublasLtMatmulDescCreate"));
  const int32_t trans_a = c.rhs_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int32_t trans_b = c.lhs_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_TRANSA, trans_a, "TRANSA"));
  HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_TRANSB, trans_b, "TRANSB"));
  if (ir::IsFloat(c.lhs_type) && TakesKMajorOperands(c.lhs_type, c.rhs_type) &&
      c.precision == GemmPrecision::kDefault) {
    // f8 at DEFAULT precision accumulates in the tensor cores' own
    // precision, as XLA's f8 GEMMs do; HIGHEST promotes to f32 as it goes.
    HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t{1}, "FAST_ACCUM"));
  }
  if (c.epilogue == GemmEpilogue::kBias || c.epilogue == GemmEpilogue::kBiasRelu) {
    if (c.batch != 1) return Status::Error("a bias epilogue on a batched product: " + c.ToString());
    // cuBLASLt's D is our output transposed (n x m): its bias runs along D's
    // rows, i.e. along our columns, one value per j.
    const int32_t epilogue = c.epilogue == GemmEpilogue::kBias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_RELU_BIAS;
    HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue, "EPILOGUE"));
  }

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

  // Autotuning times all of them; the heuristic's first is the default.
  constexpr int kCandidates = 32;
  cublasLtMatmulHeuristicResult_t results[kCandidates] = {};
  int returned = 0;
  HLOGRAPH_TRY(CublasStatus(cublasLtMatmulAlgoGetHeuristic(plan->handle_->get(), desc.matmul, desc.a, desc.b, desc.d,
                                                           desc.d, preference.preference, kCandidates, results,
                                                           &returned),
                            "cublasLtMatmulAlgoGetHeuristic(" + c.ToString() + ")"));
  for (int i = 0; i < returned; ++i) {
    if (results[i].state == CUBLAS_STATUS_SUCCESS) desc.candidates.push_back(results[i]);
  }
  if (desc.candidates.empty()) {
    return Status::Error("cuBLASLt has no algorithm for " + c.ToString() + " within " +
                         std::to_string(max_workspace_bytes) + " bytes of workspace");
  }
  desc.algo = desc.candidates[0].algo;
  plan->workspace_bytes_ = desc.candidates[0].workspaceSize;
  return plan;
}

GemmPlan::~GemmPlan() = default;

Status GemmPlan::Autotune(cudaStream_t stream) {
  Descriptors& desc = *descriptors_;
  if (desc.candidates.size() < 2) return Status::Ok();
  const GemmConfig& c = config_;
  const int64_t lhs_bytes = (c.lhs_broadcast ? 1 : c.batch) * c.m * c.k * ir::StorageBytes(c.lhs_type);
  const int64_t rhs_bytes = (c.rhs_broadcast ? 1 : c.batch) * c.k * c.n * ir::StorageBytes(c.rhs_type);
  const int64_t out_bytes = c.batch * c.m * c.n * ir::StorageBytes(c.out_type);
  size_t workspace = 0;
  for (const auto& r : desc.candidates) workspace = std::max(workspace, r.workspaceSize);
  HLOGRAPH_ASSIGN(DeviceBuffer lhs, DeviceBuffer::Allocate(lhs_bytes));
  HLOGRAPH_ASSIGN(DeviceBuffer rhs, DeviceBuffer::Allocate(rhs_bytes));
  HLOGRAPH_ASSIGN(DeviceBuffer out, DeviceBuffer::Allocate(out_bytes));
  HLOGRAPH_ASSIGN(DeviceBuffer scratch, DeviceBuffer::Allocate(static_cast<int64_t>(std::max<size_t>(workspace, 1))));
  DeviceBuffer bias;  // a zero vector for the bias epilogues only (a scale keeps its default, 1)
  if (c.epilogue == GemmEpilogue::kBias || c.epilogue == GemmEpilogue::kBiasRelu) {
    HLOGRAPH_ASSIGN(bias, DeviceBuffer::Allocate(c.n * ir::StorageBytes(c.out_type)));
    HLOGRAPH_TRY(MemsetDevice(bias.data(), 0, c.n * ir::StorageBytes(c.out_type), stream));
    HLOGRAPH_TRY(SetDescAttribute(desc.matmul, CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias.data(), "BIAS_POINTER"));
  }
  // Small nonzero values everywhere (0x3c bytes): zeros would run cooler.
  HLOGRAPH_TRY(MemsetDevice(lhs.data(), 0x3c, lhs_bytes, stream));
  HLOGRAPH_TRY(MemsetDevice(rhs.data(), 0x3c, rhs_bytes, stream));
  cudaEvent_t start = nullptr, stop = nullptr;
  HLOGRAPH_CUDA(cudaEventCreate(&start));
  HLOGRAPH_CUDA(cudaEventCreate(&stop));
  float best_ms = 0;
  size_t best = 0;
  Status status = Status::Ok();
  for (size_t i = 0; i < desc.candidates.size() && status.ok(); ++i) {
    const auto& r = desc.candidates[i];
    auto run = [&] {
      return cublasLtMatmul(handle_->get(), desc.matmul, desc.alpha, rhs.data(), desc.a, lhs.data(), desc.b, desc.beta,
                            out.data(), desc.d, out.data(), desc.d, &r.algo, r.workspaceSize ? scratch.data() : nullptr,
                            r.workspaceSize, stream);
    };
    if (run() != CUBLAS_STATUS_SUCCESS) continue;  // a candidate that does not run is skipped
    constexpr int kRuns = 5;
    (void)cudaEventRecord(start, stream);
    for (int k = 0; k < kRuns; ++k) (void)run();
    (void)cudaEventRecord(stop, stream);
    status = CudaStatus(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    if (status.ok() && cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && (best_ms == 0 || ms < best_ms)) {
      best_ms = ms;
      best = i;
    }
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  HLOGRAPH_TRY(status);
  desc.algo = desc.candidates[best].algo;
  workspace_bytes_ = desc.candidates[best].workspaceSize;
  return Status::Ok();
}

Status GemmPlan::Run(const void* lhs, const void* rhs, void* out, void* workspace, cudaStream_t stream,
                     const void* bias) const {
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
  if (config_.epilogue != GemmEpilogue::kNone) {
    if (bias == nullptr) return Status::Error(config_.ToString() + ": no bias vector or scale");
    // D = scale_A * (A B): the one scale multiplies the product.
    const bool scale = config_.epilogue == GemmEpilogue::kScale;
    HLOGRAPH_TRY(SetDescAttribute(desc.matmul,
                                  scale ? CUBLASLT_MATMUL_DESC_A_SCALE_POINTER : CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias,
                                  scale ? "A_SCALE_POINTER" : "BIAS_POINTER"));
  }
  cublasStatus_t status =
      cublasLtMatmul(handle_->get(), desc.matmul, desc.alpha, rhs, desc.a, lhs, desc.b, desc.beta, out, desc.d, out,
                     desc.d, &desc.algo, workspace_bytes_ > 0 ? workspace : nullptr, workspace_bytes_, stream);
  if (status == CUBLAS_STATUS_SUCCESS) return Status::Ok();  // no string building on the hot path
  return CublasStatus(status, "cublasLtMatmul(" + config_.ToString() + ")");
}

}  // namespace hlograph::gpu

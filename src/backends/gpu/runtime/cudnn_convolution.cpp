#include "backends/gpu/runtime/cudnn_convolution.h"

#include <cudnn.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device_memory.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

// cuDNN's own search may use this much scratch per algorithm; algorithms
// that want more are not considered.
constexpr size_t kMaxAlgorithmWorkspace = size_t{128} << 20;
// Where the algorithm's workspace starts after the repacked filter.
constexpr size_t kWorkspaceAlignment = 256;

Status DnnStatus(cudnnStatus_t status, const std::string& call) {
  if (status == CUDNN_STATUS_SUCCESS) return Status::Ok();
  const char* description = cudnnGetErrorString(status);
  return Status::Error(call + " failed: " + (description != nullptr ? description : "unknown cuDNN error") +
                       " (cudnnStatus " + std::to_string(static_cast<int>(status)) + ")");
}

#define HLOGRAPH_CUDNN(call) HLOGRAPH_TRY(DnnStatus((call), #call))

cudnnDataType_t DataType(ElementType t) {
  switch (t) {
    case ElementType::kF64: return CUDNN_DATA_DOUBLE;
    case ElementType::kF16: return CUDNN_DATA_HALF;
    case ElementType::kBF16: return CUDNN_DATA_BFLOAT16;
    default: return CUDNN_DATA_FLOAT;
  }
}

std::vector<int> Ints(const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

std::string List(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// Dense strides of `dims` (cuDNN order n/k, c, spatial...) laid out
// channels-first or channels-last.
std::vector<int64_t> PackedStrides(const std::vector<int64_t>& dims, bool channels_last) {
  std::vector<size_t> order(dims.size());  // outermost first
  std::iota(order.begin(), order.end(), 0);
  if (channels_last) std::rotate(order.begin() + 1, order.begin() + 2, order.end());
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    strides[*it] = s;
    s *= dims[*it];
  }
  return strides;
}

int64_t Elements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

size_t AlignUp(size_t n) { return (n + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment; }

const char* AlgorithmName(cudnnConvolutionFwdAlgo_t algo) {
  switch (algo) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "unknown";
  }
}

}  // namespace

bool ConvConfig::filter_packed() const { return filter_strides == PackedStrides(filter_dims, channels_last); }

int64_t ConvConfig::filter_elements() const { return Elements(filter_dims); }

std::string ConvConfig::ToString() const {
  std::string s = "cudnn conv ";
  s += ir::ElementTypeName(type);
  s += channels_last ? " NHWC" : " NCHW";
  s += " in " + List(input_dims, "x") + " filter " + List(filter_dims, "x");
  if (!filter_packed()) s += " (repacked)";
  s += " out " + List(output_dims, "x");
 if (explicit_padding_low.empty()) {
    s += " pad [" + List(padding, ",") + "]";
  } else {
    s += " pad [" + List(explicit_padding_low, ",") + "]-[" + List(explicit_padding_high, ",") + "] (padded copy)";
  }
  s += " stride [" + List(window_strides, ",") + "] dilation [" +
       List(dilations, ",") + "]";
  if (groups != 1) s += " groups " + std::to_string(groups);
  if (type == ElementType::kF32) s += allow_tf32 ? " tf32" : " highest";
  return s;
}

StatusOr<std::shared_ptr<DnnHandle>> DnnHandle::Create() {
  cudnnHandle_t handle = nullptr;
  HLOGRAPH_CUDNN(cudnnCreate(&handle));
  std::shared_ptr<DnnHandle> result(new DnnHandle());
  result->handle_ = handle;
  return result;
}

DnnHandle::~DnnHandle() {
  if (handle_ != nullptr) (void)cudnnDestroy(handle_);
}

struct ConvPlan::Descriptors {
  cudnnTensorDescriptor_t input = nullptr, output = nullptr;
  cudnnTensorDescriptor_t filter_as_is = nullptr, filter_packed = nullptr;  // for the repacking
  // Uneven padding: the input's place inside the padded copy, and the copy.
  cudnnTensorDescriptor_t input_in_padded = nullptr, padded_input = nullptr;
  size_t padded_offset = 0;  // bytes from the copy's start to the input's first element
  cudnnFilterDescriptor_t filter = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t algo_workspace = 0, filter_bytes = 0, padded_bytes = 0;
  // 1 and 0 in the scale type (double for f64 data, else float).
  alignas(8) unsigned char one[8] = {}, zero[8] = {};

  Descriptors() = default;
  Descriptors(const Descriptors&) = delete;
  Descriptors& operator=(const Descriptors&) = delete;
  ~Descriptors() {
    for (cudnnTensorDescriptor_t t : {input, output, filter_as_is, filter_packed, input_in_padded, padded_input}) {
      if (t != nullptr) (void)cudnnDestroyTensorDescriptor(t);
    }
    if (filter != nullptr) (void)cudnnDestroyFilterDescriptor(filter);
    if (conv != nullptr) (void)cudnnDestroyConvolutionDescriptor(conv);
  }
};

namespace {

Status MakeTensor(cudnnTensorDescriptor_t* desc, cudnnDataType_t type, const std::vector<int64_t>& dims,
                  const std::vector<int64_t>& strides, const char* which) {
  HLOGRAPH_TRY(DnnStatus(cudnnCreateTensorDescriptor(desc), std::string("cudnnCreateTensorDescriptor(") + which + ")"));
  const std::vector<int> d = Ints(dims), s = Ints(strides);
  return DnnStatus(cudnnSetTensorNdDescriptor(*desc, type, static_cast<int>(d.size()), d.data(), s.data()),
                   std::string("cudnnSetTensorNdDescriptor(") + which + ")");
}

}  // namespace

StatusOr<std::unique_ptr<ConvPlan>> ConvPlan::Create(const ConvConfig& config, std::shared_ptr<DnnHandle> handle,
                                                     cudaStream_t stream) {
  if (handle == nullptr) return Status::Error("no cuDNN handle for " + config.ToString());
  const ConvConfig& c = config;
  const size_t rank = static_cast<size_t>(c.spatial_rank()) + 2;
  if ((rank != 4 && rank != 5) || c.input_dims.size() != rank || c.output_dims.size() != rank ||
      c.filter_dims.size() != rank || c.input_strides.size() != rank || c.output_strides.size() != rank ||
      c.filter_strides.size() != rank) {
    return Status::Error("internal error: malformed " + c.ToString());
  }
  std::unique_ptr<ConvPlan> plan(new ConvPlan());
  plan->config_ = config;
  plan->handle_ = std::move(handle);
  plan->descriptors_ = std::make_unique<Descriptors>();
  Descriptors& desc = *plan->descriptors_;
  const cudnnDataType_t type = DataType(c.type);
  const int bytes = ir::StorageBytes(c.type);
  if (c.type == ElementType::kF64) {
    const double one = 1.0, zero = 0.0;
    std::memcpy(desc.one, &one, sizeof one);
    std::memcpy(desc.zero, &zero, sizeof zero);
  } else {
    const float one = 1.0f, zero = 0.0f;
    std::memcpy(desc.one, &one, sizeof one);
    std::memcpy(desc.zero, &zero, sizeof zero);
  }

  HLOGRAPH_TRY(MakeTensor(&desc.input, type, c.input_dims, c.input_strides, "input"));
  // What the convolution reads: the input, or its padded copy.
  cudnnTensorDescriptor_t conv_input = desc.input;
  std::vector<int64_t> conv_input_dims = c.input_dims;
  if (!c.explicit_padding_low.empty()) {
    for (size_t d = 0; d < c.explicit_padding_low.size(); ++d) {
      conv_input_dims[d + 2] += c.explicit_padding_low[d] + c.explicit_padding_high[d];
    }
    const std::vector<int64_t> padded_strides = PackedStrides(conv_input_dims, c.channels_last);
    HLOGRAPH_TRY(MakeTensor(&desc.padded_input, type, conv_input_dims, padded_strides, "padded input"));
    HLOGRAPH_TRY(MakeTensor(&desc.input_in_padded, type, c.input_dims, padded_strides, "input in padded copy"));
    int64_t offset = 0;
    for (size_t d = 0; d < c.explicit_padding_low.size(); ++d) offset += c.explicit_padding_low[d] * padded_strides[d + 2];
    desc.padded_offset = static_cast<size_t>(offset * bytes);
    desc.padded_bytes = AlignUp(static_cast<size_t>(Elements(conv_input_dims) * bytes));
    conv_input = desc.padded_input;
  }
  HLOGRAPH_TRY(MakeTensor(&desc.output, type, c.output_dims, c.output_strides, "output"));
  if (!c.filter_packed()) {
    HLOGRAPH_TRY(MakeTensor(&desc.filter_as_is, type, c.filter_dims, c.filter_strides, "filter as given"));
    HLOGRAPH_TRY(MakeTensor(&desc.filter_packed, type, c.filter_dims, PackedStrides(c.filter_dims, c.channels_last),
                            "filter packed"));
    desc.filter_bytes = AlignUp(static_cast<size_t>(c.filter_elements() * bytes));
  }
  HLOGRAPH_CUDNN(cudnnCreateFilterDescriptor(&desc.filter));
  const std::vector<int> filter_dims = Ints(c.filter_dims);
  HLOGRAPH_CUDNN(cudnnSetFilterNdDescriptor(desc.filter, type, c.channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW,
                                            static_cast<int>(rank), filter_dims.data()));
  HLOGRAPH_CUDNN(cudnnCreateConvolutionDescriptor(&desc.conv));
  const std::vector<int> pad = Ints(c.padding), strides = Ints(c.window_strides), dilations = Ints(c.dilations);
  // f16 and bf16 accumulate in f32, f64 in f64.
  const cudnnDataType_t compute = c.type == ElementType::kF64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  HLOGRAPH_CUDNN(cudnnSetConvolutionNdDescriptor(desc.conv, c.spatial_rank(), pad.data(), strides.data(),
                                                 dilations.data(), CUDNN_CROSS_CORRELATION, compute));
  HLOGRAPH_CUDNN(cudnnSetConvolutionGroupCount(desc.conv, static_cast<int>(c.groups)));
  // f32 at DEFAULT precision may use TF32 tensor cores (DEFAULT_MATH permits
  // them from Ampere on); HIGHEST keeps to FMA kernels.
  const bool strict_f32 = c.type == ElementType::kF32 && !c.allow_tf32;
  const cudnnMathType_t math = strict_f32                                                       ? CUDNN_FMA_MATH
                               : c.type == ElementType::kF16 || c.type == ElementType::kBF16 ? CUDNN_TENSOR_OP_MATH
                                                                                              : CUDNN_DEFAULT_MATH;
  HLOGRAPH_CUDNN(cudnnSetConvolutionMathType(desc.conv, math));

  // cuDNN times every algorithm on scratch buffers and sorts them by time.
  HLOGRAPH_ASSIGN(DeviceBuffer input, DeviceBuffer::Allocate(Elements(conv_input_dims) * bytes));
  HLOGRAPH_ASSIGN(DeviceBuffer filter, DeviceBuffer::Allocate(c.filter_elements() * bytes));
  HLOGRAPH_ASSIGN(DeviceBuffer output, DeviceBuffer::Allocate(Elements(c.output_dims) * bytes));
  // Small nonzero values everywhere (0x3c bytes): zeros would run cooler.
  HLOGRAPH_TRY(MemsetDevice(input.data(), 0x3c, input.size(), stream));
  HLOGRAPH_TRY(MemsetDevice(filter.data(), 0x3c, filter.size(), stream));
  DeviceBuffer scratch;  // as much of kMaxAlgorithmWorkspace as the device has free
  for (size_t b = kMaxAlgorithmWorkspace; b >= (size_t{1} << 20) && scratch.data() == nullptr; b /= 4) {
    auto s = DeviceBuffer::Allocate(static_cast<int64_t>(b));
    if (s.ok()) scratch = std::move(*s);
  }
  HLOGRAPH_CUDNN(cudnnSetStream(plan->handle_->get(), stream));
  constexpr int kAlgorithms = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
  cudnnConvolutionFwdAlgoPerf_t perf[kAlgorithms] = {};
  int returned = 0;
  HLOGRAPH_CUDNN(cudnnFindConvolutionForwardAlgorithmEx(plan->handle_->get(), conv_input, input.data(), desc.filter,
                                                        filter.data(), desc.conv, desc.output, output.data(),
                                                        kAlgorithms, &returned, perf, scratch.data(),
                                                        static_cast<size_t>(scratch.size())));
  // The fastest that ran, deterministic ones first (results must not change
  // from call to call), within the precision asked for.
  const cudnnConvolutionFwdAlgoPerf_t* best = nullptr;
  for (bool need_deterministic : {true, false}) {
    for (int i = 0; i < returned && best == nullptr; ++i) {
      const cudnnConvolutionFwdAlgoPerf_t& p = perf[i];
      if (p.status != CUDNN_STATUS_SUCCESS) continue;
      if (need_deterministic && p.determinism != CUDNN_DETERMINISTIC) continue;
      if (strict_f32 && (p.mathType == CUDNN_TENSOR_OP_MATH || p.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
        continue;
      }
      best = &p;
    }
  }
  if (best == nullptr) {
    return Status::Error("cuDNN has no algorithm for " + c.ToString() +
                         " (HLOGRAPH_GPU_CUDNN=0 runs convolutions as generated kernels)");
  }
  desc.algo = best->algo;
  if (!strict_f32) HLOGRAPH_CUDNN(cudnnSetConvolutionMathType(desc.conv, best->mathType));
  HLOGRAPH_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(plan->handle_->get(), conv_input, desc.filter, desc.conv,
                                                         desc.output, desc.algo, &desc.algo_workspace));
  HLOGRAPH_CUDA(cudaStreamSynchronize(stream));  // the scratch buffers are freed on return
  return plan;
}

ConvPlan::~ConvPlan() = default;

size_t ConvPlan::workspace_bytes() const {
  return descriptors_->padded_bytes + descriptors_->filter_bytes + descriptors_->algo_workspace;
}

std::string ConvPlan::algorithm() const {
  return std::string(AlgorithmName(descriptors_->algo)) + ", " + std::to_string(workspace_bytes()) +
         " bytes of workspace";
}

Status ConvPlan::Run(const void* input, const void* filter, void* output, void* workspace,
                     cudaStream_t stream) const {
  const Descriptors& desc = *descriptors_;
  cudnnHandle_t handle = handle_->get();
  HLOGRAPH_CUDNN(cudnnSetStream(handle, stream));
  char* free = static_cast<char*>(workspace);  // the workspace is carved front to back
  const void* conv_input = input;
  cudnnTensorDescriptor_t conv_input_desc = desc.input;
  if (desc.padded_bytes > 0) {
    HLOGRAPH_TRY(MemsetDevice(free, 0, static_cast<int64_t>(desc.padded_bytes), stream));
    HLOGRAPH_CUDNN(cudnnTransformTensor(handle, desc.one, desc.input, input, desc.zero, desc.input_in_padded,
                                        free + desc.padded_offset));
    conv_input = free;
    conv_input_desc = desc.padded_input;
    free += desc.padded_bytes;
  }
  const void* packed = filter;
  if (desc.filter_bytes > 0) {
    HLOGRAPH_CUDNN(
        cudnnTransformTensor(handle, desc.one, desc.filter_as_is, filter, desc.zero, desc.filter_packed, free));
    packed = free;
    free += desc.filter_bytes;
  }
  HLOGRAPH_CUDNN(cudnnConvolutionForward(handle, desc.one, conv_input_desc, conv_input, desc.filter, packed, desc.conv,
                                         desc.algo, desc.algo_workspace > 0 ? free : nullptr, desc.algo_workspace,
                                         desc.zero, desc.output, output));
  return Status::Ok();
}

}  // namespace hlograph::gpu

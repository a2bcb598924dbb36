// NVRTC, cuBLASLt, cuDNN and CUPTI (for `bench --profile`), loaded on first use. hlograph does not link them:
// libcublasLt alone is half a gigabyte, and mapping it at start-up would
// cost every `hlograph` invocation ~0.1 s, GPU or not. Instead this file
// defines the C functions the backend calls; each looks its real
// counterpart up in the library (dlopen on first call) and forwards. When a
// library is missing the calls fail with an error code whose message says
// which library could not be loaded.
#include <cublasLt.h>
#include <cuda.h>
#include <cudnn.h>
#include <cupti.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <mutex>
#include <string>
#include <vector>

#ifndef HLOGRAPH_CUDA_LIBRARY_DIR
#define HLOGRAPH_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace {

class Library {
 public:
  explicit Library(const std::string& soname) {
    // The dynamic linker's search first (LD_LIBRARY_PATH, ld.so.cache), then
    // the toolkit this binary was built with.
    // CUPTI sits in extras/ in some toolkit layouts.
    const std::string dir = HLOGRAPH_CUDA_LIBRARY_DIR;
    for (const std::string& path : {soname, dir + "/" + soname, dir + "/../extras/CUPTI/lib64/" + soname}) {
      handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle_) return;
    }
    const char* why = dlerror();
    error_ = "cannot load " + soname + (why ? std::string(": ") + why : std::string());
  }
  void* Symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }
  const std::string& error() const { return error_; }

 private:
  void* handle_ = nullptr;
  std::string error_;
};

const Library& Nvrtc() {
  static const Library library("libnvrtc.so." + std::to_string(CUDA_VERSION / 1000));
  return library;
}

const Library& CublasLt() {
  static const Library library("libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR));
  return library;
}

const Library& Cudnn() {
  static const Library library("libcudnn.so." + std::to_string(CUDNN_MAJOR));
  return library;
}

const Library& Cupti() {
  static const Library library("libcupti.so." + std::to_string(CUDA_VERSION / 1000));
  return library;
}

template <typename Fn>
Fn Lookup(const Library& library, const char* name) {
  return reinterpret_cast<Fn>(library.Symbol(name));
}

}  // namespace

// Defines `name` to forward to the library's own; `fail` when it is absent.
#define HLOGRAPH_FORWARD(library, ret, name, fail, params, args)                               \
  extern "C" ret name params {                                                                \
    static const auto real = Lookup<decltype(&::name)>(library(), #name);                     \
    return real ? real args : fail;                                                           \
  }

HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcVersion, NVRTC_ERROR_INTERNAL_ERROR, (int* major, int* minor),
                 (major, minor))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcCreateProgram, NVRTC_ERROR_INTERNAL_ERROR,
                 (nvrtcProgram * prog, const char* src, const char* name, int num_headers,
                  const char* const* headers, const char* const* include_names),
                 (prog, src, name, num_headers, headers, include_names))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcDestroyProgram, NVRTC_ERROR_INTERNAL_ERROR, (nvrtcProgram * prog), (prog))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcCompileProgram, NVRTC_ERROR_INTERNAL_ERROR,
                 (nvrtcProgram prog, int num_options, const char* const* options), (prog, num_options, options))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcGetCUBINSize, NVRTC_ERROR_INTERNAL_ERROR,
                 (nvrtcProgram prog, size_t* size), (prog, size))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcGetCUBIN, NVRTC_ERROR_INTERNAL_ERROR, (nvrtcProgram prog, char* cubin),
                 (prog, cubin))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcGetProgramLogSize, NVRTC_ERROR_INTERNAL_ERROR,
                 (nvrtcProgram prog, size_t* size), (prog, size))
HLOGRAPH_FORWARD(Nvrtc, nvrtcResult, nvrtcGetProgramLog, NVRTC_ERROR_INTERNAL_ERROR, (nvrtcProgram prog, char* log),
                 (prog, log))
HLOGRAPH_FORWARD(Nvrtc, const char*, nvrtcGetErrorString, Nvrtc().error().c_str(), (nvrtcResult result), (result))

HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtCreate, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtHandle_t * handle), (handle))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtDestroy, CUBLAS_STATUS_NOT_INITIALIZED, (cublasLtHandle_t handle),
                 (handle))
HLOGRAPH_FORWARD(CublasLt, const char*, cublasLtGetStatusName, "CUBLAS_STATUS_NOT_INITIALIZED",
                 (cublasStatus_t status), (status))
HLOGRAPH_FORWARD(CublasLt, const char*, cublasLtGetStatusString, CublasLt().error().c_str(), (cublasStatus_t status),
                 (status))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmul, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* a,
                  cublasLtMatrixLayout_t a_desc, const void* b, cublasLtMatrixLayout_t b_desc, const void* beta,
                  const void* c, cublasLtMatrixLayout_t c_desc, void* d, cublasLtMatrixLayout_t d_desc,
                  const cublasLtMatmulAlgo_t* algo, void* workspace, size_t workspace_bytes, cudaStream_t stream),
                 (handle, desc, alpha, a, a_desc, b, b_desc, beta, c, c_desc, d, d_desc, algo, workspace,
                  workspace_bytes, stream))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulAlgoGetHeuristic, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a,
                  cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
                  cublasLtMatmulPreference_t preference, int requested, cublasLtMatmulHeuristicResult_t results[],
                  int* returned),
                 (handle, desc, a, b, c, d, preference, requested, results, returned))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulDescCreate, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulDesc_t * desc, cublasComputeType_t compute, cudaDataType_t scale),
                 (desc, compute, scale))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulDescDestroy, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulDesc_t desc), (desc))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulDescSetAttribute, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, const void* buf, size_t bytes),
                 (desc, attr, buf, bytes))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulPreferenceCreate, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulPreference_t * pref), (pref))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulPreferenceDestroy, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulPreference_t pref), (pref))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatmulPreferenceSetAttribute, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                  size_t bytes),
                 (pref, attr, buf, bytes))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatrixLayoutCreate, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatrixLayout_t * layout, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld),
                 (layout, type, rows, cols, ld))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatrixLayoutDestroy, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatrixLayout_t layout), (layout))
HLOGRAPH_FORWARD(CublasLt, cublasStatus_t, cublasLtMatrixLayoutSetAttribute, CUBLAS_STATUS_NOT_INITIALIZED,
                 (cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr, const void* buf,
                  size_t bytes),
                 (layout, attr, buf, bytes))

HLOGRAPH_FORWARD(Cudnn, const char*, cudnnGetErrorString, Cudnn().error().c_str(), (cudnnStatus_t status), (status))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnCreate, CUDNN_STATUS_NOT_INITIALIZED, (cudnnHandle_t * handle), (handle))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnDestroy, CUDNN_STATUS_NOT_INITIALIZED, (cudnnHandle_t handle), (handle))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetStream, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, cudaStream_t stream), (handle, stream))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnCreateTensorDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnTensorDescriptor_t * desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetTensorNdDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnTensorDescriptor_t desc, cudnnDataType_t type, int rank, const int dims[], const int strides[]),
                 (desc, type, rank, dims, strides))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnDestroyTensorDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnTensorDescriptor_t desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnCreateFilterDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnFilterDescriptor_t * desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetFilterNdDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnFilterDescriptor_t desc, cudnnDataType_t type, cudnnTensorFormat_t format, int rank,
                  const int dims[]),
                 (desc, type, format, rank, dims))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnDestroyFilterDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnFilterDescriptor_t desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnCreateConvolutionDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnConvolutionDescriptor_t * desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetConvolutionNdDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnConvolutionDescriptor_t desc, int rank, const int pad[], const int strides[],
                  const int dilations[], cudnnConvolutionMode_t mode, cudnnDataType_t compute),
                 (desc, rank, pad, strides, dilations, mode, compute))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetConvolutionGroupCount, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnConvolutionDescriptor_t desc, int groups), (desc, groups))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetConvolutionMathType, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnConvolutionDescriptor_t desc, cudnnMathType_t math), (desc, math))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnDestroyConvolutionDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnConvolutionDescriptor_t desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnFindConvolutionForwardAlgorithmEx, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, const cudnnTensorDescriptor_t x_desc, const void* x,
                  const cudnnFilterDescriptor_t w_desc, const void* w, const cudnnConvolutionDescriptor_t conv,
                  const cudnnTensorDescriptor_t y_desc, void* y, const int requested, int* returned,
                  cudnnConvolutionFwdAlgoPerf_t* results, void* workspace, size_t workspace_bytes),
                 (handle, x_desc, x, w_desc, w, conv, y_desc, y, requested, returned, results, workspace,
                  workspace_bytes))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnGetConvolutionForwardWorkspaceSize, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, const cudnnTensorDescriptor_t x_desc, const cudnnFilterDescriptor_t w_desc,
                  const cudnnConvolutionDescriptor_t conv, const cudnnTensorDescriptor_t y_desc,
                  cudnnConvolutionFwdAlgo_t algo, size_t* bytes),
                 (handle, x_desc, w_desc, conv, y_desc, algo, bytes))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnConvolutionForward, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t x_desc, const void* x,
                  const cudnnFilterDescriptor_t w_desc, const void* w, const cudnnConvolutionDescriptor_t conv,
                  cudnnConvolutionFwdAlgo_t algo, void* workspace, size_t workspace_bytes, const void* beta,
                  const cudnnTensorDescriptor_t y_desc, void* y),
                 (handle, alpha, x_desc, x, w_desc, w, conv, algo, workspace, workspace_bytes, beta, y_desc, y))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnTransformTensor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t x_desc, const void* x,
                  const void* beta, const cudnnTensorDescriptor_t y_desc, void* y),
                 (handle, alpha, x_desc, x, beta, y_desc, y))

HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiGetResultString, CUPTI_ERROR_NOT_INITIALIZED,
                 (CUptiResult result, const char** str), (result, str))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityRegisterCallbacks, CUPTI_ERROR_NOT_INITIALIZED,
                 (CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed),
                 (requested, completed))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityEnable, CUPTI_ERROR_NOT_INITIALIZED, (CUpti_ActivityKind kind),
                 (kind))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityDisable, CUPTI_ERROR_NOT_INITIALIZED, (CUpti_ActivityKind kind),
                 (kind))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityFlushAll, CUPTI_ERROR_NOT_INITIALIZED, (uint32_t flag), (flag))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityGetNextRecord, CUPTI_ERROR_NOT_INITIALIZED,
                 (uint8_t * buffer, size_t valid, CUpti_Activity** record), (buffer, valid, record))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityPushExternalCorrelationId, CUPTI_ERROR_NOT_INITIALIZED,
                 (CUpti_ExternalCorrelationKind kind, uint64_t id), (kind, id))
HLOGRAPH_FORWARD(Cupti, CUptiResult, cuptiActivityPopExternalCorrelationId, CUPTI_ERROR_NOT_INITIALIZED,
                 (CUpti_ExternalCorrelationKind kind, uint64_t* last_id), (kind, last_id))

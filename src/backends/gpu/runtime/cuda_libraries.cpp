// NVRTC, cuBLASLt, cuDNN, cuFFT, NCCL (where the build found nccl.h) and CUPTI
// (for `bench --profile`), loaded on first use. hlograph does not link them:
// libcublasLt alone is half a gigabyte, and mapping it at start-up would
// cost every `hlograph` invocation ~0.1 s, GPU or not. Instead this file
// defines the C functions the backend calls; each looks its real
// counterpart up in the library (dlopen on first call) and forwards. When a
// library is missing the calls fail with an error code whose message says
// which library could not be loaded.
#include <cublasLt.h>
#include <cuda.h>
#include <cudnn.h>
#include <cufft.h>
#include <cupti.h>
#include <dlfcn.h>
#include <nvrtc.h>
#if HLOGRAPH_HAVE_NCCL
#include <nccl.h>
#endif

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

const Library& Cufft() {
  static const Library library("libcufft.so." + std::to_string(CUFFT_VER_MAJOR));
  return library;
}

const Library& Cupti() {
  static const Library library("libcupti.so." + std::to_string(CUDA_VERSION / 1000));
  return library;
}

#if HLOGRAPH_HAVE_NCCL
const Library& Nccl() {
  static const Library library("libnccl.so." + std::to_string(NCCL_MAJOR));
  return library;
}
#endif

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

HLOGRAPH_FORWARD(Cudnn, size_t, cudnnGetVersion, 0, (void), ())
HLOGRAPH_FORWARD(Cudnn, const char*, cudnnGetErrorString, Cudnn().error().c_str(), (cudnnStatus_t status), (status))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnCreate, CUDNN_STATUS_NOT_INITIALIZED, (cudnnHandle_t * handle), (handle))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnDestroy, CUDNN_STATUS_NOT_INITIALIZED, (cudnnHandle_t handle), (handle))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnSetStream, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, cudaStream_t stream), (handle, stream))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendCreateDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnBackendDescriptorType_t type, cudnnBackendDescriptor_t * desc), (type, desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendDestroyDescriptor, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnBackendDescriptor_t desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendFinalize, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnBackendDescriptor_t desc), (desc))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendSetAttribute, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnBackendDescriptor_t desc, cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
                  int64_t count, const void* values),
                 (desc, name, type, count, values))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendGetAttribute, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnBackendDescriptor_t const desc, cudnnBackendAttributeName_t name,
                  cudnnBackendAttributeType_t type, int64_t requested, int64_t* count, void* values),
                 (desc, name, type, requested, count, values))
HLOGRAPH_FORWARD(Cudnn, cudnnStatus_t, cudnnBackendExecute, CUDNN_STATUS_NOT_INITIALIZED,
                 (cudnnHandle_t handle, cudnnBackendDescriptor_t plan, cudnnBackendDescriptor_t pack),
                 (handle, plan, pack))

HLOGRAPH_FORWARD(Cufft, cufftResult, cufftCreate, CUFFT_SETUP_FAILED, (cufftHandle * plan), (plan))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftDestroy, CUFFT_SETUP_FAILED, (cufftHandle plan), (plan))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftSetAutoAllocation, CUFFT_SETUP_FAILED, (cufftHandle plan, int automatic),
                 (plan, automatic))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftMakePlanMany64, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, int rank, long long int* n, long long int* inembed, long long int istride,
                  long long int idist, long long int* onembed, long long int ostride, long long int odist,
                  cufftType type, long long int batch, size_t* work_size),
                 (plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, work_size))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftSetWorkArea, CUFFT_SETUP_FAILED, (cufftHandle plan, void* work_area),
                 (plan, work_area))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftSetStream, CUFFT_SETUP_FAILED, (cufftHandle plan, cudaStream_t stream),
                 (plan, stream))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecC2C, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftComplex* in, cufftComplex* out, int direction), (plan, in, out, direction))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecZ2Z, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftDoubleComplex* in, cufftDoubleComplex* out, int direction),
                 (plan, in, out, direction))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecR2C, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftReal* in, cufftComplex* out), (plan, in, out))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecD2Z, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftDoubleReal* in, cufftDoubleComplex* out), (plan, in, out))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecC2R, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftComplex* in, cufftReal* out), (plan, in, out))
HLOGRAPH_FORWARD(Cufft, cufftResult, cufftExecZ2D, CUFFT_SETUP_FAILED,
                 (cufftHandle plan, cufftDoubleComplex* in, cufftDoubleReal* out), (plan, in, out))

namespace hlograph::gpu {
std::string CufftLoadError() { return Cufft().error(); }
}  // namespace hlograph::gpu

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

#if HLOGRAPH_HAVE_NCCL
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclGetVersion, ncclSystemError, (int* version), (version))
HLOGRAPH_FORWARD(Nccl, const char*, ncclGetErrorString, Nccl().error().c_str(), (ncclResult_t result), (result))
HLOGRAPH_FORWARD(Nccl, const char*, ncclGetLastError, Nccl().error().c_str(), (ncclComm_t comm), (comm))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclCommInitAll, ncclSystemError, (ncclComm_t * comm, int ndev, const int* devlist),
                 (comm, ndev, devlist))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclCommDestroy, ncclSystemError, (ncclComm_t comm), (comm))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclGroupStart, ncclSystemError, (), ())
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclGroupEnd, ncclSystemError, (), ())
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclAllReduce, ncclSystemError,
                 (const void* send, void* recv, size_t count, ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                  cudaStream_t stream),
                 (send, recv, count, type, op, comm, stream))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclReduceScatter, ncclSystemError,
                 (const void* send, void* recv, size_t count, ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                  cudaStream_t stream),
                 (send, recv, count, type, op, comm, stream))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclAllGather, ncclSystemError,
                 (const void* send, void* recv, size_t count, ncclDataType_t type, ncclComm_t comm, cudaStream_t stream),
                 (send, recv, count, type, comm, stream))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclBroadcast, ncclSystemError,
                 (const void* send, void* recv, size_t count, ncclDataType_t type, int root, ncclComm_t comm,
                  cudaStream_t stream),
                 (send, recv, count, type, root, comm, stream))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclSend, ncclSystemError,
                 (const void* send, size_t count, ncclDataType_t type, int peer, ncclComm_t comm, cudaStream_t stream),
                 (send, count, type, peer, comm, stream))
HLOGRAPH_FORWARD(Nccl, ncclResult_t, ncclRecv, ncclSystemError,
                 (void* recv, size_t count, ncclDataType_t type, int peer, ncclComm_t comm, cudaStream_t stream),
                 (recv, count, type, peer, comm, stream))
#endif

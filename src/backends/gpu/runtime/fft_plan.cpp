#include "backends/gpu/runtime/fft_plan.h"

#include <cufft.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device_memory.h"
#include "backends/gpu/runtime/kernel_module.h"

namespace hlograph::gpu {

std::string CufftLoadError();  // cuda_libraries.cpp

const char* const kFftScaleKernelName = "hlo_fft_scale";
const char* const kFftHermitianCopyKernelName = "hlo_fft_hermitian_copy";

const char* FftKernelSource() {
  return R"(
extern "C" __global__ void hlo_fft_scale(void* data, long long n, double scale, int f64) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (f64) {
    double* x = (double*)data;
    for (; i < n; i += stride) x[i] *= scale;
  } else {
    float* x = (float*)data;
    const float s = (float)scale;
    for (; i < n; i += stride) x[i] *= s;
  }
}

// A half spectrum [batch, d0, d1, h] (leading fft dims d0, d1; 1 where
// absent) copied, with the planes of the last axis' self-conjugate bins
// (0, and h - 1 for an even length) replaced by their Hermitian parts
// over the leading dims, (x[k] + conj(x[-k])) / 2: the real parts that
// survive the inverse transform along the last axis.
template <typename C>
__device__ void HermitianCopy(const C* in, C* out, long long count, long long d0, long long d1, long long h,
                              int even) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    const long long j = i % h;
    C v = in[i];
    if (j == 0 || (even && j == h - 1)) {
      long long rest = i / h;
      const long long k1 = rest % d1;
      rest /= d1;
      const long long k0 = rest % d0;
      const long long b = rest / d0;
      const C w = in[((b * d0 + (d0 - k0) % d0) * d1 + (d1 - k1) % d1) * h + j];
      v.x = (v.x + w.x) / 2;
      v.y = (v.y - w.y) / 2;
    }
    out[i] = v;
  }
}

extern "C" __global__ void hlo_fft_hermitian_copy(const void* in, void* out, long long count, long long d0,
                                                  long long d1, long long h, int even, int f64) {
  if (f64) {
    HermitianCopy((const double2*)in, (double2*)out, count, d0, d1, h, even);
  } else {
    HermitianCopy((const float2*)in, (float2*)out, count, d0, d1, h, even);
  }
}
)";
}

namespace {

// cuFFT's work area and the input's copy each start 256-byte aligned.
size_t Aligned(size_t bytes) { return (bytes + 255) / 256 * 256; }

// Blocks of 256 threads striding over `n` items.
LaunchDims GridStride(long long n) {
  LaunchDims dims;
  dims.block = {256, 1, 1};
  dims.grid = {static_cast<uint32_t>(std::clamp<long long>((n + 255) / 256, 1, 4096)), 1, 1};
  return dims;
}

Status FftStatus(cufftResult result, const char* call) {
  if (result == CUFFT_SUCCESS) return Status::Ok();
  std::string why = "cufftResult " + std::to_string(static_cast<int>(result));
  if (result == CUFFT_SETUP_FAILED && !CufftLoadError().empty()) why = CufftLoadError();
  return Status::Error(std::string(call) + " failed: " + why);
}

#define HLOGRAPH_CUFFT(call) HLOGRAPH_TRY(FftStatus((call), #call))

cufftType TypeOf(const FftConfig& c) {
  switch (c.type) {
    case FftType::kComplexToComplex: return c.double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    case FftType::kRealToComplex: return c.double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case FftType::kComplexToReal: return c.double_precision ? CUFFT_Z2D : CUFFT_C2R;
  }
  return CUFFT_C2C;
}

}  // namespace

StatusOr<std::unique_ptr<FftPlan>> FftPlan::Create(const FftConfig& config, const FftKernels& kernels) {
  if (config.scale != 1 && (kernels.scale == nullptr || kernels.hermitian_copy == nullptr)) {
    return Status::Error("internal error: an inverse fft without its kernels");
  }
  std::unique_ptr<FftPlan> plan(new FftPlan());
  plan->config_ = config;
  plan->kernels_ = kernels;
  cufftHandle handle = 0;
  HLOGRAPH_CUFFT(cufftCreate(&handle));
  plan->handle_ = handle;
  plan->made_ = true;
  HLOGRAPH_CUFFT(cufftSetAutoAllocation(handle, 0));
  std::vector<long long> n(config.lengths.begin(), config.lengths.end());
  size_t work = 0;
  HLOGRAPH_CUFFT(cufftMakePlanMany64(handle, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0,
                                     TypeOf(config), config.batch, &work));
  plan->work_bytes_ = work;
  return plan;
}

FftPlan::~FftPlan() {
  if (made_) (void)cufftDestroy(handle_);
}

size_t FftPlan::workspace_bytes() const {
  const bool copy = config_.type == FftType::kComplexToReal;
  return Aligned(work_bytes_) + (copy ? static_cast<size_t>(config_.input_bytes()) : 0);
}

Status FftPlan::Run(const void* in, void* out, void* workspace, cudaStream_t stream) const {
  const FftConfig& c = config_;
  HLOGRAPH_CUFFT(cufftSetStream(handle_, stream));
  HLOGRAPH_CUFFT(cufftSetWorkArea(handle_, workspace));
  void* from = const_cast<void*>(in);
  if (c.type == FftType::kComplexToReal) {  // cuFFT overwrites a C2R transform's input
    from = static_cast<char*>(workspace) + Aligned(work_bytes_);
    HLOGRAPH_TRY(QueueHermitianCopy(in, from, stream));
  }
  const int direction = c.inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  if (c.double_precision) {
    switch (c.type) {
      case FftType::kComplexToComplex:
        HLOGRAPH_CUFFT(cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(from),
                                    static_cast<cufftDoubleComplex*>(out), direction));
        break;
      case FftType::kRealToComplex:
        HLOGRAPH_CUFFT(
            cufftExecD2Z(handle_, static_cast<cufftDoubleReal*>(from), static_cast<cufftDoubleComplex*>(out)));
        break;
      case FftType::kComplexToReal:
        HLOGRAPH_CUFFT(
            cufftExecZ2D(handle_, static_cast<cufftDoubleComplex*>(from), static_cast<cufftDoubleReal*>(out)));
        break;
    }
  } else {
    switch (c.type) {
      case FftType::kComplexToComplex:
        HLOGRAPH_CUFFT(
            cufftExecC2C(handle_, static_cast<cufftComplex*>(from), static_cast<cufftComplex*>(out), direction));
        break;
      case FftType::kRealToComplex:
        HLOGRAPH_CUFFT(cufftExecR2C(handle_, static_cast<cufftReal*>(from), static_cast<cufftComplex*>(out)));
        break;
      case FftType::kComplexToReal:
        HLOGRAPH_CUFFT(cufftExecC2R(handle_, static_cast<cufftComplex*>(from), static_cast<cufftReal*>(out)));
        break;
    }
  }
  if (c.scale == 1) return Status::Ok();
  void* data = out;
  long long n = c.output_bytes() / (c.double_precision ? 8 : 4);
  double scale = c.scale;
  int f64 = c.double_precision ? 1 : 0;
  void* args[] = {&data, &n, &scale, &f64};
  return LaunchKernel(kernels_.scale, GridStride(n), args, stream);
}

Status FftPlan::Trial() const {
  // Once per configuration and device in a process: every executable with
  // the transform would otherwise run it again as it loads.
  int device = 0;
  HLOGRAPH_CUDA(cudaGetDevice(&device));
  const std::string key = std::to_string(device) + " " + config_.ToString();
  static std::mutex mutex;
  static std::set<std::string> ran;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (ran.count(key)) return Status::Ok();
  }
  HLOGRAPH_TRY(RunOnZeros());
  const std::lock_guard<std::mutex> lock(mutex);
  ran.insert(key);
  return Status::Ok();
}

Status FftPlan::RunOnZeros() const {
  HLOGRAPH_ASSIGN(DeviceBuffer in, DeviceBuffer::Allocate(config_.input_bytes()));
  HLOGRAPH_ASSIGN(DeviceBuffer out, DeviceBuffer::Allocate(config_.output_bytes()));
  HLOGRAPH_ASSIGN(DeviceBuffer work, DeviceBuffer::Allocate(static_cast<int64_t>(workspace_bytes())));
  cudaStream_t stream = nullptr;
  HLOGRAPH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Status ran = Status::Ok();
  if (const cudaError_t zeroed = cudaMemsetAsync(in.data(), 0, static_cast<size_t>(in.size()), stream);
      zeroed != cudaSuccess) {
    ran = Status::Error(std::string("cudaMemsetAsync: ") + cudaGetErrorString(zeroed));
  }
  if (ran.ok()) ran = Run(in.data(), out.data(), work.data(), stream);
  const cudaError_t waited = cudaStreamSynchronize(stream);
  (void)cudaStreamDestroy(stream);
  if (ran.ok() && waited != cudaSuccess) ran = Status::Error(std::string("the trial run: ") + cudaGetErrorString(waited));
  return ran;
}

Status FftPlan::QueueHermitianCopy(const void* in, void* copy, cudaStream_t stream) const {
  const FftConfig& c = config_;
  const size_t l = c.lengths.size();
  long long count = c.batch * c.input_elements();
  long long d0 = l == 3 ? c.lengths[0] : 1;
  long long d1 = l >= 2 ? c.lengths[l - 2] : 1;
  long long h = c.lengths.back() / 2 + 1;
  int even = c.lengths.back() % 2 == 0 ? 1 : 0;
  int f64 = c.double_precision ? 1 : 0;
  const void* from = in;
  void* args[] = {&from, &copy, &count, &d0, &d1, &h, &even, &f64};
  return LaunchKernel(kernels_.hermitian_copy, GridStride(count), args, stream);
}

}  // namespace hlograph::gpu

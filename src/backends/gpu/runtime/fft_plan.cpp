#include "backends/gpu/runtime/fft_plan.h"

#include <cufft.h>

#include <algorithm>
#include <vector>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/kernel_module.h"

namespace hlograph::gpu {

std::string CufftLoadError();  // cuda_libraries.cpp

const char* const kFftScaleKernelName = "hlo_fft_scale";

const char* FftScaleKernelSource() {
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
)";
}

namespace {

// cuFFT's work area and the input's copy each start 256-byte aligned.
size_t Aligned(size_t bytes) { return (bytes + 255) / 256 * 256; }

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

StatusOr<std::unique_ptr<FftPlan>> FftPlan::Create(const FftConfig& config, cudaKernel_t scale_kernel) {
  if (config.scale != 1 && scale_kernel == nullptr) return Status::Error("internal error: an fft without its scaling");
  std::unique_ptr<FftPlan> plan(new FftPlan());
  plan->config_ = config;
  plan->scale_kernel_ = scale_kernel;
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
    HLOGRAPH_CUDA(cudaMemcpyAsync(from, in, static_cast<size_t>(c.input_bytes()), cudaMemcpyDeviceToDevice, stream));
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
  LaunchDims dims;
  dims.block = {256, 1, 1};
  dims.grid = {static_cast<uint32_t>(std::clamp<long long>((n + 255) / 256, 1, 4096)), 1, 1};
  return LaunchKernel(scale_kernel_, dims, args, stream);
}

}  // namespace hlograph::gpu

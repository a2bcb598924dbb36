// A stablehlo.fft as the planner describes it to cuFFT: plain data,
// printed by `explain` and tested without a GPU (runtime/fft_plan.h binds
// it to a cuFFT plan), and the choice between cuFFT and the generated
// direct DFT (codegen/fft_kernel.cpp), made from the op's shape.
//
// The transformed dims are the operand's trailing ones, row-major, so a
// call is `batch` contiguous transforms of `lengths` points (outermost
// first). cuFFT leaves inverse transforms unscaled: `scale` (1/N for IFFT
// and IRFFT) is applied to the result after it, in the same step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct DeviceLimits;

enum class FftType {
  kComplexToComplex,  // FFT, IFFT
  kRealToComplex,     // RFFT: the half spectrum (last dim n / 2 + 1)
  kComplexToReal,     // IRFFT: from the half spectrum (cuFFT overwrites its input: the step reads a copy)
};

struct FftConfig {
  FftType type = FftType::kComplexToComplex;
  bool inverse = false;
  bool double_precision = false;  // complex<f64> / f64, else complex<f32> / f32
  std::vector<int64_t> lengths;   // the signal's, outermost first (1 to 3)
  int64_t batch = 1;
  double scale = 1;

  int64_t points() const;           // the product of `lengths`
  int64_t input_elements() const;   // per transform: complex for C2C and C2R, real for R2C
  int64_t output_elements() const;  // per transform
  int64_t input_bytes() const;      // all transforms
  int64_t output_bytes() const;
  // "fft C2C inverse f32 4096 x 1024, scaled by 1/4096"
  std::string ToString() const;
};

// The config of `fft` (an op the verifier has passed), or why cuFFT cannot
// take it (an empty transform).
StatusOr<FftConfig> FftConfigOf(const ir::Operation& fft);

// Which kernel computes an fft: cuFFT, or the generated direct DFT (one
// thread per output summing over the signal: fused with what produces
// its operand, exact to the last bit in double, but O(N) per output).
struct FftChoice {
  bool library = false;
  std::string why;  // the two estimates, for explain
};

// From the time each would take at `limits`: the direct DFT's terms
// against cuFFT's bytes plus the fixed cost of a library call.
// HLOGRAPH_GPU_FFT (PlanOptions::fft) may pin either; a transform cuFFT
// refused in this process (plan/library_refusals.h) is a direct DFT.
FftChoice ChooseFft(const FftConfig& config, const DeviceLimits& limits);

}  // namespace hlograph::gpu

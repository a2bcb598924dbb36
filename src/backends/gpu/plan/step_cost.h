// What each step of a GPU program must cost at least: the bytes it moves
// through device memory and the arithmetic it does, from the plan alone
// (shapes, element types, what each kernel reads), so a roofline can be
// printed and tested without a GPU. Against a device's limits
// (DeviceLimits) the two give a floor time per step; a measured time over
// the floor is what the step loses.
//
// Bytes: every buffer a step reads is counted once and every buffer it
// writes once (repeated reads of a broadcast operand come from cache);
// a kernel that reads an operand only through slices or gathers counts
// the windows it takes, not the whole buffer. FLOPs: 2 per multiply-add
// of products and convolutions, one per element of other arithmetic, 5 N
// log2 N per complex FFT of N points; data movement and sorting count
// none. The compute unit of an op is the one its element types and
// precision allow on the device (a bf16 product: bf16 tensor cores; an f32
// product at DEFAULT precision: TF32, as XLA computes it), whatever
// the plan runs it on: the roofline measures against what the hardware could do.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

enum class ComputeUnit {
  kFp32,        // CUDA cores, f32 (and integer) arithmetic
  kFp64,        // CUDA cores, f64
  kTf32,        // tensor cores: f32 products at DEFAULT/HIGH precision
  kHalf,        // tensor cores: bf16/f16 products
  kFp8,         // tensor cores: f8 products
  kInt8,        // tensor cores: i8 products
  kFp64Tensor,  // tensor cores: f64 products
};
constexpr int kComputeUnits = 7;
const char* ComputeUnitName(ComputeUnit unit);  // "fp32", "tf32", "bf16/f16", ...

// A device's limits: memory bandwidth and the dense peak of each unit.
struct DeviceLimits {
  std::string name;
  double memory_bytes_per_s = 0;
  std::array<double, kComputeUnits> flops_per_s{};  // by ComputeUnit
  double peak(ComputeUnit unit) const { return flops_per_s[static_cast<size_t>(unit)]; }
  // NVIDIA H200 SXM by its datasheet: 4.8 TB/s HBM3e; dense fp32 67,
  // fp64 34, tf32 495, bf16/f16 989, fp8 and int8 1979, fp64 tensor 67 TFLOP/s.
  static DeviceLimits H200();
};

// What a library call (cuBLASLt, cuFFT) costs beyond its work, in a graph:
// a child graph of one to three kernels, each with its launch and tail
// (a 256 x 64 x 256 product took 4.9 us on the H200, docs/PERF.md).
constexpr double kLibraryCallSeconds = 5e-6;

// `seconds` as "4.9 us", for the estimates explain prints.
std::string MicrosecondsText(double seconds);

struct StepCost {
  int64_t bytes = 0;  // read + written
  std::array<double, kComputeUnits> flops{};  // by ComputeUnit
  double total_flops() const;
  // The unit doing most of the work (by time at `limits`); kFp32 when none.
  ComputeUnit unit(const DeviceLimits& limits) const;
  double memory_seconds(const DeviceLimits& limits) const;
  double compute_seconds(const DeviceLimits& limits) const;  // each unit's flops at its own peak
  double floor_seconds(const DeviceLimits& limits) const;    // the larger of the two
  StepCost& operator+=(const StepCost& other);
};

// The cost of one execution of `step`. Loops and cases cost nothing of
// their own here (their nested steps carry theirs; the state copies they
// add are measured, not planned).
StepCost CostOfStep(const GpuProgram& program, const Step& step);

// The arithmetic of one IR op, added to `cost` (no bytes).
void AddOpFlops(const ir::Operation& op, StepCost& cost);

// "fusion_3" / "gemm" / "convolution" / "copy" / "host op" / "while" / "case".
std::string StepName(const GpuProgram& program, const Step& step);
// What the step computes, briefly: the ops a kernel fuses
// ("dot_general, exponential, reduce x2"), a GEMM's or convolution's
// configuration, a copy's bytes.
std::string StepSummary(const GpuProgram& program, const Step& step);

}  // namespace hlograph::gpu

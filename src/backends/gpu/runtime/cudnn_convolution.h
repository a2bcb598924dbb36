// Convolutions through cuDNN's convolution forward. A ConvConfig is plain
// data in cuDNN's terms (printable, testable without a GPU; the planner
// builds it in plan/convolution_lowering.h); a ConvPlan binds it to a cuDNN
// handle with its descriptors and an algorithm chosen once, at compile time.
//
// Dims are in cuDNN's order: input and output (n, c, spatial...), filter
// (k, c / groups, spatial...), with 2 or 3 spatial dims (1-D convolutions
// get a unit height). Strides are in elements and describe where each of
// those dims lives in the operand's own layout.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/element_type.h"

struct cudnnContext;

namespace hlograph::gpu {

struct ConvConfig {
  ir::ElementType type = ir::ElementType::kF32;  // input, filter and output
  bool channels_last = false;  // NHWC input and output (else NCHW); the filter is packed to match
  bool allow_tf32 = true;      // f32 at DEFAULT/HIGH precision, as XLA does
  int64_t groups = 1;
  std::vector<int64_t> input_dims, input_strides;
  std::vector<int64_t> output_dims, output_strides;
  std::vector<int64_t> filter_dims, filter_strides;  // the filter operand as it is
  std::vector<int64_t> padding, window_strides, dilations;  // per spatial dim; padding on both sides
  // Uneven padding, which cuDNN does not do: Run first copies the input
  // into a zeroed buffer this much larger on each side (per spatial dim;
  // empty when the padding is even) and convolves that without padding.
  std::vector<int64_t> explicit_padding_low, explicit_padding_high;

  int spatial_rank() const { return static_cast<int>(padding.size()); }
  // Whether the filter operand is already packed as cuDNN wants it (KCRS, or
  // KRSC when channels_last); otherwise Run packs it into the workspace.
  bool filter_packed() const;
  int64_t filter_elements() const;
  // "cudnn conv f32 NHWC in 8x3x32x32 filter 16x3x3x3 (repacked) out 8x16x32x32 pad [1,1] stride [1,1]
  // dilation [1,1] tf32"; uneven padding prints as "pad [0,1]-[1,2] (padded copy)"
  std::string ToString() const;
};

// The cuDNN library's handle; one per executable.
class DnnHandle {
 public:
  // Fails with a message naming the library when cuDNN cannot be loaded.
  static StatusOr<std::shared_ptr<DnnHandle>> Create();
  ~DnnHandle();
  cudnnContext* get() const { return handle_; }

 private:
  cudnnContext* handle_ = nullptr;
};

class ConvPlan {
 public:
  // Builds the descriptors and picks cuDNN's fastest deterministic
  // algorithm by running each on scratch buffers (cuDNN's own search;
  // allocates and frees device memory).
  static StatusOr<std::unique_ptr<ConvPlan>> Create(const ConvConfig& config, std::shared_ptr<DnnHandle> handle,
                                                    cudaStream_t stream);
  ~ConvPlan();
  const ConvConfig& config() const { return config_; }
  // Scratch Run needs: the padded input, the repacked filter, then the algorithm's own.
  size_t workspace_bytes() const;
  std::string algorithm() const;  // for explain: "IMPLICIT_PRECOMP_GEMM, 0 bytes of workspace"
  // Nothing is allocated here, so a Run can be captured into a CUDA graph.
  Status Run(const void* input, const void* filter, void* output, void* workspace, cudaStream_t stream) const;

 private:
  ConvPlan() = default;
  struct Descriptors;
  ConvConfig config_;
  std::shared_ptr<DnnHandle> handle_;
  std::unique_ptr<Descriptors> descriptors_;
};

}  // namespace hlograph::gpu

// Convolutions through cuDNN's graph API. A ConvConfig (plan/conv_config.h)
// is plain data in cuDNN's terms (printable, testable without a GPU; the
// planner builds it in plan/convolution_lowering.h); a ConvPlan binds it to a cuDNN handle
// with an execution plan chosen once, at compile time: cuDNN's heuristics
// propose engines, the first few are timed on scratch buffers, and the
// fastest deterministic one is kept (and remembered for the same
// convolution on the same device).
//
// A stablehlo.convolution is one of cuDNN's three convolutions, each
// described by the forward convolution's tensors x (n, c, spatial...),
// w (k, c / groups, spatial...) and y (n, k, spatial...), with 2 or 3
// spatial dims (1-D convolutions get a unit height):
//   forward          reads x (lhs) and w (rhs), writes y;
//   backward data    reads y (lhs, the gradient dy) and w (rhs), writes x;
//   backward filter  reads x (lhs) and y (rhs, dy), writes w.
// Every tensor keeps its own strides (any layout, no repacking) and its own
// element type (bf16 or f16 operands may give an f32 result).
//
// A forward convolution may carry an epilogue: pointwise ops cuDNN applies
// to y in f32 before storing it (a folded batch norm's scale and shift, a
// bias, a residual add, relu), so y is written once instead of being
// written, read and written again by a kernel of its own.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/gpu/plan/conv_config.h"
#include "hlograph/status.h"

struct cudnnContext;

namespace hlograph::gpu {

// The library's handle; one per executable.
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
  // Builds the operation graph and picks its execution plan (allocates and
  // frees scratch device memory to time the candidates). Fails, saying
  // why, when no engine computes the convolution as described, and then
  // sets `*no_engine` (other failures leave it alone).
  static StatusOr<std::unique_ptr<ConvPlan>> Create(const ConvConfig& config, std::shared_ptr<DnnHandle> handle,
                                                    cudaStream_t stream, bool* no_engine = nullptr);
  ~ConvPlan();
  const ConvConfig& config() const { return config_; }
  size_t workspace_bytes() const;
  std::string engine() const;  // for explain: "engine 12 (tensor cores), 4096 bytes of workspace, 0.21 ms"
  // Nothing is allocated on the device here, so a Run can be captured into
  // a CUDA graph. Operands need the 16-byte alignment every buffer has.
  // `operands`: the epilogue's, one per op that has one, in order.
  Status Run(const void* lhs, const void* rhs, void* result, void* workspace, cudaStream_t stream,
             const std::vector<const void*>& operands = {}) const;

 private:
  ConvPlan() = default;
  struct Graph;
  ConvConfig config_;
  std::shared_ptr<DnnHandle> handle_;
  std::unique_ptr<Graph> graph_;
};

}  // namespace hlograph::gpu

// stablehlo.convolution through cuDNN: which of cuDNN's convolutions
// (forward, backward data, backward filter) computes it as it is, described
// in cuDNN's terms (ConvConfig). Autodiff's convolutions map back to the
// convolution they differentiate:
//   - lhs dilation with a kernel reversed in its spatial dims (by a
//     stablehlo.reverse or window_reversal) is backward data, the
//     gradient of a strided convolution with respect to its input;
//   - a window larger than the result (the kernel is a gradient dy over the
//     whole image, the result a filter), or batch groups, is backward
//     filter;
//   - everything else is forward.
// Each tensor keeps its layout through its strides. The others (integer
// types, negative padding, reversal without lhs dilation, ...) run as
// generated kernels, as do all of them when HLOGRAPH_GPU_CUDNN=0; the
// reason is printed by `hlograph explain`.
#pragma once

#include "backends/gpu/plan/conv_config.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct ConvLowering {
  ConvConfig config;
  // What cuDNN reads as the convolution's second operand: its own rhs or,
  // for backward data, the filter before its reversal.
  const ir::Value* rhs = nullptr;
  // cuDNN's engines read packed tensors in one family of layouts (NHWC
  // with KRSC filters, or NCHW with KCRS), whatever strides they are given:
  // an operand in any other layout is read through a transposed copy, and a
  // result in another layout is written packed, then transposed. Each
  // permutation lists, for each dim of the packed copy, the dim of the
  // operand (or result) it holds; empty where no copy is needed.
  std::vector<int64_t> lhs_permutation, rhs_permutation, result_permutation;
  // Dims of the rhs's packed copy that it reverses: backward data of a
  // kernel that is not already a reversal (lax.conv_transpose's).
  std::vector<int64_t> rhs_reversed;
};

// The cuDNN description of `op`, or an error saying why cuDNN does not
// take it.
StatusOr<ConvLowering> LowerConvolution(const ir::Operation& op);

// Whether cuDNN reads `v` for `op` (not when `v` is the reversal of the
// filter it reads instead).
bool CudnnConvolutionReads(const ir::Operation& op, const ir::Value* v);

// A convolution cuDNN has no engine for on this process's GPU (found when
// an executable is loaded): from then on LowerConvolution refuses it with
// `why`, and the executable is planned again with a generated kernel.
void RefuseConvolution(const ConvConfig& config, const std::string& why);
bool ConvolutionRefused(const ConvConfig& config);

}  // namespace hlograph::gpu

// stablehlo.convolution through cuDNN: which convolutions cuDNN's forward
// convolution computes as they are, described in its terms (ConvConfig).
// The others (lhs dilation, window reversal, batch groups, uneven or
// negative padding, mixed or integer types, layouts that are neither
// channels-first nor channels-last) run as generated kernels, as do all of
// them when HLOGRAPH_GPU_CUDNN=0.
#pragma once

#include <string>

#include "backends/gpu/runtime/cudnn_convolution.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// The cuDNN description of `op`, or an error saying why cuDNN does not
// take it (printed by `hlograph explain`).
StatusOr<ConvConfig> LowerConvolution(const ir::Operation& op);

}  // namespace hlograph::gpu

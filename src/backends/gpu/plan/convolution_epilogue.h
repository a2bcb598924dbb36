// The elementwise ops after a forward convolution that cuDNN applies
// before storing its result (runtime/cudnn_convolution.h): a folded batch
// norm's scale and shift, a bias, a residual add and relu, as JAX writes
// them (`relu(conv(x, w) * s + b + x)`). Each op of the chain is the only
// user of the value before it and has its shape and type; its other
// operand is a vector along the result's feature dim (read as is, its
// broadcast not computed), a whole tensor already in memory, or, for
// relu, a zero. The chain stops at the first op that is none of these,
// and is cut back to the longest part that cuDNN has not refused on this
// GPU. HLOGRAPH_GPU_CONV_EPILOGUE=0: no epilogues.
#pragma once

#include <functional>
#include <vector>

#include "backends/gpu/plan/convolution_lowering.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct ConvEpilogueMatch {
  std::vector<ConvEpilogueOp> ops;
  std::vector<const ir::Value*> operands;      // one per op that has one, in order
  std::vector<const ir::Operation*> absorbed;  // the ops; the convolution stores the last one's result
};

// `ready(v, vector)`: whether `v` (a channel vector, or else a whole
// tensor) can be read when the convolution runs.
ConvEpilogueMatch MatchConvEpilogue(const ir::Operation& conv, const ConvLowering& lowering,
                                    const std::function<bool(const ir::Value*, bool vector)>& ready);

}  // namespace hlograph::gpu

// A convolution as the planner describes it to cuDNN: plain data in
// cuDNN's terms, printed by `explain` and tested without a GPU
// (runtime/cudnn_convolution.h binds it to a cuDNN handle and an engine).
// The three convolutions and their tensors x, w, y are described there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace hlograph::gpu {

enum class ConvKind { kForward, kBackwardData, kBackwardFilter };
const char* ConvKindName(ConvKind kind);  // "forward", "backward data", "backward filter"

struct ConvTensor {
  ir::ElementType type = ir::ElementType::kF32;
  std::vector<int64_t> dims, strides;  // cuDNN's order; strides in elements, as the buffer has them

  int64_t elements() const;
  int64_t span() const;  // elements from the first to one past the last, with gaps
  // The layout read off the strides, outermost first: "NHWC", "KRSC",
  // "RSCK", ... (`letters` names the dims in cuDNN's order, e.g. "NCHW").
  std::string Layout(const std::string& letters) const;
};

// One op of a forward convolution's epilogue: `y = y op operand` (relu:
// max(y, 0)), the operand a vector along y's channels (broadcast over the
// rest) or a whole tensor laid out as y.
enum class ConvPointwise { kAdd, kSubtract, kMultiply, kRelu };
enum class ConvOperand { kNone, kChannels, kTensor };
struct ConvEpilogueOp {
  ConvPointwise op = ConvPointwise::kAdd;
  ConvOperand operand = ConvOperand::kNone;
  ir::ElementType type = ir::ElementType::kF32;  // the operand's
};
const char* PointwiseName(ConvPointwise op);  // "add", "subtract", "multiply", "relu"

struct ConvConfig {
  ConvKind kind = ConvKind::kForward;
  ConvTensor x, w, y;
  std::vector<ConvEpilogueOp> epilogue;  // forward only; the operands follow Run's result in this order
  bool allow_tf32 = true;  // f32 at DEFAULT/HIGH precision, as XLA does
  std::vector<int64_t> pre_padding, post_padding, strides, dilations;  // per spatial dim

  int spatial_rank() const { return static_cast<int>(strides.size()); }
  int64_t groups() const { return w.dims.size() > 1 && w.dims[1] > 0 ? x.dims[1] / w.dims[1] : 1; }
  // What the convolution reads (`lhs`, `rhs`) and writes, in stablehlo's terms.
  const ConvTensor& lhs() const { return kind == ConvKind::kBackwardData ? y : x; }
  const ConvTensor& rhs() const { return kind == ConvKind::kForward ? w : y; }
  const ConvTensor& result() const { return kind == ConvKind::kForward ? y : kind == ConvKind::kBackwardData ? x : w; }
  double flops() const;  // 2 per multiply-add
  // "cudnn conv backward filter bf16 x 128x64x16x16 NHWC dy 128x128x16x16 NHWC -> dw 128x64x3x3 RSCK f32 pad
  // [1,1]-[1,1] stride [1,1] dilation [1,1]"; an epilogue follows as " then multiply(channels) add(channels)
  // add(tensor) relu"
  std::string ToString() const;
};

}  // namespace hlograph::gpu

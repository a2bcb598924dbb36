// Quantized tensors on the CPU backend (the StableHLO spec's quantization
// section). A tensor of a !quant.uniform type holds integers of its storage
// type; these functions turn them into values of the expressed type and
// back, and run ops on quantized operands:
// - ops that only move elements (reshape, transpose, slice, ...) run on the
//   stored integers, whose quantization parameters the verifier has checked;
// - dot_general, dot and convolution with quantized lhs and rhs accumulate
//   (q - zero_point) products as integers, then requantize the sum;
// - every other op is dequantize -> op in the expressed type -> quantize
//   (dequantize_op_quantize), or, for hybrid ops (a float lhs with a
//   quantized rhs), dequantize -> op.
#pragma once

#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/operation.h"
#include "ir/type.h"

namespace hlograph::cpu {

class Interpreter;

// The spec's dequantize: (q - zero_point) * scale, each step rounded to the
// expressed type. `q` must be quantized.
Tensor Dequantize(const Tensor& q);
// The spec's quantize: clamp(x / scale + zero_point) rounded to nearest
// even, stored as `type`'s storage integers. `x` must be a float tensor of
// type's expressed element type (or any float type) and shape.
Tensor Quantize(const Tensor& x, const ir::Type& type);

// Whether `op` has a quantized operand or result and is not one the
// kernels run on stored integers as they are.
bool NeedsQuantizedPath(const ir::Operation& op);
// Runs such an op (see above); `results` receives one tensor per result.
Status RunQuantizedOp(const ir::Operation& op, const std::vector<const Tensor*>& operands,
                      std::vector<Tensor>& results, Interpreter& interpreter);

}  // namespace hlograph::cpu

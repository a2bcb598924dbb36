// Lowers quantized tensors (!quant.uniform) to plain integers and floats,
// for backends that compute on those only (the GPU backend). A quantized
// tensor becomes the tensor of its storage integers, and each op on
// quantized values the ops that compute exactly what the CPU interpreter
// computes for it (backends/cpu/quantized.cpp), bit for bit:
// - ops that move elements (reshape, slice, select, gather, control flow,
//   calls, collectives, ...) keep their form on the storage integers, and
//   so do the ops whose body computes on quantized scalars (reduce, sort,
//   map, scatter, reduce_window, select_and_scatter, all_reduce,
//   reduce_scatter), their bodies lowered in turn;
// - uniform_quantize and uniform_dequantize become their arithmetic
//   (passes/quantized_arith.h);
// - dot_general, dot and convolution of quantized operands into a
//   quantized result sum integers and requantize the sums
//   (passes/quantized_contraction.h);
// - every other op is dequantize -> the op in the expressed type ->
//   quantize; hybrid ops (float lhs, quantized rhs) dequantize -> op.
#pragma once

#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::passes {

// Whether a value, block argument or function of `module` has a quantized type.
bool HasQuantizedTypes(const ir::Module& module);

// Rewrites `module` in place so that no quantized type remains. An op
// whose result ops cannot reproduce exactly is refused with an error
// naming it, and `module` is then left as it was.
Status LowerQuantized(ir::Module& module);

}  // namespace hlograph::passes

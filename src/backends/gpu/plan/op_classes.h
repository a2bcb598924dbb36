// How the planner treats each op: computed inside a generated kernel,
// a reduction kernel, a library call, control flow, or not supported.
// (Calls and composites are gone by then: the planner inlines them.)
#pragma once

#include <cstdint>
#include <vector>

#include "ir/operation.h"

namespace hlograph::gpu {

enum class OpClass {
  kFusible,      // elementwise or an index map: computed inside a kernel
  kReduce,       // stablehlo.reduce with a scalar elementwise body
  kSort,         // stablehlo.sort with a scalar elementwise comparator; chlo.top_k
  kScatter,      // stablehlo.scatter with a scalar elementwise update body
  kScan,         // chlo.scan, or a reduce_window that is a prefix scan (plan/prefix_scan.h)
  kRng,          // stablehlo.rng_bit_generator (THREE_FRY, PHILOX)
  kConvolution,  // stablehlo.convolution that cuDNN does not take: a generated kernel
  kCudnnConvolution,  // stablehlo.convolution through cuDNN (plan/convolution_lowering.h)
  kFft,          // stablehlo.fft: a generated kernel (a DFT per output element)
  kCufft,        // stablehlo.fft through cuFFT (plan/fft_config.h: long transforms)
  kDot,          // stablehlo.dot_general: cuBLASLt
  kGeneratedDot,  // stablehlo.dot_general of a few rows: a generated kernel (plan/generated_dot.h)
  kDirectDot,    // stablehlo.dot_general cuBLASLt does not take (integers, mixed types): a generated kernel
  kWhile,
  kCase,         // stablehlo.case and stablehlo.if
  kHost,         // run on the host by the CPU interpreter (jaxlib's LAPACK calls)
  kCollective,   // all_reduce, all_gather, ...: NCCL (plan/collective_plan.h)
  kAlias,        // results are the operands (optimization_barrier)
  kReturn,
  kUnsupported,
};

OpClass ClassifyOp(const ir::Operation& op);

// Whether recomputing the op per element of a larger loop costs more than
// a trip through memory (transcendentals and other long instructions).
bool IsExpensive(const ir::Operation& op);

// Whether `op` is a dot_general of real floats whose contraction holds one
// element (or none): each result element is one product of an lhs and an
// rhs element, an elementwise multiply of the operands' broadcasts (as
// XLA's simplifier rewrites it). It is fused where it is read (a per-
// example gradient's outer products reduced to their norms) rather than
// written whole by a library call.
bool IsOuterProduct(const ir::Operation& op);

// The permutation the transposes `moves` starts with apply together (each
// reading the one before): dim i of the last one's result is dim perm[i]
// of the first one's operand. Empty when it starts with none.
std::vector<int64_t> ComposedTransposes(const std::vector<const ir::Operation*>& moves);

// For a splat constant (computed inline in kernels) true; dense constants
// with distinct elements become constant buffers.
bool IsSplatConstant(const ir::Operation& op);

// Calls fn(value) for every value `op` reads, including values its nested
// regions read from outside them.
template <typename Fn>
void ForEachRead(const ir::Operation& op, Fn&& fn) {
  for (const ir::Value* v : op.operands()) fn(v);
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& inner : block->operations()) ForEachRead(*inner, fn);
    }
  }
}

}  // namespace hlograph::gpu

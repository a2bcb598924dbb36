// What the epilogue matchers (a GEMM's bias and relu, a convolution's
// scale, shift, residual and relu) look for in the ops after a product.
#pragma once

#include <cstdint>

#include "ir/operation.h"

namespace hlograph::gpu {

// The only op that uses `v` (once, counting uses inside its regions), or null.
const ir::Operation* SoleUser(const ir::Value* v);

// The operand of binary `op` that is not `v` (null when both or neither are).
const ir::Value* OtherOperand(const ir::Operation& op, const ir::Value* v);

// Whether `v` is a splat +0 (a constant, maybe broadcast).
bool IsZero(const ir::Value* v);

// The value holding vector[i] contiguously, if `v` is that vector (of
// `v`'s size along `axis`) broadcast along every other dim; else null.
// Reshapes and broadcasts that only add unit dims are looked through.
const ir::Value* VectorAlong(const ir::Value* v, int64_t axis);

}  // namespace hlograph::gpu

// Which ops need no quantized arithmetic of their own: on quantized
// tensors they move the stored integers (shape ops, control flow, the
// collectives that move data) or run a body on quantized scalars, whose
// ops do the arithmetic (reduce, sort, map, scatter, the window ops,
// all_reduce, reduce_scatter). The CPU interpreter runs them on the stored
// integers; passes/lower_quantized keeps their form on storage types.
#pragma once

#include "ir/op_id.h"

namespace hlograph::ir {

bool MovesStoredIntegers(OpId id);

// The products (dot_general, dot, convolution), whose quantized forms
// accumulate integers exactly as the spec defines.
bool IsContraction(OpId id);

}  // namespace hlograph::ir

// A reduction computed from a finer one of the same operand: when a block
// reduces x over dims D1 and, with the same body and its identity as the
// initial value, over D2 containing D1, the second becomes a reduction of
// the first's (smaller) result over D2 minus D1. x is then read once
// instead of twice (x.sum(0) and x.mean((0, 2)): the second pass over x
// becomes a pass over x.sum(0)).
//
// Only where it cannot change a result beyond a reordered sum: bodies
// that are one add, multiply, maximum, minimum, and or or of the two
// arguments, on f32, f64 or integers (bf16 and f16 partial sums would be
// rounded to 16 bits in between; their maximum and minimum are exact and
// taken). Backends that reorder sums anyway run it (the GPU backend); the
// CPU interpreter, the oracle, does not.
#pragma once

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites `module` in place; returns how many reductions it rewrote.
int ReuseFinerReductions(ir::Module& module);

}  // namespace hlograph::passes

// Regions that fold two values with one op, `(a, b) -> op(a, b)` in either
// operand order: the bodies of reduce, all_reduce, reduce_scatter and the
// like. Passes and backends read which op folds, and whether an initial
// value is that fold's identity.
#pragma once

#include "ir/operation.h"

namespace hlograph::ir {

// The one op of region 0 of `op` when the region is such a fold (one
// block of two arguments, the op applied to both, its result returned);
// else null.
const Operation* FoldOfBody(const Operation& op);

// Whether `fold` folds in any order (add, multiply, maximum, minimum, and,
// or, xor): the order of a tree of folds does not change what it means.
bool IsCommutativeFold(OpId fold);

// Whether `init` is a scalar constant holding the identity of the fold
// named `fold` (add, multiply, maximum, minimum, and, or) for its type, so
// folding it in again changes nothing.
bool IsFoldIdentity(OpId fold, const Value* init);

}  // namespace hlograph::ir

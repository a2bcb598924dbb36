// Which results may live in an argument's memory, as the entry function's
// argument attributes say: tf.aliasing_output = j on argument i, or
// jax.buffer_donor matched with the first unclaimed result of the same type
// (as XLA matches donors). Backends decide whether they can use each one.
#pragma once

#include <vector>

#include "ir/operation.h"

namespace hlograph::ir {

struct ArgumentAlias {
  int parameter = -1;
  int result = -1;
  bool same_type = true;  // false: the result's type differs from the argument's
};

// In argument order; each result at most once.
std::vector<ArgumentAlias> ArgumentAliases(const Operation& function);

}  // namespace hlograph::ir

// Which ops need no quantized arithmetic of their own: on quantized
// tensors they move the stored integers (shape ops, control flow, the
// collectives that move data) or run a body on quantized scalars, whose
// ops do the arithmetic (reduce, sort, map, scatter, the window ops,
// all_reduce, reduce_scatter). The CPU interpreter runs them on the stored
// integers; passes/lower_quantized keeps their form on storage types.
#pragma once

#include <string_view>

namespace hlograph::ir {

bool MovesStoredIntegers(std::string_view op_name);

}  // namespace hlograph::ir

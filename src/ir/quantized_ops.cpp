#include "ir/quantized_ops.h"

#include <algorithm>
#include <iterator>

namespace hlograph::ir {

bool MovesStoredIntegers(std::string_view name) {
  static constexpr std::string_view kOps[] = {
      "stablehlo.bitcast_convert", "stablehlo.constant", "stablehlo.reshape", "stablehlo.transpose",
      "stablehlo.broadcast_in_dim", "stablehlo.broadcast", "stablehlo.slice", "stablehlo.dynamic_slice",
      "stablehlo.reverse", "stablehlo.concatenate", "stablehlo.gather", "stablehlo.pad",
      "stablehlo.dynamic_update_slice", "stablehlo.select", "stablehlo.tuple", "stablehlo.get_tuple_element",
      "stablehlo.optimization_barrier", "stablehlo.while", "stablehlo.if", "stablehlo.case", "stablehlo.return",
      "func.call", "func.return",
      // Their bodies run on quantized scalars: the spec applies the body to
      // the quantized values (its argument types are the operands' own).
      "stablehlo.reduce", "stablehlo.sort", "stablehlo.map", "stablehlo.scatter", "stablehlo.reduce_window",
      "stablehlo.select_and_scatter", "stablehlo.all_reduce", "stablehlo.reduce_scatter",
      // Collectives that move the stored integers between devices.
      "stablehlo.all_gather", "stablehlo.all_to_all", "stablehlo.collective_permute",
      "stablehlo.collective_broadcast",
  };
  if (name.substr(0, 6) == "check.") return true;
  return std::find(std::begin(kOps), std::end(kOps), name) != std::end(kOps);
}

}  // namespace hlograph::ir

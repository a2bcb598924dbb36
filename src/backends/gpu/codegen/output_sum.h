// Kernels where each output element is a sum of products (the direct
// convolution, the direct product): the loop over outputs, the
// accumulator, the store. A thread sums each output, or a warp when the
// outputs are too few to fill the device and the sums are long (weight
// gradients). The accumulator is typed as the interpreter sums: f32 for
// f16/bf16/f32 and the 8-bit floats (full f32 at every precision, within
// what DEFAULT allows), f64 for f64, and for integers 64-bit wrapping
// arithmetic whose low bits are the result type's own sum.
#pragma once

#include <functional>
#include <string>

#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

struct OutputSum {
  ir::Type out_type;  // the kernel's one output, written to o0
  int64_t terms = 0;  // products per output, numbered by "r" in the loop
  // The operands' element types (a float summed into integers needs a
  // helper function before the kernel).
  std::vector<ir::ElementType> operand_types;
  const char* what = "";  // "convolution", for the kernel's strategy
};

// Emits the kernel: `add_product(e, out, acc_type)` emits, inside the loop
// over terms, the code that adds term "r" of output index `out` to "acc".
StatusOr<KernelSource> EmitOutputSums(
    const Fusion& f, const OutputSum& sum, const EmitOptions& options,
    const std::function<Status(BodyEmitter& e, const Index& out, const std::string& acc_type)>& add_product);

// An operand's compute-type `value` (of element type `t`) as `acc_type`:
// integers are sign- or zero-extended by their own signedness, floats into
// integers saturate (NaN is 0) as the interpreter's FloatToWrapped.
std::string ToAccumulator(ir::ElementType t, const std::string& value, const std::string& acc_type);

}  // namespace hlograph::gpu::emit

// Between the public API's quantization (include/hlograph/array.h) and the
// IR's !quant.uniform parameters.
#pragma once

#include "hlograph/array.h"
#include "ir/type.h"

namespace hlograph::runtime {

// The IR's parameters of a quantized element type stored as `storage`.
ir::QuantParamsPtr ToIr(ElementType storage, const Quantization& quantization);
Quantization FromIr(const ir::QuantParams& params);

}  // namespace hlograph::runtime

// dot_general, dot and convolution of quantized operands into a quantized
// result as the CPU interpreter computes them: the (q - zero_point)
// products summed exactly as integers, then requantized. A dot_general
// whose rhs has zero points 0 (as the spec requires) multiplies the stored
// integers as they are (i8 x i8 -> i32 is cuBLASLt's int8 GEMM) and takes
// lhs_zero_point * (the rhs summed over its contracting dims) off the sums.
#pragma once

#include <vector>

#include "ir/operation.h"
#include "passes/op_builder.h"

namespace hlograph::passes::quantized {

// Whether the interpreter computes `op` (with these operand and result
// types) by integer accumulation: a dot_general, dot or convolution of a
// quantized lhs quantized per tensor and a quantized rhs into a quantized
// result.
bool IsIntegerContraction(const ir::Operation& op, const std::vector<ir::Type>& operand_types);

// The storage integers of `op`'s result from the storage integers `lhs`
// and `rhs` of the operands, whose quantized types are `lhs_type` and
// `rhs_type` (`op` still has its quantized result type).
ir::Value* LowerIntegerContraction(OpBuilder& b, const ir::Operation& op, ir::Value* lhs, ir::Value* rhs,
                                   const ir::Type& lhs_type, const ir::Type& rhs_type);

}  // namespace hlograph::passes::quantized

// What the GPU backend computes element by element: the element types and
// the elementwise ops the code generator translates (codegen/elemental.h
// turns each into a CUDA C++ expression). The planner asks this when it
// decides what to fuse; it is plain data, so plan/ needs neither codegen/
// nor CUDA. A test checks that the code generator translates every op and
// type named here (gpu_elemental_test.cpp).
#pragma once

#include "ir/element_type.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// Whether the GPU handles elements of this type (integers, bool, the
// floats including the f8 formats, complex).
bool IsSupportedElementType(ir::ElementType t);

// Whether ops with this id are computed per element: every elementwise op
// declared (ir/elementwise_ops.h) but the quantized conversions, and
// clamp, compare, select and reduce_precision.
bool IsElementwiseOp(ir::OpId id);

// Whether the op is computed on complex operands too (the others are
// refused for complex types when the program is planned).
bool HasComplexTranslation(ir::OpId id);

// Whether `op` is an elementwise op the code generator translates
// (arithmetic, math, compare, select, clamp, convert, bitcast_convert of
// equal widths, reduce_precision, and the CHLO elementwise ops).
bool IsElementwise(const ir::Operation& op);

}  // namespace hlograph::gpu

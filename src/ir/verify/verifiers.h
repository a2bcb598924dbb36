// Op-specific verifiers, named after the op (or family) they check. Each
// returns an error whose message says what was expected and what was found;
// the caller (ir/verifier.cpp) prefixes the position and the op name.
// Generic checks (operand/result/region counts, attribute kinds, terminators)
// have already passed when these run.
#pragma once

#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::ir::verify {

// Elementwise
Status Elementwise(const Operation& op);
// Quantized tensors (verify/quantized.cpp; run for every op): per-axis
// parameters and the ops that take per-axis tensors, before the op's own
// verifier (whose messages would otherwise name types no program can
// have, such as a per-axis scalar); then data movement, bodies and
// contractions, after it.
Status QuantizedParameters(const Operation& op);
Status QuantizedTypes(const Operation& op);
Status Select(const Operation& op);
Status Clamp(const Operation& op);
Status Compare(const Operation& op);
Status ReducePrecision(const Operation& op);
// Constants and shape producers
Status Constant(const Operation& op);
Status Iota(const Operation& op);
// Data movement
Status BroadcastInDim(const Operation& op);
Status Broadcast(const Operation& op);
Status Reshape(const Operation& op);
Status Transpose(const Operation& op);
Status Reverse(const Operation& op);
Status Slice(const Operation& op);
Status DynamicSlice(const Operation& op);
Status DynamicUpdateSlice(const Operation& op);
Status Concatenate(const Operation& op);
Status Pad(const Operation& op);
Status Gather(const Operation& op);
Status Scatter(const Operation& op);
Status GetDimensionSize(const Operation& op);
// Tuples and tokens
Status Tuple(const Operation& op);
Status GetTupleElement(const Operation& op);
Status AfterAll(const Operation& op);
Status OptimizationBarrier(const Operation& op);
// Linear algebra
Status Dot(const Operation& op);
Status DotGeneral(const Operation& op);
Status Convolution(const Operation& op);
Status Cholesky(const Operation& op);
Status TriangularSolve(const Operation& op);
Status Fft(const Operation& op);
Status BatchNorm(const Operation& op);
// Regions
Status Reduce(const Operation& op);
Status ReduceWindow(const Operation& op);
Status SelectAndScatter(const Operation& op);
Status Sort(const Operation& op);
Status Map(const Operation& op);
Status While(const Operation& op);
Status If(const Operation& op);
Status Case(const Operation& op);
// Calls and extension points
Status Func(const Operation& op);
Status Call(const Operation& op);
Status Composite(const Operation& op);
Status CustomCall(const Operation& op);
// Random numbers
Status Rng(const Operation& op);
Status RngBitGenerator(const Operation& op);
// CHLO and check
Status TopK(const Operation& op);
Status Scan(const Operation& op);
Status CheckCompare(const Operation& op);
Status CheckCompareConst(const Operation& op);

}  // namespace hlograph::ir::verify

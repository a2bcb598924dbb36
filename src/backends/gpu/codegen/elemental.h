// Elementwise ops as CUDA C++ expressions: the building block of every
// generated kernel. Each element type has a storage type (what device memory
// holds) and a compute type (what arithmetic happens in: float for f16,
// bf16 and the f8 formats, as XLA does; a struct of two parts for complex
// numbers); operands and results of ElementalExpr are compute-type
// expressions. The semantics are the CPU interpreter's (src/backends/cpu),
// which follows XLA: IEEE NaN/inf/signed zero, integer wraparound, XLA's
// division-by-zero and shift rules, saturating float->int conversion.
#pragma once

#include <string>
#include <vector>

#include "backends/gpu/plan/elementwise_support.h"  // the ops and types translated
#include "hlograph/status.h"
#include "ir/element_type.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// "float", "double", "__half", "__nv_bfloat16", "bool", "int8_t", "uint8_t"
// for the f8 formats, "hlo_complex<float>" for complex<f32>, ...
StatusOr<std::string> StorageType(ir::ElementType t);
// "float" for f16/bf16/f8, else the storage type.
StatusOr<std::string> ComputeType(ir::ElementType t);
// Converts an expression of the storage type to the compute type and back.
std::string LoadExpr(ir::ElementType t, const std::string& storage_expr);
std::string StoreExpr(ir::ElementType t, const std::string& compute_expr);
// The same for a value an elementwise body computed (so held exactly in
// its type: a bf16 store needs no rounding).
std::string StoreExactExpr(ir::ElementType t, const std::string& compute_expr);

// The compute-type expression of `op`'s single result, given its operands'
// compute-type expressions (already parenthesised or simple names). Errors
// name the op and the unsupported element type or attribute. An f16/bf16
// result is already rounded to its format (XLA rounds after every op), so
// nesting these expressions gives the bits of running the ops one by one.
// Each operand expression occurs at most once in the result, so nesting
// them does not blow up the text.
StatusOr<std::string> ElementalExpr(const ir::Operation& op, const std::vector<std::string>& operands);

// The bits of a compute-type value of `t` as an unsigned integer of t's
// width ("uint32_t" for f32), and the compute-type value with those bits:
// bitcast_convert between different widths is built from these.
std::string BitsExpr(ir::ElementType t, const std::string& x);
std::string FromBitsExpr(ir::ElementType t, const std::string& bits);
std::string UnsignedType(int bits);

// A literal of element type `t` for the value `bits` (the element's bit
// pattern, as ir::DenseElementsAttr stores it), as a compute-type expression.
StatusOr<std::string> LiteralExpr(ir::ElementType t, uint64_t bits);
// The same from the element's bytes (StorageBytes(t) of them, little-endian;
// complex: the real part, then the imaginary part), for every type.
StatusOr<std::string> ElementLiteralExpr(ir::ElementType t, const uint8_t* bytes);

// Device functions and includes that every generated kernel starts with.
const std::string& KernelPrelude();

// The CUDA include directory KernelPrelude's #includes need (NVRTC's -I):
// the toolkit's that this library was built against.
const char* KernelIncludeDir();

}  // namespace hlograph::gpu

// Shared pieces of the elemental code generator (elemental*.cpp): the view
// of one op that the expression builders work on, and the builders of the
// ops that change element types.
#pragma once

#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/element_type.h"
#include "ir/operation.h"

namespace hlograph::gpu::elemental {

// The element classes the generator distinguishes.
enum class Class { kBool, kSigned, kUnsigned, kFloat, kComplex };
Class ClassOf(ir::ElementType t);
inline bool IsInt(ir::ElementType t) {
  const Class c = ClassOf(t);
  return c == Class::kSigned || c == Class::kUnsigned;
}
// f16 and bf16: computed in float, rounded after every op.
inline bool IsNarrowFloat(ir::ElementType t) { return t == ir::ElementType::kF16 || t == ir::ElementType::kBF16; }

// The f8 formats: stored as one byte, computed in float, rounded after
// every op (kernel_prelude_narrow.cpp). Their device format type is
// NarrowFormatName(t), "hlo_f8e4m3fn".
bool IsNarrowFormat(ir::ElementType t);
std::string NarrowFormatName(ir::ElementType t);
// Pieces of KernelPrelude(): the f8 helpers and the complex ones.
const std::string& NarrowFloatPrelude();
const std::string& ComplexPrelude();

// "f32", "complex<f32>", ...
std::string TypeName(ir::ElementType t);
// The C++ type of elements of `t` in expressions (its compute type); `t`
// must be supported.
std::string CType(ir::ElementType t);

// One op being translated: its name, operand expressions and element types.
struct OpView {
  const ir::Operation& op;
  ir::OpId id;
  const std::string& name;  // for messages
  const std::vector<std::string>& args;
  std::vector<ir::ElementType> in;  // operand element types
  ir::ElementType out;              // the result's

  const std::string& arg(size_t i) const { return args[i]; }
  // "<op>: <message>" as an error.
  Status Error(const std::string& message) const;
  // The error for an element type the op is not defined on.
  Status NotDefinedFor(ir::ElementType t) const;
};

// Ops on complex operands (elemental_complex.cpp): arithmetic, math,
// abs/real/imag, clamp; and stablehlo.complex, which makes them.
StatusOr<std::string> ComplexOpExpr(const OpView& v);
StatusOr<std::string> MakeComplexExpr(const OpView& v);

// stablehlo.convert, bitcast_convert, reduce_precision and compare.
StatusOr<std::string> ConvertExpr(const OpView& v);
StatusOr<std::string> BitcastConvertExpr(const OpView& v);
StatusOr<std::string> ReducePrecisionExpr(const OpView& v);
StatusOr<std::string> CompareExpr(const OpView& v);

// `x` (a compute-type expression of any supported type `from`) converted to
// `to` with XLA's rules; the result is `to`'s compute type, already rounded
// to `to` when that is f16/bf16.
std::string Convert(ir::ElementType from, ir::ElementType to, const std::string& x);

}  // namespace hlograph::gpu::elemental

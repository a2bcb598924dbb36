// The elementwise ops as data (declared in ir/ops/elementwise_ops.def):
// what the op registry, the verifier, the bytecode reader and the backends'
// tables read of each.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ir/element_type.h"
#include "ir/op_id.h"

namespace hlograph::ir {

// Element type classes, combined as bit masks.
enum ElementClass : uint8_t {
  kBoolClass = 1u << 0,
  kSignedClass = 1u << 1,
  kUnsignedClass = 1u << 2,
  kFloatClass = 1u << 3,
  kComplexClass = 1u << 4,
  kIntClass = kSignedClass | kUnsignedClass,
  kAnyClass = kBoolClass | kIntClass | kFloatClass | kComplexClass,
  kFloatOrComplex = kFloatClass | kComplexClass,
  kNumeric = kIntClass | kFloatClass | kComplexClass,
  kLogical = kBoolClass | kIntClass,
};
uint8_t ElementClassOf(ElementType e);
bool InClass(ElementType e, uint8_t mask);

// How an elementwise op's result type follows from its operand type.
enum class ResultRule : uint8_t {
  kSame,       // the operand type
  kPredicate,  // the operand shape, element i1
  kRealPart,   // complex<fN> -> fN, floats and integers unchanged
  kComplexOf,  // fN -> complex<fN> (stablehlo.complex)
  kConvert,    // the operand shape, any element type
  kBitcast,    // bitcast_convert's bit-width rule
};

struct ElementwiseOp {
  OpId id;
  std::string_view name;
  int arity;
  uint8_t operand_classes;  // ElementClass mask
  ResultRule result;
  int vhlo_version;  // 0: not in VHLO
};

// Every declared elementwise op, in declaration order.
std::span<const ElementwiseOp> ElementwiseOps();
// The declaration of `id`, or null when it is not one of them.
const ElementwiseOp* FindElementwiseOp(OpId id);

}  // namespace hlograph::ir

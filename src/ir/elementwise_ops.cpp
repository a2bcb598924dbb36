#include "ir/elementwise_ops.h"

#include <array>
#include <string>
#include <unordered_map>

namespace hlograph::ir {
namespace {

constexpr ElementwiseOp kElementwiseOps[] = {
#define HLOGRAPH_ELEMENTWISE(id, name, arity, classes, result, vhlo) \
  {OpId::id, name, arity, static_cast<uint8_t>(classes), ResultRule::result, vhlo},
#include "ir/ops/elementwise_ops.def"
#undef HLOGRAPH_ELEMENTWISE
};

constexpr std::string_view kOpNames[] = {
#define HLOGRAPH_ELEMENTWISE(id, name, ...) name,
#define HLOGRAPH_OP(id, name) name,
#include "ir/ops/elementwise_ops.def"
#include "ir/ops/op_ids.def"
#undef HLOGRAPH_OP
#undef HLOGRAPH_ELEMENTWISE
};
static_assert(std::size(kOpNames) == kNumOpIds);

// FindElementwiseOp indexes the declarations by id: they come first, in
// id order.
constexpr bool DeclaredInIdOrder() {
  for (size_t i = 0; i < std::size(kElementwiseOps); ++i) {
    if (static_cast<size_t>(kElementwiseOps[i].id) != i) return false;
  }
  return true;
}
static_assert(DeclaredInIdOrder());

}  // namespace

uint8_t ElementClassOf(ElementType e) {
  if (IsBool(e)) return kBoolClass;
  if (IsSignedInteger(e)) return kSignedClass;
  if (IsUnsignedInteger(e)) return kUnsignedClass;
  if (IsFloat(e)) return kFloatClass;
  return kComplexClass;
}

bool InClass(ElementType e, uint8_t mask) { return (ElementClassOf(e) & mask) != 0; }

std::span<const ElementwiseOp> ElementwiseOps() { return kElementwiseOps; }

const ElementwiseOp* FindElementwiseOp(OpId id) {
  // Declared first, in id order: the id is the index.
  const auto i = static_cast<size_t>(id);
  return i < std::size(kElementwiseOps) ? &kElementwiseOps[i] : nullptr;
}

std::string_view OpIdName(OpId id) {
  const auto i = static_cast<size_t>(id);
  return i < std::size(kOpNames) ? kOpNames[i] : std::string_view("<unknown op>");
}

OpId OpIdOf(std::string_view name) {
  static const auto* const ids = [] {
    auto* m = new std::unordered_map<std::string_view, OpId>();
    for (int i = 0; i < kNumOpIds; ++i) (*m)[kOpNames[i]] = static_cast<OpId>(i);
    return m;
  }();
  auto it = ids->find(name);
  return it == ids->end() ? OpId::kNumOps : it->second;
}

}  // namespace hlograph::ir

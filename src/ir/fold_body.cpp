#include "ir/fold_body.h"

#include <cstdint>
#include <vector>

#include "ir/attribute.h"

namespace hlograph::ir {

const Operation* FoldOfBody(const Operation& op) {
  if (op.num_regions() != 1 || op.region(0).blocks().size() != 1) return nullptr;
  const Block& body = op.region(0).front();
  if (body.num_arguments() != 2 || body.operations().size() != 2) return nullptr;
  const Operation& fold = *body.operations()[0];
  const Operation& ret = *body.operations()[1];
  if (ret.num_operands() != 1 || ret.operand(0) != fold.result(0) || fold.num_operands() != 2) return nullptr;
  const Value* a = body.argument(0);
  const Value* b = body.argument(1);
  const bool both = (fold.operand(0) == a && fold.operand(1) == b) || (fold.operand(0) == b && fold.operand(1) == a);
  return both ? &fold : nullptr;
}

namespace {

// The bytes of `fold`'s identity as a `t` (little-endian), or empty.
std::vector<uint8_t> IdentityBytes(OpId fold, ElementType t) {
  const int bytes = StorageBytes(t);
  auto of = [&](uint64_t bits) {
    std::vector<uint8_t> out(static_cast<size_t>(bytes));
    // Bytes past the eighth (complex128's imaginary half) are zero.
    for (int i = 0; i < bytes && i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<uint8_t>(bits >> (8 * i));
    return out;
  };
  const bool is_signed = IsInteger(t) && !IsUnsignedInteger(t);
  const uint64_t top = bytes >= 8 ? uint64_t{1} << 63 : uint64_t{1} << (8 * bytes - 1);
  const uint64_t ones = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
  using E = ElementType;
  if (fold == OpId::kAdd || fold == OpId::kOr) return of(0);
  if (fold == OpId::kAnd) return of(IsBool(t) ? 1 : ones);
  if (fold == OpId::kMultiply) {
    if (t == E::kF32) return of(0x3f800000u);
    if (t == E::kF64) return of(0x3ff0000000000000ull);
    if (t == E::kBF16) return of(0x3f80u);
    if (t == E::kF16) return of(0x3c00u);
    return IsInteger(t) ? of(1) : std::vector<uint8_t>{};
  }
  const bool max = fold == OpId::kMaximum;
  if (fold != OpId::kMaximum && fold != OpId::kMinimum) return {};
  switch (t) {  // max starts from the lowest value, min from the highest
    case E::kF32: return of(max ? 0xff800000u : 0x7f800000u);
    case E::kF64: return of(max ? 0xfff0000000000000ull : 0x7ff0000000000000ull);
    case E::kBF16: return of(max ? 0xff80u : 0x7f80u);
    case E::kF16: return of(max ? 0xfc00u : 0x7c00u);
    default: break;
  }
  if (IsBool(t)) return of(max ? 0 : 1);
  if (!IsInteger(t)) return {};
  if (is_signed) return of(max ? top : ones ^ top);
  return of(max ? 0 : ones);
}

}  // namespace

bool IsCommutativeFold(OpId fold) {
  return fold == OpId::kAdd || fold == OpId::kMultiply || fold == OpId::kMaximum || fold == OpId::kMinimum ||
         fold == OpId::kAnd || fold == OpId::kOr || fold == OpId::kXor;
}

bool IsFoldIdentity(OpId fold, const Value* init) {
  const Operation* def = init->defining_op();
  if (def == nullptr || def->id() != OpId::kConstant || init->type().NumElements() != 1) return false;
  const auto* value = def->attr("value").as<DenseElementsAttr>();
  const std::vector<uint8_t> identity = IdentityBytes(fold, init->type().element());
  return value != nullptr && !identity.empty() && value->bytes == identity;
}

}  // namespace hlograph::ir

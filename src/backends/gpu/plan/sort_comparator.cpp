#include "backends/gpu/plan/sort_comparator.h"

#include <set>

#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

// The block arguments `v` is computed from.
void ArgumentsOf(const ir::Value* v, std::set<const ir::Value*>& args, int depth = 0) {
  if (v->IsBlockArgument()) {
    args.insert(v);
    return;
  }
  if (depth > 256) return;  // a deeper chain is no key function
  for (const ir::Value* o : v->defining_op()->operands()) ArgumentsOf(o, args, depth + 1);
}

// Whether `x` is computed from argument `ax` exactly as `y` is from `ay`
// (the same ops, attributes and constants).
bool Mirrors(const ir::Value* x, const ir::Value* y, const ir::Value* ax, const ir::Value* ay, int depth = 0) {
  if (x == ax || y == ay) return x == ax && y == ay;
  if (x->IsBlockArgument() || y->IsBlockArgument() || depth > 256) return false;
  if (x == y) {  // a value both read: it must not depend on an argument
    std::set<const ir::Value*> args;
    ArgumentsOf(x, args);
    return args.empty();
  }
  const ir::Operation& a = *x->defining_op();
  const ir::Operation& b = *y->defining_op();
  if (a.name() != b.name() || a.num_operands() != b.num_operands() || a.num_regions() != 0 || b.num_regions() != 0 ||
      x->index() != y->index() || !(x->type() == y->type()) || !(a.attributes() == b.attributes())) {
    return false;
  }
  for (size_t i = 0; i < a.num_operands(); ++i) {
    if (!Mirrors(a.operand(i), b.operand(i), ax, ay, depth + 1)) return false;
  }
  return true;
}

std::string EnumOf(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::EnumAttr>();
  return a ? a->value : std::string();
}

}  // namespace

bool HasPackableKey(ir::ElementType t) {
  if (ir::IsComplex(t)) return false;
  return ir::BitWidth(t) <= 32 && (ir::IsFloat(t) || ir::IsInteger(t) || ir::IsBool(t));
}

SortOrder AnalyzeSortComparator(const ir::Block& comparator) {
  SortOrder order;
  std::set<int> read;
  for (const auto& op : comparator.operations()) {
    for (const ir::Value* v : op->operands()) {
      if (v->IsBlockArgument() && v->owner_block() == &comparator) read.insert(static_cast<int>(v->index() / 2));
    }
  }
  order.read_operands.assign(read.begin(), read.end());
  const ir::Operation* ret = comparator.terminator();
  if (ret == nullptr || ret->num_operands() != 1 || ret->operand(0)->IsBlockArgument()) return order;
  const ir::Operation& compare = *ret->operand(0)->defining_op();
  if (compare.id() != ir::OpId::kCompare || compare.num_operands() != 2) return order;
  const std::string direction = EnumOf(compare, "comparison_direction");
  if (direction != "LT" && direction != "GT") return order;
  const ir::Value* x = compare.operand(0);
  const ir::Value* y = compare.operand(1);
  const ir::ElementType t = x->type().element();
  if (!HasPackableKey(t)) return order;
  // Floats only in total order: with IEEE compares NaNs are unordered.
  if (ir::IsFloat(t) && EnumOf(compare, "compare_type") != "TOTALORDER") return order;
  std::set<const ir::Value*> from_x, from_y;
  ArgumentsOf(x, from_x);
  ArgumentsOf(y, from_y);
  if (from_x.size() != 1 || from_y.size() != 1) return order;
  const ir::Value* ax = *from_x.begin();
  const ir::Value* ay = *from_y.begin();
  if (ax->index() / 2 != ay->index() / 2 || ax->index() == ay->index()) return order;
  if (!Mirrors(x, y, ax, ay)) return order;
  // compare(f(rhs), f(lhs)) orders the other way round.
  const bool swapped = ax->index() % 2 == 1;
  order.single_key = true;
  order.key_operand = static_cast<int>(ax->index() / 2);
  order.descending = (direction == "GT") != swapped;
  order.key_of_lhs = swapped ? y : x;
  order.key_argument = swapped ? ay : ax;
  order.key_type = t;
  return order;
}

SortOrder TopKOrder(ir::ElementType element) {
  SortOrder order;
  order.read_operands = {0};
  order.single_key = HasPackableKey(element);
  order.key_operand = 0;
  order.descending = true;
  order.key_type = element;
  return order;
}

}  // namespace hlograph::gpu

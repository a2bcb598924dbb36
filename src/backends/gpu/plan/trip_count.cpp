#include "backends/gpu/plan/trip_count.h"

#include <optional>
#include <string>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// The value of a scalar integer stablehlo.constant.
std::optional<int64_t> ConstantScalar(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  if (!def || def->name() != "stablehlo.constant") return std::nullopt;
  const auto* dense = def->attr("value").as<ir::DenseElementsAttr>();
  if (!dense) return std::nullopt;
  const auto values = ir::verify::IntElements(*dense);
  if (!values || values->size() != 1) return std::nullopt;
  return values->front();
}

// The block argument index of `v` in `block`, or -1.
int ArgumentOf(const ir::Value* v, const ir::Block& block) {
  return v->IsBlockArgument() && v->owner_block() == &block ? static_cast<int>(v->index()) : -1;
}

std::string Mirrored(const std::string& direction) {
  if (direction == "LT") return "GT";
  if (direction == "LE") return "GE";
  if (direction == "GT") return "LT";
  if (direction == "GE") return "LE";
  return direction;  // EQ, NE
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

int64_t KnownTripCount(const ir::Operation& loop) {
  if (loop.name() != "stablehlo.while" || loop.num_regions() != 2 || loop.region(0).empty() ||
      loop.region(1).empty()) {
    return -1;
  }
  const ir::Block& cond = loop.region(0).front();
  const ir::Block& body = loop.region(1).front();
  const ir::Operation* cond_return = cond.terminator();
  const ir::Operation* body_return = body.terminator();
  if (!cond_return || cond_return->num_operands() != 1 || !body_return) return -1;
  const ir::Operation* compare = cond_return->operand(0)->defining_op();
  if (!compare || compare->name() != "stablehlo.compare") return -1;
  const auto* direction_attr = compare->attr("comparison_direction").as<ir::EnumAttr>();
  if (!direction_attr) return -1;
  std::string direction = direction_attr->value;
  // counter OP bound, or bound OP counter (mirrored).
  int counter = ArgumentOf(compare->operand(0), cond);
  std::optional<int64_t> bound = ConstantScalar(compare->operand(1));
  if (counter < 0) {
    counter = ArgumentOf(compare->operand(1), cond);
    bound = ConstantScalar(compare->operand(0));
    direction = Mirrored(direction);
  }
  if (counter < 0 || !bound || static_cast<size_t>(counter) >= loop.num_operands()) return -1;
  const ir::ElementType type = compare->operand(0)->type().element();
  if (!ir::IsInteger(type)) return -1;
  const std::optional<int64_t> start = ConstantScalar(loop.operand(static_cast<size_t>(counter)));
  // The body's next counter: counter + step.
  if (static_cast<size_t>(counter) >= body_return->num_operands()) return -1;
  const ir::Operation* add = body_return->operand(static_cast<size_t>(counter))->defining_op();
  if (!start || !add || add->name() != "stablehlo.add") return -1;
  std::optional<int64_t> step;
  if (ArgumentOf(add->operand(0), body) == counter) step = ConstantScalar(add->operand(1));
  if (!step && ArgumentOf(add->operand(1), body) == counter) step = ConstantScalar(add->operand(0));
  if (!step) return -1;
  // Far from the type's limits, so that the counter cannot wrap before the
  // bound stops it (unsigned types: nothing negative).
  const int bits = ir::BitWidth(type);
  const int64_t limit = bits >= 64 ? (int64_t{1} << 61) : (int64_t{1} << (bits - 2));
  const int64_t a = *start, b = *bound, s = *step;
  for (int64_t v : {a, b, s}) {
    if (v >= limit || v <= -limit || (ir::IsUnsignedInteger(type) && v < 0)) return -1;
  }
  if (direction == "LT" && s > 0) return a < b ? CeilDiv(b - a, s) : 0;
  if (direction == "LE" && s > 0) return a <= b ? (b - a) / s + 1 : 0;
  if (direction == "GT" && s < 0) return a > b ? CeilDiv(a - b, -s) : 0;
  if (direction == "GE" && s < 0) return a >= b ? (a - b) / -s + 1 : 0;
  if (direction == "NE" && s != 0 && (b - a) % s == 0 && (b - a) / s >= 0) return (b - a) / s;
  return -1;
}

}  // namespace hlograph::gpu

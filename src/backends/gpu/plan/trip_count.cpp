#include "backends/gpu/plan/trip_count.h"

#include <optional>
#include <string>
#include <vector>

#include "backends/gpu/plan/op_classes.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// The value of a scalar integer stablehlo.constant.
std::optional<int64_t> ConstantScalar(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  if (!def || def->id() != ir::OpId::kConstant) return std::nullopt;
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

// The ops of `block` that read `v` (nested reads count for the op holding
// them), once per read.
std::vector<const ir::Operation*> Readers(const ir::Value* v, const ir::Block& block) {
  std::vector<const ir::Operation*> readers;
  for (const auto& op : block.operations()) {
    ForEachRead(*op, [&](const ir::Value* read) {
      if (read == v) readers.push_back(op.get());
    });
  }
  return readers;
}

}  // namespace

std::optional<CountedLoop> CountLoop(const ir::Operation& loop) {
  if (loop.id() != ir::OpId::kWhile || loop.num_regions() != 2 || loop.region(0).empty() ||
      loop.region(1).empty()) {
    return std::nullopt;
  }
  const ir::Block& cond = loop.region(0).front();
  const ir::Block& body = loop.region(1).front();
  const ir::Operation* cond_return = cond.terminator();
  const ir::Operation* body_return = body.terminator();
  if (!cond_return || cond_return->num_operands() != 1 || !body_return) return std::nullopt;
  const ir::Operation* compare = cond_return->operand(0)->defining_op();
  if (!compare || compare->id() != ir::OpId::kCompare) return std::nullopt;
  const auto* direction_attr = compare->attr("comparison_direction").as<ir::EnumAttr>();
  if (!direction_attr) return std::nullopt;
  std::string direction = direction_attr->value;
  // counter OP bound, or bound OP counter (mirrored).
  int counter = ArgumentOf(compare->operand(0), cond);
  std::optional<int64_t> bound = ConstantScalar(compare->operand(1));
  if (counter < 0) {
    counter = ArgumentOf(compare->operand(1), cond);
    bound = ConstantScalar(compare->operand(0));
    direction = Mirrored(direction);
  }
  if (counter < 0 || !bound || static_cast<size_t>(counter) >= loop.num_operands()) return std::nullopt;
  const ir::ElementType type = compare->operand(0)->type().element();
  if (!ir::IsInteger(type)) return std::nullopt;
  const std::optional<int64_t> start = ConstantScalar(loop.operand(static_cast<size_t>(counter)));
  // The body's next counter: counter + step.
  if (static_cast<size_t>(counter) >= body_return->num_operands()) return std::nullopt;
  const ir::Operation* add = body_return->operand(static_cast<size_t>(counter))->defining_op();
  if (!start || !add || add->id() != ir::OpId::kAdd) return std::nullopt;
  std::optional<int64_t> step;
  if (ArgumentOf(add->operand(0), body) == counter) step = ConstantScalar(add->operand(1));
  if (!step && ArgumentOf(add->operand(1), body) == counter) step = ConstantScalar(add->operand(0));
  if (!step) return std::nullopt;
  // Far from the type's limits, so that the counter cannot wrap before the
  // bound stops it (unsigned types: nothing negative).
  const int bits = ir::BitWidth(type);
  const int64_t limit = bits >= 64 ? (int64_t{1} << 61) : (int64_t{1} << (bits - 2));
  const int64_t a = *start, b = *bound, s = *step;
  for (int64_t v : {a, b, s}) {
    if (v >= limit || v <= -limit || (ir::IsUnsignedInteger(type) && v < 0)) return std::nullopt;
  }
  int64_t trips = -1;
  if (direction == "LT" && s > 0) trips = a < b ? CeilDiv(b - a, s) : 0;
  if (direction == "LE" && s > 0) trips = a <= b ? (b - a) / s + 1 : 0;
  if (direction == "GT" && s < 0) trips = a > b ? CeilDiv(a - b, -s) : 0;
  if (direction == "GE" && s < 0) trips = a >= b ? (a - b) / -s + 1 : 0;
  if (direction == "NE" && s != 0 && (b - a) % s == 0 && (b - a) / s >= 0) trips = (b - a) / s;
  if (trips < 0) return std::nullopt;
  return CountedLoop{static_cast<size_t>(counter), a, s, trips};
}

int64_t KnownTripCount(const ir::Operation& loop) {
  const std::optional<CountedLoop> counted = CountLoop(loop);
  return counted ? counted->trips : -1;
}

bool InitialValueOverwritten(const ir::Operation& loop, size_t i) {
  const std::optional<CountedLoop> counted = CountLoop(loop);
  if (!counted || i >= loop.num_operands() || i == counted->index) return false;
  const ir::Block& cond = loop.region(0).front();
  const ir::Block& body = loop.region(1).front();
  if (i >= cond.num_arguments() || i >= body.num_arguments() || !Readers(cond.argument(i), cond).empty()) return false;
  const ir::Value* state = body.argument(i);
  const std::vector<const ir::Operation*> readers = Readers(state, body);
  if (readers.size() != 1) return false;
  const ir::Operation* update = readers.front();
  const ir::Operation* next = body.terminator();
  if (update->id() != ir::OpId::kDynamicUpdateSlice || update->operand(0) != state || !next ||
      i >= next->num_operands() || next->operand(i) != update->result(0) ||
      Readers(update->result(0), body).size() != 1) {
    return false;
  }
  const ir::Type& whole = state->type();
  const ir::Type& window = update->operand(1)->type();
  if (!whole.IsTensor() || !window.IsTensor() || whole.rank() != window.rank() ||
      update->num_operands() != 2 + static_cast<size_t>(whole.rank())) {
    return false;
  }
  int stepped = -1;  // the one dimension the window moves along
  for (int64_t d = 0; d < whole.rank(); ++d) {
    const ir::Value* start = update->operand(2 + static_cast<size_t>(d));
    if (ArgumentOf(start, body) == static_cast<int>(counted->index)) {
      if (stepped >= 0) return false;
      stepped = static_cast<int>(d);
    } else if (ConstantScalar(start) != std::optional<int64_t>(0) || window.dim(d) != whole.dim(d)) {
      return false;
    }
  }
  // Windows [start + t * step, + size) for t < trips tile the dimension
  // exactly (none is clamped).
  if (stepped < 0) return false;
  const int64_t size = window.dim(stepped);
  return counted->start == 0 && counted->step == size && size > 0 && counted->trips * size == whole.dim(stepped);
}

}  // namespace hlograph::gpu

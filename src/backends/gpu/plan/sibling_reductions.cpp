#include "backends/gpu/plan/sibling_reductions.h"

#include <algorithm>
#include <optional>
#include <set>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

std::vector<int64_t> SortedDims(const ir::Operation& reduce) {
  std::vector<int64_t> dims = ir::verify::I64ArrayAttr(reduce, "dimensions");
  std::sort(dims.begin(), dims.end());
  return dims;
}

// The values in memory that computing all of `op`'s operands reads, or
// nothing when one of them is not computable yet.
std::optional<std::set<const ir::Value*>> ArraysRead(const ir::Operation& op,
                                                     const std::function<ValueSource(const ir::Value*)>& source) {
  std::set<const ir::Value*> arrays, seen;
  std::vector<const ir::Value*> todo(op.operands().begin(), op.operands().end());
  while (!todo.empty()) {
    const ir::Value* v = todo.back();
    todo.pop_back();
    if (!seen.insert(v).second) continue;
    switch (source(v)) {
      case ValueSource::kMemory:
        arrays.insert(v);
        break;
      case ValueSource::kInline:
        for (const ir::Value* o : v->defining_op()->operands()) todo.push_back(o);
        break;
      case ValueSource::kNotYet:
        return std::nullopt;
    }
  }
  return arrays;
}

}  // namespace

std::vector<const ir::Operation*> SiblingReductions(const ir::Operation& reduce,
                                                    const std::function<ValueSource(const ir::Value*)>& source,
                                                    const std::function<bool(const ir::Operation&)>& candidate) {
  std::vector<const ir::Operation*> siblings;
  const ir::Block* block = reduce.parent_block();
  if (block == nullptr || reduce.id() != ir::OpId::kReduce || reduce.num_operands() == 0) return siblings;
  const std::optional<std::set<const ir::Value*>> mine = ArraysRead(reduce, source);
  if (!mine || mine->empty()) return siblings;
  const ir::Type& shape = reduce.operand(0)->type();
  const std::vector<int64_t> dims = SortedDims(reduce);
  bool after = false;
  for (const auto& op_ptr : block->operations()) {
    const ir::Operation& op = *op_ptr;
    if (&op == &reduce) {
      after = true;
      continue;
    }
    if (!after || op.id() != ir::OpId::kReduce || !candidate(op) || op.num_operands() == 0) continue;
    if (op.operand(0)->type().shape() != shape.shape() || SortedDims(op) != dims) continue;
    const std::optional<std::set<const ir::Value*>> theirs = ArraysRead(op, source);
    if (!theirs) continue;
    const bool shared =
        std::any_of(theirs->begin(), theirs->end(), [&](const ir::Value* v) { return mine->count(v) > 0; });
    if (!shared) continue;
    siblings.push_back(&op);
    if (static_cast<int>(siblings.size()) + 1 >= kMaxSiblingReductions) break;
  }
  return siblings;
}

}  // namespace hlograph::gpu

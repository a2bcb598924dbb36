#include "backends/gpu/plan/attention.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <string>

#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"
#include "ir/fold_body.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

using OpSet = std::set<const ir::Operation*>;

const std::vector<const ir::Operation*>& UsersOf(const ir::Value* v, const ValueUsers& users) {
  static const std::vector<const ir::Operation*> kNone;
  const auto it = users.find(v);
  return it == users.end() ? kNone : it->second;
}

bool UsedOnlyBy(const ir::Value* v, const OpSet& allowed, const ValueUsers& users) {
  const auto& u = UsersOf(v, users);
  return !u.empty() && std::all_of(u.begin(), u.end(), [&](const ir::Operation* op) { return allowed.count(op); });
}

const ir::Operation* DefNamed(const ir::Value* v, ir::OpId id) {
  const ir::Operation* op = v->defining_op();
  return op != nullptr && op->id() == id ? op : nullptr;
}

// Whether `v` is a splat f32 constant of value `x`.
bool IsConstant(const ir::Value* v, float x) {
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || op->id() != ir::OpId::kConstant || !IsSplatConstant(*op)) return false;
  const auto* value = op->attr("value").as<ir::DenseElementsAttr>();
  if (value == nullptr || value->type.element() != ir::ElementType::kF32 || value->bytes.size() < 4) return false;
  float got;
  std::memcpy(&got, value->bytes.data(), 4);
  return got == x;
}

// Whether `reduce` folds `operand` over its dim `dim` alone, from `init`,
// with a body that is the single op `body` of its two arguments.
bool FoldsDim(const ir::Operation& reduce, const ir::Value* operand, int64_t dim, ir::OpId body, float init) {
  if (reduce.id() != ir::OpId::kReduce || reduce.num_operands() != 2 || reduce.num_results() != 1 ||
      reduce.operand(0) != operand || reduce.num_regions() != 1 || reduce.region(0).empty() ||
      !IsConstant(reduce.operand(1), init)) {
    return false;
  }
  if (ir::verify::I64ArrayAttr(reduce, "dimensions") != std::vector<int64_t>{dim}) return false;
  const ir::Operation* fold = ir::FoldOfBody(reduce);
  return fold != nullptr && fold->id() == body;
}

bool FoldsLastDim(const ir::Operation& reduce, const ir::Value* operand, ir::OpId body, float init) {
  return FoldsDim(reduce, operand, operand->type().rank() - 1, body, init);
}

// Whether `reduce` folds S's keys: S over its last dim or, S a transpose
// of T, T over the dim that becomes S's last (jax.nn.dot_product_attention
// takes the maximum before it transposes the scores).
bool FoldsKeys(const ir::Operation& reduce, const ir::Value* s, ir::OpId body, float init) {
  if (FoldsLastDim(reduce, s, body, init)) return true;
  const ir::Operation* t = s->defining_op();
  if (t == nullptr || t->id() != ir::OpId::kTranspose) return false;
  return FoldsDim(reduce, t->operand(0), ir::verify::I64ArrayAttr(*t, "permutation").back(), body, init);
}

// The fusible ops that compute `root` from the result of one reduce (found
// into `reduce`) and splat constants alone, into `ops`; false if anything
// else feeds it.
bool FromOneReduce(const ir::Value* root, const ir::Block* block, const ir::Operation*& reduce, OpSet& ops) {
  const ir::Operation* op = root->defining_op();
  if (op == nullptr || op->parent_block() != block) return false;
  if (ClassifyOp(*op) == OpClass::kReduce) {
    if (reduce != nullptr && reduce != op) return false;
    reduce = op;
    return true;
  }
  if (ops.count(op)) return true;  // reached before (a value read twice)
  if (ClassifyOp(*op) != OpClass::kFusible || op->num_regions() != 0) return false;
  if (op->id() == ir::OpId::kConstant) {
    if (!IsSplatConstant(*op)) return false;
  } else if (!IsElementwise(*op) && op->id() != ir::OpId::kBroadcastInDim && op->id() != ir::OpId::kReshape &&
             op->id() != ir::OpId::kTranspose) {
    return false;
  }
  ops.insert(op);
  for (const ir::Value* v : op->operands()) {
    if (!FromOneReduce(v, block, reduce, ops)) return false;
  }
  return true;
}

// The ops between the scores product and S: those reading the product
// (elementwise, S's shape), into `ops`, the product into `dot` (an op
// `is_product` accepts). Values S reads that do not depend on the product
// (a mask) are left to the kernel to compute or load. `apart`: ops found
// not to read the product. With `transpose` non-null, S may read the
// product through one transpose (JAX's grouped-query scores; the scaled
// scores of jax.nn.dot_product_attention), kept there.
bool ScoresChain(const ir::Value* v, const ir::Type& shape, const ir::Block* block,
                 const std::function<bool(const ir::Operation&)>& is_product, const ir::Operation*& dot,
                 const ir::Operation** transpose, OpSet& ops, OpSet& apart, bool& depends) {
  depends = false;
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || op->parent_block() != block || apart.count(op)) return true;
  if (ops.count(op) || (transpose != nullptr && op == *transpose)) {  // reached before (a value read twice)
    depends = true;
    return true;
  }
  if (is_product(*op)) {
    if (dot != nullptr && dot != op) return false;
    dot = op;
    depends = true;
    return true;
  }
  if (transpose != nullptr && op->id() == ir::OpId::kTranspose && op->result(0)->type().shape() == shape.shape()) {
    // The ops under it are elementwise at its operand's shape, with no
    // other transpose (jax.nn.dot_product_attention scales the product,
    // then transposes).
    OpSet below;
    bool d = false;
    if (!ScoresChain(op->operand(0), op->operand(0)->type(), block, is_product, dot, nullptr, below, apart, d)) {
      return false;
    }
    if (!d) {  // a mask's transpose
      apart.insert(op);
      return true;
    }
    if (*transpose != nullptr && *transpose != op) return false;
    *transpose = op;
    ops.insert(below.begin(), below.end());
    depends = true;
    return true;
  }
  if (ClassifyOp(*op) != OpClass::kFusible || !IsElementwise(*op) || op->num_results() != 1) return true;
  bool any = false;
  for (const ir::Value* o : op->operands()) {
    bool d = false;
    if (!ScoresChain(o, shape, block, is_product, dot, transpose, ops, apart, d)) return false;
    any = any || d;
  }
  if (!any) {
    apart.insert(op);
    return true;
  }
  if (op->result(0)->type().shape() != shape.shape()) return false;  // (its element type may differ: a mask in bf16)
  ops.insert(op);
  depends = true;
  return true;
}

bool LeadingBatch(const std::vector<int64_t>& batching) {
  for (size_t i = 0; i < batching.size(); ++i) {
    if (batching[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

bool MatchSoftmaxBetweenProducts(const ir::Operation& dot2, int p_operand,
                                 const std::function<bool(const ir::Operation&)>& is_scores, bool scores_transposed,
                                 const ValueUsers& users, SoftmaxAttention& a) {
  const ir::Block* block = dot2.parent_block();
  const ir::Value* p = dot2.operand(static_cast<size_t>(p_operand));
  a.values = &dot2;
  // P = E / Y (maybe rounded to a narrower float: the kernels keep the
  // weights in f32 until they are summed), E = exp(S - X).
  if (!UsedOnlyBy(p, {&dot2}, users)) return false;
  const ir::Operation* rounding = DefNamed(p, ir::OpId::kConvert);
  if (rounding != nullptr) {
    a.rounding = rounding;
    p = rounding->operand(0);
    if (!UsedOnlyBy(p, {rounding}, users)) return false;
  }
  const ir::Operation* divide = DefNamed(p, ir::OpId::kDivide);
  if (divide == nullptr || p->type().element() != ir::ElementType::kF32) return false;
  a.e = divide->operand(0);
  a.y = divide->operand(1);
  const ir::Operation* exp = DefNamed(a.e, ir::OpId::kExponential);
  if (exp == nullptr || exp->parent_block() != block) return false;
  const ir::Operation* subtract = DefNamed(exp->operand(0), ir::OpId::kSubtract);
  if (subtract == nullptr || !UsedOnlyBy(exp->operand(0), {exp}, users)) return false;
  a.s = subtract->operand(0);
  a.x = subtract->operand(1);
  if (a.s->type() != p->type() || a.e->type() != p->type()) return false;
  // X from reduce_max(S) alone, Y from reduce_add(E) alone.
  OpSet x_ops, y_ops;
  if (!FromOneReduce(a.x, block, a.max, x_ops) || !FromOneReduce(a.y, block, a.sum, y_ops) || a.max == nullptr ||
      a.sum == nullptr || !FoldsKeys(*a.max, a.s, ir::OpId::kMaximum, -INFINITY) ||
      !FoldsLastDim(*a.sum, a.e, ir::OpId::kAdd, 0.f)) {
    return false;
  }
  // Nothing else reads them: the kernel computes them only for the rows it takes.
  OpSet x_readers = x_ops, y_readers = y_ops;
  x_readers.insert(subtract);
  y_readers.insert(divide);
  // (A splat constant is computed wherever it is read.)
  for (const ir::Operation* op : x_ops) {
    if (op->id() != ir::OpId::kConstant && !UsedOnlyBy(op->result(0), x_readers, users)) return false;
  }
  for (const ir::Operation* op : y_ops) {
    if (op->id() != ir::OpId::kConstant && !UsedOnlyBy(op->result(0), y_readers, users)) return false;
  }
  if (!UsedOnlyBy(a.max->result(0), x_readers, users) || !UsedOnlyBy(a.sum->result(0), y_readers, users) ||
      !UsedOnlyBy(a.e, {divide, a.sum}, users) || !UsedOnlyBy(a.s, {subtract, a.max}, users)) {
    return false;
  }
  // S: elementwise ops of the scores product (through a transpose where allowed).
  OpSet s_ops, apart;
  bool depends = false;
  if (!ScoresChain(a.s, a.s->type(), block, is_scores, a.scores, scores_transposed ? &a.scores_transpose : nullptr,
                   s_ops, apart, depends) ||
      !depends || a.scores == nullptr) {
    return false;
  }
  OpSet s_readers = s_ops;
  s_readers.insert(subtract);
  s_readers.insert(a.max);
  if (a.scores_transpose != nullptr) {
    if (!UsedOnlyBy(a.scores_transpose->result(0), s_readers, users)) return false;
    s_readers.insert(a.scores_transpose);
  }
  if (!UsedOnlyBy(a.scores->result(0), s_readers, users)) return false;
  for (const ir::Operation* op : s_ops) {
    if (!UsedOnlyBy(op->result(0), s_readers, users)) return false;
  }
  a.inside.assign(s_ops.begin(), s_ops.end());
  a.inside.insert(a.inside.end(), x_ops.begin(), x_ops.end());
  a.inside.insert(a.inside.end(), y_ops.begin(), y_ops.end());
  for (const ir::Operation* op : {a.max, a.sum, subtract, exp, divide}) a.inside.push_back(op);
  if (a.rounding != nullptr) a.inside.push_back(a.rounding);
  if (a.scores_transpose != nullptr) a.inside.push_back(a.scores_transpose);
  return true;
}

std::optional<SoftmaxAttention> MatchSoftmaxAttention(const ir::Operation& dot2, const ValueUsers& users) {
  if (!PlanOptions::Current().attention) return std::nullopt;
  if (ClassifyOp(dot2) != OpClass::kGeneratedDot) return std::nullopt;
  const auto* dn2 = dot2.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const ir::Value* p = dot2.operand(0);
  const int64_t rank = p->type().rank();
  if (rank < 1 || DotDimsOf(dot2).m != 1 || !LeadingBatch(dn2->lhs_batching) ||
      dn2->lhs_contracting != std::vector<int64_t>{rank - 1} || dn2->rhs_contracting.size() != 1 ||
      !ir::IsFloat(p->type().element())) {
    return std::nullopt;
  }
  SoftmaxAttention a;
  const auto generated = [](const ir::Operation& op) { return ClassifyOp(op) == OpClass::kGeneratedDot; };
  if (!MatchSoftmaxBetweenProducts(dot2, 0, generated, false, users, a)) return std::nullopt;
  // Scores [batch..., keys] of one query each, the batch dims leading in
  // both products and matching.
  const auto* dn1 = a.scores->attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const DotDims d1 = DotDimsOf(*a.scores), d2 = DotDimsOf(dot2);
  if (d1.m != 1 || d1.rhs_free.size() != 1 || !LeadingBatch(dn1->lhs_batching) ||
      a.scores->result(0)->type().shape() != a.s->type().shape()) {
    return std::nullopt;
  }
  for (size_t i = 0; i + 1 < static_cast<size_t>(rank); ++i) a.batch_shape.push_back(p->type().dim(static_cast<int64_t>(i)));
  a.keys = p->type().dim(rank - 1);
  for (int64_t dim : dn1->lhs_contracting) a.depth_shape.push_back(a.scores->operand(0)->type().dim(dim));
  for (int64_t dim : d2.rhs_free) a.width_shape.push_back(dot2.operand(1)->type().dim(dim));
  if (a.keys < 1 || d1.batch != d2.batch || d2.n < 1 || d1.k < 1 || d1.k > kMaxAttentionDepth) return std::nullopt;
  const int64_t chunk = AttentionChunk(a, kPlannedSmCount);
  if ((a.keys + chunk - 1) / chunk > kMaxAttentionChunks) return std::nullopt;
  return a;
}

ValueUsers UsersInBlock(const ir::Block& block) {
  ValueUsers users;
  for (const auto& op : block.operations()) {
    std::set<const ir::Value*> seen;
    ForEachRead(*op, [&](const ir::Value* v) {
      if (seen.insert(v).second) users[v].push_back(op.get());
    });
  }
  return users;
}

std::optional<SoftmaxAttention> MatchSoftmaxAttention(const ir::Operation& dot2) {
  const ir::Block* block = dot2.parent_block();
  if (block == nullptr) return std::nullopt;
  return MatchSoftmaxAttention(dot2, UsersInBlock(*block));
}

const ir::Value* StoredByAttention(const ir::Operation& dus, const SoftmaxAttention& a) {
  if (!PlanOptions::Current().attention_stores) return nullptr;
  if (dus.id() != ir::OpId::kDynamicUpdateSlice || dus.num_operands() < 2) return nullptr;
  const ir::Value* v = dus.operand(1);
  for (;;) {
    if (v == a.scores->operand(1) || v == a.values->operand(1)) return v;
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || op->num_operands() != 1 || op->parent_block() != dus.parent_block() ||
        op->operand(0)->type().NumElements() != v->type().NumElements()) {
      return nullptr;
    }
    if (op->id() == ir::OpId::kBroadcastInDim) {
      const std::vector<int64_t> dims = ir::verify::I64ArrayAttr(*op, "broadcast_dimensions");
      if (!std::is_sorted(dims.begin(), dims.end()) || std::adjacent_find(dims.begin(), dims.end()) != dims.end()) {
        return nullptr;
      }
    } else if (op->id() != ir::OpId::kReshape) {
      return nullptr;
    }
    v = op->operand(0);
  }
}

bool AttentionEarlyLoadsWanted() { return PlanOptions::Current().attention_early_loads; }

int64_t AttentionChunk(const SoftmaxAttention& a, int sm_count) {
  if (const int chunk = PlanOptions::Current().attention_chunk; chunk > 0) return chunk;
  int64_t batch = 1;
  for (int64_t b : a.batch_shape) batch *= b;
  const int64_t chunks = std::max<int64_t>(1, (kAttentionBlocksPerSm * sm_count + batch - 1) / batch);
  const int64_t chunk = (a.keys + chunks - 1) / chunks;
  return std::min(kMaxAttentionChunk, std::max<int64_t>(8, (chunk + 7) / 8 * 8));
}

}  // namespace hlograph::gpu

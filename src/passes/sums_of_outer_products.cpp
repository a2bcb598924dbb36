#include "passes/sums_of_outer_products.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/dot_dims.h"
#include "ir/fold_body.h"
#include "ir/op_def.h"
#include "ir/verifier.h"
#include "ir/verify/verify_util.h"
#include "passes/op_builder.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

using ir::Operation;
using ir::Value;

bool Named(const Value* v, ir::OpId id) {
  return v->defining_op() != nullptr && v->defining_op()->id() == id;
}

// A reduce of one operand whose body adds its two arguments and whose init
// is zero.
bool IsZeroInitSum(const Operation& op) {
  if (op.id() != ir::OpId::kReduce || op.num_operands() != 2 || op.num_results() != 1) return false;
  const Operation* fold = ir::FoldOfBody(op);
  return fold != nullptr && fold->id() == ir::OpId::kAdd && ir::IsFoldIdentity(ir::OpId::kAdd, op.operand(1));
}

bool Wide(const Value* v) {
  const ir::ElementType e = v->type().element();
  return e == ir::ElementType::kF32 || e == ir::ElementType::kF64;
}

// A dot_general with batch dims whose operands and result all have `v`'s
// element type.
const Operation* BatchedProduct(const Value* v) {
  const Operation* dot = v->defining_op();
  if (dot == nullptr || dot->id() != ir::OpId::kDotGeneral) return nullptr;
  const auto* dims = dot->attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dims == nullptr || dims->lhs_batching.empty()) return nullptr;
  for (const Value* operand : dot->operands()) {
    if (operand->type().element() != v->type().element()) return nullptr;
  }
  return dot;
}

// Follows transposes down from `v`; returns the first value that is not
// one, and `perm` maps each dim of `v` to that value's (v dim i is its dim
// perm[i]).
const Value* BelowTransposes(const Value* v, std::vector<int64_t>& perm) {
  perm.resize(static_cast<size_t>(v->type().rank()));
  std::iota(perm.begin(), perm.end(), 0);
  while (Named(v, ir::OpId::kTranspose)) {
    const std::vector<int64_t> p = ir::verify::I64ArrayAttr(*v->defining_op(), "permutation");
    for (int64_t& d : perm) d = p[static_cast<size_t>(d)];
    v = v->defining_op()->operand(0);
  }
  return v;
}

const Operation* ThroughTransposes(const Value* v, std::vector<int64_t>& perm) {
  return BatchedProduct(BelowTransposes(v, perm));
}

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A reduce like `like` (its init and body) of `v` over `dims`.
Value* Sum(OpBuilder& b, const Operation& like, Value* v, std::vector<int64_t> dims) {
  std::sort(dims.begin(), dims.end());
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < v->type().rank(); ++d) {
    if (!std::count(dims.begin(), dims.end(), d)) kept.push_back(v->type().dim(d));
  }
  std::unique_ptr<Operation> op = b.New(ir::OpId::kReduce);
  op->AddOperand(v);
  op->AddOperand(const_cast<Value*>(like.operand(1)));
  op->SetAttr("dimensions", ir::MakeI64Array(dims));
  op->AddResult(ir::Type::Tensor(v->type().element(), kept));
  ir::ValueMap map;
  ir::CloneRegion(like.region(0), *op->AddRegion(), map);
  return b.Insert(std::move(op))->result(0);
}

// sum_b s[b] O[b, ...] as one product contracting the batch (see the
// header); null when `reduce` is not that.
Value* WeightedSumOverTheBatch(ir::Block& block, size_t at, const Operation& reduce) {
  const Value* x = reduce.operand(0);
  if (!Wide(x)) return nullptr;
  // Transposes, perhaps a multiply by weights s (broadcast along the
  // product's batch dims only), transposes, the product.
  std::vector<int64_t> perm, below;  // x's dims as the multiply's; the multiply's as the product's
  const Value* mid = BelowTransposes(x, perm);
  const Value* weights = nullptr;
  if (Named(mid, ir::OpId::kMultiply)) {
    const Operation& mul = *mid->defining_op();
    for (int side = 0; side < 2 && weights == nullptr; ++side) {
      if (Named(mul.operand(side), ir::OpId::kBroadcastInDim)) {
        weights = mul.operand(side);
        mid = mul.operand(1 - side);
      }
    }
    if (weights == nullptr) return nullptr;
  }
  const Operation* dot = ThroughTransposes(mid, below);
  if (dot == nullptr) return nullptr;
  for (int64_t& d : perm) d = below[static_cast<size_t>(d)];
  const auto& dn = *dot->attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const int64_t nb = static_cast<int64_t>(dn.lhs_batching.size());
  // The reduced dims must be the product's batch dims, all of them.
  const std::vector<int64_t> reduced = ir::verify::I64ArrayAttr(reduce, "dimensions");
  if (static_cast<int64_t>(reduced.size()) != nb) return nullptr;
  for (int64_t d : reduced) {
    if (perm[static_cast<size_t>(d)] >= nb) return nullptr;
  }
  // The weights vary along batch dims only: s[b] as a vector per batch dim.
  std::vector<int64_t> weight_batch_dims;  // the product's batch dim of each of s's dims that is not 1
  std::vector<int64_t> weight_shape;
  Value* s = nullptr;
  if (weights != nullptr) {
    const Operation& bcast = *weights->defining_op();
    s = const_cast<Value*>(bcast.operand(0));
    const std::vector<int64_t> bdims = ir::verify::I64ArrayAttr(bcast, "broadcast_dimensions");
    for (size_t k = 0; k < bdims.size(); ++k) {
      if (s->type().dim(static_cast<int64_t>(k)) == 1) continue;
      const int64_t product_dim = below[static_cast<size_t>(bdims[k])];
      if (product_dim >= nb) return nullptr;
      weight_batch_dims.push_back(product_dim);
      weight_shape.push_back(s->type().dim(static_cast<int64_t>(k)));
    }
  }
  OpBuilder b(block, at, reduce);
  Value* lhs = const_cast<Value*>(dot->operand(0));
  Value* rhs = const_cast<Value*>(dot->operand(1));
  if (s != nullptr) {
    // Onto the smaller operand, along its batch dims.
    const bool onto_lhs = lhs->type().NumElements() <= rhs->type().NumElements();
    Value*& side = onto_lhs ? lhs : rhs;
    const std::vector<int64_t>& side_batch = onto_lhs ? dn.lhs_batching : dn.rhs_batching;
    Value* vector = s;
    if (s->type().shape() != weight_shape) vector = b.Add(ir::OpId::kReshape, {s}, ir::Type::Tensor(s->type().element(), weight_shape));
    std::vector<int64_t> onto;
    for (int64_t d : weight_batch_dims) onto.push_back(side_batch[static_cast<size_t>(d)]);
    side = b.Binary(ir::OpId::kMultiply, side, b.BroadcastInDim(vector, side->type(), onto));
  }
  ir::DotDimsAttr dims;
  dims.lhs_contracting = Concat(dn.lhs_batching, dn.lhs_contracting);
  dims.rhs_contracting = Concat(dn.rhs_batching, dn.rhs_contracting);
  // The product's free dims, in its order, which the reduce keeps in v's.
  std::vector<int64_t> product_shape;
  for (int64_t d = nb; d < dot->result(0)->type().rank(); ++d) product_shape.push_back(dot->result(0)->type().dim(d));
  std::unique_ptr<Operation> product = b.New(ir::OpId::kDotGeneral);
  product->AddOperand(lhs);
  product->AddOperand(rhs);
  product->SetAttr("dot_dimension_numbers", ir::Attribute::Make(dims));
  if (const ir::Attribute precision = dot->attr("precision_config")) product->SetAttr("precision_config", precision);
  product->AddResult(ir::Type::Tensor(x->type().element(), product_shape));
  if (!ir::VerifyOperation(*product).ok()) return nullptr;
  Value* result = b.Insert(std::move(product))->result(0);
  std::vector<int64_t> order;  // the reduce's result dims, as the new product's
  for (size_t i = 0; i < perm.size(); ++i) {
    if (!std::count(reduced.begin(), reduced.end(), static_cast<int64_t>(i))) order.push_back(perm[i] - nb);
  }
  std::vector<int64_t> identity(order.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (order != identity) {
    result = b.Add(ir::OpId::kTranspose, {result}, reduce.result(0)->type(),
                   {{"permutation", ir::MakeI64Array(order)}});
  }
  return result;
}

// sum over all but the batch of O[b, ...]^2, for a product of one-element
// contraction, as the product of its factors' sums of squares; null when
// `reduce` is not that.
Value* SumOfSquaresPerExample(ir::Block& block, size_t at, const Operation& reduce) {
  const Value* x = reduce.operand(0);
  // A reshape that keeps the leading (batch) dims, flattening the rest.
  std::vector<int64_t> lead;
  if (Named(x, ir::OpId::kReshape)) {
    lead = x->type().shape();
    x = x->defining_op()->operand(0);
  }
  const bool square = Named(x, ir::OpId::kChloSquare) ||
                      (Named(x, ir::OpId::kMultiply) && x->defining_op()->operand(0) == x->defining_op()->operand(1));
  if (!square) return nullptr;
  const Value* y = x->defining_op()->operand(0);
  std::vector<int64_t> perm;
  const Operation* dot = ThroughTransposes(y, perm);
  if (dot == nullptr || !Wide(y)) return nullptr;
  const auto& dn = *dot->attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const int64_t nb = static_cast<int64_t>(dn.lhs_batching.size());
  for (int64_t d = 0; d < nb; ++d) {
    if (perm[static_cast<size_t>(d)] != d) return nullptr;  // the batch stays leading, in order
  }
  const ir::Type& lhs_type = dot->operand(0)->type();
  for (int64_t d : dn.lhs_contracting) {
    if (lhs_type.dim(d) != 1) return nullptr;  // one element: each O element is one product
  }
  const std::vector<int64_t> batch_shape(y->type().shape().begin(), y->type().shape().begin() + nb);
  if (!lead.empty()) {
    if (static_cast<int64_t>(lead.size()) < nb || !std::equal(batch_shape.begin(), batch_shape.end(), lead.begin())) {
      return nullptr;
    }
  }
  // Reduced: every dim after the batch.
  std::vector<int64_t> reduced = ir::verify::I64ArrayAttr(reduce, "dimensions");
  std::sort(reduced.begin(), reduced.end());
  std::vector<int64_t> rest(static_cast<size_t>(reduce.operand(0)->type().rank() - nb));
  std::iota(rest.begin(), rest.end(), nb);
  if (reduced != rest || reduce.result(0)->type().shape() != batch_shape) return nullptr;
  OpBuilder b(block, at, reduce);
  // Each factor's sum of squares over its non-batch dims, in batch order.
  const auto factor = [&](int side) {
    Value* f = const_cast<Value*>(dot->operand(side));
    const std::vector<int64_t>& batch = side == 0 ? dn.lhs_batching : dn.rhs_batching;
    std::vector<int64_t> others;
    for (int64_t d = 0; d < f->type().rank(); ++d) {
      if (!std::count(batch.begin(), batch.end(), d)) others.push_back(d);
    }
    Value* sum = Sum(b, reduce, b.Binary(ir::OpId::kMultiply, f, f), others);
    // The sum's dims are the batch dims in f's order; the product's are in dn's.
    std::vector<int64_t> sorted = batch;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> order;
    for (int64_t d : batch) order.push_back(std::find(sorted.begin(), sorted.end(), d) - sorted.begin());
    std::vector<int64_t> identity(order.size());
    std::iota(identity.begin(), identity.end(), 0);
    if (order == identity) return sum;
    return b.Add(ir::OpId::kTranspose, {sum}, reduce.result(0)->type(), {{"permutation", ir::MakeI64Array(order)}});
  };
  Value* lhs = factor(0);
  Value* rhs = factor(1);
  return b.Binary(ir::OpId::kMultiply, lhs, rhs);
}

void CountUses(const ir::Block& block, std::unordered_map<const Value*, int>& uses) {
  for (const auto& op : block.operations()) {
    for (const Value* v : op->operands()) ++uses[v];
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) CountUses(*b, uses);
    }
  }
}

// Removes the ops of `block` and the blocks within whose results nothing
// in `root` reads, of the kinds the rewrites leave behind (the products,
// transposes, squares, reshapes); returns whether it removed any.
bool RemoveUnreadOnce(ir::Block& block, ir::Block& root, std::unordered_map<const Value*, int>& uses) {
  using ir::OpId;
  static constexpr OpId kPure[] = {OpId::kDotGeneral, OpId::kTranspose, OpId::kReshape,
                                   OpId::kChloSquare, OpId::kMultiply,  OpId::kBroadcastInDim};
  bool removed = false;
  for (size_t i = block.operations().size(); i-- > 0;) {
    Operation* op = block.operations()[i].get();
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) removed = RemoveUnreadOnce(*b, root, uses) || removed;
    }
    if (std::find(std::begin(kPure), std::end(kPure), op->id()) == std::end(kPure)) continue;
    if (op->num_results() != 1 || uses[op->result(0)] > 0) continue;
    for (const Value* v : op->operands()) --uses[v];
    block.Remove(op);
    removed = true;
  }
  return removed;
}

void RemoveUnread(ir::Block& root) {
  std::unordered_map<const Value*, int> uses;
  CountUses(root, uses);
  while (RemoveUnreadOnce(root, root, uses)) {
  }
}

// The reduce `op` (at position `at` of `block`) as a product or two
// reductions, or null. A rewrite that gives up after inserting leaves its
// ops unread (removed with the rest).
Value* Rewrite(ir::Block& block, size_t at, const Operation& op) {
  if (!IsZeroInitSum(op)) return nullptr;
  Value* replacement = WeightedSumOverTheBatch(block, at, op);
  if (replacement == nullptr) replacement = SumOfSquaresPerExample(block, at, op);
  return replacement != nullptr && replacement->type() == op.result(0)->type() ? replacement : nullptr;
}

}  // namespace

int SumOuterProductsAsProducts(ir::Module& module) {
  int rewritten = 0;
  ForEachFunctionBody(module, [&](ir::Block& body) {
    const size_t ops = body.operations().size();
    const int here = RewriteOps(body, body, Rewrite);
    if (here > 0 || body.operations().size() != ops) RemoveUnread(body);
    rewritten += here;
  });
  return rewritten;
}

}  // namespace hlograph::passes

#include "passes/reuse_finer_reductions.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/fold_body.h"
#include "ir/op_def.h"
#include "ir/verifier.h"
#include "ir/verify/verify_util.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

using ir::OpId;

// No fold: OpId::kNumOps.
constexpr OpId kNoFold = OpId::kNumOps;

// The fold of a reduce body `(a, b) -> op(a, b)` this pass may rewrite.
OpId BodyOp(const ir::Operation& reduce) {
  const ir::Operation* fold = ir::FoldOfBody(reduce);
  if (fold == nullptr) return kNoFold;
  static constexpr OpId kFolds[] = {OpId::kAdd, OpId::kMultiply, OpId::kMaximum, OpId::kMinimum, OpId::kAnd, OpId::kOr};
  const bool known = std::find(std::begin(kFolds), std::end(kFolds), fold->id()) != std::end(kFolds);
  return known ? fold->id() : kNoFold;
}

bool ExactOrWide(OpId fold, ir::ElementType t) {
  if (fold == OpId::kMaximum || fold == OpId::kMinimum) return !ir::IsComplex(t);
  return t == ir::ElementType::kF32 || t == ir::ElementType::kF64 || ir::IsInteger(t) || ir::IsBool(t);
}

// A single-operand reduce this pass may rewrite or read: its fold, or kNoFold.
OpId Candidate(const ir::Operation& op) {
  if (op.id() != OpId::kReduce || op.num_operands() != 2 || op.num_results() != 1) return kNoFold;
  const OpId fold = BodyOp(op);
  if (fold == kNoFold || !ExactOrWide(fold, op.operand(0)->type().element()) ||
      !ir::IsFoldIdentity(fold, op.operand(1))) {
    return kNoFold;
  }
  return fold;
}

// reduce(finer's result) over the dims of `coarse` that `finer` keeps,
// renumbered in finer's result; coarse's init and body.
std::unique_ptr<ir::Operation> ReduceOfFiner(const ir::Operation& coarse, const ir::Operation& finer,
                                             const std::vector<int64_t>& coarse_dims,
                                             const std::vector<int64_t>& finer_dims) {
  std::vector<int64_t> rest;
  for (int64_t d : coarse_dims) {
    if (std::count(finer_dims.begin(), finer_dims.end(), d)) continue;
    const int64_t below = std::count_if(finer_dims.begin(), finer_dims.end(), [&](int64_t f) { return f < d; });
    rest.push_back(d - below);
  }
  std::sort(rest.begin(), rest.end());
  auto op = std::make_unique<ir::Operation>(ir::LookupOp(ir::OpId::kReduce), coarse.pos());
  op->set_loc(coarse.loc());
  op->AddOperand(const_cast<ir::Value*>(finer.result(0)));
  op->AddOperand(const_cast<ir::Value*>(coarse.operand(1)));
  op->SetAttr("dimensions", ir::MakeI64Array(rest));
  op->AddResult(coarse.result(0)->type())->set_name_hint(coarse.result(0)->name_hint());
  ir::ValueMap map;
  ir::CloneRegion(coarse.region(0), *op->AddRegion(), map);
  if (!ir::VerifyOperation(*op).ok()) return nullptr;
  return op;
}

// A reduce of the block seen so far: what it computes from its operand.
struct Reduction {
  const ir::Operation* op;  // its result holds the reduction (a rewritten one reads a finer result)
  OpId fold;
  std::vector<int64_t> dims;  // of the operand the reductions are listed under
};

int RewriteIn(ir::Block& block, ir::Block& root) {
  int rewritten = 0;
  std::unordered_map<const ir::Value*, std::vector<Reduction>> earlier;  // by operand
  for (size_t i = 0; i < block.operations().size(); ++i) {
    ir::Operation* coarse = block.operations()[i].get();
    for (const auto& region : coarse->regions()) {
      for (const auto& b : region->blocks()) rewritten += RewriteIn(*b, root);
    }
    const OpId fold = Candidate(*coarse);
    if (fold == kNoFold) continue;
    const ir::Value* x = coarse->operand(0);
    const std::vector<int64_t> coarse_dims = ir::verify::I64ArrayAttr(*coarse, "dimensions");
    // The finest earlier reduction of the same operand over a strict subset
    // of the dims, with the same fold: the fewest elements left to fold.
    const Reduction* best = nullptr;
    for (const Reduction& finer : earlier[x]) {
      const bool subset = finer.fold == fold && finer.dims.size() < coarse_dims.size() &&
                          finer.op->result(0)->type().element() == coarse->result(0)->type().element() &&
                          std::all_of(finer.dims.begin(), finer.dims.end(), [&](int64_t d) {
                            return std::count(coarse_dims.begin(), coarse_dims.end(), d) > 0;
                          });
      if (subset && (best == nullptr || finer.dims.size() > best->dims.size())) best = &finer;
    }
    std::unique_ptr<ir::Operation> replacement =
        best ? ReduceOfFiner(*coarse, *best->op, coarse_dims, best->dims) : nullptr;
    if (!replacement) {
      earlier[x].push_back({coarse, fold, coarse_dims});
      continue;
    }
    ir::Operation* placed = block.Insert(i, std::move(replacement));
    ReplaceUses(root, coarse->result(0), placed->result(0));
    block.Remove(coarse);
    // What it computes is still x reduced over coarse_dims: a coarser one
    // after it may start from it.
    earlier[x].push_back({placed, fold, coarse_dims});
    ++rewritten;
  }
  return rewritten;
}

}  // namespace

int ReuseFinerReductions(ir::Module& module) {
  int rewritten = 0;
  ForEachFunctionBody(module, [&](ir::Block& body) { rewritten += RewriteIn(body, body); });
  return rewritten;
}

}  // namespace hlograph::passes

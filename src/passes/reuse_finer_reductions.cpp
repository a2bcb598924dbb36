#include "passes/reuse_finer_reductions.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/op_def.h"
#include "ir/verifier.h"
#include "ir/verify/verify_util.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

// The one op of a reduce body `(a, b) -> op(a, b)` (either order), or "".
std::string BodyOp(const ir::Operation& reduce) {
  if (reduce.num_regions() != 1 || reduce.region(0).empty()) return "";
  const ir::Block& body = reduce.region(0).front();
  if (body.num_arguments() != 2 || body.operations().size() != 2) return "";
  const ir::Operation& op = *body.operations()[0];
  const ir::Operation& ret = *body.operations()[1];
  if (ret.num_operands() != 1 || ret.operand(0) != op.result(0) || op.num_operands() != 2) return "";
  const bool args = (op.operand(0) == body.argument(0) && op.operand(1) == body.argument(1)) ||
                    (op.operand(0) == body.argument(1) && op.operand(1) == body.argument(0));
  static const char* const kFolds[] = {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum",
                                       "stablehlo.minimum", "stablehlo.and", "stablehlo.or"};
  const bool fold = std::find(std::begin(kFolds), std::end(kFolds), op.name()) != std::end(kFolds);
  return args && fold ? op.name() : "";
}

// The bytes of `fold`'s identity as a `t` (little-endian), or empty.
std::vector<uint8_t> IdentityBytes(const std::string& fold, ir::ElementType t) {
  const int bytes = ir::StorageBytes(t);
  auto of = [&](uint64_t bits) {
    std::vector<uint8_t> out(static_cast<size_t>(bytes));
    for (int i = 0; i < bytes; ++i) out[static_cast<size_t>(i)] = static_cast<uint8_t>(bits >> (8 * i));
    return out;
  };
  const bool is_signed = ir::IsInteger(t) && !ir::IsUnsignedInteger(t);
  const uint64_t top = bytes >= 8 ? uint64_t{1} << 63 : uint64_t{1} << (8 * bytes - 1);
  const uint64_t ones = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
  using E = ir::ElementType;
  if (fold == "stablehlo.add" || fold == "stablehlo.or") return of(0);
  if (fold == "stablehlo.and") return of(ir::IsBool(t) ? 1 : ones);
  if (fold == "stablehlo.multiply") {
    if (t == E::kF32) return of(0x3f800000u);
    if (t == E::kF64) return of(0x3ff0000000000000ull);
    return ir::IsInteger(t) ? of(1) : std::vector<uint8_t>{};
  }
  const bool max = fold == "stablehlo.maximum";
  if (fold != "stablehlo.maximum" && fold != "stablehlo.minimum") return {};
  switch (t) {  // max starts from the lowest value, min from the highest
    case E::kF32: return of(max ? 0xff800000u : 0x7f800000u);
    case E::kF64: return of(max ? 0xfff0000000000000ull : 0x7ff0000000000000ull);
    case E::kBF16: return of(max ? 0xff80u : 0x7f80u);
    case E::kF16: return of(max ? 0xfc00u : 0x7c00u);
    default: break;
  }
  if (ir::IsBool(t)) return of(max ? 0 : 1);
  if (!ir::IsInteger(t)) return {};
  if (is_signed) return of(max ? top : ones ^ top);
  return of(max ? 0 : ones);
}

// Whether `init` is a constant holding the identity of `fold`, so that
// folding it in twice (once per stage) changes nothing.
bool IsIdentity(const std::string& fold, const ir::Value* init) {
  const ir::Operation* def = init->defining_op();
  if (def == nullptr || def->name() != "stablehlo.constant" || init->type().NumElements() != 1) return false;
  const auto* value = def->attr("value").as<ir::DenseElementsAttr>();
  const std::vector<uint8_t> identity = IdentityBytes(fold, init->type().element());
  return value != nullptr && !identity.empty() && value->bytes == identity;
}

bool ExactOrWide(const std::string& fold, ir::ElementType t) {
  if (fold == "stablehlo.maximum" || fold == "stablehlo.minimum") return !ir::IsComplex(t);
  return t == ir::ElementType::kF32 || t == ir::ElementType::kF64 || ir::IsInteger(t) || ir::IsBool(t);
}

// A single-operand reduce this pass may rewrite or read: its fold, or "".
std::string Candidate(const ir::Operation& op) {
  if (op.name() != "stablehlo.reduce" || op.num_operands() != 2 || op.num_results() != 1) return "";
  const std::string fold = BodyOp(op);
  if (fold.empty() || !ExactOrWide(fold, op.operand(0)->type().element()) || !IsIdentity(fold, op.operand(1))) {
    return "";
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
  auto op = std::make_unique<ir::Operation>(ir::LookupOp("stablehlo.reduce"), coarse.pos());
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
  std::string fold;
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
    const std::string fold = Candidate(*coarse);
    if (fold.empty()) continue;
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

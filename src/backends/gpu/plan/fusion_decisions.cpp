// A value produced by a fusible op is materialised when
//  - something other than a kernel reads it (a GEMM, a loop, a return, an op
//    whose nested region reads it);
//  - it would be computed inside several kernels and it is a concatenate
//    or pad (a select per piece, chains of them multiply);
//  - it is expensive and the kernels reading it would evaluate it more
//    often than it has elements, over a budget (a transcendental feeding a
//    large broadcast would be recomputed per element), or it loops per
//    element (reduce_window);
// but never a single element: recomputing it costs less than a kernel.
// Reductions are always materialised; their operands are computed inside
// the reduction kernel.
#include "backends/gpu/plan/fusion_decisions.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/epilogue_patterns.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/row_fusion.h"
#include "backends/gpu/plan/trip_count.h"
#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

// Evaluations of an expensive value, in all the kernels that would compute
// it inline, below which it is recomputed rather than stored (about what a
// kernel launch of its own costs in SFU time spread over the device).
constexpr int64_t kRecomputeBudget = int64_t{1} << 20;

// The most elements a product's blocks each fold into one result of a
// reduce they compute in their prologue (a layer norm's row, a row of
// attention scores).
constexpr int64_t kMaxPrologueReduceElements = 16384;

class Decider {
 public:
  Decider(const std::function<bool(const ir::Value*)>& has_buffer,
          const std::map<const ir::Operation*, BufferId>& update_in_place, FusionDecisions& d)
      : has_buffer_(has_buffer), update_in_place_(update_in_place), d_(d) {}

  // Walks the ops backwards so users are decided first.
  Status Decide(const ir::Block& block) {
    std::unordered_map<const ir::Value*, std::vector<const ir::Operation*>> users;
    std::unordered_map<const ir::Operation*, size_t> position;
    for (size_t i = 0; i < block.operations().size(); ++i) {
      const ir::Operation* op = block.operations()[i].get();
      position[op] = i;
      std::set<const ir::Value*> seen;
      ForEachRead(*op, [&](const ir::Value* v) {
        if (seen.insert(v).second) users[v].push_back(op);
      });
    }
    // A sort read only through slices of its first k positions writes them
    // itself (plan/sort_lowering.h): the slices are no kernels.
    for (const auto& op : block.operations()) {
      if (ClassifyOp(*op) != OpClass::kSort) continue;
      if (auto slices = MatchSortReadThroughSlices(*op, users)) {
        for (const auto& of_result : slices->slices) {
          for (const ir::Operation* slice : of_result) {
            d_.in_sort.insert(slice);
            d_.materialized.insert(slice->result(0));
          }
        }
        d_.sort_slices[op.get()] = std::move(*slices);
      }
    }
    // Attention as one kernel, in its values product's.
    for (const auto& op : block.operations()) {
      if (ClassifyOp(*op) != OpClass::kGeneratedDot) continue;
      if (auto a = MatchSoftmaxAttention(*op, users); a && !d_.in_attention.count(a->scores)) {
        for (const ir::Operation* part : {a->scores, a->max, a->sum}) d_.in_attention[part] = op.get();
        d_.attention[op.get()] = std::move(*a);
      }
    }
    // Attention of many queries as one kernel, in its values product's
    // (plan/flash_attention.h). It copies tiles of the queries, keys and
    // values from memory: values computed inline so far get kernels of
    // their own (what they are reshapes of: the same bytes).
    for (const auto& op : block.operations()) {
      if (ClassifyOp(*op) != OpClass::kDot && !IsTileProduct(*op)) continue;
      if (auto a = MatchFlashAttention(*op, users); a && !d_.in_attention.count(a->softmax.scores)) {
        const SoftmaxAttention& sm = a->softmax;
        for (const ir::Operation* part : {sm.scores, sm.max, sm.sum}) d_.in_attention[part] = op.get();
        for (const ir::Value* v : {sm.scores->operand(0), sm.scores->operand(1), op->operand(1 - a->p_operand)}) {
          d_.materialized.insert(ReshapedFrom(v));
        }
        // It stores through the transposes after it (the last one's
        // kernel is the attention's).
        const std::vector<const ir::Operation*> moves = FlashOutputMoves(*op, users);
        if (!moves.empty()) {
          for (size_t i = 0; i + 1 < moves.size(); ++i) d_.in_attention[moves[i]] = op.get();
          d_.flash_exit[moves.back()] = op.get();
        }
        d_.flash[op.get()] = std::move(*a);
      }
    }
    // A loop state updated in place with the keys or values an attention
    // kernel loads (a scan's stacked KV caches) is written by that kernel
    // as it loads them: no kernel of its own reading them all again, and
    // nothing for the next layer's kernels to wait for.
    for (const auto& op : block.operations()) {
      if (!update_in_place_.count(op.get()) || !FromLoopStateAlone(*op, 2)) continue;
      for (const auto& [dot, a] : d_.attention) {
        if (dot->parent_block() == &block && StoredByAttention(*op, a) != nullptr) {
          d_.in_attention[op.get()] = dot;
          d_.attention_stores[dot].push_back(op.get());
          break;
        }
      }
    }
    // A generated product's epilogue ends in a stored value; the product
    // itself is computed in that value's kernel.
    for (const auto& op : block.operations()) {
      if (ClassifyOp(*op) != OpClass::kGeneratedDot || d_.in_attention.count(op.get()) || d_.flash.count(op.get())) {
        continue;
      }
      const DotEpilogue epilogue = FindDotEpilogue(*op);
      if (epilogue.exit == nullptr || d_.exit_dot.count(epilogue.exit->defining_op())) continue;
      d_.materialized.insert(epilogue.exit);
      d_.dot_exit[op.get()] = epilogue.exit->defining_op();
      d_.exit_dot[epilogue.exit->defining_op()] = op.get();
    }
    // roots[v]: the kernels (named by their root op) that compute v inline.
    std::unordered_map<const ir::Value*, std::set<const ir::Operation*>> roots;
    std::unordered_map<const ir::Operation*, int64_t> domain;  // elements a root's kernel iterates over
    const auto& ops = block.operations();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      const ir::Operation& op = **it;
      const OpClass cls = ClassifyOp(op);
      if (d_.in_sort.count(&op)) continue;
      if (const auto owner = d_.in_attention.find(&op); owner != d_.in_attention.end()) {
        roots[op.result(0)] = {owner->second};
        continue;
      }
      if (const auto a = d_.attention.find(&op); a != d_.attention.end()) {
        domain[&op] = op.operand(0)->type().NumElements();  // each of P's elements once
        if (!d_.dot_exit.count(&op)) d_.materialized.insert(op.result(0));
        continue;
      }
      if (const auto flash = d_.flash.find(&op); flash != d_.flash.end()) {
        domain[&op] = op.operand(static_cast<size_t>(flash->second.p_operand))->type().NumElements();
        if (!d_.StoresThroughMoves(op)) d_.materialized.insert(op.result(0));
        continue;
      }
      if (d_.flash_exit.count(&op)) {
        d_.materialized.insert(op.result(0));
        continue;
      }
      if (cls == OpClass::kReduce) {
        if (const ir::Operation* dot = ProductComputingInItsPrologue(op, users, roots)) {
          d_.prologue_reduces[&op] = dot;
          roots[op.result(0)] = {dot};
          continue;
        }
        if (const ir::Operation* root = RowKernelComputing(op, users, roots, position)) {
          d_.row_reduces[&op] = root;
          d_.row_roots.insert(root);
          roots[op.result(0)] = {root};
          continue;
        }
      }
      if (cls == OpClass::kReduce || cls == OpClass::kSort || cls == OpClass::kScatter || cls == OpClass::kRng ||
          cls == OpClass::kScan) {
        domain[&op] = op.operand(0)->type().NumElements();
        for (const auto& r : op.results()) d_.materialized.insert(r.get());
        continue;
      }
      if (cls == OpClass::kGeneratedDot) {
        // A block staging its lhs computes each lhs element once per tile
        // (the rhs's are read once in all); otherwise every lane computes
        // its rows' lhs in the inner loop, and an expensive operand is
        // stored (a softmax recomputed by every lane of a product cost more
        // than its own kernel: docs/PERF.md).
        const DotTiling t = PlanDotTiling(op, kPlannedSmCount);
        domain[&op] = t.lanes == DotTiling::Lanes::kTensorTiles ? t.operand_evaluations()
                      : t.stage_lhs ? std::max(t.tiles * t.dims.m, t.dims.batch * t.dims.n) * t.dims.k
                                    : std::numeric_limits<int64_t>::max();
        if (!d_.dot_exit.count(&op)) d_.materialized.insert(op.result(0));
        continue;
      }
      if (cls == OpClass::kConvolution || cls == OpClass::kDirectDot || cls == OpClass::kFft) {
        // Each operand element is read by many outputs: an expensive
        // producer is stored rather than recomputed per product.
        domain[&op] = std::numeric_limits<int64_t>::max();
        d_.materialized.insert(op.result(0));
        continue;
      }
      if (cls != OpClass::kFusible || (op.id() == ir::OpId::kConstant && !IsSplatConstant(op))) continue;
      const ir::Value* v = op.result(0);
      bool must = false;
      std::set<const ir::Operation*> mine;
      for (const ir::Operation* user : users[v]) {
        const OpClass ucls = ClassifyOp(*user);
        if (const auto prologue = d_.prologue_reduces.find(user); prologue != d_.prologue_reduces.end()) {
          mine.insert(prologue->second);
        } else if (const auto row = d_.row_reduces.find(user); row != d_.row_reduces.end()) {
          mine.insert(row->second);
        } else if (const auto owner = d_.in_attention.find(user); owner != d_.in_attention.end()) {
          mine.insert(owner->second);
        } else if (d_.flash.count(user)) {
          mine.insert(user);
        } else if (ucls == OpClass::kReduce || ucls == OpClass::kSort || ucls == OpClass::kScatter ||
            ucls == OpClass::kScan || ucls == OpClass::kConvolution || ucls == OpClass::kDirectDot ||
            ucls == OpClass::kRng || ucls == OpClass::kFft ||
            ucls == OpClass::kGeneratedDot) {
          mine.insert(user);
        } else if (ucls == OpClass::kCudnnConvolution && !CudnnConvolutionReads(*user, v)) {
          // Backward data reads the filter before its reversal, not this.
        } else if (ucls == OpClass::kFusible && user->parent_block() == &block) {
          const ir::Value* u = user->result(0);
          if (d_.materialized.count(u)) {
            mine.insert(user);
          } else {
            mine.insert(roots[u].begin(), roots[u].end());
          }
        } else if (!OnlyOverwrittenBy(*user, v)) {
          must = true;
        }
      }
      if (mine.empty() && !must) continue;  // dead
      // A single element (a mean, a norm's scale) costs less to recompute
      // wherever it is read than a kernel launch of its own.
      const bool scalar = v->type().NumElements() <= 1;
      bool materialize = must || (!scalar && mine.size() > 1 && !IsCheapToRepeat(op));
      if (!materialize && !scalar && IsExpensive(op)) {
        // Evaluated more often than it has elements: stored, unless all
        // those evaluations together cost less than a kernel of its own
        // (a softmax's exponentials, read by the sum and by the division,
        // are recomputed in both).
        int64_t evaluations = 0;
        for (const ir::Operation* root : mine) {
          const int64_t d = domain.count(root) ? domain[root] : root->result(0)->type().NumElements();
          evaluations = evaluations > std::numeric_limits<int64_t>::max() - d ? std::numeric_limits<int64_t>::max()
                                                                               : evaluations + d;
        }
        const bool loops_per_element = !IsElementwise(op);  // reduce_window, select_and_scatter
        materialize = evaluations > v->type().NumElements() &&
                      (loops_per_element || (evaluations > kRecomputeBudget && !RecomputingMovesFewerBytes(op, evaluations)));
      }
      if (materialize) {
        d_.materialized.insert(v);
        domain[&op] = v->type().NumElements();
      } else {
        roots[v] = std::move(mine);
      }
    }
    return Status::Ok();
  }

  // The generated product that computes `reduce` itself, its blocks
  // reducing together before they stage their lhs (a layer norm's mean and
  // variance; with HLOGRAPH_GPU_PROLOGUE_REDUCE=all also one value per
  // batch element, a softmax's max and sum; =0: none), or null: the reduce
  // must be a single-operand f32 fold of at most kMaxPrologueReduceElements
  // per result, read only by that product's lhs through values computed
  // inline, and the product must stage its lhs. Each block then repeats
  // the reduction, but the chain of kernels is shorter by one launch
  // (docs/PERF.md, "prologue reductions").
  const ir::Operation* ProductComputingInItsPrologue(
      const ir::Operation& reduce, std::unordered_map<const ir::Value*, std::vector<const ir::Operation*>>& users,
      std::unordered_map<const ir::Value*, std::set<const ir::Operation*>>& roots) const {
    if (reduce.id() != ir::OpId::kReduce || reduce.num_operands() != 2 || reduce.num_results() != 1) return nullptr;
    const ir::Type& result = reduce.result(0)->type();
    // Per batch element only when asked: a softmax's max and sum in an
    // attention product measured slower than their own two kernels
    // (docs/PERF.md).
    const std::string& setting = PlanOptions::Current().prologue_reduce;
    if (setting == "0" || (setting != "all" && result.NumElements() != 1)) return nullptr;
    if (result.element() != ir::ElementType::kF32 || result.NumElements() < 1 ||
        reduce.operand(0)->type().NumElements() / result.NumElements() > kMaxPrologueReduceElements) {
      return nullptr;
    }
    std::set<const ir::Operation*> readers;
    for (const ir::Operation* user : users[reduce.result(0)]) {
      const OpClass ucls = ClassifyOp(*user);
      if (ucls == OpClass::kGeneratedDot) {
        readers.insert(user);
      } else if (ucls == OpClass::kFusible && user->parent_block() == reduce.parent_block() &&
                 !d_.materialized.count(user->result(0)) && roots.count(user->result(0))) {
        readers.insert(roots[user->result(0)].begin(), roots[user->result(0)].end());
      } else {
        return nullptr;
      }
    }
    if (readers.size() != 1 || ClassifyOp(**readers.begin()) != OpClass::kGeneratedDot) return nullptr;
    const ir::Operation* dot = *readers.begin();
    const DotTiling tiling = PlanDotTiling(*dot, kPlannedSmCount);
    if (tiling.lanes != DotTiling::Lanes::kOverN || !tiling.stage_lhs) return nullptr;
    // One value for the whole product, or one per batch element (a
    // softmax's max and sum per head, for attention's second product).
    std::vector<int64_t> batch;
    const auto* dn = dot->attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
    for (int64_t d : dn->lhs_batching) batch.push_back(dot->operand(0)->type().dim(d));
    if (result.NumElements() != 1 && result.shape() != batch) return nullptr;
    // Not through the rhs: the kernel loads it before anything else.
    if (!InputsReadFor(dot->operand(1), {reduce.result(0)}).empty()) return nullptr;
    return dot;
  }

  // The loop kernel that computes `reduce` as a row reduction
  // (plan/row_fusion.h), or null: only that kernel reads the reduce
  // (through values it computes inline, or other row reductions of it),
  // its result is shaped like the reduce's operand, the shape passes the
  // cost model, and every read is at the kernel's row.
  // HLOGRAPH_GPU_ROW_KERNELS=0 keeps the separate kernels.
  const ir::Operation* RowKernelComputing(
      const ir::Operation& reduce, std::unordered_map<const ir::Value*, std::vector<const ir::Operation*>>& users,
      std::unordered_map<const ir::Value*, std::set<const ir::Operation*>>& roots,
      const std::unordered_map<const ir::Operation*, size_t>& position) const {
    if (!PlanOptions::Current().row_kernels) return nullptr;
    const std::optional<RowShape> shape = RowReductionShape(reduce);
    if (!shape || !RowKernelWorthIt(*shape)) return nullptr;
    std::set<const ir::Operation*> readers;
    for (const ir::Operation* user : users[reduce.result(0)]) {
      if (const auto row = d_.row_reduces.find(user); row != d_.row_reduces.end()) {
        readers.insert(row->second);
      } else if (ClassifyOp(*user) == OpClass::kFusible && user->parent_block() == reduce.parent_block() &&
                 !d_.in_attention.count(user) && !d_.exit_dot.count(user)) {
        const ir::Value* u = user->result(0);
        if (d_.materialized.count(u)) {
          readers.insert(user);
        } else if (roots.count(u)) {
          readers.insert(roots[u].begin(), roots[u].end());
        } else {
          return nullptr;
        }
      } else {
        return nullptr;
      }
    }
    if (readers.size() != 1) return nullptr;
    const ir::Operation* root = *readers.begin();
    if (ClassifyOp(*root) != OpClass::kFusible || root->num_results() != 1 || !d_.materialized.count(root->result(0)) ||
        d_.exit_dot.count(root) || update_in_place_.count(root) || d_.in_attention.count(root) ||
        root->id() == ir::OpId::kConstant || root->parent_block() != reduce.parent_block() ||
        root->result(0)->type().shape() != reduce.operand(0)->type().shape()) {
      return nullptr;
    }
    const size_t after = position.at(&reduce);
    const auto computed_inline = [&](const ir::Value* v) {
      const ir::Operation* def = v->defining_op();
      return def != nullptr && !has_buffer_(v) && !d_.materialized.count(v) && ClassifyOp(*def) == OpClass::kFusible &&
             def->parent_block() == reduce.parent_block() && position.count(def) && position.at(def) > after;
    };
    const auto is_row_reduce = [&](const ir::Operation& op) {
      return &op == &reduce || (d_.row_reduces.count(&op) && d_.row_reduces.at(&op) == root);
    };
    const auto is_elementwise = [](const ir::Operation& op) { return IsElementwise(op); };
    if (!ReadsRowReductionsAtTheirRow(*root, shape->row_rank, computed_inline, is_row_reduce, is_elementwise)) {
      return nullptr;
    }
    return root;
  }

  // Whether operands `first`... of `op` are computed from values outside
  // its block by fusible ops alone: no product, so not from an attention
  // kernel's results either (a dynamic_update_slice's start indices).
  static bool FromLoopStateAlone(const ir::Operation& op, size_t first) {
    std::vector<const ir::Value*> todo;
    for (size_t i = first; i < op.num_operands(); ++i) todo.push_back(op.operand(i));
    std::set<const ir::Operation*> seen;
    while (!todo.empty()) {
      const ir::Operation* def = todo.back()->defining_op();
      todo.pop_back();
      if (def == nullptr || def->parent_block() != op.parent_block() || !seen.insert(def).second) continue;
      if (ClassifyOp(*def) != OpClass::kFusible || def->num_regions() != 0) return false;
      for (const ir::Value* o : def->operands()) todo.push_back(o);
    }
    return true;
  }

  // Whether `user` is a loop whose every operand `v` is an initial value
  // it never reads (InitialValueOverwritten): no use of `v` at all.
  static bool OnlyOverwrittenBy(const ir::Operation& user, const ir::Value* v) {
    if (user.id() != ir::OpId::kWhile) return false;
    bool any = false;
    for (size_t i = 0; i < user.num_operands(); ++i) {
      if (user.operand(i) != v) continue;
      if (!InitialValueOverwritten(user, i)) return false;
      any = true;
    }
    return any;
  }

  // Whether an elementwise value evaluated `evaluations` times costs less
  // recomputed by each kernel reading it than stored once and read back:
  // recomputed, every evaluation reads what it is computed from; stored,
  // its kernel reads that once and writes the value, and every evaluation
  // reads the value. Transcendentals cost far less than the bytes
  // (a softmax's f32 exponentials of a bf16 row: 4 bytes written and read
  // twice against 2 bytes read twice). Only for values evaluated a few
  // times per element: a value broadcast into a larger loop is read back
  // from cache, which this does not count.
  static bool RecomputingMovesFewerBytes(const ir::Operation& op, int64_t evaluations) {
    const ir::Value* v = op.result(0);
    const int64_t n = v->type().NumElements();
    if (n <= 0 || evaluations > 4 * n) return false;
    // The bytes per element read from memory by the inline computation:
    // its leaves (values no fusible op of this block makes), broadcast
    // leaves counted by their share.
    double read = 0;
    std::set<const ir::Value*> seen;
    std::vector<const ir::Value*> stack(op.operands().begin(), op.operands().end());
    while (!stack.empty()) {
      const ir::Value* x = stack.back();
      stack.pop_back();
      if (!seen.insert(x).second) continue;
      const ir::Operation* def = x->defining_op();
      const bool inline_op = def && def->parent_block() == op.parent_block() && ClassifyOp(*def) == OpClass::kFusible &&
                             !(def->id() == ir::OpId::kConstant && !IsSplatConstant(*def));
      if (inline_op && def->id() != ir::OpId::kConstant) {
        stack.insert(stack.end(), def->operands().begin(), def->operands().end());
      } else if (!inline_op) {
        read += static_cast<double>(x->type().StorageBytes()) / static_cast<double>(n);
      }
    }
    const double k = static_cast<double>(evaluations) / static_cast<double>(n);
    const double value = static_cast<double>(ir::StorageBytes(v->type().element()));
    return k * read < read + value * (1 + k);
  }

  // Ops recomputed in several kernels rather than stored: index maps and
  // cheap arithmetic. A concatenate or pad is a select per element among
  // its pieces, and chains of them multiply; store them. A single
  // dynamic_update_slice of an array read from memory (a KV cache's layer
  // with this step's row) is one comparison per element: repeat it.
  static bool IsCheapToRepeat(const ir::Operation& op) {
    const ir::OpId n = op.id();
    if (n == ir::OpId::kDynamicUpdateSlice) {
      const ir::Operation* array = op.operand(0)->defining_op();
      return array == nullptr || (array->id() != n && IsCheapToRepeat(*array));
    }
    return n != ir::OpId::kConcatenate && n != ir::OpId::kPad;
  }

 private:
  const std::function<bool(const ir::Value*)>& has_buffer_;
  const std::map<const ir::Operation*, BufferId>& update_in_place_;
  FusionDecisions& d_;
};

}  // namespace

bool FusionDecisions::StoresThroughMoves(const ir::Operation& dot2) const {
  return std::any_of(flash_exit.begin(), flash_exit.end(), [&](const auto& exit) { return exit.second == &dot2; });
}

Status DecideFusion(const ir::Block& block, const std::function<bool(const ir::Value*)>& has_buffer,
                    const std::map<const ir::Operation*, BufferId>& update_in_place, FusionDecisions& decisions) {
  return Decider(has_buffer, update_in_place, decisions).Decide(block);
}

}  // namespace hlograph::gpu

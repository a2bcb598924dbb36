#include "backends/gpu/plan/scatter_plan.h"

#include <algorithm>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {

const char* ScatterCombinerName(ScatterCombiner c) {
  switch (c) {
    case ScatterCombiner::kOther: return "body";
    case ScatterCombiner::kReplace: return "replace";
    case ScatterCombiner::kAdd: return "add";
    case ScatterCombiner::kMin: return "min";
    case ScatterCombiner::kMax: return "max";
  }
  return "?";
}

const char* ScatterOrderName(ScatterOrder o) {
  switch (o) {
    case ScatterOrder::kUnique: return "unique indices";
    case ScatterOrder::kSortedRuns: return "sorted runs";
    case ScatterOrder::kLastWins: return "last wins";
    case ScatterOrder::kAtomic: return "atomic";
    case ScatterOrder::kCompareSwap: return "compare-and-swap";
    case ScatterOrder::kSerial: return "serial";
  }
  return "?";
}

const char* ScatterPassName(ScatterPass p) {
  switch (p) {
    case ScatterPass::kUpdate: return "update";
    case ScatterPass::kClaim: return "claim slots";
    case ScatterPass::kRelease: return "release slots";
  }
  return "?";
}

std::string ScatterPlan::ToString() const {
  return std::string(ScatterCombinerName(combiner)) + ", " + ScatterOrderName(order) +
         (vector > 1 ? " x" + std::to_string(vector) : "") + ": " + std::to_string(windows) + " windows of " +
         std::to_string(window_elements);
}

namespace {

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The body of a single-result scatter: `return %upd` or `return op(%cur,
// %upd)` (either operand order) for an op with a native atomic.
ScatterCombiner Combiner(const ir::Operation& scatter) {
  if (scatter.num_results() != 1 || scatter.num_regions() != 1 || scatter.region(0).empty()) {
    return ScatterCombiner::kOther;
  }
  const ir::Block& body = scatter.region(0).front();
  if (body.num_arguments() != 2 || body.operations().empty()) return ScatterCombiner::kOther;
  const ir::Value* cur = body.argument(0);
  const ir::Value* upd = body.argument(1);
  const ir::Operation* ret = body.terminator();
  if (ret->num_operands() != 1) return ScatterCombiner::kOther;
  if (body.operations().size() == 1) return ret->operand(0) == upd ? ScatterCombiner::kReplace : ScatterCombiner::kOther;
  if (body.operations().size() != 2) return ScatterCombiner::kOther;
  const ir::Operation& op = *body.operations().front();
  if (ret->operand(0) != op.result(0) || op.num_operands() != 2) return ScatterCombiner::kOther;
  const bool both = (op.operand(0) == cur && op.operand(1) == upd) || (op.operand(0) == upd && op.operand(1) == cur);
  if (!both) return ScatterCombiner::kOther;
  if (op.id() == ir::OpId::kAdd) return ScatterCombiner::kAdd;
  if (op.id() == ir::OpId::kMinimum) return ScatterCombiner::kMin;
  if (op.id() == ir::OpId::kMaximum) return ScatterCombiner::kMax;
  return ScatterCombiner::kOther;
}

// Whether the device has an atomic doing `c` on elements of type `e`
// (bool adds are ors in StableHLO, which no atomicAdd does).
bool NativeAtomic(ScatterCombiner c, ir::ElementType e) {
  using E = ir::ElementType;
  const bool word_int = e == E::kI32 || e == E::kU32 || e == E::kI64 || e == E::kU64;
  switch (c) {
    case ScatterCombiner::kReplace: return true;
    case ScatterCombiner::kAdd:
      return word_int || e == E::kF32 || e == E::kF64 || e == E::kF16 || e == E::kBF16 || e == E::kC64 ||
             e == E::kC128;
    case ScatterCombiner::kMin:
    case ScatterCombiner::kMax: return word_int;
    case ScatterCombiner::kOther: return false;
  }
  return false;
}

// The vector atomic add's width: the window spans the result's innermost
// dim from 0 (no index moves it), and rows split evenly into aligned
// groups.
int VectorWidth(const ScatterPlan& p, const ir::ScatterDimsAttr& dn, const ir::Type& out) {
  using E = ir::ElementType;
  if (p.combiner != ScatterCombiner::kAdd || out.rank() == 0 || p.window_shape.empty()) return 1;
  const int width = out.element() == E::kF32 ? 4 : (out.element() == E::kF16 || out.element() == E::kBF16) ? 2 : 1;
  const int64_t last = out.rank() - 1;
  if (width == 1 || p.operand_window_dims.back() != last || Contains(dn.scatter_dims_to_operand_dims, last)) return 1;
  const int64_t row = p.window_shape.back();
  return row % width == 0 && out.dim(last) % width == 0 ? width : 1;
}

}  // namespace

StatusOr<ScatterPlan> PlanScatter(const ir::Operation& op) {
  const auto* dn = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (!dn) return Status::Error("scatter without scatter_dimension_numbers");
  if (op.num_operands() < 3 || (op.num_operands() - 1) % 2 != 0) {
    return Status::Error("scatter expects operands, indices and as many updates");
  }
  ScatterPlan p;
  p.results = (op.num_operands() - 1) / 2;
  const ir::Type& out = op.operand(0)->type();
  const ir::Type& upd = op.operand(p.results + 1)->type();
  const ir::Type& indices = op.operand(p.results)->type();
  for (int64_t d = 0; d < upd.rank(); ++d) {
    if (Contains(dn->update_window_dims, d)) {
      p.window_dims.push_back(d);
      p.window_shape.push_back(upd.dim(d));
    } else {
      p.scatter_dims.push_back(d);
      p.scatter_shape.push_back(upd.dim(d));
    }
  }
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d != dn->index_vector_dim) p.index_batch_dims.push_back(d);
  }
  p.extent.assign(static_cast<size_t>(out.rank()), 1);
  for (int64_t d = 0; d < out.rank(); ++d) {
    if (!Contains(dn->inserted_window_dims, d) && !Contains(dn->input_batching_dims, d)) {
      p.operand_window_dims.push_back(d);
    }
  }
  if (p.operand_window_dims.size() != p.window_shape.size()) {
    return Status::Error("scatter's update window has rank " + std::to_string(p.window_shape.size()) +
                         ", expected " + std::to_string(p.operand_window_dims.size()));
  }
  for (size_t i = 0; i < p.operand_window_dims.size(); ++i) {
    p.extent[static_cast<size_t>(p.operand_window_dims[i])] = p.window_shape[i];
  }
  for (int64_t s : p.scatter_shape) p.windows *= s;
  for (int64_t s : p.window_shape) p.window_elements *= s;

  p.combiner = Combiner(op);
  const ir::ElementType e = out.element();
  // Windows at distinct starts are disjoint when the window is one element
  // wide along every dim an index moves.
  bool disjoint = true;
  for (int64_t d : dn->scatter_dims_to_operand_dims) disjoint = disjoint && p.extent[static_cast<size_t>(d)] == 1;
  const int bytes = ir::StorageBytes(e);
  std::vector<int64_t> moving = dn->scatter_dims_to_operand_dims;
  moving.insert(moving.end(), dn->input_batching_dims.begin(), dn->input_batching_dims.end());
  std::sort(moving.begin(), moving.end());
  moving.erase(std::unique(moving.begin(), moving.end()), moving.end());
  int64_t slots = 1;
  for (int64_t d : moving) slots *= out.dim(d);
  // The table's memory against the result's (a scatter into a huge array
  // by single elements would need a table as large as the array).
  const bool table_affordable =
      slots * 4 <= std::max<int64_t>(int64_t{16} << 20, out.NumElements() * bytes / 4) && p.windows < (int64_t{1} << 31);
  if (ir::verify::BoolAttrOr(op, "unique_indices", false)) {
    p.order = ScatterOrder::kUnique;
  } else if (ir::verify::BoolAttrOr(op, "indices_are_sorted", false) && disjoint) {
    p.order = ScatterOrder::kSortedRuns;
  } else if (p.results == 1 && p.combiner == ScatterCombiner::kReplace && disjoint && table_affordable) {
    p.order = ScatterOrder::kLastWins;
    p.slot_dims = moving;
    p.slots = slots;
  } else if (p.results == 1 && NativeAtomic(p.combiner, e)) {
    p.order = ScatterOrder::kAtomic;
    p.vector = VectorWidth(p, *dn, out);
  } else if (p.results == 1 && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)) {
    p.order = ScatterOrder::kCompareSwap;
  } else {
    p.order = ScatterOrder::kSerial;
  }
  return p;
}

bool IsElementMapScatter(const ir::Operation& op) {
  const auto* dn = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (!dn || op.num_operands() != 3 || op.num_results() != 1) return false;
  for (int64_t d = 0; d < op.operand(1)->type().rank(); ++d) {
    if (d != dn->index_vector_dim && !Contains(dn->scatter_indices_batching_dims, d) &&
        op.operand(1)->type().dim(d) != 1) {
      return false;
    }
  }
  return PlanScatter(op).ok();
}

}  // namespace hlograph::gpu

#include "backends/gpu/plan/generated_dot.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/tile_product.h"
#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

bool IsFloatForKernel(ir::ElementType t) {
  return t == ir::ElementType::kF32 || t == ir::ElementType::kF16 || t == ir::ElementType::kBF16;
}

// Whether the rhs is contiguous along the contraction (its last dim is contracted).
bool RhsContiguousAlongK(const ir::Operation& dot) {
  const auto* dn = dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  const int64_t last = dot.operand(1)->type().rank() - 1;
  return dn && std::count(dn->rhs_contracting.begin(), dn->rhs_contracting.end(), last) > 0;
}

// Whether `op` (or an op nested in it) reads any of `values`.
bool ReadsAny(const ir::Operation& op, const std::set<const ir::Value*>& values) {
  bool reads = false;
  ForEachRead(op, [&](const ir::Value* v) { reads = reads || values.count(v) > 0; });
  return reads;
}

// The blocks per SM a split product aims for (kDefaultDotBlocksPerSm, or
// HLOGRAPH_GPU_DOT_BLOCKS_PER_SM).
int DotBlocksPerSm() {
  const int blocks = PlanOptions::Current().dot_blocks_per_sm;
  return blocks > 0 ? blocks : kDefaultDotBlocksPerSm;
}

}  // namespace

int DotMinBlocksPerSm(ir::ElementType weights) {
  const int blocks = PlanOptions::Current().dot_min_blocks_per_sm;
  if (blocks < 0) return ir::StorageBytes(weights) == 2 ? kDefaultNarrowDotMinBlocksPerSm : kDefaultDotMinBlocksPerSm;
  return blocks;
}

bool PrefetchIntoL2Wanted() { return PlanOptions::Current().prefetch_l2; }

LoadsTogether LoadsTogetherWanted() { return PlanOptions::Current().loads_together; }

DotEarlyLoads DotLoadsEarlyWanted() { return PlanOptions::Current().dot_loads_early; }

bool MovesElements(const ir::Operation& op) {
  using ir::OpId;
  static constexpr OpId kMoves[] = {OpId::kReshape,        OpId::kTranspose, OpId::kSlice,
                                    OpId::kBroadcastInDim, OpId::kConvert,   OpId::kDynamicSlice};
  return op.num_operands() > 0 && std::find(std::begin(kMoves), std::end(kMoves), op.id()) != std::end(kMoves);
}

int64_t DotTiling::partial_bytes() const {
  return splits > 1 ? splits * tiles * dims.m * kTileColumns * 4 : 0;
}

int64_t DotTiling::staged_floats() const {
  // The rows padded so that a fragment's 32 lanes read 32 banks.
  return std::max(tile_m() * (depth + 4) + depth * (tile_n() + 8), tile_m() * (tile_n() + 4));
}

int64_t DotTiling::operand_evaluations() const {
  const int64_t across = (dims.n + tile_n() - 1) / tile_n(), down = (dims.m + tile_m() - 1) / tile_m();
  return dims.batch * dims.k * (dims.m * across + dims.n * down);
}

int64_t DotTiling::counter_bytes() const { return splits > 1 ? tiles * 4 : 0; }

std::string DotTiling::ToString() const {
  std::ostringstream os;
  os << "product " << dims.batch << "x" << dims.m << "x" << dims.n << "x" << dims.k << " (batch x m x n x k): ";
  if (lanes == Lanes::kTensorTiles) {
    os << tiles << " tiles of " << tile_m() << " x " << tile_n() << " on the tensor cores, " << warps_m * warps_n
       << " warps of " << 16 * frags_m << " x " << 8 * frags_n << ", " << depth << " of k a step";
  } else if (lanes == Lanes::kOverN) {
    os << tiles << " tiles of " << kTileColumns << " columns, " << slices << " warps";
    if (stage_lhs) os << ", the lhs chunk staged in shared memory";
    if (splits > 1) {
      os << " x " << splits << " splits of k (" << k_chunk << " each, "
         << (cluster_sum ? "summed in a cluster of " + std::to_string(splits) + " blocks on sm_90+, else " : "")
         << "the last block sums)";
    }
  } else {
    os << "a warp per column, " << tiles << " blocks of " << kWarpColumns << " columns";
  }
  if (prefetch_l2) os << ", the rhs prefetched into L2";
  return os.str();
}

bool TakesGeneratedDot(const ir::Operation& dot) {
  if (!PlanOptions::Current().generated_dot) return false;
  if (dot.id() != ir::OpId::kDotGeneral || dot.num_operands() != 2 || dot.num_results() != 1) return false;
  if (!dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) return false;
  for (const ir::Type* t : {&dot.operand(0)->type(), &dot.operand(1)->type(), &dot.result(0)->type()}) {
    if (!t->IsTensor() || !IsFloatForKernel(t->element())) return false;
  }
  const DotDims d = DotDimsOf(dot);
  if (d.m > kMaxGeneratedDotRows) return ChooseTileProduct(dot, DeviceLimits::H200()).generated;
  if (d.batch * d.m * d.n * d.k == 0) return false;
  // A warp per column: a long sum over few columns would leave the device idle.
  if (RhsContiguousAlongK(dot) && d.batch * d.n < DotTiling::kWarpColumns && d.k > 4096) return false;
  return true;
}

bool IsTileProduct(const ir::Operation& dot) {
  return ClassifyOp(dot) == OpClass::kGeneratedDot && DotDimsOf(dot).m > kMaxGeneratedDotRows;
}

DotTiling PlanDotTiling(const ir::Operation& dot, int sm_count) {
  if (DotDimsOf(dot).m > kMaxGeneratedDotRows) return ChooseTileProduct(dot, DeviceLimits::H200()).tiling;
  DotTiling t;
  t.dims = DotDimsOf(dot);
  const DotDims& d = t.dims;
  if (RhsContiguousAlongK(dot)) {
    t.lanes = DotTiling::Lanes::kOverK;
    t.tiles = (d.batch * d.n + DotTiling::kWarpColumns - 1) / DotTiling::kWarpColumns;
    t.k_chunk = d.k;
    t.prefetch_l2 = PrefetchIntoL2Wanted();
    return t;
  }
  t.lanes = DotTiling::Lanes::kOverN;
  t.tiles = d.batch * ((d.n + DotTiling::kTileColumns - 1) / DotTiling::kTileColumns);
  // Blocks of 8 warps, the contraction split over blocks until the device
  // holds DotBlocksPerSm() blocks per SM or a split is down to 8 rows per thread: with
  // more blocks, fewer rows per thread, each kernel is shorter (measured
  // on the H200: 16 or 32 warps per block with fewer splits ran slower).
  t.slices = 8;
  const int64_t fill = std::max<int64_t>(1, (DotBlocksPerSm() * sm_count + t.tiles - 1) / t.tiles);
  const int64_t most = std::max<int64_t>(1, d.k / (t.slices * DotTiling::kRowsPerThread));
  t.splits = std::min(fill, most);
  // A cluster adds the splits' sums faster than the last block does
  // through global memory: the splits stop at a cluster's size where the
  // product still has a block for every SM (docs/PERF.md, "Split sums in
  // thread-block clusters").
  const bool clusters = PlanOptions::Current().cluster_sum;
  if (clusters && t.splits > DotTiling::kMaxClusterSplits && t.tiles * DotTiling::kMaxClusterSplits >= sm_count) {
    t.splits = DotTiling::kMaxClusterSplits;
  }
  t.k_chunk = (d.k + t.splits - 1) / t.splits;
  t.k_chunk = (t.k_chunk + t.slices - 1) / t.slices * t.slices;
  t.splits = (d.k + t.k_chunk - 1) / t.k_chunk;
  t.cluster_sum = clusters && t.splits > 1 &&
                  t.splits <= DotTiling::kMaxClusterSplits && t.blocks() <= (int64_t{1} << 30);
  t.stage_lhs = PlanOptions::Current().dot_stage_lhs && d.m * t.k_chunk * 4 <= DotTiling::kMaxStagedLhsBytes;
  t.prefetch_l2 = PrefetchIntoL2Wanted();
  return t;
}

DotEpilogue FindDotEpilogue(const ir::Operation& dot) {
  DotEpilogue e;
  const ir::Block* block = dot.parent_block();
  if (!block) return e;
  const auto& ops = block->operations();
  auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.get() == &dot; });
  if (it == ops.end()) return e;
  const ir::Type& shape = dot.result(0)->type();
  std::set<const ir::Value*> inside = {dot.result(0)};  // the product and what the epilogue computes
  std::set<const ir::Operation*> taken;
  auto rest = std::next(it);
  for (; rest != ops.end(); ++rest) {
    const ir::Operation& op = **rest;
    const bool reads = ReadsAny(op, inside);
    // Only pure fusible ops between the product and its epilogue, so that
    // moving the product's reads to the epilogue's end changes nothing.
    if (!reads && ClassifyOp(op) == OpClass::kFusible && op.id() != ir::OpId::kDynamicUpdateSlice) continue;
    if (!reads) break;
    const bool elementwise = IsElementwise(op) && ClassifyOp(op) == OpClass::kFusible && op.num_results() == 1 &&
                             op.num_regions() == 0 && op.result(0)->type().shape() == shape.shape();
    if (!elementwise) break;
    e.ops.push_back(&op);
    taken.insert(&op);
    inside.insert(op.result(0));
  }
  // The values read by anything but the epilogue (later ops, the
  // terminator): exactly one, computed by the epilogue.
  std::set<const ir::Value*> read_elsewhere;
  for (auto later = std::next(it); later != ops.end(); ++later) {
    if (taken.count(later->get())) continue;
    for (const ir::Value* v : inside) {
      if (ReadsAny(**later, {v})) read_elsewhere.insert(v);
    }
  }
  if (read_elsewhere.size() != 1 || *read_elsewhere.begin() == dot.result(0)) return {};
  e.exit = *read_elsewhere.begin();
  // Keep the ops the exit depends on (the rest of what was taken is dead).
  std::set<const ir::Value*> needed = {e.exit};
  std::vector<const ir::Operation*> kept;
  for (auto op = e.ops.rbegin(); op != e.ops.rend(); ++op) {
    if (!needed.count((*op)->result(0))) continue;
    kept.push_back(*op);
    for (const ir::Value* o : (*op)->operands()) needed.insert(o);
  }
  if (!needed.count(dot.result(0))) return {};
  e.ops.assign(kept.rbegin(), kept.rend());
  return e;
}

std::vector<int> InputsReadFor(const ir::Value* v, const std::vector<const ir::Value*>& inputs) {
  std::set<int> found;
  std::set<const ir::Value*> seen;
  std::vector<const ir::Value*> stack = {v};
  while (!stack.empty()) {
    const ir::Value* x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    const auto at = std::find(inputs.begin(), inputs.end(), x);
    if (at != inputs.end()) {
      found.insert(static_cast<int>(at - inputs.begin()));
    } else if (const ir::Operation* def = x->defining_op()) {
      ForEachRead(*def, [&](const ir::Value* o) { stack.push_back(o); });
    }
  }
  return {found.begin(), found.end()};
}

namespace {

bool AddressingInputsOf(const ir::Value* v, const std::vector<const ir::Value*>& inputs, std::set<int>& found) {
  const auto at = std::find(inputs.begin(), inputs.end(), v);
  if (at != inputs.end()) {
    found.insert(static_cast<int>(at - inputs.begin()));
    return true;
  }
  // As BodyEmitter::AddressOf: through moves, and through a
  // dynamic_update_slice to the array it updates.
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || (!MovesElements(*op) && op->id() != ir::OpId::kDynamicUpdateSlice)) return false;
  if (op->id() == ir::OpId::kDynamicSlice) {
    for (size_t i = 1; i < op->num_operands(); ++i) {
      for (int r : InputsReadFor(op->operand(i), inputs)) found.insert(r);
    }
  }
  return AddressingInputsOf(op->operand(0), inputs, found);
}

}  // namespace

std::vector<int> AddressingInputs(const std::vector<const ir::Value*>& values,
                                  const std::vector<const ir::Value*>& inputs) {
  std::set<int> found;
  for (const ir::Value* v : values) {
    if (!AddressingInputsOf(v, inputs, found)) return {};
  }
  return {found.begin(), found.end()};
}

std::vector<const ir::Value*> EpilogueOperands(const std::vector<const ir::Operation*>& ops, const ir::Operation& dot) {
  std::set<const ir::Value*> derived = {dot.result(0)};
  std::vector<const ir::Value*> operands;
  for (const ir::Operation* op : ops) {
    if (std::none_of(op->operands().begin(), op->operands().end(), [&](const ir::Value* o) { return derived.count(o); })) {
      continue;
    }
    for (const auto& r : op->results()) derived.insert(r.get());
    for (const ir::Value* o : op->operands()) {
      if (!derived.count(o) && std::find(operands.begin(), operands.end(), o) == operands.end()) operands.push_back(o);
    }
  }
  return operands;
}

}  // namespace hlograph::gpu

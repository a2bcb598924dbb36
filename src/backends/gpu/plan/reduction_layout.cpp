#include "backends/gpu/plan/reduction_layout.h"

#include <algorithm>
#include <sstream>

#include "ir/attribute.h"
#include "ir/element_type.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// A run of neighbouring dims of one kind (dims of size 1 dropped).
struct Run {
  bool reduced = false;
  int64_t size = 1;
};

std::vector<Run> Runs(const std::vector<int64_t>& shape, const std::vector<int64_t>& reduced_dims) {
  std::vector<Run> runs;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const bool reduced = std::count(reduced_dims.begin(), reduced_dims.end(), static_cast<int64_t>(d)) > 0;
    if (!runs.empty() && runs.back().reduced == reduced) {
      runs.back().size *= shape[d];
    } else {
      runs.push_back({reduced, shape[d]});
    }
  }
  return runs;
}

int64_t PowerOfTwoAtMost(int64_t n) {
  int64_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

int64_t PowerOfTwoAtLeast(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

std::string ReductionLayout::ToString(bool vectorized) const {
  std::ostringstream os;
  if (lanes == Lanes::kAlongReduced) {
    os << "row reduction (" << (lanes_per_output == kThreads ? "block" : "warp") << " per output";
  } else if (lanes_per_output == 1) {
    os << "reduction (thread per output";
  } else {
    os << "column reduction (" << outputs_per_block << " outputs x " << lanes_per_output << " slices a block";
  }
  if (vectorized) os << ", 4-element vector loads";
  if (splits > 1) os << ", reduced extent split over " << splits << " blocks, the last to arrive folds them";
  os << ")";
  return os.str();
}

ReductionLayout PlanReductionLayout(const std::vector<int64_t>& shape, const std::vector<int64_t>& reduced_dims,
                                    double bytes_per_element, int sm_count) {
  ReductionLayout l;
  l.planned = true;
  l.outputs = 1;
  l.reduced = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::count(reduced_dims.begin(), reduced_dims.end(), static_cast<int64_t>(d)) > 0;
    (reduced ? l.reduced : l.outputs) *= shape[d];
  }
  const std::vector<Run> runs = Runs(shape, reduced_dims);
  const Run inner = runs.empty() ? Run{} : runs.back();
  l.inner_run = inner.size;
  const int threads = ReductionLayout::kThreads;
  const int64_t target = int64_t{kReductionBlocksPerSm} * std::max(sm_count, 1);
  if (inner.reduced && inner.size >= 32) {
    l.lanes = ReductionLayout::Lanes::kAlongReduced;
    // A warp per output leaves the device short of blocks below 8 *
    // target outputs (8 warps a block): a block each then, if each of its
    // lanes still gets a couple of elements.
    const bool block = l.reduced >= 2048 || (l.reduced >= 512 && l.outputs < 8 * target);
    l.lanes_per_output = block ? threads : 32;
    l.vector_loads = inner.size % 4 == 0;
  } else {
    l.lanes = ReductionLayout::Lanes::kAlongOutputs;
    // A warp's lanes take 32 neighbouring outputs, or as many as the
    // innermost kept run has (rounded up to a power of two).
    const int64_t min_outputs =
        inner.reduced || runs.empty() ? 32 : std::min<int64_t>(32, PowerOfTwoAtLeast(inner.size));
    const int64_t slices = PowerOfTwoAtMost(std::max<int64_t>(1, l.reduced / kReductionMinElementsPerSlice));
    l.lanes_per_output = static_cast<int>(std::min<int64_t>(slices, threads / min_outputs));
  }
  l.outputs_per_block = threads / l.lanes_per_output;
  l.splits = 1;
  if (l.outputs > 0 && l.reduced > 0 && l.groups() < target) {
    const int64_t wanted = (target + l.groups() - 1) / l.groups();
    const double lane_bytes = static_cast<double>(l.reduced) * std::max(bytes_per_element, 0.0) / l.lanes_per_output;
    const int64_t worth = static_cast<int64_t>(lane_bytes / kReductionMinBytesPerLane);
    l.splits = std::max<int64_t>(1, std::min({wanted, worth, kReductionMaxSplits}));
  }
  // Chunks start at multiples of 4 where vector loads may read them.
  const int64_t align = l.vector_loads ? 4 : 1;
  l.chunk = (l.reduced + l.splits - 1) / l.splits;
  l.chunk = (l.chunk + align - 1) / align * align;
  if (l.chunk > 0) l.splits = (l.reduced + l.chunk - 1) / l.chunk;  // no empty split
  if (l.splits < 1) l.splits = 1;
  return l;
}

ReductionLayout PlanReductionLayout(const ir::Operation& reduce, int64_t bytes_read, int sm_count) {
  const ir::Type& in = reduce.operand(0)->type();
  const std::vector<int64_t> reduced = ir::verify::I64ArrayAttr(reduce, "dimensions");
  const int64_t elements = in.NumElements();
  const double per_element = elements > 0 ? static_cast<double>(bytes_read) / static_cast<double>(elements) : 0.0;
  return PlanReductionLayout(in.shape(), reduced, per_element, sm_count);
}

int ReductionAccumulatorBytes(ir::ElementType t) {
  if (ir::IsComplex(t)) return ir::StorageBytes(t);
  if (ir::IsFloat(t)) return ir::BitWidth(t) > 32 ? 8 : 4;
  return std::max(1, ir::StorageBytes(t));
}

std::vector<int64_t> ReductionPartialOffsets(const ReductionLayout& layout,
                                             const std::vector<ir::ElementType>& element_types) {
  std::vector<int64_t> offsets;
  int64_t at = 0;
  for (ir::ElementType t : element_types) {
    offsets.push_back(at);
    at += layout.splits * layout.outputs * ReductionAccumulatorBytes(t);
    at = (at + 15) / 16 * 16;
  }
  offsets.push_back(at);
  return offsets;
}

}  // namespace hlograph::gpu

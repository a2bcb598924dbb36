#include "backends/gpu/plan/sort_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hlograph::gpu {
namespace {

// Shared memory a block sort may take: a run of up to this many bytes (and
// its staged values) is sorted by one block; several short runs share a
// block up to kRowsSharedBytes, so that four blocks fit an SM.
constexpr int64_t kBlockSharedBytes = 96 * 1024;
constexpr int64_t kRowsSharedBytes = 48 * 1024;
// Registers a thread gives its items (32-bit words); items of a general
// comparator a thread holds at most.
constexpr int64_t kItemRegisters = 64;
constexpr int64_t kGeneralItems = 8;
// Threads of a merge and a select block; items a select thread holds.
constexpr int kPassThreads = 256;
constexpr int kSelectLog2Items = 4;
// Smallest tile a merge sort starts from.
constexpr int64_t kMinTile = 256;

int Log2(int64_t x) {
  int l = 0;
  while ((int64_t{1} << l) < x) ++l;
  return l;
}
int64_t Pow2AtLeast(int64_t x) { return int64_t{1} << Log2(std::max<int64_t>(x, 1)); }
int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---- The cost rule ------------------------------------------------------
//
// A pass's time is
//   kLaunchUs + max(bytes / kBytesPerUs, units / (kUnitsPerSmUs * SMs * fill))
// bytes: what it reads and writes in device memory; units: its work, in
// compare-exchanges of packed items held in registers (about two
// instructions; an SM issues 128 lanes of instructions a clock); a general
// comparator's compare-exchange costs kGeneralCompare units, a shared
// memory access kSharedAccess units per 8 bytes (an SM moves 128 bytes of
// shared memory a clock); fill = min(1, blocks / SMs): a pass of fewer
// blocks than SMs leaves the rest idle. A plan's time is the sum of its
// passes'. Constants: the H200 (132 SMs at about 1.7 GHz, HBM streamed at
// about 3 of its 4.8 TB/s).
constexpr double kLaunchUs = 2.0;
constexpr double kBytesPerUs = 3.0e6;
constexpr double kUnitsPerSmUs = 64 * 1700.0;
constexpr double kGeneralCompare = 4.0;
constexpr double kSharedAccess = 4.0;

struct PassWork {
  double bytes = 0, units = 0, blocks = 0;
};

double PassTime(const PassWork& w, int sm_count) {
  const double fill = std::min(1.0, std::max(w.blocks, 1.0) / sm_count);
  return kLaunchUs + std::max(w.bytes / kBytesPerUs, w.units / (kUnitsPerSmUs * sm_count * fill));
}

double CompareUnits(const SortShape& s) { return s.packed ? 1.0 : kGeneralCompare; }
double SharedUnits(const SortShape& s) { return kSharedAccess * static_cast<double>(s.item_bytes) / 8.0; }

// Bytes of the first pass's reads and the last pass's writes (and the
// operands the last pass fetches by position).
double ReadBytes(const SortShape& s) { return static_cast<double>(s.rows * s.n * s.read_bytes); }
double WriteBytes(const SortShape& s) { return static_cast<double>(s.rows * s.keep * (s.write_bytes + s.read_bytes)); }

PassWork BlockSortWork(const SortShape& s, const SortPass& p) {
  PassWork w;
  const double runs = static_cast<double>(p.Units());
  const int l = Log2(p.width), e = p.log2_items;
  const double steps = l * (l + 1) / 2.0;
  // Rounds of register steps, each reading and writing the items (the
  // first covers the e(e+1)/2 steps of runs of 2^e), plus the load and
  // the final write.
  const double rounds = e >= l ? 1 : 1 + std::ceil((steps - e * (e + 1) / 2.0) / std::max(e, 1));
  w.units = runs * static_cast<double>(p.width) *
            (steps / 2 * CompareUnits(s) + 2 * (rounds + 1) * SharedUnits(s));
  w.blocks = std::ceil(runs / p.rows_per_block);
  w.bytes = (p.index == 0 ? ReadBytes(s) : 0) +
            (p.last() ? WriteBytes(s) : static_cast<double>(s.rows * p.ItemsOut() * s.item_bytes));
  return w;
}

PassWork MergeWork(const SortShape& s, const SortPass& p) {
  PassWork w;
  const double outputs = static_cast<double>(s.rows * RowItems(s.n, 2 * p.width_in, s.keep));
  const int64_t tile = int64_t{p.threads} * p.merge_items;
  // A compare an output, a binary search a thread, and three shared
  // memory accesses an output (load, merged, read to write).
  w.units = outputs * (CompareUnits(s) * (1 + Log2(tile) / static_cast<double>(p.merge_items)) + 3 * SharedUnits(s));
  w.blocks = static_cast<double>(p.Units());
  w.bytes = static_cast<double>(s.rows * p.ItemsIn() * s.item_bytes) +
            (p.last() ? WriteBytes(s) : outputs * static_cast<double>(s.item_bytes));
  return w;
}

PassWork SelectWork(const SortShape& s, const SortPass& p) {
  PassWork w;
  const double chunks = static_cast<double>(p.Units());
  const double elements = static_cast<double>(s.rows * (p.list > 0 ? p.list : s.n));
  // Per element: the load, a minimum, a compare with the threshold (about
  // five units); per chunk: every thread ranks its warp's 32 minimums
  // (32 shuffles of 64 bits), and the candidates (about twice keep) are
  // sorted in shared memory.
  const int64_t candidates = Pow2AtLeast(2 * s.keep);
  const int l = Log2(candidates);
  const double sort_units = candidates * (l * (l + 1) / 2.0) * (1 + 2 * SharedUnits(s)) + p.threads * l * (l + 1);
  w.units = elements * 5 + chunks * (p.threads * 32 * 3.0 + sort_units);
  w.blocks = chunks;
  w.bytes = (p.list > 0 ? elements * 8 : ReadBytes(s)) +
            (p.last() ? WriteBytes(s) : static_cast<double>(s.rows * p.ItemsOut() * 8));
  return w;
}

double PlanTime(const SortShape& s, const SortPlan& plan, int sm_count) {
  double t = 0;
  for (const SortPass& p : plan.passes) {
    switch (p.stage) {
      case SortStage::kBlockSort: t += PassTime(BlockSortWork(s, p), sm_count); break;
      case SortStage::kMerge: t += PassTime(MergeWork(s, p), sm_count); break;
      case SortStage::kSelect: t += PassTime(SelectWork(s, p), sm_count); break;
    }
  }
  return t;
}

SortPass BasePass(const SortShape& s, SortStage stage) {
  SortPass p;
  p.stage = stage;
  p.rows = s.rows;
  p.n = s.n;
  p.keep = s.keep;
  p.packed = s.packed;
  p.item_bytes = s.item_bytes;
  return p;
}

void Number(SortPlan& plan) {
  for (size_t i = 0; i < plan.passes.size(); ++i) {
    plan.passes[i].index = static_cast<int>(i);
    plan.passes[i].count = static_cast<int>(plan.passes.size());
  }
}

}  // namespace

const char* SortStageName(SortStage stage) {
  switch (stage) {
    case SortStage::kBlockSort: return "block sort";
    case SortStage::kMerge: return "merge";
    case SortStage::kSelect: return "select";
  }
  return "?";
}

int64_t RunCount(int64_t n, int64_t width) { return n <= 0 ? 0 : CeilDiv(n, width); }
int64_t RunSlots(int64_t width, int64_t keep) { return std::min(width, keep); }
int64_t RunItems(int64_t n, int64_t width, int64_t keep, int64_t run) {
  return std::max<int64_t>(0, std::min(keep, std::min(n, (run + 1) * width) - run * width));
}
int64_t RowItems(int64_t n, int64_t width, int64_t keep) {
  const int64_t runs = RunCount(n, width);
  return runs == 0 ? 0 : (runs - 1) * RunSlots(width, keep) + RunItems(n, width, keep, runs - 1);
}

int64_t SortPass::ItemsOut() const {
  switch (stage) {
    case SortStage::kBlockSort: return RowItems(n, width, keep);
    case SortStage::kMerge: return RowItems(n, 2 * width_in, keep);
    case SortStage::kSelect: return CeilDiv(list > 0 ? list : n, chunk) * keep;
  }
  return 0;
}

int64_t SortPass::ItemsIn() const {
  switch (stage) {
    case SortStage::kBlockSort: return 0;
    case SortStage::kMerge: return RowItems(n, width_in, keep);
    case SortStage::kSelect: return list;
  }
  return 0;
}

int64_t SortPass::Units() const {
  switch (stage) {
    case SortStage::kBlockSort: return rows * RunCount(n, width);
    case SortStage::kMerge: {
      const int64_t tile = int64_t{threads} * merge_items;
      return rows * RunCount(n, 2 * width_in) * CeilDiv(RunSlots(2 * width_in, keep), tile);
    }
    case SortStage::kSelect: return rows * CeilDiv(list > 0 ? list : n, chunk);
  }
  return 0;
}

std::string SortPass::ToString() const {
  std::string s = "pass " + std::to_string(index + 1) + "/" + std::to_string(count) + ": ";
  switch (stage) {
    case SortStage::kBlockSort:
      s += width >= n ? "block sort of whole rows" : "block sort of runs of " + std::to_string(width);
      s += " (" + std::to_string(rows_per_block) + " a block, " + std::to_string(1 << log2_items) + " items a thread)";
      break;
    case SortStage::kMerge:
      s += "merge runs of " + std::to_string(width_in) + " into " + std::to_string(2 * width_in) + " (" +
           std::to_string(int64_t{threads} * merge_items) + " outputs a block)";
      break;
    case SortStage::kSelect:
      s += "select the first " + std::to_string(keep) + " of chunks of " + std::to_string(chunk) + " of " +
           (list > 0 ? std::to_string(list) + " candidates a row" : std::string("the row"));
      break;
  }
  if (keep < n && stage != SortStage::kSelect) s += ", keeping " + std::to_string(keep);
  s += packed ? "; packed items" : "; items of " + std::to_string(item_bytes) + " bytes";
  if (!last()) s += " into a temp";
  return s;
}

int64_t BlockSortSharedBytes(int64_t width, int rows_per_block, int64_t item_bytes, int64_t staged_bytes) {
  return rows_per_block * width * (item_bytes + staged_bytes);
}

std::optional<BlockSortLayout> PlanBlockSortLayout(const SortShape& s, int64_t width, bool staged, int64_t runs,
                                                   int sm_count) {
  BlockSortLayout l;
  const int64_t item_bytes = s.item_bytes, staged_bytes = staged ? s.staged_bytes : 0;
  const int64_t words = std::max<int64_t>(1, (item_bytes + 3) / 4);
  // A general comparator is a call per compare-exchange: fewer items a
  // thread keep its kernel small.
  const int64_t most = s.packed ? 32 : kGeneralItems;
  int64_t items = 2;
  while (items * 2 * words <= kItemRegisters && items * 2 <= most) items *= 2;
  items = std::min(items, width);
  l.log2_items = Log2(items);
  const int64_t per_run = width / items;
  if (per_run > 1024) return std::nullopt;
  // Runs a block: a warp at least, 256 threads at most, within the shared
  // memory for several runs (one run may take up to kBlockSharedBytes).
  // Fewer runs a block when that leaves SMs without a block.
  int64_t rows = std::max<int64_t>(1, 256 / per_run);
  while (rows > 1 && rows * per_run > 32 &&
         (BlockSortSharedBytes(width, static_cast<int>(rows), item_bytes, staged_bytes) > kRowsSharedBytes ||
          (runs + rows - 1) / rows < sm_count)) {
    rows /= 2;
  }
  l.rows_per_block = static_cast<int>(rows);
  l.threads = static_cast<int>(rows * per_run);
  l.shared_bytes = BlockSortSharedBytes(width, l.rows_per_block, item_bytes, staged_bytes);
  if (l.shared_bytes > kBlockSharedBytes) return std::nullopt;
  return l;
}

// A block sort pass of runs `width` long, laid out as `layout` says.
SortPass BlockSortPass(const SortShape& s, int64_t width, const BlockSortLayout& layout) {
  SortPass p = BasePass(s, SortStage::kBlockSort);
  p.width = width;
  p.log2_items = layout.log2_items;
  p.rows_per_block = layout.rows_per_block;
  p.threads = layout.threads;
  return p;
}

std::optional<SortPlan> BlockSortPlan(const SortShape& s, int sm_count) {
  const int64_t width = Pow2AtLeast(s.n);
  const auto layout = PlanBlockSortLayout(s, width, true, s.rows, sm_count);
  if (!layout) return std::nullopt;
  SortPlan plan;
  plan.passes = {BlockSortPass(s, width, *layout)};
  Number(plan);
  plan.strategy = "block sort";
  plan.estimated_us = PlanTime(s, plan, sm_count);
  return plan;
}

std::optional<SortPlan> MergeSortPlan(const SortShape& s, int64_t tile, int sm_count) {
  if (tile < 2 || tile >= s.n) return std::nullopt;
  const auto layout = PlanBlockSortLayout(s, tile, false, s.rows * RunCount(s.n, tile), sm_count);
  if (!layout) return std::nullopt;
  SortPlan plan;
  plan.passes.push_back(BlockSortPass(s, tile, *layout));
  int merges = 0;
  for (int64_t w = tile; w < s.n; w *= 2, ++merges) {
    SortPass m = BasePass(s, SortStage::kMerge);
    m.width_in = w;
    m.threads = kPassThreads;
    m.merge_items = s.item_bytes <= 16 ? 8 : 4;
    plan.passes.push_back(m);
  }
  Number(plan);
  plan.strategy = "tiles of " + std::to_string(tile) + ", " + std::to_string(merges) + " merge" + (merges > 1 ? "s" : "");
  plan.estimated_us = PlanTime(s, plan, sm_count);
  return plan;
}

std::optional<SortPlan> SelectPlan(const SortShape& s, int sm_count) {
  if (!s.selectable || !s.packed || s.keep < 1 || s.keep > kMaxSelectK || s.keep >= s.n) return std::nullopt;
  SortPlan plan;
  int64_t list = 0;  // the operands
  const int64_t chunk = int64_t{kPassThreads} << kSelectLog2Items;
  for (;;) {
    SortPass p = BasePass(s, SortStage::kSelect);
    p.threads = kPassThreads;
    p.log2_items = kSelectLog2Items;
    p.chunk = chunk;
    p.list = list;
    plan.passes.push_back(p);
    const int64_t in = list > 0 ? list : s.n;
    if (in <= chunk) break;
    list = CeilDiv(in, chunk) * s.keep;
  }
  Number(plan);
  plan.strategy = "select " + std::to_string(s.keep) + " in chunks of " + std::to_string(chunk) + ", " +
                  std::to_string(plan.passes.size()) + " pass" + (plan.passes.size() > 1 ? "es" : "");
  plan.estimated_us = PlanTime(s, plan, sm_count);
  return plan;
}

SortPlan PlanSort(const SortShape& s, int sm_count) {
  std::vector<SortPlan> candidates;
  if (auto p = BlockSortPlan(s, sm_count)) candidates.push_back(std::move(*p));
  for (int64_t tile = kMinTile; tile < s.n; tile *= 2) {
    if (auto p = MergeSortPlan(s, tile, sm_count)) candidates.push_back(std::move(*p));
  }
  if (auto p = SelectPlan(s, sm_count)) candidates.push_back(std::move(*p));
  if (candidates.empty()) {
    // Rows too short for a tile of kMinTile that still do not fit a block
    // (items of hundreds of bytes): the smallest tiles that fit.
    for (int64_t tile = 2; tile < s.n && candidates.empty(); tile *= 2) {
      if (auto p = MergeSortPlan(s, tile, sm_count)) candidates.push_back(std::move(*p));
    }
  }
  if (candidates.empty()) return SortPlan{};
  return *std::min_element(candidates.begin(), candidates.end(),
                           [](const SortPlan& a, const SortPlan& b) { return a.estimated_us < b.estimated_us; });
}

}  // namespace hlograph::gpu

// How a sort (or top_k) runs on the GPU: one kernel per pass, the passes
// handing "items" to each other in temps. An item is an element in the
// making of the order: packed, (key << 32) | position in 64 bits, when the
// comparator orders by one key (plan/sort_comparator.h); otherwise a
// struct of the values the comparator reads and the position. Every
// order breaks ties by position, so every pass sorts stably, and the last
// pass fetches what the results need by position (the other operands, an
// iota's value is the position itself).
//
//   block sort  a block sorts runs of `width` positions of a row (a power
//               of two, the run padded; whole rows when width >= n) in
//               shared memory: a bitonic network whose steps run in
//               registers, 2^log2_items items a thread, the items
//               exchanged through shared memory between rounds of steps
//               (codegen/sort_network.h). Short rows: several a block.
//   merge       merges pairs of sorted runs of width_in positions into
//               runs of 2 * width_in: each block takes an equal share of
//               a merged run's outputs (merge path: a binary search finds
//               where its share starts in each run).
//   select      top_k without sorting the row: a block takes a chunk of a
//               row (or of a row's candidates), keeps the elements at or
//               below a threshold that at least `keep` of them reach (the
//               largest of each warp's ceil(keep/8)-th smallest thread
//               minimum), sorts those and writes the first `keep`; the
//               next pass does the same over the candidates until one
//               chunk holds them all.
//
// Only the first `keep` positions of each sorted row are results (k for
// top_k and for a sort read only through slices of its first k): a run
// keeps at most `keep` items, so merges of long rows for a small k move
// little.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hlograph::gpu {

enum class SortStage { kBlockSort, kMerge, kSelect };
const char* SortStageName(SortStage stage);

// Largest k the select passes take (a block's threads find the threshold).
constexpr int64_t kMaxSelectK = 256;

struct SortPass {
  SortStage stage = SortStage::kBlockSort;
  int index = 0, count = 1;     // this pass of `count`
  // The op: `rows` rows of n elements, the first `keep` of each written.
  int64_t rows = 0, n = 0, keep = 0;
  bool packed = false;          // items are (key << 32) | position
  int64_t item_bytes = 8;
  int threads = 256;            // block size
  // kBlockSort: sorts runs of `width` positions (a power of two); each
  // thread holds 2^log2_items of a run, a block sorts rows_per_block runs.
  int64_t width = 0;
  int log2_items = 0;
  int rows_per_block = 1;
  // kMerge: merges runs of width_in into runs of 2 * width_in, a thread
  // merging merge_items outputs.
  int64_t width_in = 0;
  int merge_items = 8;
  // kSelect: reads `list` candidate items a row from the pass before (0:
  // the operands, n elements a row), a block selecting from `chunk`
  // (threads << log2_items) of them.
  int64_t list = 0;
  int64_t chunk = 0;
  // The last pass: results nothing reads, left unwritten (argsort's keys).
  std::vector<bool> skip_results;

  bool last() const { return index + 1 == count; }
  // Items a row it writes into its temp (not the last pass).
  int64_t ItemsOut() const;
  // Items a row it reads from the temp of the pass before (not the first).
  int64_t ItemsIn() const;
  // Runs (kBlockSort, kMerge: output runs; kSelect: chunks) its blocks
  // work through, over all rows.
  int64_t Units() const;
  std::string ToString() const;  // "merge runs of 8192 into 16384, 2048 outputs a block"
};

// The sorted runs of `width` positions of a row of n, each kept to its
// first `keep` items and stored one after another.
int64_t RunCount(int64_t n, int64_t width);
int64_t RunSlots(int64_t width, int64_t keep);                     // items of a full run
int64_t RunItems(int64_t n, int64_t width, int64_t keep, int64_t run);
int64_t RowItems(int64_t n, int64_t width, int64_t keep);

// What the plan is chosen from.
struct SortShape {
  int64_t rows = 0, n = 0, keep = 0;
  bool packed = false;
  bool selectable = false;    // packed and keep <= kMaxSelectK: the select passes apply
  int64_t item_bytes = 8;
  int64_t staged_bytes = 0;   // per element: result values a one-pass block sort keeps in shared memory
  int64_t read_bytes = 0;     // per element: bytes of the operands read
  int64_t write_bytes = 0;    // per kept element: bytes of the results written
};

struct SortPlan {
  std::vector<SortPass> passes;
  double estimated_us = 0;
  std::string strategy;  // "block sort", "tiles of 8192, 3 merges", "select 50 in chunks of 4096, 2 passes"
};

// The plan of least estimated time (see PlanSort in sort_plan.cpp for
// the rule) among: one block sort of whole rows (when a row fits a
// block), tiles of each power of two that fits then merges, and the
// select passes (selectable shapes).
SortPlan PlanSort(const SortShape& shape, int sm_count);

// The candidates themselves (empty when the strategy does not apply).
std::optional<SortPlan> BlockSortPlan(const SortShape& shape, int sm_count);
std::optional<SortPlan> MergeSortPlan(const SortShape& shape, int64_t tile, int sm_count);
std::optional<SortPlan> SelectPlan(const SortShape& shape, int sm_count);

// The block sort's layout for `runs` runs of `width` (a power of two) of
// the items of `s` (with its staged bytes a position kept in shared memory
// when `staged`); empty when a run does not fit a block. Up to 32 packed
// items a thread (64 registers of them; 8 general ones), up to 256
// threads a block, fewer runs a block when the blocks would not cover the
// SMs.
struct BlockSortLayout {
  int log2_items = 0, rows_per_block = 1, threads = 32;
  int64_t shared_bytes = 0;
};
std::optional<BlockSortLayout> PlanBlockSortLayout(const SortShape& s, int64_t width, bool staged, int64_t runs,
                                                   int sm_count);

// Shared memory a block sort's rows take (items, then staged values).
int64_t BlockSortSharedBytes(int64_t width, int rows_per_block, int64_t item_bytes, int64_t staged_bytes);

}  // namespace hlograph::gpu

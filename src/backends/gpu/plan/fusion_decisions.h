// Fusion: which values of a block get a buffer (are materialised) and
// which are computed inline inside the kernels that read them, and which
// ops another op's kernel computes (an attention kernel's scores and
// reductions, a product's epilogue, reductions in a product's prologue or
// a row kernel, slices a sort writes itself). Decided for a block before
// the planner lowers its ops to steps; the planner reads the result.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <vector>

#include "backends/gpu/plan/attention.h"
#include "backends/gpu/plan/flash_attention.h"
#include "backends/gpu/plan/program.h"
#include "backends/gpu/plan/sort_lowering.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct FusionDecisions {
  // Values with a buffer of their own (the rest are computed inline).
  std::set<const ir::Value*> materialized;
  // Reduces computed by the product kernel that reads them, to it.
  std::map<const ir::Operation*, const ir::Operation*> prologue_reduces;
  // Reduces computed by the row kernel (plan/row_fusion.h) of a loop root,
  // to it, and those roots.
  std::map<const ir::Operation*, const ir::Operation*> row_reduces;
  std::set<const ir::Operation*> row_roots;
  // Generated products with an epilogue: the product and the op ending it.
  std::map<const ir::Operation*, const ir::Operation*> dot_exit, exit_dot;
  // Attention kernels (plan/attention.h), by their values product; the
  // scores product, the two reductions and the updates in place each
  // computes, to that product (none is planned on its own).
  std::map<const ir::Operation*, SoftmaxAttention> attention;
  std::map<const ir::Operation*, const ir::Operation*> in_attention;
  // The updates in place each attention kernel stores (StoredByAttention),
  // in program order; in_attention names their kernel too.
  std::map<const ir::Operation*, std::vector<const ir::Operation*>> attention_stores;
  // Attention kernels of many queries (plan/flash_attention.h), by their
  // values product; in_attention names their scores product and reductions.
  std::map<const ir::Operation*, FlashAttention> flash;
  // The last move each stores through (FlashOutputMoves), by that move.
  std::map<const ir::Operation*, const ir::Operation*> flash_exit;
  // Sorts read only through slices of their first k positions, and those
  // slices (written by the sort's kernels).
  std::map<const ir::Operation*, SortSlices> sort_slices;
  std::set<const ir::Operation*> in_sort;

  // Whether flash attention product `dot2` stores through moves after it
  // (its kernel is then emitted where the last of them is).
  bool StoresThroughMoves(const ir::Operation& dot2) const;
};

// Decides for the ops of `block`, adding to `decisions` (which holds those
// of the blocks decided before). `has_buffer`: whether a value already has
// a buffer (arguments, values of enclosing blocks). `update_in_place`: the
// dynamic_update_slices the planner writes into their operand's buffer (a
// loop's state updated in place).
Status DecideFusion(const ir::Block& block, const std::function<bool(const ir::Value*)>& has_buffer,
                    const std::map<const ir::Operation*, BufferId>& update_in_place, FusionDecisions& decisions);

}  // namespace hlograph::gpu

// A sort or chlo.top_k as the kernels of its plan (plan/sort_plan.h): the
// planner emits the op's kernel as for any op (its operands, and the
// values computed inline in it, in; its results out), then LowerSort
// splits it into passes: the first reads the operands, the last writes
// the results, the ones between hand items over in temps.
//
// A sort whose every result is read only through slices of its first k
// sorted positions (what chlo.top_k's decomposition is: a sort by a GT
// compare with an iota, then two slices) is planned as keeping k: its
// kernels write the slices' values directly, and the select passes apply.
#pragma once

#include <optional>
#include <unordered_map>
#include <vector>

#include "backends/gpu/plan/program.h"
#include "backends/gpu/plan/sort_comparator.h"
#include "backends/gpu/plan/sort_plan.h"

namespace hlograph::gpu {

struct SortSlices {
  int64_t k = 0;
  // Per result, the slices reading it (all alike: [0, k) along the sort's
  // dimension, whole along the others, unit strides).
  std::vector<std::vector<const ir::Operation*>> slices;
};

using UsersOf = std::unordered_map<const ir::Value*, std::vector<const ir::Operation*>>;

// The slices `sort` (a stablehlo.sort) is read through, when every
// result is read by one or more such slices of the same k < n and by
// nothing else.
std::optional<SortSlices> MatchSortReadThroughSlices(const ir::Operation& sort, const UsersOf& users);

// The sort's dimension, row length and rows (chlo.top_k: its last
// dimension); an error names what is wrong.
struct SortGeometry {
  int64_t dim = 0, n = 0, rows = 0, keep = 0;
  std::vector<int64_t> row_shape;  // the operand's dims but `dim`
};
StatusOr<SortGeometry> SortGeometryOf(const ir::Operation& op, int64_t keep = -1);

// The order of `op` (a sort's comparator, or chlo.top_k's).
SortOrder SortOrderOf(const ir::Operation& op);

// Bytes of a general item: the compute-type values of the operands the
// comparator reads (largest alignment first), then the 32-bit position.
int64_t GeneralItemBytes(const ir::Operation& op, const SortOrder& order);
// Size and alignment of a value of t's compute type (codegen/elemental.h:
// float for the 16- and 8-bit floats).
int64_t ComputeBytes(ir::ElementType t);
int64_t ComputeAlignment(ir::ElementType t);

// Which operand result `i` of `op` holds (a sort: operand i), or -1 for
// the position (chlo.top_k's indices).
int SortResultSource(const ir::Operation& op, size_t i);

// Whether `v` is computed inside kernel `f` from no input at all (an
// iota): cheaper to compute at a position than to keep.
bool ComputedFromNoInput(const Fusion& f, const ir::Value* v);

// Splits the kernel of `step` (program.fusions[its fusion]: a kSort or
// kTopK computing the op, as the planner emits it) into the passes of the
// op's plan: `step` becomes the first pass; the passes after it are
// returned, to follow it in the sequence. With `slices`, the kernel's
// outputs become the slices' values (their buffers: the results').
StatusOr<std::vector<Step>> LowerSort(GpuProgram& program, Step& step, const SortSlices* slices, int sm_count);

}  // namespace hlograph::gpu

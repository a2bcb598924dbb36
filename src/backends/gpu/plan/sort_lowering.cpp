#include "backends/gpu/plan/sort_lowering.h"

#include <algorithm>

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

int64_t IntAttr(const ir::Operation& op, const std::string& name, int64_t fallback) {
  return ir::verify::IntAttr(op, name).value_or(fallback);
}

// The k of a slice of `v` that keeps [0, k) along `dim` and all of the other
// dims with unit strides, or -1.
int64_t PrefixSliceLength(const ir::Operation& slice, const ir::Value* v, int64_t dim) {
  if (slice.id() != ir::OpId::kSlice || slice.num_operands() != 1 || slice.operand(0) != v) return -1;
  const auto start = ir::verify::I64ArrayAttr(slice, "start_indices");
  const auto limit = ir::verify::I64ArrayAttr(slice, "limit_indices");
  auto strides = ir::verify::I64ArrayAttr(slice, "strides");
  const ir::Type& t = v->type();
  strides.resize(start.size(), 1);
  if (static_cast<int64_t>(start.size()) != t.rank() || limit.size() != start.size()) return -1;
  for (int64_t d = 0; d < t.rank(); ++d) {
    const size_t i = static_cast<size_t>(d);
    if (start[i] != 0 || strides[i] != 1) return -1;
    if (d != dim && limit[i] != t.dim(d)) return -1;
  }
  return limit[static_cast<size_t>(dim)];
}

// Whether something in `block` (or the regions within) reads `v`.
bool Read(const ir::Block& block, const ir::Value* v) {
  for (const auto& op : block.operations()) {
    if (std::find(op->operands().begin(), op->operands().end(), v) != op->operands().end()) return true;
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) {
        if (Read(*b, v)) return true;
      }
    }
  }
  return false;
}

ir::Type ItemsType(const SortPass& p, int64_t items) {
  return p.packed ? ir::Type::Tensor(ir::ElementType::kU64, {p.rows, items})
                  : ir::Type::Tensor(ir::ElementType::kU8, {p.rows, items, p.item_bytes});
}

}  // namespace

std::optional<SortSlices> MatchSortReadThroughSlices(const ir::Operation& sort, const UsersOf& users) {
  if (sort.id() != ir::OpId::kSort || sort.num_results() == 0) return std::nullopt;
  const int64_t dim = IntAttr(sort, "dimension", -1);
  const ir::Type& t = sort.result(0)->type();
  if (dim < 0 || dim >= t.rank()) return std::nullopt;
  SortSlices s;
  s.k = -1;
  for (size_t i = 0; i < sort.num_results(); ++i) {
    const ir::Value* r = sort.result(i);
    const auto it = users.find(r);
    if (it == users.end() || it->second.empty()) return std::nullopt;
    std::vector<const ir::Operation*> slices;
    for (const ir::Operation* u : it->second) {
      const int64_t k = PrefixSliceLength(*u, r, dim);
      if (k < 0 || (s.k >= 0 && k != s.k) || u->parent_block() != sort.parent_block()) return std::nullopt;
      s.k = k;
      slices.push_back(u);
    }
    s.slices.push_back(std::move(slices));
  }
  if (s.k < 0 || s.k >= t.dim(dim)) return std::nullopt;
  return s;
}

StatusOr<SortGeometry> SortGeometryOf(const ir::Operation& op, int64_t keep) {
  const bool top_k = op.id() == ir::OpId::kChloTopK;
  if (op.num_operands() == 0 || !op.operand(0)->type().IsTensor()) return Status::Error("expects tensor operands");
  const ir::Type& type = op.operand(0)->type();
  if (type.rank() < 1) return Status::Error("expects operands of rank 1 or more, got " + type.ToString());
  SortGeometry g;
  g.dim = top_k ? type.rank() - 1 : IntAttr(op, "dimension", -1);
  if (g.dim < 0 || g.dim >= type.rank()) {
    return Status::Error("expects a dimension within the operands' rank " + std::to_string(type.rank()));
  }
  for (const ir::Value* v : op.operands()) {
    if (v->type().shape() != type.shape()) return Status::Error("expects operands of one shape");
  }
  g.n = type.dim(g.dim);
  g.rows = g.n == 0 ? 0 : type.NumElements() / g.n;
  // Positions (and the padding past a row's end) fit an int.
  if (g.n >= (int64_t{1} << 30)) {
    return Status::Error("sorts rows of " + std::to_string(g.n) +
                         " elements; the GPU backend sorts rows of fewer than 2^30");
  }
  for (int64_t d = 0; d < type.rank(); ++d) {
    if (d != g.dim) g.row_shape.push_back(type.dim(d));
  }
  g.keep = g.n;
  if (top_k) g.keep = IntAttr(op, "k", -1);
  if (keep >= 0) g.keep = keep;
  if (g.keep < 0 || g.keep > g.n) {
    return Status::Error("keeps " + std::to_string(g.keep) + " of rows of " + std::to_string(g.n) + " elements");
  }
  return g;
}

SortOrder SortOrderOf(const ir::Operation& op) {
  if (op.id() == ir::OpId::kChloTopK) return TopKOrder(op.operand(0)->type().element());
  return AnalyzeSortComparator(op.region(0).front());
}

int64_t ComputeBytes(ir::ElementType t) {
  if (ir::IsComplex(t)) return ir::StorageBytes(t);
  if (ir::IsFloat(t)) return ir::BitWidth(t) == 64 ? 8 : 4;
  return std::max(1, ir::StorageBytes(t));
}

int64_t ComputeAlignment(ir::ElementType t) { return ComputeBytes(t); }

int64_t GeneralItemBytes(const ir::Operation& op, const SortOrder& order) {
  int64_t bytes = 0, align = 4;
  for (int j : order.read_operands) {
    const ir::ElementType t = op.operand(static_cast<size_t>(j))->type().element();
    bytes += ComputeBytes(t);  // largest alignment first: no padding between fields
    align = std::max(align, ComputeAlignment(t));
  }
  bytes += 4;  // the position
  return (bytes + align - 1) / align * align;
}

int SortResultSource(const ir::Operation& op, size_t i) {
  if (op.id() == ir::OpId::kChloTopK) return i == 0 ? 0 : -1;
  return static_cast<int>(i);
}

bool ComputedFromNoInput(const Fusion& f, const ir::Value* v) {
  if (std::find(f.inputs.begin(), f.inputs.end(), v) != f.inputs.end()) return false;
  const ir::Operation* def = v->defining_op();
  if (def == nullptr || std::find(f.ops.begin(), f.ops.end(), def) == f.ops.end()) return false;
  return std::all_of(def->operands().begin(), def->operands().end(),
                     [&](const ir::Value* o) { return ComputedFromNoInput(f, o); });
}

StatusOr<std::vector<Step>> LowerSort(GpuProgram& program, Step& step, const SortSlices* slices, int sm_count) {
  KernelStep& first = std::get<KernelStep>(step.action);
  const size_t first_fusion = static_cast<size_t>(first.fusion);
  const ir::Operation& op = *program.fusions[first_fusion].ops.back();
  HLOGRAPH_ASSIGN(const SortGeometry g, SortGeometryOf(op, slices ? slices->k : -1));
  const SortOrder order = SortOrderOf(op);
  {
    Fusion& f = program.fusions[first_fusion];
    // With slices, the kernel writes the slices' values into the results' buffers.
    if (slices != nullptr) {
      for (size_t i = 0; i < op.num_results(); ++i) {
        const ir::Value* s = slices->slices[i].front()->result(0);
        f.outputs[i] = s;
        f.output_types[i] = s->type();
        Buffer& b = program.buffers[static_cast<size_t>(first.outputs[i])];
        b.bytes = s->type().NumElements() * ir::StorageBytes(s->type().element());
        b.label += " (its first " + std::to_string(slices->k) + ")";
      }
    }
  }
  const Fusion& f = program.fusions[first_fusion];
  SortShape shape;
  shape.rows = g.rows;
  shape.n = g.n;
  shape.keep = g.keep;
  shape.packed = order.single_key;
  shape.selectable = shape.packed && g.keep <= kMaxSelectK;
  shape.item_bytes = shape.packed ? 8 : GeneralItemBytes(op, order);
  std::vector<bool> skip(op.num_results(), false);
  bool fetches = false;  // whether the last pass reads operands by position
  for (size_t i = 0; i < op.num_results(); ++i) {
    skip[i] = slices == nullptr && op.parent_block() != nullptr && !Read(*op.parent_block(), op.result(i));
    const int source = SortResultSource(op, i);
    if (skip[i]) continue;
    shape.write_bytes += ir::StorageBytes(f.output_types[i].element());
    if (source < 0) continue;
    const ir::Value* v = op.operand(static_cast<size_t>(source));
    const bool carried = !shape.packed && std::count(order.read_operands.begin(), order.read_operands.end(), source);
    if (!carried && !ComputedFromNoInput(f, v)) {
      shape.staged_bytes += ComputeBytes(v->type().element());
      fetches = true;
    }
  }
  for (const ir::Value* v : op.operands()) {
    if (!ComputedFromNoInput(f, v)) shape.read_bytes += ir::StorageBytes(v->type().element());
  }
  const SortPlan plan = PlanSort(shape, sm_count);
  if (plan.passes.empty()) {
    return Status::Error("sorts rows of " + std::to_string(g.n) + " elements whose items take " +
                         std::to_string(shape.item_bytes) + " bytes, which no block of the GPU holds");
  }
  std::vector<SortPass> passes = plan.passes;
  passes.back().skip_results = skip;
  program.fusions[first_fusion].sort = passes.front();
  if (passes.size() == 1) return std::vector<Step>{};

  // The last pass writes the results the first was given, and where it
  // fetches operands by position it reads the op's inputs too.
  const Fusion op_kernel = program.fusions[first_fusion];
  const KernelStep op_step = first;
  const auto items_buffer = [&](const SortPass& p, int64_t items) {
    Buffer b;
    b.kind = BufferKind::kTemp;
    b.bytes = p.rows * items * p.item_bytes;
    b.label = "items after pass " + std::to_string(p.index + 1) + "/" + std::to_string(p.count) + " of " + op.name() +
              (op.pos().valid() ? " at line " + std::to_string(op.pos().line) : "");
    return program.AddBuffer(std::move(b));
  };
  {
    Fusion& f0 = program.fusions[first_fusion];
    f0.outputs.clear();
    f0.output_types = {ItemsType(passes[0], passes[0].ItemsOut())};
    first.outputs = {items_buffer(passes[0], passes[0].ItemsOut())};
  }
  BufferId items = first.outputs[0];
  std::vector<Step> steps;
  for (size_t i = 1; i < passes.size(); ++i) {
    const SortPass& p = passes[i];
    Fusion next;
    next.kind = op_kernel.kind;
    next.name = "fusion_" + std::to_string(program.fusions.size());
    next.ops = op_kernel.ops;
    next.sort = p;
    KernelStep k;
    k.fusion = static_cast<int>(program.fusions.size());
    if (p.last() && fetches) {
      next.inputs = op_kernel.inputs;
      next.input_types = op_kernel.input_types;
      k.inputs = op_step.inputs;
    }
    next.input_types.push_back(ItemsType(passes[i - 1], p.ItemsIn()));
    k.inputs.push_back(items);
    if (p.last()) {
      for (size_t r = 0; r < op.num_results(); ++r) {
        next.outputs.push_back(slices ? slices->slices[r].front()->result(0) : op.result(r));
        next.output_types.push_back(next.outputs.back()->type());
      }
      k.outputs = op_step.outputs;
    } else {
      next.output_types = {ItemsType(p, p.ItemsOut())};
      items = items_buffer(p, p.ItemsOut());
      k.outputs = {items};
    }
    program.fusions.push_back(std::move(next));
    Step s;
    s.op = &op;
    s.action = std::move(k);
    steps.push_back(std::move(s));
  }
  return steps;
}

}  // namespace hlograph::gpu

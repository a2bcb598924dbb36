#include "backends/gpu/plan/row_fusion.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include "backends/gpu/plan/plan_options.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

// A dim's place in root's index: row dim k (>= 0), or anything else.
constexpr int kNotARow = -1;
using Labels = std::vector<int>;

int64_t Product(const std::vector<int64_t>& shape, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t d = from; d < to; ++d) n *= shape[d];
  return n;
}

// The labels of `operand`'s dims when `op`'s result has `result`, or
// nullopt where the op reads its operand at an index that is no map of
// the result's dims carried through (a slice, a gather, a reduction).
std::optional<Labels> OperandLabels(const ir::Operation& op, const ir::Value* operand, const Labels& result,
                                    const std::function<bool(const ir::Operation&)>& is_elementwise) {
  const ir::Type& out = op.result(0)->type();
  const ir::Type& in = operand->type();
  if (!in.IsTensor() || in.rank() == 0) return Labels{};
  const ir::OpId name = op.id();
  if (name == ir::OpId::kReduce) {
    // A row reduction (the only reduce walked): its operand at (row, the
    // folded index); its init value is a scalar.
    if (operand != op.operand(0)) return std::nullopt;
    Labels l(static_cast<size_t>(in.rank()), kNotARow);
    std::copy(result.begin(), result.end(), l.begin());
    return l;
  }
  if (is_elementwise(op)) {
    if (in.shape() != out.shape()) return std::nullopt;
    return result;
  }
  if (operand != op.operand(0)) return std::nullopt;
  if (name == ir::OpId::kBroadcastInDim) {
    const std::vector<int64_t> dims = ir::verify::I64ArrayAttr(op, "broadcast_dimensions");
    if (dims.size() != static_cast<size_t>(in.rank())) return std::nullopt;
    Labels l(dims.size(), kNotARow);
    for (size_t j = 0; j < dims.size(); ++j) {
      if (dims[j] < 0 || dims[j] >= out.rank()) return std::nullopt;
      if (in.dim(static_cast<int64_t>(j)) == out.dim(dims[j])) l[j] = result[static_cast<size_t>(dims[j])];
    }
    return l;
  }
  if (name == ir::OpId::kTranspose) {
    const std::vector<int64_t> perm = ir::verify::I64ArrayAttr(op, "permutation");
    if (perm.size() != result.size()) return std::nullopt;
    Labels l(perm.size(), kNotARow);
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] < 0 || perm[i] >= in.rank()) return std::nullopt;
      l[static_cast<size_t>(perm[i])] = result[i];
    }
    return l;
  }
  if (name == ir::OpId::kReshape) {
    // Only dims of size 1 added or dropped: the others keep their order.
    std::vector<size_t> in_dims, out_dims;
    for (int64_t d = 0; d < in.rank(); ++d) {
      if (in.dim(d) != 1) in_dims.push_back(static_cast<size_t>(d));
    }
    for (int64_t d = 0; d < out.rank(); ++d) {
      if (out.dim(d) != 1) out_dims.push_back(static_cast<size_t>(d));
    }
    if (in_dims.size() != out_dims.size()) return std::nullopt;
    Labels l(static_cast<size_t>(in.rank()), kNotARow);
    for (size_t k = 0; k < in_dims.size(); ++k) {
      if (in.dim(static_cast<int64_t>(in_dims[k])) != out.dim(static_cast<int64_t>(out_dims[k]))) return std::nullopt;
      l[in_dims[k]] = result[out_dims[k]];
    }
    return l;
  }
  return std::nullopt;
}

// A row reduction's result read at `labels`: its dims of more than one
// element must be root's row dims, in order.
bool AtItsRow(const ir::Type& reduced, const Labels& labels) {
  if (labels.size() != static_cast<size_t>(reduced.rank())) return false;
  for (int64_t d = 0; d < reduced.rank(); ++d) {
    if (reduced.dim(d) != 1 && labels[static_cast<size_t>(d)] != d) return false;
  }
  return true;
}

}  // namespace

std::optional<RowShape> RowReductionShape(const ir::Operation& reduce) {
  if (reduce.id() != ir::OpId::kReduce || reduce.num_operands() != 2 || reduce.num_results() != 1 ||
      reduce.num_regions() != 1 || reduce.region(0).empty()) {
    return std::nullopt;
  }
  const ir::Type& in = reduce.operand(0)->type();
  const ir::Type& out = reduce.result(0)->type();
  const ElementType e = in.element();
  if (!in.IsTensor() || in.IsQuantized() || out.element() != e ||
      (e != ElementType::kF32 && e != ElementType::kBF16 && e != ElementType::kF16)) {
    return std::nullopt;
  }
  std::vector<int64_t> dims = ir::verify::I64ArrayAttr(reduce, "dimensions");
  std::sort(dims.begin(), dims.end());
  const int64_t kept = in.rank() - static_cast<int64_t>(dims.size());
  if (dims.empty() || kept < 1 || out.rank() != kept) return std::nullopt;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != kept + static_cast<int64_t>(i)) return std::nullopt;  // the trailing dims, each once
  }
  RowShape s;
  s.row_rank = static_cast<int>(kept);
  s.rows = Product(in.shape(), 0, static_cast<size_t>(kept));
  s.cols = Product(in.shape(), static_cast<size_t>(kept), static_cast<size_t>(in.rank()));
  return s;
}

bool RowKernelWorthIt(const RowShape& shape) {
  return shape.rows >= kRowKernelMinRows && shape.cols >= kRowKernelMinCols &&
         shape.cols <= kRowKernelMaxRowBytes / 4;
}

bool ReadsRowReductionsAtTheirRow(const ir::Operation& root, int row_rank,
                                  const std::function<bool(const ir::Value*)>& computed_inline,
                                  const std::function<bool(const ir::Operation&)>& is_row_reduce,
                                  const std::function<bool(const ir::Operation&)>& is_elementwise) {
  if (root.num_results() != 1 || !root.result(0)->type().IsTensor()) return false;
  const int64_t rank = root.result(0)->type().rank();
  Labels start(static_cast<size_t>(rank), kNotARow);
  for (int d = 0; d < row_rank && d < rank; ++d) start[static_cast<size_t>(d)] = d;
  std::set<std::pair<const ir::Value*, Labels>> seen;
  std::vector<std::pair<const ir::Operation*, Labels>> work = {{&root, start}};  // an op and its result's labels
  while (!work.empty()) {
    const auto [op, labels] = work.back();
    work.pop_back();
    for (const ir::Value* v : op->operands()) {
      const ir::Operation* def = v->defining_op();
      if (def == nullptr) continue;
      const std::optional<Labels> at = OperandLabels(*op, v, labels, is_elementwise);
      if (is_row_reduce(*def)) {
        // Read at its row, then its operand at (row, folded index).
        if (!at || !AtItsRow(v->type(), *at)) return false;
        if (seen.insert({v, *at}).second) work.emplace_back(def, *at);
        continue;
      }
      if (!computed_inline(v)) continue;  // read from memory: any index
      if (!at) {
        // Read at an index no map carries: fine unless a row reduction is
        // behind it.
        std::vector<const ir::Value*> stack = {v};
        std::set<const ir::Value*> visited;
        while (!stack.empty()) {
          const ir::Value* u = stack.back();
          stack.pop_back();
          const ir::Operation* d = u->defining_op();
          if (d == nullptr || !visited.insert(u).second) continue;
          if (is_row_reduce(*d)) return false;
          if (!computed_inline(u)) continue;
          for (const ir::Value* w : d->operands()) stack.push_back(w);
        }
        continue;
      }
      if (seen.insert({v, *at}).second) work.emplace_back(def, *at);
    }
  }
  return true;
}

std::string RowKernelLayout::ToString() const {
  std::string s = "rows (block of " + std::to_string(threads) + " per row of " + std::to_string(cols) + ", ";
  if (resident_vectors > 0) return s + std::to_string(resident_vectors) + " vectors of 4 a thread held in registers)";
  if (stage_in_shared) return s + "the row staged in shared memory)";
  return s + std::to_string(loads_in_flight) + " loads in flight a thread)";
}

RowKernelLayout PlanRowKernel(int64_t rows, int64_t cols) {
  RowKernelLayout l;
  l.rows = rows;
  l.cols = cols;
  // About 8 elements a thread in flight (HBM latency wants several loads
  // per thread), in blocks of 128 or 256 threads: at 4 blocks an SM (the
  // kernel asks for 1024 threads an SM's worth of registers) that keeps
  // 528 rows in flight on 132 SMs. HLOGRAPH_GPU_ROW_THREADS (32 to 1024,
  // a multiple of 32) overrides.
  l.threads = 128;
  while (l.threads < 256 && static_cast<int64_t>(l.threads) * 8 < cols) l.threads *= 2;
  const PlanOptions& options = PlanOptions::Current();
  if (options.row_threads > 0) l.threads = options.row_threads;
  // Rows whose vectors fit the registers of a block of at most 1024
  // threads: the fewest threads (the most blocks an SM) that hold them.
  const int64_t vectors = cols / 4;
  const bool env_threads = options.row_threads > 0;
  if (cols % 4 == 0) {
    if (!env_threads && vectors <= 1024 * kRowKernelTargetResidentVectors) {
      l.threads = 128;
      while (l.threads < 1024 && l.threads * int64_t{kRowKernelTargetResidentVectors} < vectors) l.threads *= 2;
    }
    const int64_t held = (vectors + l.threads - 1) / l.threads;
    if (held <= (env_threads ? kRowKernelMaxResidentVectors : kRowKernelTargetResidentVectors)) {
      l.resident_vectors = static_cast<int>(held);
    }
  }
  if (options.row_cache_shared && cols % 4 == 0) {
    l.stage_in_shared = true;
    l.resident_vectors = 0;
    if (!env_threads) l.threads = 512;
  }
  const int64_t per_thread = (cols + l.threads - 1) / l.threads;
  l.loads_in_flight = static_cast<int>(std::clamp<int64_t>(per_thread, 1, 8));
  return l;
}

}  // namespace hlograph::gpu

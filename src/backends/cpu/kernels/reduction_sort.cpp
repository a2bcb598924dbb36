// sort: every 1-D slice along `dimension` is sorted by the comparator, and
// all operands are permuted alike. The sort is always stable (XLA sorts
// stably when is_stable is set, and a stable order is one of the orders it
// may produce otherwise).
#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/reduction_body.h"

namespace hlograph::cpu::reduction {
namespace {

// A stable merge sort of `v` by `less`. Unlike std::stable_sort it stays in
// bounds whatever the comparator answers (comparators come from programs,
// and need not be strict weak orders).
template <typename Less>
void StableSort(std::vector<int64_t>& v, std::vector<int64_t>& buffer, Less& less) {
  const size_t n = v.size();
  constexpr size_t kRun = 16;
  for (size_t lo = 0; lo < n; lo += kRun) {
    const size_t hi = std::min(lo + kRun, n);
    for (size_t i = lo + 1; i < hi; ++i) {
      const int64_t x = v[i];
      size_t j = i;
      while (j > lo && less(x, v[j - 1])) {
        v[j] = v[j - 1];
        --j;
      }
      v[j] = x;
    }
  }
  buffer.resize(n);
  for (size_t width = kRun; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      const size_t mid = std::min(lo + width, n);
      const size_t hi = std::min(lo + 2 * width, n);
      if (mid == hi || !less(v[mid], v[mid - 1])) {
        // Already in order (or a lone run).
        std::copy(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(hi),
                  buffer.begin() + static_cast<std::ptrdiff_t>(lo));
        continue;
      }
      size_t i = lo;
      size_t j = mid;
      size_t k = lo;
      while (i < mid && j < hi) buffer[k++] = less(v[j], v[i]) ? v[j++] : v[i++];
      while (i < mid) buffer[k++] = v[i++];
      while (j < hi) buffer[k++] = v[j++];
    }
    v.swap(buffer);
  }
}

}  // namespace

Status SortKernel(KernelContext& ctx) {
  const size_t num = ctx.operands.size();
  if (num == 0 || ctx.op.num_results() != num || ctx.op.num_regions() != 1) {
    return ctx.Error("expects N inputs, N results and a comparator");
  }
  const std::vector<int64_t>& shape = ctx.operand(0).shape();
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t dim = IntAttr(ctx.op, "dimension", -1);
  if (dim < -rank || dim >= rank) {
    return ctx.Error("has dimension " + std::to_string(dim) + " outside [" + std::to_string(-rank) + ", " +
                     std::to_string(rank) + ")");
  }
  if (dim < 0) dim += rank;
  for (size_t k = 0; k < num; ++k) {
    if (ctx.operand(k).shape() != shape || ctx.result_type(k) != ctx.operand(k).type()) {
      return ctx.Error("expects inputs of one shape and results of the inputs' types");
    }
    ctx.results.emplace_back(ctx.result_type(k));
  }
  if (ctx.operand(0).num_elements() == 0) return Status::Ok();

  RegionEvaluator compare(ctx.op.region(0), ctx.interpreter);
  if (compare.num_args() != 2 * num || compare.num_results() != 1) {
    return ctx.Error("expects the comparator to take " + std::to_string(2 * num) + " scalars and return one");
  }
  const int64_t n = shape[static_cast<size_t>(dim)];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t outer = ctx.operand(0).num_elements() / (n * inner);

  std::vector<LoadFn> loaders;
  std::vector<size_t> widths;
  for (size_t k = 0; k < num; ++k) {
    loaders.push_back(LoaderFor(ctx.operand(k).element()));
    widths.push_back(static_cast<size_t>(ir::StorageBytes(ctx.operand(k).element())));
  }
  // One slice's values per operand, loaded once so comparisons only copy.
  std::vector<std::vector<Scalar>> columns(num, std::vector<Scalar>(static_cast<size_t>(n)));
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::vector<int64_t> buffer;
  std::unique_ptr<SortComparator> fast = SortComparator::Make(compare);
  auto fast_less = [&](int64_t a, int64_t b) { return fast->Less(a, b); };
  Scalar* args = compare.args();
  Status status;
  auto less = [&](int64_t a, int64_t b) {
    if (!status.ok()) return false;
    for (size_t k = 0; k < num; ++k) {
      args[2 * k] = columns[k][static_cast<size_t>(a)];
      args[2 * k + 1] = columns[k][static_cast<size_t>(b)];
    }
    status = compare.Run();
    return status.ok() && compare.result(0).i != 0;
  };
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      for (size_t k = 0; k < num; ++k) {
        for (int64_t j = 0; j < n; ++j) loaders[k](ctx.operand(k).bytes(), base + j * inner, columns[k][static_cast<size_t>(j)]);
      }
      std::iota(perm.begin(), perm.end(), int64_t{0});
      if (fast) {
        fast->Prepare(columns);
        StableSort(perm, buffer, fast_less);
      } else {
        StableSort(perm, buffer, less);
        HLOGRAPH_TRY(status);
      }
      for (size_t k = 0; k < num; ++k) {
        const uint8_t* in = ctx.operand(k).bytes();
        uint8_t* out = ctx.results[k].mutable_bytes();
        const size_t w = widths[k];
        for (int64_t j = 0; j < n; ++j) {
          std::memcpy(out + static_cast<size_t>(base + j * inner) * w,
                      in + static_cast<size_t>(base + perm[static_cast<size_t>(j)] * inner) * w, w);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace hlograph::cpu::reduction

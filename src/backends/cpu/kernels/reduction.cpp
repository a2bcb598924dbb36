// reduce and map, and the registration of the reduction family
// (reduce_window and select_and_scatter: reduction_window.cpp; sort:
// reduction_sort.cpp).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/reduction_body.h"

namespace hlograph::cpu {
namespace {

using reduction::ApplyBinOp;
using reduction::BinOp;
using reduction::DispatchBinOp;
using reduction::LoaderFor;
using reduction::LoadFn;
using reduction::RegionEvaluator;
using reduction::Scalar;
using reduction::StoreFn;
using reduction::StorerFor;

// The input of a reduce as runs of dims that are all reduced or all kept
// (size-1 dims dropped), with each kept group's stride in the result.
struct Group {
  int64_t size;
  bool reduced;
  int64_t out_stride;  // 0 for reduced groups
};

std::vector<Group> GroupDims(const std::vector<int64_t>& shape, const std::vector<bool>& reduced) {
  std::vector<Group> groups;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!groups.empty() && groups.back().reduced == reduced[d]) {
      groups.back().size *= shape[d];
    } else {
      groups.push_back({shape[d], reduced[d], 0});
    }
  }
  if (groups.empty()) groups.push_back({1, false, 0});
  int64_t stride = 1;
  for (size_t g = groups.size(); g-- > 0;) {
    if (!groups[g].reduced) {
      groups[g].out_stride = stride;
      stride *= groups[g].size;
    }
  }
  return groups;
}

// Walks a non-empty input in row-major order as runs of the innermost
// group: fn(in_offset, out_offset, count, inner_reduced) covers inputs
// in_offset.. +count, which all go to out_offset when inner_reduced and to
// out_offset.. +count otherwise. Each result thus sees its inputs in
// row-major order. fn returns false to stop.
template <typename Fn>
void ForEachRun(const std::vector<Group>& groups, Fn&& fn) {
  const size_t outer = groups.size() - 1;
  const Group& last = groups.back();
  std::vector<int64_t> index(outer, 0);
  int64_t in = 0;
  int64_t out = 0;
  while (true) {
    if (!fn(in, out, last.size, last.reduced)) return;
    in += last.size;
    size_t d = outer;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < groups[d].size) {
        out += groups[d].out_stride;
        break;
      }
      out -= (groups[d].size - 1) * groups[d].out_stride;
      index[d] = 0;
    }
  }
}

// Every element of `t` set to the scalar `value` (same element type).
void FillWith(Tensor& t, const Tensor& value) {
  const size_t width = static_cast<size_t>(ir::StorageBytes(t.element()));
  uint8_t* out = t.mutable_bytes();
  for (int64_t i = 0; i < t.num_elements(); ++i) std::memcpy(out + static_cast<size_t>(i) * width, value.bytes(), width);
}

template <typename T, BinOp kOp>
void ReduceTyped(const Tensor& input, const Tensor& init, const std::vector<Group>& groups, Tensor& result) {
  using C = ComputeType<T>;
  const T* in = input.data<T>();
  const int64_t out_count = result.num_elements();
  // Accumulate in the compute type (f32 for narrow floats), rounding once.
  std::unique_ptr<C[]> acc(new C[static_cast<size_t>(out_count)]);
  const C init_value = Load(init.data<T>()[0]);
  for (int64_t o = 0; o < out_count; ++o) acc[o] = init_value;
  ForEachRun(groups, [&](int64_t i, int64_t o, int64_t count, bool inner_reduced) {
    const T* src = in + i;
    if (inner_reduced) {
      C a = acc[o];
      for (int64_t j = 0; j < count; ++j) a = ApplyBinOp<kOp>(a, Load(src[j]));
      acc[o] = a;
    } else {
      C* dst = acc.get() + o;
      for (int64_t j = 0; j < count; ++j) dst[j] = ApplyBinOp<kOp>(dst[j], Load(src[j]));
    }
    return true;
  });
  T* out = result.mutable_data<T>();
  for (int64_t o = 0; o < out_count; ++o) out[o] = Store<T>(acc[o]);
}

void ReduceFast(const Tensor& input, const Tensor& init, BinOp op, const std::vector<Group>& groups, Tensor& result) {
  DispatchElementType(input.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    DispatchBinOp(op, [&](auto op_tag) {
      constexpr BinOp kOp = decltype(op_tag)::value;
      if constexpr (reduction::kBinOpSuits<kOp, T>) ReduceTyped<T, kOp>(input, init, groups, result);
    });
  });
  reduction::WrapSubByteIntegers(result);
}

Status ReduceGeneric(KernelContext& ctx, size_t n, const std::vector<Group>& groups, std::vector<Tensor>& results) {
  RegionEvaluator body(ctx.op.region(0), ctx.interpreter);
  if (body.num_args() != 2 * n || body.num_results() != n) {
    return ctx.Error("expects the body to take " + std::to_string(2 * n) + " scalars and return " + std::to_string(n));
  }
  std::vector<LoadFn> loaders;
  std::vector<const uint8_t*> inputs;
  const int64_t out_count = results[0].num_elements();
  std::vector<Scalar> acc(static_cast<size_t>(out_count) * n);
  for (size_t k = 0; k < n; ++k) {
    loaders.push_back(LoaderFor(ctx.operand(k).element()));
    inputs.push_back(ctx.operand(k).bytes());
    Scalar init;
    loaders[k](ctx.operand(n + k).bytes(), 0, init);
    for (int64_t o = 0; o < out_count; ++o) acc[static_cast<size_t>(o) * n + k] = init;
  }
  Scalar* args = body.args();
  Status status;
  ForEachRun(groups, [&](int64_t i, int64_t o, int64_t count, bool inner_reduced) {
    for (int64_t j = 0; j < count; ++j) {
      Scalar* a = &acc[static_cast<size_t>(inner_reduced ? o : o + j) * n];
      for (size_t k = 0; k < n; ++k) {
        args[k] = a[k];
        loaders[k](inputs[k], i + j, args[n + k]);
      }
      status = body.Run();
      if (!status.ok()) return false;
      for (size_t k = 0; k < n; ++k) a[k] = body.result(k);
    }
    return true;
  });
  HLOGRAPH_TRY(status);
  for (size_t k = 0; k < n; ++k) {
    StoreFn store = StorerFor(results[k].element());
    uint8_t* out = results[k].mutable_bytes();
    for (int64_t o = 0; o < out_count; ++o) store(out, o, acc[static_cast<size_t>(o) * n + k]);
  }
  return Status::Ok();
}

Status ReduceKernel(KernelContext& ctx) {
  const size_t num_operands = ctx.operands.size();
  if (num_operands == 0 || num_operands % 2 != 0 || ctx.op.num_results() != num_operands / 2 ||
      ctx.op.num_regions() != 1) {
    return ctx.Error("expects N inputs, N init values and N results");
  }
  const size_t n = num_operands / 2;
  const std::vector<int64_t>& shape = ctx.operand(0).shape();
  const auto rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t d : I64Array(ctx.op, "dimensions")) {
    if (d < 0 || d >= rank || reduced[static_cast<size_t>(d)]) {
      return ctx.Error("has an invalid or repeated dimension " + std::to_string(d));
    }
    reduced[static_cast<size_t>(d)] = true;
  }
  std::vector<int64_t> out_shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) out_shape.push_back(shape[d]);
  }
  for (size_t k = 0; k < n; ++k) {
    const Tensor& input = ctx.operand(k);
    const Tensor& init = ctx.operand(n + k);
    // Quantized results hold their stored integers: compared as those.
    if (input.shape() != shape || init.num_elements() != 1 || init.element() != input.element() ||
        ctx.result_type(k).StorageType() != ir::Type::Tensor(input.element(), out_shape)) {
      return ctx.Error("has inputs, init values or results of mismatched types");
    }
    ctx.results.emplace_back(ctx.result_type(k));
  }
  if (ctx.operand(0).num_elements() == 0) {
    // Nothing to reduce: every result is its init value.
    for (size_t k = 0; k < n; ++k) FillWith(ctx.results[k], ctx.operand(n + k));
    return Status::Ok();
  }
  const std::vector<Group> groups = GroupDims(shape, reduced);
  if (std::optional<std::vector<BinOp>> ops = reduction::MatchReducer(ctx.op.region(0))) {
    for (size_t k = 0; k < n; ++k) ReduceFast(ctx.operand(k), ctx.operand(n + k), (*ops)[k], groups, ctx.results[k]);
    return Status::Ok();
  }
  return ReduceGeneric(ctx, n, groups, ctx.results);
}

// ---------------------------------------------------------------------------
// map

template <typename T, BinOp kOp>
void MapTyped(const Tensor& a, const Tensor& b, Tensor& result) {
  const T* x = a.data<T>();
  const T* y = b.data<T>();
  T* out = result.mutable_data<T>();
  for (int64_t i = 0; i < result.num_elements(); ++i) out[i] = Store<T>(ApplyBinOp<kOp>(Load(x[i]), Load(y[i])));
}

Status MapKernel(KernelContext& ctx) {
  const size_t n = ctx.operands.size();
  if (n == 0 || ctx.op.num_results() != 1 || ctx.op.num_regions() != 1) {
    return ctx.Error("expects at least one input, one result and a body");
  }
  const ir::Type& result_type = ctx.result_type(0);
  for (size_t k = 0; k < n; ++k) {
    if (ctx.operand(k).shape() != result_type.shape()) return ctx.Error("expects inputs of the result's shape");
  }
  const std::vector<int64_t> dims = I64Array(ctx.op, "dimensions");
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] != static_cast<int64_t>(d) || dims.size() != result_type.shape().size()) {
      return ctx.Error("expects dimensions to list every dimension in order");
    }
  }
  ctx.results.emplace_back(result_type);
  Tensor& result = ctx.results[0];
  if (result.num_elements() == 0) return Status::Ok();

  if (n == 2 && ctx.operand(0).element() == result.element() && ctx.operand(1).element() == result.element()) {
    if (std::optional<std::vector<BinOp>> ops = reduction::MatchReducer(ctx.op.region(0))) {
      DispatchElementType(result.element(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        DispatchBinOp((*ops)[0], [&](auto op_tag) {
          constexpr BinOp kOp = decltype(op_tag)::value;
          if constexpr (reduction::kBinOpSuits<kOp, T>) MapTyped<T, kOp>(ctx.operand(0), ctx.operand(1), result);
        });
      });
      reduction::WrapSubByteIntegers(result);
      return Status::Ok();
    }
  }

  RegionEvaluator body(ctx.op.region(0), ctx.interpreter);
  if (body.num_args() != n || body.num_results() != 1) {
    return ctx.Error("expects the body to take " + std::to_string(n) + " scalars and return one");
  }
  std::vector<LoadFn> loaders;
  for (size_t k = 0; k < n; ++k) loaders.push_back(LoaderFor(ctx.operand(k).element()));
  const StoreFn store = StorerFor(result.element());
  Scalar* args = body.args();
  uint8_t* out = result.mutable_bytes();
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    for (size_t k = 0; k < n; ++k) loaders[k](ctx.operand(k).bytes(), i, args[k]);
    HLOGRAPH_TRY(body.Run());
    store(out, i, body.result(0));
  }
  return Status::Ok();
}

}  // namespace

void RegisterReductionKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kReduce, &ReduceKernel);
  r.Register(ir::OpId::kReduceWindow, &reduction::ReduceWindowKernel);
  r.Register(ir::OpId::kSelectAndScatter, &reduction::SelectAndScatterKernel);
  r.Register(ir::OpId::kSort, &reduction::SortKernel);
  r.Register(ir::OpId::kMap, &MapKernel);
}

}  // namespace hlograph::cpu

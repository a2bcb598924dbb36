// reduce_window and select_and_scatter.
//
// reduce_window follows the StableHLO spec: the input is padded (and base
// dilated) with the init values, so positions of a window that fall in the
// padding or between dilated elements contribute the init value, in
// row-major window order. select_and_scatter follows XLA: padding is never
// selected, and a window made only of padding scatters nothing.
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/reduction_body.h"
#include "ir/verify/verify_util.h"

namespace hlograph::cpu::reduction {
namespace {

// More window positions than this in one op would take hours, and windows
// longer than this would not fit in memory; such ops (only reachable with
// huge windows over padding) are refused.
constexpr int64_t kMaxWindowWork = int64_t{1} << 37;
constexpr int64_t kMaxWindowSize = int64_t{1} << 26;

struct WindowDim {
  int64_t out_size = 0;
  int64_t size = 1;
  int64_t stride = 1;
  int64_t base_dilation = 1;
  int64_t window_dilation = 1;
  int64_t pad_low = 0;
  int64_t dilated_input = 0;  // (input - 1) * base_dilation + 1, or 0
  int64_t input_stride = 1;   // row-major, in elements
};

// The window of each dimension, checked against the input and output
// shapes (result index o of dim d reads padded positions
// o * stride + k * window_dilation for k < size).
StatusOr<std::vector<WindowDim>> ReadWindow(const ir::Operation& op, const std::vector<int64_t>& in_shape,
                                            const std::vector<int64_t>& out_shape, bool has_dilations) {
  namespace v = ir::verify;
  const auto rank = static_cast<int64_t>(in_shape.size());
  constexpr std::string_view kRank = "the input rank";
  HLOGRAPH_ASSIGN(const std::vector<int64_t> sizes, v::WindowAttr(op, "window_dimensions", rank, kRank));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> strides, v::WindowAttr(op, "window_strides", rank, kRank));
  std::vector<int64_t> base(in_shape.size(), 1);
  std::vector<int64_t> dilations(in_shape.size(), 1);
  if (has_dilations) {
    HLOGRAPH_ASSIGN(base, v::WindowAttr(op, "base_dilations", rank, kRank));
    HLOGRAPH_ASSIGN(dilations, v::WindowAttr(op, "window_dilations", rank, kRank));
  }
  HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", rank));
  if (padding.size() != in_shape.size() || out_shape.size() != in_shape.size()) {
    return Status::Error("expects padding and a result of the input's rank");
  }
  const std::vector<int64_t> in_strides = RowMajorStrides(in_shape);
  std::vector<WindowDim> dims;
  for (size_t d = 0; d < in_shape.size(); ++d) {
    const v::WindowDim w{sizes[d], strides[d], padding[d].first, padding[d].second, base[d], dilations[d]};
    const std::optional<int64_t> n = v::NumWindows(in_shape[d], w);
    if (!n || *n != out_shape[d]) {
      return Status::Error("expects dimension " + std::to_string(d) + " of the result to be " +
                           (n ? std::to_string(*n) : std::string("computable")) + ", got " +
                           std::to_string(out_shape[d]));
    }
    WindowDim wd;
    wd.out_size = *n;
    wd.size = sizes[d];
    wd.stride = strides[d];
    wd.base_dilation = base[d];
    wd.window_dilation = dilations[d];
    wd.pad_low = padding[d].first;
    wd.dilated_input = in_shape[d] == 0 ? 0 : (in_shape[d] - 1) * base[d] + 1;  // NumWindows checked overflow
    wd.input_stride = in_strides[d];
    dims.push_back(wd);
  }
  return dims;
}

// Refuses sweeps too large to finish.
Status CheckWork(const std::vector<WindowDim>& dims) {
  int64_t work = 1;
  for (const WindowDim& w : dims) {
    if (w.out_size == 0) return Status::Ok();
  }
  for (const WindowDim& w : dims) {
    if (w.size > kMaxWindowSize) {
      return Status::Error("has a window of " + std::to_string(w.size) + " positions along one dimension, more than " +
                           std::to_string(kMaxWindowSize) + " the interpreter evaluates");
    }
    for (int64_t f : {w.out_size, w.size}) {
      std::optional<int64_t> next = ir::verify::CheckedMul(work, f);
      if (!next || *next > kMaxWindowWork) {
        return Status::Error("sweeps more than " + std::to_string(kMaxWindowWork) +
                             " window positions in total, too many to evaluate");
      }
      work = *next;
    }
  }
  return Status::Ok();
}

// The input offset contribution of each window position of dim `w` for
// result index `o`, or -1 where the position is padding or a dilation hole.
void WindowEntries(const WindowDim& w, int64_t o, std::vector<int64_t>& entries) {
  // q = p - pad_low in wrapping arithmetic: p < 2^63 and q, where valid, is
  // in [0, dilated_input), so one unsigned compare tells valid positions.
  const uint64_t minus_low = uint64_t{0} - static_cast<uint64_t>(w.pad_low);
  const auto limit = static_cast<uint64_t>(w.dilated_input);
  const auto base = static_cast<uint64_t>(w.base_dilation);
  for (int64_t k = 0; k < w.size; ++k) {
    const int64_t p = o * w.stride + k * w.window_dilation;
    const uint64_t q = static_cast<uint64_t>(p) + minus_low;
    if (q < limit && (base == 1 || q % base == 0)) {
      entries[static_cast<size_t>(k)] = static_cast<int64_t>(q / base) * w.input_stride;
    } else {
      entries[static_cast<size_t>(k)] = -1;
    }
  }
}

// Sweeps the windows: for every result index (row-major), fn(result_offset,
// window) where window visits the positions (see Window::Visit).
class Window {
 public:
  explicit Window(const std::vector<WindowDim>& dims) : dims_(dims), entries_(dims.size()), tail_(dims.size() + 1, 1) {
    for (size_t d = dims.size(); d-- > 0;) tail_[d] = tail_[d + 1] * dims[d].size;
  }

  // visit(offset) for input positions and pad(count) for runs of padding,
  // in row-major window order; either returns false to stop.
  template <typename VisitFn, typename PadFn>
  bool Visit(VisitFn& visit, PadFn& pad) const {
    if (dims_.empty()) return visit(int64_t{0});
    return VisitDim(0, 0, visit, pad);
  }

  template <typename Fn>
  bool ForEachResult(Fn&& fn) {
    int64_t count = 1;
    for (const WindowDim& w : dims_) count *= w.out_size;
    if (count == 0) return true;
    std::vector<int64_t> index(dims_.size(), 0);
    for (size_t d = 0; d < dims_.size(); ++d) {
      entries_[d].resize(static_cast<size_t>(dims_[d].size));
      WindowEntries(dims_[d], 0, entries_[d]);
    }
    for (int64_t o = 0; o < count; ++o) {
      if (!fn(o)) return false;
      for (size_t d = dims_.size(); d-- > 0;) {
        if (++index[d] < dims_[d].out_size) {
          WindowEntries(dims_[d], index[d], entries_[d]);
          break;
        }
        index[d] = 0;
        WindowEntries(dims_[d], 0, entries_[d]);
      }
    }
    return true;
  }

 private:
  template <typename VisitFn, typename PadFn>
  bool VisitDim(size_t d, int64_t base, VisitFn& visit, PadFn& pad) const {
    const std::vector<int64_t>& e = entries_[d];
    if (d + 1 == dims_.size()) {
      for (int64_t x : e) {
        if (!(x < 0 ? pad(int64_t{1}) : visit(base + x))) return false;
      }
      return true;
    }
    for (int64_t x : e) {
      if (!(x < 0 ? pad(tail_[d + 1]) : VisitDim(d + 1, base + x, visit, pad))) return false;
    }
    return true;
  }

  const std::vector<WindowDim>& dims_;
  std::vector<std::vector<int64_t>> entries_;
  std::vector<int64_t> tail_;  // window positions in dims d.. (product of sizes)
};

// ---------------------------------------------------------------------------
// reduce_window

template <typename T, BinOp kOp>
void ReduceWindowTyped(const Tensor& input, const Tensor& init, const std::vector<WindowDim>& dims, Tensor& result) {
  using C = ComputeType<T>;
  const T* in = input.data<T>();
  const C init_value = Load(init.data<T>()[0]);
  T* out = result.mutable_data<T>();
  C acc = init_value;
  auto visit = [&](int64_t offset) {
    acc = ApplyBinOp<kOp>(acc, Load(in[offset]));
    return true;
  };
  auto pad = [&](int64_t count) {
    for (int64_t c = 0; c < count; ++c) acc = ApplyBinOp<kOp>(acc, init_value);
    return true;
  };
  Window window(dims);
  window.ForEachResult([&](int64_t o) {
    acc = init_value;
    window.Visit(visit, pad);
    out[o] = Store<T>(acc);
    return true;
  });
}

Status ReduceWindowGeneric(KernelContext& ctx, size_t n, const std::vector<WindowDim>& dims) {
  RegionEvaluator body(ctx.op.region(0), ctx.interpreter);
  if (body.num_args() != 2 * n || body.num_results() != n) {
    return ctx.Error("expects the body to take " + std::to_string(2 * n) + " scalars and return " + std::to_string(n));
  }
  std::vector<LoadFn> loaders;
  std::vector<StoreFn> storers;
  std::vector<const uint8_t*> inputs;
  std::vector<Scalar> inits(n);
  for (size_t k = 0; k < n; ++k) {
    loaders.push_back(LoaderFor(ctx.operand(k).element()));
    storers.push_back(StorerFor(ctx.operand(k).element()));
    inputs.push_back(ctx.operand(k).bytes());
    loaders[k](ctx.operand(n + k).bytes(), 0, inits[k]);
  }
  std::vector<Scalar> acc(n);
  Scalar* args = body.args();
  Status status;
  auto step = [&]() {
    status = body.Run();
    if (!status.ok()) return false;
    for (size_t k = 0; k < n; ++k) acc[k] = body.result(k);
    return true;
  };
  auto visit = [&](int64_t offset) {
    for (size_t k = 0; k < n; ++k) {
      args[k] = acc[k];
      loaders[k](inputs[k], offset, args[n + k]);
    }
    return step();
  };
  auto pad = [&](int64_t count) {
    for (int64_t c = 0; c < count; ++c) {
      for (size_t k = 0; k < n; ++k) {
        args[k] = acc[k];
        args[n + k] = inits[k];
      }
      if (!step()) return false;
    }
    return true;
  };
  Window window(dims);
  window.ForEachResult([&](int64_t o) {
    acc = inits;
    if (!window.Visit(visit, pad)) return false;
    for (size_t k = 0; k < n; ++k) storers[k](ctx.results[k].mutable_bytes(), o, acc[k]);
    return true;
  });
  return status;
}

}  // namespace

Status ReduceWindowKernel(KernelContext& ctx) {
  const size_t num_operands = ctx.operands.size();
  if (num_operands == 0 || num_operands % 2 != 0 || ctx.op.num_results() != num_operands / 2 ||
      ctx.op.num_regions() != 1) {
    return ctx.Error("expects N inputs, N init values and N results");
  }
  const size_t n = num_operands / 2;
  const std::vector<int64_t>& shape = ctx.operand(0).shape();
  const std::vector<int64_t>& out_shape = ctx.result_type(0).shape();
  for (size_t k = 0; k < n; ++k) {
    const Tensor& input = ctx.operand(k);
    const Tensor& init = ctx.operand(n + k);
    // Quantized tensors hold their stored integers; the body reads them as
    // its own (the inputs') quantized type, so the parameters must agree.
    if (input.shape() != shape || init.type() != input.type().WithShape({}) ||
        ctx.result_type(k) != input.type().WithShape(out_shape)) {
      return ctx.Error("has inputs, init values or results of mismatched types");
    }
  }
  StatusOr<std::vector<WindowDim>> dims = ReadWindow(ctx.op, shape, out_shape, /*has_dilations=*/true);
  if (!dims.ok()) return ctx.Error(dims.status().message());
  HLOGRAPH_TRY(CheckWork(*dims));
  for (size_t k = 0; k < n; ++k) ctx.results.emplace_back(ctx.result_type(k));

  if (std::optional<std::vector<BinOp>> ops = MatchReducer(ctx.op.region(0))) {
    for (size_t k = 0; k < n; ++k) {
      DispatchElementType(ctx.operand(k).element(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        DispatchBinOp((*ops)[k], [&](auto op_tag) {
          constexpr BinOp kOp = decltype(op_tag)::value;
          if constexpr (kBinOpSuits<kOp, T>) {
            ReduceWindowTyped<T, kOp>(ctx.operand(k), ctx.operand(n + k), *dims, ctx.results[k]);
          }
        });
      });
      WrapSubByteIntegers(ctx.results[k]);
    }
    return Status::Ok();
  }
  return ReduceWindowGeneric(ctx, n, *dims);
}

// ---------------------------------------------------------------------------
// select_and_scatter

namespace {

template <typename C>
bool SelectTyped(const SimpleCompare& cmp, C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (cmp.total_order) return CompareWith(cmp.dir, TotalOrderKey(a), TotalOrderKey(b));
  }
  return CompareWith(cmp.dir, a, b);
}

template <typename T, BinOp kOp>
void SelectAndScatterTyped(const Tensor& operand, const Tensor& source, const Tensor& init, const SimpleCompare& cmp,
                           const std::vector<WindowDim>& dims, Tensor& result) {
  using C = ComputeType<T>;
  const T* in = operand.data<T>();
  const T* src = source.data<T>();
  const int64_t count = result.num_elements();
  std::unique_ptr<C[]> acc(new C[static_cast<size_t>(count)]);
  const C init_value = Load(init.data<T>()[0]);
  for (int64_t i = 0; i < count; ++i) acc[i] = init_value;
  int64_t selected = -1;
  C selected_value{};
  auto visit = [&](int64_t offset) {
    const C v = Load(in[offset]);
    if (selected < 0 || !SelectTyped(cmp, selected_value, v)) {
      selected = offset;
      selected_value = v;
    }
    return true;
  };
  auto pad = [](int64_t) { return true; };
  Window window(dims);
  window.ForEachResult([&](int64_t s) {
    selected = -1;
    window.Visit(visit, pad);
    if (selected >= 0) acc[selected] = ApplyBinOp<kOp>(acc[selected], Load(src[s]));
    return true;
  });
  T* out = result.mutable_data<T>();
  for (int64_t i = 0; i < count; ++i) out[i] = Store<T>(acc[i]);
}

Status SelectAndScatterGeneric(KernelContext& ctx, const std::vector<WindowDim>& dims, Tensor& result) {
  RegionEvaluator select(ctx.op.region(0), ctx.interpreter);
  RegionEvaluator scatter(ctx.op.region(1), ctx.interpreter);
  if (select.num_args() != 2 || select.num_results() != 1 || scatter.num_args() != 2 || scatter.num_results() != 1) {
    return ctx.Error("expects select and scatter regions taking two scalars and returning one");
  }
  const Tensor& operand = ctx.operand(0);
  const Tensor& source = ctx.operand(1);
  const LoadFn load = LoaderFor(operand.element());
  const StoreFn store = StorerFor(operand.element());
  Scalar init;
  load(ctx.operand(2).bytes(), 0, init);
  std::vector<Scalar> acc(static_cast<size_t>(result.num_elements()), init);
  int64_t selected = -1;
  Scalar selected_value;
  Scalar* select_args = select.args();
  Scalar* scatter_args = scatter.args();
  Status status;
  auto visit = [&](int64_t offset) {
    Scalar v;
    load(operand.bytes(), offset, v);
    if (selected >= 0) {
      select_args[0] = selected_value;
      select_args[1] = v;
      status = select.Run();
      if (!status.ok()) return false;
      if (select.result(0).i != 0) return true;
    }
    selected = offset;
    selected_value = v;
    return true;
  };
  auto pad = [](int64_t) { return true; };
  Window window(dims);
  window.ForEachResult([&](int64_t s) {
    selected = -1;
    if (!window.Visit(visit, pad)) return false;
    if (selected < 0) return true;
    Scalar& target = acc[static_cast<size_t>(selected)];
    scatter_args[0] = target;
    load(source.bytes(), s, scatter_args[1]);
    status = scatter.Run();
    if (!status.ok()) return false;
    target = scatter.result(0);
    return true;
  });
  HLOGRAPH_TRY(status);
  for (int64_t i = 0; i < result.num_elements(); ++i) store(result.mutable_bytes(), i, acc[static_cast<size_t>(i)]);
  return Status::Ok();
}

}  // namespace

Status SelectAndScatterKernel(KernelContext& ctx) {
  if (ctx.operands.size() != 3 || ctx.op.num_results() != 1 || ctx.op.num_regions() != 2) {
    return ctx.Error("expects an operand, a source, an init value, one result and two regions");
  }
  const Tensor& operand = ctx.operand(0);
  const Tensor& source = ctx.operand(1);
  const Tensor& init = ctx.operand(2);
  if (source.type() != operand.type().WithShape(source.shape()) || init.type() != operand.type().WithShape({}) ||
      ctx.result_type(0) != operand.type()) {
    return ctx.Error("has operand, source, init value or result of mismatched types");
  }
  StatusOr<std::vector<WindowDim>> dims = ReadWindow(ctx.op, operand.shape(), source.shape(), /*has_dilations=*/false);
  if (!dims.ok()) return ctx.Error(dims.status().message());
  HLOGRAPH_TRY(CheckWork(*dims));
  ctx.results.emplace_back(ctx.result_type(0));
  Tensor& result = ctx.results[0];

  const std::optional<SimpleCompare> cmp = MatchSimpleCompare(ctx.op.region(0));
  const std::optional<std::vector<BinOp>> scatter = MatchReducer(ctx.op.region(1));
  if (cmp && scatter && scatter->size() == 1) {
    bool done = false;
    DispatchElementType(operand.element(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!kIsComplex<T>) {
        DispatchBinOp((*scatter)[0], [&](auto op_tag) {
          constexpr BinOp kOp = decltype(op_tag)::value;
          if constexpr (kBinOpSuits<kOp, T>) {
            SelectAndScatterTyped<T, kOp>(operand, source, init, *cmp, *dims, result);
            done = true;
          }
        });
      }
    });
    if (done) {
      WrapSubByteIntegers(result);
      return Status::Ok();
    }
  }
  return SelectAndScatterGeneric(ctx, *dims, result);
}

}  // namespace hlograph::cpu::reduction

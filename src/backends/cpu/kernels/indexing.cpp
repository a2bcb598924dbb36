// Slicing and indexed access: slice, dynamic_slice, dynamic_update_slice,
// gather, scatter and torch_index_select.
//
// Out-of-range starts follow XLA:CPU: dynamic_slice, dynamic_update_slice
// and gather clamp them so the whole slice fits; scatter skips every update
// window that does not fit entirely, even where part of it would be in
// bounds (the spec leaves this to the implementation).
#include <cmath>
#include <cstring>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/indexing_util.h"

namespace hlograph::cpu {
namespace {

using ir::ElementType;

// ---------------------------------------------------------------------------
// slice, real_dynamic_slice

Status SliceImpl(KernelContext& ctx, const std::vector<int64_t>& start, const std::vector<int64_t>& limit,
                 const std::vector<int64_t>& strides) {
  const Tensor& operand = ctx.operand(0);
  if (!operand.type().IsTensor()) return ctx.Error("expects a tensor operand");
  const size_t rank = static_cast<size_t>(operand.rank());
  if (start.size() != rank || limit.size() != rank || strides.size() != rank) {
    return ctx.Error("expects start, limit and stride for each of the operand's " + std::to_string(rank) + " dims");
  }
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  std::vector<int64_t> shape(rank), src_strides(rank);
  int64_t offset = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (strides[d] <= 0 || start[d] < 0 || start[d] > limit[d] || limit[d] > operand.shape()[d]) {
      return ctx.Error("expects 0 <= start <= limit <= " + std::to_string(operand.shape()[d]) +
                       " and a positive stride in dimension " + std::to_string(d) + ", got start " +
                       std::to_string(start[d]) + ", limit " + std::to_string(limit[d]) + ", stride " +
                       std::to_string(strides[d]));
    }
    const int64_t extent = limit[d] - start[d];
    shape[d] = extent == 0 ? 0 : (extent - 1) / strides[d] + 1;
    // A dim of size 1 never steps, and the product could overflow.
    src_strides[d] = shape[d] > 1 ? op_strides[d] * strides[d] : 0;
    if (extent > 0) offset += start[d] * op_strides[d];
  }
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));
  Tensor t(ctx.result_type(0));
  if (t.num_elements() > 0) {
    const int eb = ElementBytes(t);
    StridedBox box(shape, src_strides, Strides(shape));
    CopyBox(box, eb, operand.bytes() + offset * eb, t.mutable_bytes());
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status Slice(KernelContext& ctx) {
  return SliceImpl(ctx, I64Array(ctx.op, "start_indices"), I64Array(ctx.op, "limit_indices"),
                   I64Array(ctx.op, "strides"));
}

Status RealDynamicSlice(KernelContext& ctx) {
  const int64_t rank = ctx.operand(0).rank();
  HLOGRAPH_ASSIGN(const std::vector<int64_t> start, DimValues(ctx.operand(1), rank, "start_indices"));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> limit, DimValues(ctx.operand(2), rank, "limit_indices"));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> strides, DimValues(ctx.operand(3), rank, "strides"));
  return SliceImpl(ctx, start, limit, strides);
}

// ---------------------------------------------------------------------------
// dynamic_slice, dynamic_update_slice

// The start indices in operands [first, first + rank), each clamped to
// [0, dim - size] so that a slice of `sizes` fits.
StatusOr<std::vector<int64_t>> ClampedStarts(const KernelContext& ctx, size_t first, const Tensor& operand,
                                             const std::vector<int64_t>& sizes) {
  const size_t rank = static_cast<size_t>(operand.rank());
  if (ctx.operands.size() != first + rank) {
    return ctx.Error("expects " + std::to_string(rank) + " start indices (the operand's rank), got " +
                     std::to_string(ctx.operands.size() - std::min(first, ctx.operands.size())));
  }
  std::vector<int64_t> starts(rank);
  for (size_t d = 0; d < rank; ++d) {
    HLOGRAPH_ASSIGN(const int64_t s, ScalarIndex(ctx.operand(first + d), "start index " + std::to_string(d)));
    starts[d] = Clamp(s, 0, operand.shape()[d] - sizes[d]);
  }
  return starts;
}

Status DynamicSlice(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  if (!operand.type().IsTensor()) return ctx.Error("expects a tensor operand");
  const std::vector<int64_t> sizes = I64Array(ctx.op, "slice_sizes");
  if (static_cast<int64_t>(sizes.size()) != operand.rank()) {
    return ctx.Error("expects one slice size per operand dim, got " + DimsToString(sizes));
  }
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < 0 || sizes[d] > operand.shape()[d]) {
      return ctx.Error("expects slice_sizes within " + operand.type().ToString() + ", got " + DimsToString(sizes));
    }
  }
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), sizes));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> starts, ClampedStarts(ctx, 1, operand, sizes));
  Tensor t(ctx.result_type(0));
  if (t.num_elements() > 0) {
    const int eb = ElementBytes(t);
    const std::vector<int64_t> op_strides = Strides(operand.shape());
    StridedBox box(sizes, op_strides, Strides(sizes));
    CopyBox(box, eb, operand.bytes() + Offset(starts, op_strides) * eb, t.mutable_bytes());
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status DynamicUpdateSlice(KernelContext& ctx) {
  if (ctx.operands.size() < 2) return ctx.Error("expects an operand, an update and start indices");
  const Tensor& operand = ctx.operand(0);
  const Tensor& update = ctx.operand(1);
  if (!operand.type().IsTensor() || ctx.result_type(0) != operand.type() || !update.type().IsTensor() ||
      update.element() != operand.element() || update.rank() != operand.rank()) {
    return ctx.Error("expects an update of the operand's element type and rank and a result of its type, got " +
                     operand.type().ToString() + ", " + update.type().ToString() + " and " +
                     ctx.result_type(0).ToString());
  }
  for (size_t d = 0; d < update.shape().size(); ++d) {
    if (update.shape()[d] > operand.shape()[d]) {
      return ctx.Error("expects an update that fits in the operand, got " + update.type().ToString() + " and " +
                       operand.type().ToString());
    }
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> starts, ClampedStarts(ctx, 2, operand, update.shape()));
  if (update.num_elements() == 0) {
    ctx.results.push_back(operand);
    return Status::Ok();
  }
  Tensor t = operand.Clone();
  const int eb = ElementBytes(t);
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  StridedBox box(update.shape(), Strides(update.shape()), op_strides);
  CopyBox(box, eb, update.bytes(), t.mutable_bytes() + Offset(starts, op_strides) * eb);
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// What gather and scatter share: how an index tensor addresses an operand.

// The dimension numbers under neutral names: gather's offset_dims,
// collapsed_slice_dims, operand_batching_dims, start_indices_batching_dims
// and start_index_map; scatter's update_window_dims, inserted_window_dims,
// input_batching_dims, scatter_indices_batching_dims and
// scatter_dims_to_operand_dims.
struct IndexingDims {
  std::vector<int64_t> window, collapsed, operand_batching, indices_batching, index_map;
  int64_t index_vector_dim = 0;
};

struct Indexing {
  std::vector<int64_t> window_operand_dims;  // operand dims the windows span, in order
  std::vector<int64_t> batch_shape;          // the indices' shape without index_vector_dim
  std::vector<int64_t> batching_axis;        // per operand batching dim: its batch axis
  std::vector<int64_t> windowed_batch_dims;  // dims of the windowed tensor that are batch axes
  int64_t vector_size = 1;
};

// Checks everything memory safety depends on (the verifier checks more, and
// dynamic_gather has no verifier) and derives the layout. `windowed` is
// gather's result or scatter's updates.
StatusOr<Indexing> AnalyzeIndexing(const ir::Type& operand, const ir::Type& indices, const ir::Type& windowed,
                                   const IndexingDims& d) {
  const int64_t rank = operand.rank();
  const int64_t irank = indices.rank();
  const int64_t ivd = d.index_vector_dim;
  if (!ir::IsInteger(indices.element())) return Status::Error("expects integer indices, got " + indices.ToString());
  if (ivd < 0 || ivd > irank) {
    return Status::Error("expects index_vector_dim in [0, " + std::to_string(irank) + "], got " + std::to_string(ivd));
  }
  Indexing a;
  a.vector_size = ivd < irank ? indices.dim(ivd) : 1;
  if (static_cast<int64_t>(d.index_map.size()) != a.vector_size) {
    return Status::Error("expects " + std::to_string(a.vector_size) + " entries in the index map (the index vector " +
                         "size), got " + DimsToString(d.index_map));
  }
  // Each operand dim is a window dim (0), collapsed (1) or batching (2).
  std::vector<int> role(static_cast<size_t>(rank), 0);
  auto mark = [&](const std::vector<int64_t>& dims, int r) -> Status {
    for (int64_t x : dims) {
      if (x < 0 || x >= rank || role[static_cast<size_t>(x)] != 0) {
        return Status::Error("expects distinct collapsed/inserted and batching dims of the operand, got " +
                             DimsToString(dims));
      }
      role[static_cast<size_t>(x)] = r;
    }
    return Status::Ok();
  };
  HLOGRAPH_TRY(mark(d.collapsed, 1));
  HLOGRAPH_TRY(mark(d.operand_batching, 2));
  std::vector<bool> mapped(static_cast<size_t>(rank), false);
  for (int64_t x : d.index_map) {
    if (x < 0 || x >= rank || mapped[static_cast<size_t>(x)] || role[static_cast<size_t>(x)] == 2) {
      return Status::Error("expects the index map to name distinct non-batching operand dims, got " +
                           DimsToString(d.index_map));
    }
    mapped[static_cast<size_t>(x)] = true;
  }
  for (int64_t x = 0; x < rank; ++x) {
    if (role[static_cast<size_t>(x)] == 0) a.window_operand_dims.push_back(x);
  }
  a.batch_shape = indices.shape();
  if (ivd < irank) a.batch_shape.erase(a.batch_shape.begin() + ivd);
  if (d.indices_batching.size() != d.operand_batching.size()) {
    return Status::Error("expects as many batching dims for the indices as for the operand");
  }
  std::vector<bool> seen(static_cast<size_t>(irank), false);
  for (size_t i = 0; i < d.indices_batching.size(); ++i) {
    const int64_t x = d.indices_batching[i];
    if (x < 0 || x >= irank || x == ivd || seen[static_cast<size_t>(x)]) {
      return Status::Error("expects distinct batching dims of the indices other than index_vector_dim, got " +
                           DimsToString(d.indices_batching));
    }
    seen[static_cast<size_t>(x)] = true;
    if (indices.dim(x) != operand.dim(d.operand_batching[i])) {
      return Status::Error("expects batching dims of equal size in the operand and the indices, got " +
                           operand.ToString() + " and " + indices.ToString());
    }
    a.batching_axis.push_back(x < ivd ? x : x - 1);
  }
  // Window dims of the windowed tensor: sorted, distinct, one per window
  // dim of the operand; its other dims are the batch axes, in order.
  const auto wrank = static_cast<int64_t>(a.window_operand_dims.size() + a.batch_shape.size());
  if (windowed.rank() != wrank || d.window.size() != a.window_operand_dims.size()) {
    return Status::Error("expects " + std::to_string(a.window_operand_dims.size()) + " window dims in a rank-" +
                         std::to_string(wrank) + " windowed tensor, got " + DimsToString(d.window) + " and " +
                         windowed.ToString());
  }
  for (size_t j = 0; j < d.window.size(); ++j) {
    if (d.window[j] < 0 || d.window[j] >= wrank || (j > 0 && d.window[j] <= d.window[j - 1])) {
      return Status::Error("expects sorted, distinct window dims below " + std::to_string(wrank) + ", got " +
                           DimsToString(d.window));
    }
  }
  size_t w = 0;
  for (int64_t x = 0; x < wrank; ++x) {
    if (w < d.window.size() && d.window[w] == x) {
      ++w;
    } else {
      a.windowed_batch_dims.push_back(x);
    }
  }
  return a;
}

// Calls fn(coord, indices_offset, windowed_offset) for every batch position
// (every start index), in row-major order; offsets are in elements.
template <typename Fn>
void ForEachBatch(const Indexing& a, const ir::Type& indices, int64_t ivd, const std::vector<int64_t>& windowed_strides,
                  Fn&& fn) {
  const std::vector<int64_t> istrides = Strides(indices.shape());
  std::vector<int64_t> ib(a.batch_shape.size()), wb(a.batch_shape.size());
  for (size_t p = 0; p < a.batch_shape.size(); ++p) {
    ib[p] = istrides[static_cast<int64_t>(p) < ivd ? p : p + 1];
    wb[p] = windowed_strides[static_cast<size_t>(a.windowed_batch_dims[p])];
  }
  ForEachIndex(a.batch_shape, [&](const std::vector<int64_t>& coord) { fn(coord, Offset(coord, ib), Offset(coord, wb)); });
}

// ---------------------------------------------------------------------------
// gather, dynamic_gather

Status GatherImpl(KernelContext& ctx, const std::vector<int64_t>& slice_sizes) {
  const auto* dn = ctx.op.attr("dimension_numbers").as<ir::GatherDimsAttr>();
  if (!dn) return ctx.Error("expects gather dimension_numbers");
  const Tensor& operand = ctx.operand(0);
  const Tensor& indices = ctx.operand(1);
  const ir::Type& rt = ctx.result_type(0);
  if (!operand.type().IsTensor() || !indices.type().IsTensor() || !rt.IsTensor()) {
    return ctx.Error("expects tensor operands and result");
  }
  const IndexingDims d{dn->offset_dims, dn->collapsed_slice_dims, dn->operand_batching_dims,
                       dn->start_indices_batching_dims, dn->start_index_map, dn->index_vector_dim};
  auto analyzed = AnalyzeIndexing(operand.type(), indices.type(), rt, d);
  if (!analyzed.ok()) return ctx.Error(analyzed.status().message());
  const Indexing& a = analyzed.value();

  const int64_t rank = operand.rank();
  if (static_cast<int64_t>(slice_sizes.size()) != rank) {
    return ctx.Error("expects one slice size per operand dim, got " + DimsToString(slice_sizes));
  }
  bool empty_slice = false;
  std::vector<int64_t> window_sizes;
  for (int64_t x = 0; x < rank; ++x) {
    const int64_t s = slice_sizes[static_cast<size_t>(x)];
    const bool is_window =
        std::find(a.window_operand_dims.begin(), a.window_operand_dims.end(), x) != a.window_operand_dims.end();
    if (s < 0 || s > operand.type().dim(x) || (!is_window && s > 1)) {
      return ctx.Error("expects slice_sizes within " + operand.type().ToString() +
                       " and at most 1 in collapsed and batching dims, got " + DimsToString(slice_sizes));
    }
    if (is_window) {
      window_sizes.push_back(s);
    } else if (s == 0) {
      empty_slice = true;
    }
  }
  std::vector<int64_t> shape(static_cast<size_t>(rt.rank()));
  for (size_t j = 0; j < d.window.size(); ++j) shape[static_cast<size_t>(d.window[j])] = window_sizes[j];
  for (size_t p = 0; p < a.batch_shape.size(); ++p) {
    shape[static_cast<size_t>(a.windowed_batch_dims[p])] = a.batch_shape[p];
  }
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));

  Tensor t(rt);
  // A zero-sized collapsed dim leaves nothing to read: the result stays zero.
  if (t.num_elements() == 0 || empty_slice) {
    ctx.results.push_back(std::move(t));
    return Status::Ok();
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> idx, IndexValues(indices, "start_indices"));
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  const std::vector<int64_t> res_strides = Strides(shape);
  std::vector<int64_t> box_src, box_dst;
  for (size_t j = 0; j < window_sizes.size(); ++j) {
    box_src.push_back(op_strides[static_cast<size_t>(a.window_operand_dims[j])]);
    box_dst.push_back(res_strides[static_cast<size_t>(d.window[j])]);
  }
  const StridedBox box(window_sizes, box_src, box_dst);
  const int64_t ivd = d.index_vector_dim;
  const int64_t vstride = ivd < indices.rank() ? Strides(indices.shape())[static_cast<size_t>(ivd)] : 0;
  // Per index vector entry: the operand dim, its stride and the largest
  // start that keeps the slice inside.
  std::vector<int64_t> map_stride, map_max;
  for (int64_t x : d.index_map) {
    map_stride.push_back(op_strides[static_cast<size_t>(x)]);
    map_max.push_back(operand.type().dim(x) - slice_sizes[static_cast<size_t>(x)]);
  }
  std::vector<int64_t> batching_stride;
  for (int64_t x : d.operand_batching) batching_stride.push_back(op_strides[static_cast<size_t>(x)]);

  const bool single = box.single_run();
  const int64_t n = box.run_size(), ss = box.run_src_stride(), ds = box.run_dst_stride();
  DispatchWord(ElementBytes(t), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* src = operand.data<W>();
    W* dst = t.mutable_data<W>();
    ForEachBatch(a, indices.type(), ivd, res_strides, [&](const std::vector<int64_t>& coord, int64_t ioff, int64_t roff) {
      int64_t off = 0;
      for (size_t k = 0; k < map_stride.size(); ++k) {
        off += Clamp(idx[static_cast<size_t>(ioff + static_cast<int64_t>(k) * vstride)], 0, map_max[k]) * map_stride[k];
      }
      for (size_t i = 0; i < batching_stride.size(); ++i) {
        off += coord[static_cast<size_t>(a.batching_axis[i])] * batching_stride[i];
      }
      if (single) {
        CopyRun(src + off, dst + roff, n, ss, ds);
      } else {
        CopyBox(box, src + off, dst + roff);
      }
    });
  });
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status Gather(KernelContext& ctx) { return GatherImpl(ctx, I64Array(ctx.op, "slice_sizes")); }

Status DynamicGather(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(const std::vector<int64_t> sizes, DimValues(ctx.operand(2), ctx.operand(0).rank(), "slice_sizes"));
  return GatherImpl(ctx, sizes);
}

// ---------------------------------------------------------------------------
// scatter

// The update computation, when it is one op (or none) per result applied
// to the matching pair of block arguments: run as a typed loop instead of
// through the interpreter.
enum class Combine { kGeneric, kKeep, kSet, kAdd, kMul, kMax, kMin, kAnd, kOr };

struct Combiner {
  Combine kind = Combine::kGeneric;
  bool update_first = false;  // the op's first operand is the update
};

Combine CombineOf(ir::OpId name, ElementType e) {
  const bool ordered = !ir::IsComplex(e);
  const bool bitwise = ir::IsInteger(e) || ir::IsBool(e);
  if (name == ir::OpId::kAdd) return Combine::kAdd;
  if (name == ir::OpId::kMultiply) return Combine::kMul;
  if (name == ir::OpId::kMaximum && ordered) return Combine::kMax;
  if (name == ir::OpId::kMinimum && ordered) return Combine::kMin;
  if (name == ir::OpId::kAnd && bitwise) return Combine::kAnd;
  if (name == ir::OpId::kOr && bitwise) return Combine::kOr;
  return Combine::kGeneric;
}

// One combiner per result; all kGeneric unless every result is recognised
// and the body holds nothing else. On quantized values only keeping or
// setting moves the stored integers as they are; arithmetic runs the body.
std::vector<Combiner> DetectCombiners(const ir::Region& region, const std::vector<ir::Type>& types) {
  const size_t n = types.size();
  const std::vector<Combiner> generic(n);
  if (region.empty()) return generic;
  const ir::Block& block = region.front();
  const auto& ops = block.operations();
  if (block.num_arguments() != 2 * n || ops.empty() || ops.back()->id() != ir::OpId::kReturn ||
      ops.back()->num_operands() != n) {
    return generic;
  }
  auto is_arg = [&](const ir::Value* v, size_t k) {
    return v->IsBlockArgument() && v->owner_block() == &block && v->index() == k;
  };
  std::vector<Combiner> found(n);
  size_t ops_used = 0;
  for (size_t i = 0; i < n; ++i) {
    const ir::Value* v = ops.back()->operand(i);
    if (is_arg(v, n + i)) {
      found[i].kind = Combine::kSet;
      continue;
    }
    if (is_arg(v, i)) {
      found[i].kind = Combine::kKeep;
      continue;
    }
    const ir::Operation* def = v->defining_op();
    if (!def || def->parent_block() != &block || def->num_operands() != 2 || def->num_regions() != 0) return generic;
    if (types[i].IsQuantized()) return generic;
    found[i].kind = CombineOf(def->id(), types[i].element());
    if (found[i].kind == Combine::kGeneric) return generic;
    if (is_arg(def->operand(0), n + i) && is_arg(def->operand(1), i)) {
      found[i].update_first = true;
    } else if (!(is_arg(def->operand(0), i) && is_arg(def->operand(1), n + i))) {
      return generic;
    }
    ++ops_used;
  }
  if (ops_used + 1 != ops.size()) return generic;
  return found;
}

// The combining ops on storage values. Integers wrap (computed unsigned);
// sub-byte integers are re-wrapped to their width afterwards. Narrow floats
// compute in float and round once, as XLA:CPU does.
template <typename T>
T AddOf(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else if constexpr (kIsComplex<T>) {
    return T(a.real() + b.real(), a.imag() + b.imag());
  } else {
    return Store<T>(Load(a) + Load(b));
  }
}

template <typename T>
T MulOf(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    // Promote to at least unsigned int so narrow types do not multiply as int.
    using P = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    return static_cast<T>(static_cast<U>(static_cast<P>(static_cast<U>(a)) * static_cast<P>(static_cast<U>(b))));
  } else if constexpr (kIsComplex<T>) {
    // The textbook product, without C's infinity recovery, like XLA.
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return Store<T>(Load(a) * Load(b));
  }
}

// maximum/minimum: NaN propagates and -0 < +0. Returns one of the inputs
// unchanged, so narrow floats keep their bits.
template <typename T>
T MaxOf(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    return a > b ? a : b;
  } else if constexpr (kIsComplex<T>) {
    return a;  // not reached: complex maximum runs the body
  } else {
    const auto x = Load(a), y = Load(b);
    if (x != x) return a;
    if (y != y) return b;
    if (x == y) return std::signbit(x) ? b : a;
    return x > y ? a : b;
  }
}

template <typename T>
T MinOf(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    return a < b ? a : b;
  } else if constexpr (kIsComplex<T>) {
    return a;  // not reached: complex minimum runs the body
  } else {
    const auto x = Load(a), y = Load(b);
    if (x != x) return a;
    if (y != y) return b;
    if (x == y) return std::signbit(x) ? a : b;
    return x < y ? a : b;
  }
}

template <typename T>
T AndOf(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(a & b);
  } else {
    return a;  // not reached: only integers and bools
  }
}

template <typename T>
T OrOf(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(a | b);
  } else {
    return a;  // not reached: only integers and bools
  }
}

// A window that fits: where its updates start and where they land.
struct WindowPlace {
  int64_t update_offset, result_offset;
};

template <typename T, typename Op>
void CombineWindows(const std::vector<WindowPlace>& places, const StridedBox& box, const T* upd, T* res, Op op) {
  if (box.single_run()) {
    const int64_t n = box.run_size(), ss = box.run_src_stride(), ds = box.run_dst_stride();
    for (const WindowPlace& w : places) {
      const T* u = upd + w.update_offset;
      T* r = res + w.result_offset;
      for (int64_t i = 0; i < n; ++i) r[i * ds] = op(r[i * ds], u[i * ss]);
    }
    return;
  }
  for (const WindowPlace& w : places) {
    const T* u = upd + w.update_offset;
    T* r = res + w.result_offset;
    box.ForEachRun([&](int64_t s, int64_t d, int64_t n, int64_t ss, int64_t ds) {
      for (int64_t i = 0; i < n; ++i) {
        T& cur = r[d + i * ds];
        cur = op(cur, u[s + i * ss]);
      }
    });
  }
}

template <typename T, typename F>
void CombineOrdered(const std::vector<WindowPlace>& places, const StridedBox& box, const T* upd, T* res,
                    bool update_first, F f) {
  if (update_first) {
    CombineWindows(places, box, upd, res, [&](T cur, T u) { return f(u, cur); });
  } else {
    CombineWindows(places, box, upd, res, f);
  }
}

void ApplyCombiner(const Combiner& c, const std::vector<WindowPlace>& places, const StridedBox& box,
                   const Tensor& updates, Tensor& result) {
  if (c.kind == Combine::kKeep) return;
  if (c.kind == Combine::kSet) {
    DispatchWord(ElementBytes(result), [&](auto tag) {
      using W = typename decltype(tag)::type;
      for (const WindowPlace& w : places) {
        CopyBox(box, updates.data<W>() + w.update_offset, result.mutable_data<W>() + w.result_offset);
      }
    });
    return;
  }
  DispatchElementType(result.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* u = updates.data<T>();
    T* r = result.mutable_data<T>();
    switch (c.kind) {
      case Combine::kAdd: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return AddOf(a, b); }); break;
      case Combine::kMul: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return MulOf(a, b); }); break;
      case Combine::kMax: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return MaxOf(a, b); }); break;
      case Combine::kMin: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return MinOf(a, b); }); break;
      case Combine::kAnd: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return AndOf(a, b); }); break;
      case Combine::kOr: CombineOrdered(places, box, u, r, c.update_first, [](T a, T b) { return OrOf(a, b); }); break;
      default: break;
    }
  });
  // i2/i4/ui2/ui4 arithmetic above wrapped at 8 bits; 2^width divides 2^8,
  // so wrapping once now gives the per-step result.
  const ElementType e = result.element();
  if (ir::IsInteger(e) && ir::BitWidth(e) < 8 && (c.kind == Combine::kAdd || c.kind == Combine::kMul)) {
    uint8_t* p = result.mutable_bytes();
    for (int64_t i = 0; i < result.num_elements(); ++i) {
      p[i] = static_cast<uint8_t>(WrapInteger(ir::IsSignedInteger(e) ? static_cast<int8_t>(p[i]) : p[i], e));
    }
  }
}

// The general case: the body runs once per updated element, on rank-0
// tensors, for all results at once.
Status ApplyRegion(KernelContext& ctx, const std::vector<WindowPlace>& places, const StridedBox& box,
                   const std::vector<const Tensor*>& updates, std::vector<Tensor>& results) {
  const size_t n = results.size();
  std::vector<ir::Type> scalar(n);
  std::vector<size_t> bytes(n);
  for (size_t k = 0; k < n; ++k) {
    scalar[k] = results[k].type().WithShape({});  // quantization kept: the body's argument type
    bytes[k] = static_cast<size_t>(ElementBytes(results[k]));
  }
  std::vector<Tensor> args(2 * n);
  Status status;
  for (const WindowPlace& w : places) {
    box.ForEachRun([&](int64_t s, int64_t d, int64_t count, int64_t ss, int64_t ds) {
      for (int64_t i = 0; i < count && status.ok(); ++i) {
        const auto r = static_cast<size_t>(w.result_offset + d + i * ds);
        const auto u = static_cast<size_t>(w.update_offset + s + i * ss);
        for (size_t k = 0; k < n; ++k) {
          args[k] = Tensor(scalar[k]);
          std::memcpy(args[k].mutable_bytes(), results[k].bytes() + r * bytes[k], bytes[k]);
          args[n + k] = Tensor(scalar[k]);
          std::memcpy(args[n + k].mutable_bytes(), updates[k]->bytes() + u * bytes[k], bytes[k]);
        }
        auto out = ctx.interpreter.RunRegion(ctx.op.region(0), args);
        if (!out.ok()) {
          status = out.status();
          return;
        }
        if (out->size() != n) {
          status = ctx.Error("expects update_computation to return " + std::to_string(n) + " values");
          return;
        }
        for (size_t k = 0; k < n; ++k) {
          if ((*out)[k].type() != scalar[k]) {
            status = ctx.Error("expects update_computation to return " + scalar[k].ToString() + ", got " +
                               (*out)[k].type().ToString());
            return;
          }
          std::memcpy(results[k].mutable_bytes() + r * bytes[k], (*out)[k].bytes(), bytes[k]);
        }
      }
    });
    HLOGRAPH_TRY(status);
  }
  return Status::Ok();
}

Status Scatter(KernelContext& ctx) {
  const size_t count = ctx.operands.size();
  if (count < 3 || count % 2 == 0) return ctx.Error("expects N inputs, the scatter indices and N updates");
  const size_t n = (count - 1) / 2;
  if (ctx.op.num_results() != n || ctx.op.num_regions() != 1) {
    return ctx.Error("expects " + std::to_string(n) + " results and an update_computation");
  }
  const auto* dn = ctx.op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (!dn) return ctx.Error("expects scatter_dimension_numbers");
  const Tensor& input = ctx.operand(0);
  const Tensor& indices = ctx.operand(n);
  const Tensor& update = ctx.operand(n + 1);
  std::vector<const Tensor*> updates;
  std::vector<ir::Type> types;
  for (size_t k = 0; k < n; ++k) {
    const Tensor& in = ctx.operand(k);
    const Tensor& up = ctx.operand(n + 1 + k);
    if (!in.type().IsTensor() || !up.type().IsTensor() || in.shape() != input.shape() ||
        up.shape() != update.shape() || up.type() != in.type().WithShape(up.shape()) ||
        ctx.result_type(k) != in.type()) {
      return ctx.Error("expects inputs of one shape, updates of one shape with the inputs' element types, and " +
                       std::string("results of the inputs' types"));
    }
    updates.push_back(&up);
    types.push_back(in.type());
  }
  if (!indices.type().IsTensor()) return ctx.Error("expects tensor scatter indices");
  const IndexingDims d{dn->update_window_dims, dn->inserted_window_dims, dn->input_batching_dims,
                       dn->scatter_indices_batching_dims, dn->scatter_dims_to_operand_dims, dn->index_vector_dim};
  auto analyzed = AnalyzeIndexing(input.type(), indices.type(), update.type(), d);
  if (!analyzed.ok()) return ctx.Error(analyzed.status().message());
  const Indexing& a = analyzed.value();
  // The updates' batch dims are the indices' batch shape; their window dims
  // fit in the input's.
  std::vector<int64_t> window_sizes;
  for (size_t j = 0; j < d.window.size(); ++j) {
    const int64_t size = update.shape()[static_cast<size_t>(d.window[j])];
    if (size > input.shape()[static_cast<size_t>(a.window_operand_dims[j])]) {
      return ctx.Error("expects update windows that fit in the inputs, got " + update.type().ToString() + " and " +
                       input.type().ToString());
    }
    window_sizes.push_back(size);
  }
  for (size_t p = 0; p < a.batch_shape.size(); ++p) {
    if (update.shape()[static_cast<size_t>(a.windowed_batch_dims[p])] != a.batch_shape[p]) {
      return ctx.Error("expects the updates' scatter dims to match the indices, got " + update.type().ToString() +
                       " and " + indices.type().ToString());
    }
  }

  std::vector<Tensor> results;
  for (size_t k = 0; k < n; ++k) results.push_back(ctx.operand(k).Clone());
  if (update.num_elements() == 0 || input.num_elements() == 0) {
    ctx.results = std::move(results);
    return Status::Ok();
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> idx, IndexValues(indices, "scatter_indices"));
  const std::vector<int64_t> in_strides = Strides(input.shape());
  const std::vector<int64_t> up_strides = Strides(update.shape());
  std::vector<int64_t> full_window(input.shape().size(), 1);
  std::vector<int64_t> box_src, box_dst;
  for (size_t j = 0; j < window_sizes.size(); ++j) {
    full_window[static_cast<size_t>(a.window_operand_dims[j])] = window_sizes[j];
    box_src.push_back(up_strides[static_cast<size_t>(d.window[j])]);
    box_dst.push_back(in_strides[static_cast<size_t>(a.window_operand_dims[j])]);
  }
  const StridedBox box(window_sizes, box_src, box_dst);
  const int64_t ivd = d.index_vector_dim;
  const int64_t vstride = ivd < indices.rank() ? Strides(indices.shape())[static_cast<size_t>(ivd)] : 0;
  std::vector<int64_t> map_stride, map_max;
  for (int64_t x : d.index_map) {
    map_stride.push_back(in_strides[static_cast<size_t>(x)]);
    map_max.push_back(input.shape()[static_cast<size_t>(x)] - full_window[static_cast<size_t>(x)]);
  }
  std::vector<int64_t> batching_stride;
  for (int64_t x : d.operand_batching) batching_stride.push_back(in_strides[static_cast<size_t>(x)]);

  // Where each window lands, in order; windows that do not fit are dropped.
  std::vector<WindowPlace> places;
  ForEachBatch(a, indices.type(), ivd, up_strides, [&](const std::vector<int64_t>& coord, int64_t ioff, int64_t uoff) {
    int64_t off = 0;
    for (size_t k = 0; k < map_stride.size(); ++k) {
      const int64_t s = idx[static_cast<size_t>(ioff + static_cast<int64_t>(k) * vstride)];
      if (s < 0 || s > map_max[k]) return;
      off += s * map_stride[k];
    }
    for (size_t i = 0; i < batching_stride.size(); ++i) {
      off += coord[static_cast<size_t>(a.batching_axis[i])] * batching_stride[i];
    }
    places.push_back({uoff, off});
  });

  const std::vector<Combiner> combiners = DetectCombiners(ctx.op.region(0), types);
  const bool generic = std::any_of(combiners.begin(), combiners.end(),
                                   [](const Combiner& c) { return c.kind == Combine::kGeneric; });
  if (generic) {
    HLOGRAPH_TRY(ApplyRegion(ctx, places, box, updates, results));
  } else {
    for (size_t k = 0; k < n; ++k) ApplyCombiner(combiners[k], places, box, *updates[k], results[k]);
  }
  ctx.results = std::move(results);
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// torch_index_select

// result[b..., p..., k..., q...] = operand[b..., p..., index[b..., k...], q...]
// where b are the batch_dims leading dims shared with the index; indices are
// clamped into the selected dim, as its lowering to gather does.
Status TorchIndexSelect(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  const Tensor& index = ctx.operand(1);
  const int64_t dim = IntAttr(ctx.op, "dim", -1);
  const int64_t batch = IntAttr(ctx.op, "batch_dims", -1);
  if (!operand.type().IsTensor() || !index.type().IsTensor()) return ctx.Error("expects tensor operands");
  if (batch < 0 || batch > dim || dim >= operand.rank() || batch > index.rank()) {
    return ctx.Error("expects 0 <= batch_dims <= dim < " + std::to_string(operand.rank()) +
                     " and batch_dims <= the index rank, got dim " + std::to_string(dim) + " and batch_dims " +
                     std::to_string(batch));
  }
  const std::vector<int64_t>& os = operand.shape();
  const std::vector<int64_t>& is = index.shape();
  if (!std::equal(os.begin(), os.begin() + batch, is.begin())) {
    return ctx.Error("expects the leading batch_dims dims of the operand and the index to match, got " +
                     operand.type().ToString() + " and " + index.type().ToString());
  }
  std::vector<int64_t> shape(os.begin(), os.begin() + dim);
  shape.insert(shape.end(), is.begin() + batch, is.end());
  shape.insert(shape.end(), os.begin() + dim + 1, os.end());
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));
  Tensor t(ctx.result_type(0));
  const int64_t selected = os[static_cast<size_t>(dim)];
  if (t.num_elements() == 0 || selected == 0) {  // nothing to select from: zeros
    ctx.results.push_back(std::move(t));
    return Status::Ok();
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> idx, IndexValues(index, "the index"));
  auto product = [](auto first, auto last) {
    int64_t p = 1;
    for (auto it = first; it != last; ++it) p *= *it;
    return p;
  };
  const int64_t outer_b = product(os.begin(), os.begin() + batch);
  const int64_t outer_p = product(os.begin() + batch, os.begin() + dim);
  const int64_t ks = product(is.begin() + batch, is.end());
  const int64_t inner = product(os.begin() + dim + 1, os.end());
  DispatchWord(ElementBytes(t), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* src = operand.data<W>();
    W* dst = t.mutable_data<W>();
    for (int64_t b = 0; b < outer_b; ++b) {
      for (int64_t p = 0; p < outer_p; ++p) {
        const W* plane = src + (b * outer_p + p) * selected * inner;
        for (int64_t k = 0; k < ks; ++k) {
          const int64_t i = Clamp(idx[static_cast<size_t>(b * ks + k)], 0, selected - 1);
          std::copy_n(plane + i * inner, inner, dst);
          dst += inner;
        }
      }
    }
  });
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

}  // namespace

void RegisterIndexingKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kSlice, &Slice);
  r.Register(ir::OpId::kRealDynamicSlice, &RealDynamicSlice);
  r.Register(ir::OpId::kDynamicSlice, &DynamicSlice);
  r.Register(ir::OpId::kDynamicUpdateSlice, &DynamicUpdateSlice);
  r.Register(ir::OpId::kGather, &Gather);
  r.Register(ir::OpId::kDynamicGather, &DynamicGather);
  r.Register(ir::OpId::kScatter, &Scatter);
  r.Register(ir::OpId::kTorchIndexSelect, &TorchIndexSelect);
}

}  // namespace hlograph::cpu

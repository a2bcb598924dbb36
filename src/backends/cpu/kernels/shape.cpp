// Constants, iota, and the ops that rearrange elements without looking at
// them: broadcasts, reshapes, transposes, reverses, concatenation, padding,
// and tuples. The dynamic_* variants take their shapes from operands; with
// static result types those operands must agree with the types.
#include <cstring>
#include <optional>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/indexing_util.h"

namespace hlograph::cpu {
namespace {

using ir::ElementType;

std::optional<int64_t> AddOrNull(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> MulOrNull(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The dynamic ops' shape operand must spell the static result shape.
Status ExpectShapeOperand(const KernelContext& ctx, const Tensor& shape, const std::string& what) {
  const ir::Type& r = ctx.result_type(0);
  if (!r.IsTensor()) return ctx.Error("expects a tensor result, got " + r.ToString());
  HLOGRAPH_ASSIGN(const std::vector<int64_t> dims, DimValues(shape, r.rank(), what));
  if (dims != r.shape()) {
    return ctx.Error("has " + what + " " + DimsToString(dims) + " but its result type is " + r.ToString());
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// constant, iota

// Dense attributes store sub-byte values masked to their width (and i1 as
// any byte, from hex data); tensors keep i2/i4 sign-extended, ui2/ui4 and
// narrow float bits masked, and i1 as 0/1.
void Canonicalize(Tensor& t) {
  const ElementType e = t.element();
  uint8_t* p = t.mutable_bytes();
  const int64_t n = t.num_elements();
  if (e == ElementType::kI1) {
    for (int64_t i = 0; i < n; ++i) p[i] = p[i] != 0;
    return;
  }
  const int width = ir::BitWidth(e);
  if (width >= 8 || ir::IsComplex(e)) return;
  if (ir::IsSignedInteger(e)) {
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(WrapInteger(static_cast<int8_t>(p[i]), e));
  } else {
    const auto mask = static_cast<uint8_t>((1u << width) - 1);
    for (int64_t i = 0; i < n; ++i) p[i] &= mask;
  }
}

Status Constant(KernelContext& ctx) {
  const auto* value = ctx.op.attr("value").as<ir::DenseElementsAttr>();
  if (!value) return ctx.Error("expects a dense elements attribute 'value'");
  const ir::Type& type = ctx.result_type(0);
  if (!type.IsTensor() || value->type != type) {
    return ctx.Error("expects its result type to be the type of its value, " + value->type.ToString() + ", got " +
                     type.ToString());
  }
  Tensor t(type);
  const int eb = ElementBytes(t);
  const size_t expected = static_cast<size_t>(value->splat ? 1 : t.num_elements()) * static_cast<size_t>(eb);
  if (value->bytes.size() != expected) {
    return ctx.Error("has a value of " + std::to_string(value->bytes.size()) + " bytes, expected " +
                     std::to_string(expected));
  }
  if (value->splat) {
    FillElements(t.mutable_bytes(), t.num_elements(), eb, value->bytes.data());
  } else if (expected > 0) {
    std::memcpy(t.mutable_bytes(), value->bytes.data(), expected);
  }
  Canonicalize(t);
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

// Element `i` of an iota, in the storage type T.
template <typename T>
T IotaValue(int64_t i, ElementType e) {
  if constexpr (std::is_same_v<T, bool>) {
    return i != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(WrapInteger(i, e));
  } else if constexpr (kIsComplex<T>) {
    return T(static_cast<typename T::value_type>(i), 0);
  } else {
    return Store<T>(static_cast<ComputeType<T>>(i));
  }
}

Status IotaInto(const KernelContext& ctx, const ir::Type& type, int64_t dim, Tensor* out) {
  if (!type.IsTensor()) return ctx.Error("expects a tensor result, got " + type.ToString());
  if (dim < 0 || dim >= type.rank()) {
    return ctx.Error("expects iota_dimension in [0, " + std::to_string(type.rank()) + "), got " +
                     std::to_string(dim));
  }
  Tensor t(type);
  if (t.num_elements() > 0) {
    const std::vector<int64_t>& shape = type.shape();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
    for (int64_t d = dim + 1; d < type.rank(); ++d) inner *= shape[static_cast<size_t>(d)];
    const int64_t size = shape[static_cast<size_t>(dim)];
    DispatchElementType(type.element(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::vector<T> values(static_cast<size_t>(size));
      for (int64_t i = 0; i < size; ++i) values[static_cast<size_t>(i)] = IotaValue<T>(i, type.element());
      T* p = t.mutable_data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < size; ++i) {
          std::fill_n(p, inner, values[static_cast<size_t>(i)]);
          p += inner;
        }
      }
    });
  }
  *out = std::move(t);
  return Status::Ok();
}

Status Iota(KernelContext& ctx) {
  Tensor t;
  HLOGRAPH_TRY(IotaInto(ctx, ctx.result_type(0), IntAttr(ctx.op, "iota_dimension", -1), &t));
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status DynamicIota(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectShapeOperand(ctx, ctx.operand(0), "output_shape"));
  return Iota(ctx);
}

// ---------------------------------------------------------------------------
// Broadcasts, reshapes

Status BroadcastInDimImpl(KernelContext& ctx, const std::vector<int64_t>& dims) {
  const Tensor& operand = ctx.operand(0);
  const ir::Type& rt = ctx.result_type(0);
  if (!operand.type().IsTensor() || !rt.IsTensor() || rt.element() != operand.element()) {
    return ctx.Error("expects a tensor operand and result of one element type, got " + operand.type().ToString() +
                     " and " + rt.ToString());
  }
  if (static_cast<int64_t>(dims.size()) != operand.rank()) {
    return ctx.Error("expects broadcast_dimensions to have the operand's rank, got " + DimsToString(dims));
  }
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  std::vector<int64_t> src_strides(static_cast<size_t>(rt.rank()), 0);
  std::vector<bool> used(static_cast<size_t>(rt.rank()), false);
  for (size_t j = 0; j < dims.size(); ++j) {
    const int64_t r = dims[j];
    if (r < 0 || r >= rt.rank() || used[static_cast<size_t>(r)]) {
      return ctx.Error("expects broadcast_dimensions to be unique dimensions of the result, got " +
                       DimsToString(dims));
    }
    used[static_cast<size_t>(r)] = true;
    const int64_t size = operand.shape()[j];
    if (size != 1 && size != rt.dim(r)) {
      return ctx.Error("cannot broadcast dimension " + std::to_string(j) + " of " + operand.type().ToString() +
                       " to " + rt.ToString());
    }
    if (size != 1) src_strides[static_cast<size_t>(r)] = op_strides[j];
  }
  Tensor t(rt);
  if (t.num_elements() > 0) {
    StridedBox box(rt.shape(), src_strides, Strides(rt.shape()));
    CopyBox(box, ElementBytes(t), operand.bytes(), t.mutable_bytes());
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status BroadcastInDim(KernelContext& ctx) {
  return BroadcastInDimImpl(ctx, I64Array(ctx.op, "broadcast_dimensions"));
}

Status DynamicBroadcastInDim(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectShapeOperand(ctx, ctx.operand(1), "output_dimensions"));
  return BroadcastInDimImpl(ctx, I64Array(ctx.op, "broadcast_dimensions"));
}

// broadcast prepends broadcast_sizes to the operand's shape.
Status Broadcast(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  if (!operand.type().IsTensor()) return ctx.Error("expects a tensor operand");
  std::vector<int64_t> shape = I64Array(ctx.op, "broadcast_sizes");
  const size_t lead = shape.size();
  shape.insert(shape.end(), operand.shape().begin(), operand.shape().end());
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));
  std::vector<int64_t> dims;
  for (size_t j = 0; j < static_cast<size_t>(operand.rank()); ++j) dims.push_back(static_cast<int64_t>(lead + j));
  return BroadcastInDimImpl(ctx, dims);
}

Status ReshapeImpl(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  const ir::Type& rt = ctx.result_type(0);
  if (!operand.type().IsTensor() || !rt.IsTensor() || rt.element() != operand.element() ||
      rt.NumElements() != operand.num_elements()) {
    return ctx.Error("cannot reshape " + operand.type().ToString() + " to " + rt.ToString());
  }
  ctx.results.push_back(operand.Reshaped(rt));
  return Status::Ok();
}

Status Reshape(KernelContext& ctx) { return ReshapeImpl(ctx); }

Status DynamicReshape(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectShapeOperand(ctx, ctx.operand(1), "output_shape"));
  return ReshapeImpl(ctx);
}

// ---------------------------------------------------------------------------
// transpose, reverse, concatenate

Status Transpose(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  if (!operand.type().IsTensor()) return ctx.Error("expects a tensor operand");
  const std::vector<int64_t> perm = I64Array(ctx.op, "permutation");
  const size_t rank = static_cast<size_t>(operand.rank());
  std::vector<bool> seen(rank, false);
  if (perm.size() != rank) return ctx.Error("expects a permutation of the operand's dims, got " + DimsToString(perm));
  const std::vector<int64_t> op_strides = Strides(operand.shape());
  std::vector<int64_t> shape(rank), src_strides(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t p = perm[i];
    if (p < 0 || p >= operand.rank() || seen[static_cast<size_t>(p)]) {
      return ctx.Error("expects a permutation of the operand's dims, got " + DimsToString(perm));
    }
    seen[static_cast<size_t>(p)] = true;
    shape[i] = operand.shape()[static_cast<size_t>(p)];
    src_strides[i] = op_strides[static_cast<size_t>(p)];
  }
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));
  Tensor t(ctx.result_type(0));
  if (t.num_elements() > 0) {
    StridedBox box(shape, src_strides, Strides(shape));
    CopyBox(box, ElementBytes(t), operand.bytes(), t.mutable_bytes());
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status Reverse(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  if (!operand.type().IsTensor()) return ctx.Error("expects a tensor operand");
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), operand.shape()));
  const std::vector<int64_t> dims = I64Array(ctx.op, "dimensions");
  std::vector<int64_t> src_strides = Strides(operand.shape());
  std::vector<bool> reversed(src_strides.size(), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= operand.rank()) {
      return ctx.Error("expects dimensions of the operand, got " + DimsToString(dims));
    }
    reversed[static_cast<size_t>(d)] = true;
  }
  Tensor t(ctx.result_type(0));
  if (t.num_elements() > 0) {
    // Start at the last element of each reversed dim and walk backwards.
    int64_t start = 0;
    for (size_t d = 0; d < src_strides.size(); ++d) {
      if (!reversed[d]) continue;
      start += (operand.shape()[d] - 1) * src_strides[d];
      src_strides[d] = -src_strides[d];
    }
    const int eb = ElementBytes(t);
    StridedBox box(operand.shape(), src_strides, Strides(operand.shape()));
    CopyBox(box, eb, operand.bytes() + start * eb, t.mutable_bytes());
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status Concatenate(KernelContext& ctx) {
  if (ctx.operands.empty()) return ctx.Error("expects at least one input");
  const Tensor& first = ctx.operand(0);
  if (!first.type().IsTensor()) return ctx.Error("expects tensor inputs");
  const int64_t dim = IntAttr(ctx.op, "dimension", -1);
  if (dim < 0 || dim >= first.rank()) {
    return ctx.Error("expects dimension in [0, " + std::to_string(first.rank()) + "), got " + std::to_string(dim));
  }
  std::vector<int64_t> shape = first.shape();
  const auto ud = static_cast<size_t>(dim);
  shape[ud] = 0;
  for (const Tensor* in : ctx.operands) {
    std::vector<int64_t> s = in->type().IsTensor() ? in->shape() : std::vector<int64_t>{};
    if (!in->type().IsTensor() || in->element() != first.element() || in->rank() != first.rank()) {
      return ctx.Error("expects inputs of one element type and rank, got " + in->type().ToString() + " and " +
                       first.type().ToString());
    }
    s[ud] = shape[ud];
    std::optional<int64_t> total = AddOrNull(shape[ud], in->shape()[ud]);
    if (s != shape || !total) {
      return ctx.Error("expects inputs that differ only in dimension " + std::to_string(dim) + ", got " +
                       in->type().ToString() + " and " + first.type().ToString());
    }
    shape[ud] = *total;
  }
  HLOGRAPH_TRY(ExpectResult(ctx, first.element(), shape));
  Tensor t(ctx.result_type(0));
  if (t.num_elements() > 0) {
    const int eb = ElementBytes(t);
    const std::vector<int64_t> dst_strides = Strides(shape);
    int64_t offset = 0;
    for (const Tensor* in : ctx.operands) {
      StridedBox box(in->shape(), Strides(in->shape()), dst_strides);
      CopyBox(box, eb, in->bytes(), t.mutable_bytes() + offset * dst_strides[ud] * eb);
      offset += in->shape()[ud];
    }
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// pad

// Operand element i of a padded dim lands at low + i * (interior + 1);
// positions outside [0, size) are cropped (negative padding).
Status PadImpl(KernelContext& ctx, const std::vector<int64_t>& low, const std::vector<int64_t>& high,
               const std::vector<int64_t>& interior) {
  const Tensor& operand = ctx.operand(0);
  const Tensor& pad_value = ctx.operand(1);
  if (!operand.type().IsTensor() || !pad_value.type().IsTensor() || pad_value.rank() != 0 ||
      pad_value.element() != operand.element()) {
    return ctx.Error("expects a tensor operand and a rank-0 padding value of its element type, got " +
                     operand.type().ToString() + " and " + pad_value.type().ToString());
  }
  const size_t rank = static_cast<size_t>(operand.rank());
  if (low.size() != rank || high.size() != rank || interior.size() != rank) {
    return ctx.Error("expects padding amounts for each of the operand's " + std::to_string(rank) + " dims");
  }
  std::vector<int64_t> shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t n = operand.shape()[d];
    if (interior[d] < 0) return ctx.Error("expects non-negative interior padding, got " + DimsToString(interior));
    std::optional<int64_t> size = MulOrNull(std::max<int64_t>(n - 1, 0), interior[d]);
    if (size) size = AddOrNull(*size, n);
    if (size) size = AddOrNull(*size, low[d]);
    if (size) size = AddOrNull(*size, high[d]);
    if (!size || *size < 0) {
      return ctx.Error("has padding that gives dimension " + std::to_string(d) + " a negative or huge size");
    }
    shape[d] = *size;
  }
  HLOGRAPH_TRY(ExpectResult(ctx, operand.element(), shape));
  Tensor t(ctx.result_type(0));
  if (t.num_elements() == 0) {
    ctx.results.push_back(std::move(t));
    return Status::Ok();
  }
  const int eb = ElementBytes(t);
  FillElements(t.mutable_bytes(), t.num_elements(), eb, pad_value.bytes());
  if (operand.num_elements() > 0) {
    const std::vector<int64_t> src_strides = Strides(operand.shape());
    const std::vector<int64_t> dst_strides = Strides(shape);
    std::vector<int64_t> counts(rank), box_src(rank), box_dst(rank);
    int64_t src_start = 0, dst_start = 0;
    for (size_t d = 0; d < rank; ++d) {
      // Unsigned arithmetic: low may be near INT64_MIN when high makes up
      // for it, and interior is unbounded when the dim has one element.
      const int64_t n = operand.shape()[d];
      const uint64_t step = n > 1 ? static_cast<uint64_t>(interior[d]) + 1 : 1;
      const int64_t lo = low[d];
      if (lo >= shape[d]) {
        counts[d] = 0;
        break;
      }
      // The first element at a position >= 0, and the end of those < size.
      const uint64_t first =
          lo >= 0 ? 0 : std::min<uint64_t>(static_cast<uint64_t>(n), static_cast<uint64_t>(-(lo + 1)) / step + 1);
      const uint64_t span = static_cast<uint64_t>(shape[d]) - static_cast<uint64_t>(lo);  // size - lo > 0
      const uint64_t end = std::min<uint64_t>(static_cast<uint64_t>(n), span / step + (span % step != 0));
      counts[d] = end > first ? static_cast<int64_t>(end - first) : 0;
      if (counts[d] == 0) break;
      const auto pos = static_cast<int64_t>(static_cast<uint64_t>(lo) + first * step);  // in [0, size)
      src_start += static_cast<int64_t>(first) * src_strides[d];
      dst_start += pos * dst_strides[d];
      box_src[d] = src_strides[d];
      box_dst[d] = counts[d] > 1 ? static_cast<int64_t>(step) * dst_strides[d] : 0;
    }
    StridedBox box(counts, box_src, box_dst);
    if (!box.empty()) CopyBox(box, eb, operand.bytes() + src_start * eb, t.mutable_bytes() + dst_start * eb);
  }
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

Status Pad(KernelContext& ctx) {
  return PadImpl(ctx, I64Array(ctx.op, "edge_padding_low"), I64Array(ctx.op, "edge_padding_high"),
                 I64Array(ctx.op, "interior_padding"));
}

Status DynamicPad(KernelContext& ctx) {
  const int64_t rank = ctx.operand(0).rank();
  HLOGRAPH_ASSIGN(const std::vector<int64_t> low, DimValues(ctx.operand(2), rank, "edge_padding_low"));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> high, DimValues(ctx.operand(3), rank, "edge_padding_high"));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> interior, DimValues(ctx.operand(4), rank, "interior_padding"));
  return PadImpl(ctx, low, high, interior);
}

// ---------------------------------------------------------------------------
// Tuples, barriers, dimension sizes

Status TupleOp(KernelContext& ctx) {
  std::vector<Tensor> elements;
  elements.reserve(ctx.operands.size());
  for (const Tensor* t : ctx.operands) elements.push_back(*t);
  ctx.results.push_back(Tensor::Tuple(std::move(elements)));
  return Status::Ok();
}

Status GetTupleElement(KernelContext& ctx) {
  const Tensor& tuple = ctx.operand(0);
  const int64_t index = IntAttr(ctx.op, "index", -1);
  const auto size = static_cast<int64_t>(tuple.tuple_elements().size());
  if (!tuple.type().IsTuple() || index < 0 || index >= size) {
    return ctx.Error("expects index in [0, " + std::to_string(size) + ") of a tuple, got " + std::to_string(index));
  }
  ctx.results.push_back(tuple.tuple_elements()[static_cast<size_t>(index)]);
  return Status::Ok();
}

Status OptimizationBarrier(KernelContext& ctx) {
  for (const Tensor* t : ctx.operands) ctx.results.push_back(*t);
  return Status::Ok();
}

Status GetDimensionSize(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  const int64_t dim = IntAttr(ctx.op, "dimension", -1);
  if (!operand.type().IsTensor() || dim < 0 || dim >= operand.rank()) {
    return ctx.Error("expects dimension in [0, " + std::to_string(operand.rank()) + "), got " + std::to_string(dim));
  }
  HLOGRAPH_TRY(ExpectResult(ctx, ElementType::kI32, {}));
  Tensor t(ctx.result_type(0));
  t.mutable_data<int32_t>()[0] = static_cast<int32_t>(operand.shape()[static_cast<size_t>(dim)]);
  ctx.results.push_back(std::move(t));
  return Status::Ok();
}

}  // namespace

void RegisterShapeKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kConstant, &Constant);
  r.Register(ir::OpId::kIota, &Iota);
  r.Register(ir::OpId::kDynamicIota, &DynamicIota);
  r.Register(ir::OpId::kBroadcastInDim, &BroadcastInDim);
  r.Register(ir::OpId::kDynamicBroadcastInDim, &DynamicBroadcastInDim);
  r.Register(ir::OpId::kBroadcast, &Broadcast);
  r.Register(ir::OpId::kReshape, &Reshape);
  r.Register(ir::OpId::kDynamicReshape, &DynamicReshape);
  r.Register(ir::OpId::kTranspose, &Transpose);
  r.Register(ir::OpId::kReverse, &Reverse);
  r.Register(ir::OpId::kConcatenate, &Concatenate);
  r.Register(ir::OpId::kPad, &Pad);
  r.Register(ir::OpId::kDynamicPad, &DynamicPad);
  r.Register(ir::OpId::kTuple, &TupleOp);
  r.Register(ir::OpId::kGetTupleElement, &GetTupleElement);
  r.Register(ir::OpId::kOptimizationBarrier, &OptimizationBarrier);
  r.Register(ir::OpId::kGetDimensionSize, &GetDimensionSize);
}

}  // namespace hlograph::cpu

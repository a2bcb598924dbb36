#include "backends/gpu/codegen/fusion_emitter.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "backends/gpu/codegen/elemental.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

constexpr int kThreads = 256;

std::vector<int64_t> I64s(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::DenseArrayAttr>();
  return a ? a->values : std::vector<int64_t>{};
}

int64_t IntAttrOf(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : 0;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

using Index = std::vector<std::string>;

// Writes the statements of one kernel body: values are computed into
// local variables, each once per (value, index) within a scope.
class BodyEmitter {
 public:
  BodyEmitter(const Fusion& fusion, std::ostringstream& out) : out_(out) {
    for (size_t i = 0; i < fusion.inputs.size(); ++i) inputs_[fusion.inputs[i]] = static_cast<int>(i);
    scopes_.emplace_back();
  }

  void Line(const std::string& s) { out_ << std::string(static_cast<size_t>(indent_), ' ') << s << "\n"; }
  void Open(const std::string& head) {
    Line(head + " {");
    indent_ += 2;
    scopes_.emplace_back();
  }
  void Close(const std::string& tail = "") {
    scopes_.pop_back();
    indent_ -= 2;
    Line("}" + tail);
  }
  std::string Fresh(const std::string& prefix) { return prefix + std::to_string(counter_++); }

  // An index expression as a variable, unless it is one already.
  std::string IndexVar(const std::string& expr) {
    const bool simple = std::all_of(expr.begin(), expr.end(), [](char c) { return std::isalnum(c) || c == '_'; });
    if (simple) return expr;
    const std::string v = Fresh("j");
    Line("const long long " + v + " = " + expr + ";");
    return v;
  }

  // Linear offset of `idx` in a row-major array of `shape`.
  std::string Linear(const Index& idx, const std::vector<int64_t>& shape) {
    const auto strides = Strides(shape);
    std::string s;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) continue;
      if (!s.empty()) s += " + ";
      s += strides[d] == 1 ? idx[d] : idx[d] + " * " + std::to_string(strides[d]) + "LL";
    }
    return s.empty() ? "0" : s;
  }

  // Splits a linear offset into the index of `shape`.
  Index Delinearize(const std::string& linear, const std::vector<int64_t>& shape) {
    const auto strides = Strides(shape);
    Index idx(shape.size());
    const std::string lin = IndexVar(linear);
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) {
        idx[d] = "0";
        continue;
      }
      std::string e = strides[d] == 1 ? lin : "(" + lin + " / " + std::to_string(strides[d]) + "LL)";
      if (d > 0) e = "(" + e + " % " + std::to_string(shape[d]) + "LL)";
      idx[d] = IndexVar(e);
    }
    return idx;
  }

  StatusOr<std::string> CType(const ir::Value* v) { return ComputeType(v->type().element()); }

  // The compute-type variable holding `v` at `idx`.
  StatusOr<std::string> Emit(const ir::Value* v, const Index& idx) {
    std::string key = std::to_string(reinterpret_cast<uintptr_t>(v));
    for (const auto& i : idx) key += "|" + i;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto hit = it->find(key);
      if (hit != it->end()) return hit->second;
    }
    HLOGRAPH_ASSIGN(std::string expr, Compute(v, idx));
    HLOGRAPH_ASSIGN(std::string ct, CType(v));
    const std::string var = Fresh("v");
    Line("const " + ct + " " + var + " = " + expr + ";");
    scopes_.back()[key] = var;
    return var;
  }

  // Emits `v` at `idx` into the already declared variable `var`.
  Status EmitInto(const std::string& var, const ir::Value* v, const Index& idx) {
    HLOGRAPH_ASSIGN(std::string value, Emit(v, idx));
    Line(var + " = " + value + ";");
    return Status::Ok();
  }

  // The value of the reduction body (or any scalar region) applied to
  // `args`: returns the variables holding its results.
  StatusOr<std::vector<std::string>> EmitRegion(const ir::Block& block, const std::vector<std::string>& args) {
    std::unordered_map<const ir::Value*, std::string> names;
    for (size_t i = 0; i < block.num_arguments(); ++i) names[block.argument(i)] = args[i];
    for (const auto& op : block.operations()) {
      std::vector<std::string> operands;
      for (const ir::Value* v : op->operands()) {
        auto it = names.find(v);
        if (it == names.end()) return Status::Error("a region reads a value from outside it");
        operands.push_back(it->second);
      }
      if (op->name() == "stablehlo.return") return operands;
      std::string expr;
      if (op->name() == "stablehlo.constant") {
        HLOGRAPH_ASSIGN(expr, SplatLiteral(*op));
      } else {
        HLOGRAPH_ASSIGN(expr, ElementalExpr(*op, operands));
      }
      HLOGRAPH_ASSIGN(std::string ct, CType(op->result(0)));
      const std::string var = Fresh("r");
      Line("const " + ct + " " + var + " = " + expr + ";");
      names[op->result(0)] = var;
    }
    return Status::Error("a reduction body has no return");
  }

  static StatusOr<std::string> SplatLiteral(const ir::Operation& op) {
    const auto* value = op.attr("value").as<ir::DenseElementsAttr>();
    if (!value) return Status::Error("a constant without a value");
    uint64_t bits = 0;
    const size_t n = std::min<size_t>(value->bytes.size(), 8);
    for (size_t i = 0; i < n; ++i) bits |= uint64_t{value->bytes[i]} << (8 * i);
    return LiteralExpr(value->type.element(), bits);
  }

 private:
  StatusOr<std::string> Load(int input, const ir::Value* v, const Index& idx) {
    HLOGRAPH_ASSIGN(std::string storage, StorageType(v->type().element()));
    (void)storage;
    return LoadExpr(v->type().element(), "p" + std::to_string(input) + "[" + Linear(idx, v->type().shape()) + "]");
  }

  // The expression (not yet a variable) for `v` at `idx`.
  StatusOr<std::string> Compute(const ir::Value* v, const Index& idx) {
    auto in = inputs_.find(v);
    if (in != inputs_.end()) return Load(in->second, v, idx);
    const ir::Operation* op = v->defining_op();
    if (!op) return Status::Error("internal error: a kernel reads a value it was not given");
    const std::string& name = op->name();
    const ir::Type& type = v->type();
    const ir::Value* x = op->num_operands() ? op->operand(0) : nullptr;

    if (name == "stablehlo.constant") return SplatLiteral(*op);
    if (name == "stablehlo.iota") {
      const std::string i = idx[static_cast<size_t>(IntAttrOf(*op, "iota_dimension"))];
      HLOGRAPH_ASSIGN(std::string ct, ComputeType(type.element()));
      // Rounded through the storage type (an f16 iota holds f16 values).
      return LoadExpr(type.element(), StoreExpr(type.element(), "(" + ct + ")(" + i + ")"));
    }
    if (name == "stablehlo.broadcast_in_dim") {
      const auto dims = I64s(*op, "broadcast_dimensions");
      Index src(dims.size());
      for (size_t j = 0; j < dims.size(); ++j) {
        src[j] = x->type().dim(static_cast<int64_t>(j)) == 1 ? "0" : idx[static_cast<size_t>(dims[j])];
      }
      return Emit(x, src);
    }
    if (name == "stablehlo.broadcast") {
      const size_t lead = static_cast<size_t>(type.rank() - x->type().rank());
      return Emit(x, Index(idx.begin() + static_cast<std::ptrdiff_t>(lead), idx.end()));
    }
    if (name == "stablehlo.reshape") {
      return Emit(x, Delinearize(Linear(idx, type.shape()), x->type().shape()));
    }
    if (name == "stablehlo.transpose") {
      const auto perm = I64s(*op, "permutation");
      Index src(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) src[static_cast<size_t>(perm[i])] = idx[i];
      return Emit(x, src);
    }
    if (name == "stablehlo.slice") {
      const auto start = I64s(*op, "start_indices");
      auto strides = I64s(*op, "strides");
      strides.resize(start.size(), 1);
      Index src(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) {
        std::string e = strides[d] == 1 ? idx[d] : idx[d] + " * " + std::to_string(strides[d]) + "LL";
        src[d] = start[d] == 0 ? e : IndexVar(e + " + " + std::to_string(start[d]) + "LL");
      }
      return Emit(x, src);
    }
    if (name == "stablehlo.reverse") {
      Index src = idx;
      for (int64_t d : I64s(*op, "dimensions")) {
        src[static_cast<size_t>(d)] = IndexVar(std::to_string(type.dim(d) - 1) + "LL - " + idx[static_cast<size_t>(d)]);
      }
      return Emit(x, src);
    }
    if (name == "stablehlo.dynamic_slice") return DynamicSlice(*op, idx);
    if (name == "stablehlo.gather") return Gather(*op, idx);
    if (name == "stablehlo.reduce_window") return ReduceWindow(*op, idx);
    if (name == "stablehlo.concatenate" || name == "stablehlo.pad" || name == "stablehlo.dynamic_update_slice") {
      return Conditional(*op, idx);
    }
    if (IsElementwise(*op)) {
      std::vector<std::string> operands;
      for (const ir::Value* o : op->operands()) {
        // Scalar operands of clamp and friends broadcast.
        HLOGRAPH_ASSIGN(std::string e, Emit(o, o->type().rank() == 0 ? Index{} : idx));
        operands.push_back(e);
      }
      return ElementalExpr(*op, operands);
    }
    return Status::Error("'" + name + "' cannot be computed inside a kernel");
  }

  // Start indices of dynamic_slice / dynamic_update_slice, clamped so a
  // window of `sizes` fits in `shape`.
  StatusOr<Index> ClampedStarts(const ir::Operation& op, size_t first, const std::vector<int64_t>& shape,
                                const std::vector<int64_t>& sizes) {
    Index starts;
    for (size_t d = 0; d < shape.size(); ++d) {
      HLOGRAPH_ASSIGN(std::string s, Emit(op.operand(first + d), Index{}));
      const std::string hi = std::to_string(shape[d] - sizes[d]) + "LL";
      starts.push_back(IndexVar("min(max((long long)(" + s + "), 0LL), " + hi + ")"));
    }
    return starts;
  }

  StatusOr<std::string> DynamicSlice(const ir::Operation& op, const Index& idx) {
    const ir::Value* x = op.operand(0);
    HLOGRAPH_ASSIGN(Index starts, ClampedStarts(op, 1, x->type().shape(), I64s(op, "slice_sizes")));
    Index src(idx.size());
    for (size_t d = 0; d < idx.size(); ++d) src[d] = IndexVar(idx[d] + " + " + starts[d]);
    return Emit(x, src);
  }

  // gather: the output index splits into batch dims (which pick a start
  // vector from the indices) and offset dims (the position in the slice);
  // starts are clamped so the slice fits, as for dynamic_slice.
  StatusOr<std::string> Gather(const ir::Operation& op, const Index& idx) {
    const auto* dn = op.attr("dimension_numbers").as<ir::GatherDimsAttr>();
    if (!dn) return Status::Error("gather without dimension_numbers");
    const ir::Value* x = op.operand(0);
    const ir::Value* indices = op.operand(1);
    const auto sizes = I64s(op, "slice_sizes");
    const int64_t out_rank = op.result(0)->type().rank();
    const int64_t ivd = dn->index_vector_dim;
    const auto contains = [](const std::vector<int64_t>& v, int64_t x_) {
      return std::find(v.begin(), v.end(), x_) != v.end();
    };
    std::vector<int64_t> batch_out, batch_idx;  // paired: output dim <-> indices dim
    for (int64_t d = 0; d < out_rank; ++d) {
      if (!contains(dn->offset_dims, d)) batch_out.push_back(d);
    }
    for (int64_t d = 0; d < indices->type().rank(); ++d) {
      if (d != ivd) batch_idx.push_back(d);
    }
    const auto out_dim_of_indices_dim = [&](int64_t k) {
      const auto at = std::find(batch_idx.begin(), batch_idx.end(), k) - batch_idx.begin();
      return idx[static_cast<size_t>(batch_out[static_cast<size_t>(at)])];
    };
    Index start(static_cast<size_t>(x->type().rank()), "0");
    for (size_t c = 0; c < dn->start_index_map.size(); ++c) {
      Index at(static_cast<size_t>(indices->type().rank()));
      for (int64_t k = 0; k < indices->type().rank(); ++k) {
        at[static_cast<size_t>(k)] = k == ivd ? std::to_string(c) : out_dim_of_indices_dim(k);
      }
      HLOGRAPH_ASSIGN(std::string s, Emit(indices, at));
      const int64_t d = dn->start_index_map[c];
      const std::string hi = std::to_string(x->type().dim(d) - sizes[static_cast<size_t>(d)]) + "LL";
      start[static_cast<size_t>(d)] = IndexVar("min(max((long long)(" + s + "), 0LL), " + hi + ")");
    }
    for (size_t i = 0; i < dn->operand_batching_dims.size(); ++i) {
      start[static_cast<size_t>(dn->operand_batching_dims[i])] = out_dim_of_indices_dim(dn->start_indices_batching_dims[i]);
    }
    Index src = start;
    size_t window = 0;
    for (int64_t d = 0; d < x->type().rank(); ++d) {
      if (contains(dn->collapsed_slice_dims, d) || contains(dn->operand_batching_dims, d)) continue;
      const std::string& o = idx[static_cast<size_t>(dn->offset_dims[window++])];
      src[static_cast<size_t>(d)] = start[static_cast<size_t>(d)] == "0" ? o : IndexVar(start[static_cast<size_t>(d)] + " + " + o);
    }
    return Emit(x, src);
  }

  // reduce_window with one input: the body folded over the window, in
  // row-major window order; positions in the padding or between dilated
  // elements contribute the init value, as the spec's padded input does.
  StatusOr<std::string> ReduceWindow(const ir::Operation& op, const Index& idx) {
    const ir::Value* x = op.operand(0);
    const int64_t rank = x->type().rank();
    namespace v = ir::verify;
    HLOGRAPH_ASSIGN(const auto sizes, v::WindowAttr(op, "window_dimensions", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto strides, v::WindowAttr(op, "window_strides", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto base, v::WindowAttr(op, "base_dilations", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto dilations, v::WindowAttr(op, "window_dilations", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", rank));
    HLOGRAPH_ASSIGN(std::string ct, CType(op.result(0)));
    HLOGRAPH_ASSIGN(std::string init, Emit(op.operand(1), Index{}));
    const std::string acc = Fresh("w");
    Line(ct + " " + acc + " = " + init + ";");
    int64_t count = 1;
    for (int64_t s : sizes) count *= s;
    const std::string k = Fresh("k");
    Open("for (long long " + k + " = 0; " + k + " < " + std::to_string(count) + "LL; ++" + k + ")");
    const Index w = Delinearize(k, sizes);
    std::string inside = "true";
    Index src(static_cast<size_t>(rank));
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
      const std::string pos = IndexVar(idx[d] + " * " + std::to_string(strides[d]) + "LL + " + w[d] + " * " +
                                       std::to_string(dilations[d]) + "LL - (" + std::to_string(padding[d].first) + "LL)");
      inside += " && " + pos + " >= 0";
      if (base[d] > 1) inside += " && " + pos + " % " + std::to_string(base[d]) + "LL == 0";
      src[d] = base[d] > 1 ? IndexVar(pos + " / " + std::to_string(base[d]) + "LL") : pos;
      inside += " && " + src[d] + " < " + std::to_string(x->type().dim(static_cast<int64_t>(d))) + "LL";
    }
    const std::string value = Fresh("e");
    Line(ct + " " + value + " = " + init + ";");
    Open("if (" + inside + ")");
    HLOGRAPH_TRY(EmitInto(value, x, src));
    Close();
    HLOGRAPH_ASSIGN(std::vector<std::string> next, EmitRegion(op.region(0).front(), {acc, value}));
    Line(acc + " = " + next[0] + ";");
    Close();
    return acc;
  }

  // concatenate, pad and dynamic_update_slice pick their value per element:
  // each case is emitted in its own scope.
  StatusOr<std::string> Conditional(const ir::Operation& op, const Index& idx) {
    const ir::Value* v = op.result(0);
    HLOGRAPH_ASSIGN(std::string ct, CType(v));
    const std::string var = Fresh("c");
    Line(ct + " " + var + ";");
    const std::string& name = op.name();
    if (name == "stablehlo.concatenate") {
      const size_t dim = static_cast<size_t>(IntAttrOf(op, "dimension"));
      // Operands that hold something, with their offsets along `dim`.
      std::vector<std::pair<const ir::Value*, int64_t>> parts;
      int64_t offset = 0;
      for (const ir::Value* o : op.operands()) {
        const int64_t size = o->type().dim(static_cast<int64_t>(dim));
        if (size > 0) parts.emplace_back(o, offset);
        offset += size;
      }
      for (size_t i = 0; i < parts.size(); ++i) {
        const auto& [o, start] = parts[i];
        const int64_t end = start + o->type().dim(static_cast<int64_t>(dim));
        const std::string cond = "if (" + idx[dim] + " < " + std::to_string(end) + "LL)";
        if (parts.size() > 1) Open(i == 0 ? cond : (i + 1 == parts.size() ? "else" : "else " + cond));
        Index src = idx;
        src[dim] = start == 0 ? idx[dim] : IndexVar(idx[dim] + " - " + std::to_string(start) + "LL");
        HLOGRAPH_TRY(EmitInto(var, o, src));
        if (parts.size() > 1) Close();
      }
      return var;
    }
    if (name == "stablehlo.pad") {
      const ir::Value* x = op.operand(0);
      const auto low = I64s(op, "edge_padding_low");
      const auto interior = I64s(op, "interior_padding");
      std::string inside = "true";
      Index src(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) {
        const std::string shifted = IndexVar(idx[d] + " - (" + std::to_string(low[d]) + "LL)");
        const int64_t step = interior[d] + 1;
        inside += " && " + shifted + " >= 0";
        if (step > 1) inside += " && " + shifted + " % " + std::to_string(step) + "LL == 0";
        src[d] = step > 1 ? IndexVar(shifted + " / " + std::to_string(step) + "LL") : shifted;
        inside += " && " + src[d] + " < " + std::to_string(x->type().dim(static_cast<int64_t>(d))) + "LL";
      }
      Open("if (" + inside + ")");
      HLOGRAPH_TRY(EmitInto(var, x, src));
      Close();
      Open("else");
      HLOGRAPH_TRY(EmitInto(var, op.operand(1), Index{}));
      Close();
      return var;
    }
    // dynamic_update_slice
    const ir::Value* x = op.operand(0);
    const ir::Value* update = op.operand(1);
    HLOGRAPH_ASSIGN(Index starts, ClampedStarts(op, 2, x->type().shape(), update->type().shape()));
    std::string inside = "true";
    Index src(idx.size());
    for (size_t d = 0; d < idx.size(); ++d) {
      src[d] = IndexVar(idx[d] + " - " + starts[d]);
      inside += " && " + src[d] + " >= 0 && " + src[d] + " < " +
                std::to_string(update->type().dim(static_cast<int64_t>(d))) + "LL";
    }
    Open("if (" + inside + ")");
    HLOGRAPH_TRY(EmitInto(var, update, src));
    Close();
    Open("else");
    HLOGRAPH_TRY(EmitInto(var, x, idx));
    Close();
    return var;
  }

  std::ostringstream& out_;
  std::unordered_map<const ir::Value*, int> inputs_;
  std::vector<std::map<std::string, std::string>> scopes_;
  int indent_ = 2;
  int counter_ = 0;
};

// The kernel's parameter list: const inputs, then outputs. `max_threads`
// is the block size it is launched with (at most).
StatusOr<std::string> Signature(const Fusion& f, int max_threads = kThreads) {
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(max_threads) + ") " + f.name + "(";
  for (size_t i = 0; i < f.input_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.input_types[i].element()));
    s += (i ? ", const " : "const ") + t + "* __restrict__ p" + std::to_string(i);
  }
  for (size_t i = 0; i < f.output_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.output_types[i].element()));
    s += (f.input_types.empty() && i == 0 ? "" : ", ") + t + "* __restrict__ o" + std::to_string(i);
  }
  return s + ")";
}

LaunchDims GridStride(int64_t n, const EmitOptions& options) {
  LaunchDims d;
  d.block = {kThreads, 1, 1};
  const int64_t blocks = std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t{options.sm_count} * 16);
  d.grid = {static_cast<uint32_t>(std::max<int64_t>(blocks, 0)), 1, 1};
  return d;
}

const char* kGridStrideLoop =
    "for (long long lin = (long long)blockIdx.x * blockDim.x + threadIdx.x; lin < N; "
    "lin += (long long)gridDim.x * blockDim.x)";

StatusOr<KernelSource> EmitLoop(const Fusion& f, const EmitOptions& options) {
  const ir::Type& type = f.output_types[0];
  for (const ir::Type& t : f.output_types) {
    if (t.shape() != type.shape()) return Status::Error("internal error: a loop kernel's outputs differ in shape");
  }
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = type.NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  const Index idx = e.Delinearize("lin", type.shape());
  for (size_t i = 0; i < f.outputs.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(f.outputs[i], idx));
    e.Line("o" + std::to_string(i) + "[lin] = " + StoreExpr(f.output_types[i].element(), v) + ";");
  }
  e.Close();
  HLOGRAPH_ASSIGN(std::string sig, Signature(f));
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", GridStride(n, options), "loop"};
  return k;
}

StatusOr<KernelSource> EmitTranspose(const Fusion& f, const EmitOptions& options) {
  const ir::Type& in = f.input_types[0];
  const ir::Type& out = f.output_types[0];
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = out.NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  const Index idx = e.Delinearize("lin", out.shape());
  Index src(idx.size());
  for (size_t i = 0; i < f.permutation.size(); ++i) src[static_cast<size_t>(f.permutation[i])] = idx[i];
  e.Line("o0[lin] = p0[" + e.Linear(src, in.shape()) + "];");
  e.Close();
  HLOGRAPH_ASSIGN(std::string sig, Signature(f));
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", GridStride(n, options), "transpose"};
  return k;
}

// Shuffles for any compute type (bool and narrow integers go as int).
const char* kReductionHelpers = R"(
template <typename T>
__device__ __forceinline__ T hlo_shfl_down(T v, int offset) {
  if constexpr (sizeof(T) < 4) {
    return (T)__shfl_down_sync(0xffffffffu, (int)v, offset);
  } else {
    return __shfl_down_sync(0xffffffffu, v, offset);
  }
}
)";

StatusOr<KernelSource> EmitReduction(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& reduce = *f.ops.back();
  const size_t n = reduce.num_operands() / 2;
  const ir::Type& in_type = reduce.operand(0)->type();
  const ir::Type& out_type = reduce.result(0)->type();
  std::vector<int64_t> reduced = I64s(reduce, "dimensions");
  std::sort(reduced.begin(), reduced.end());
  std::vector<int64_t> kept, reduced_shape;
  for (int64_t d = 0; d < in_type.rank(); ++d) {
    if (!std::binary_search(reduced.begin(), reduced.end(), d)) kept.push_back(d);
  }
  for (int64_t d : reduced) reduced_shape.push_back(in_type.dim(d));
  int64_t rows = out_type.NumElements(), cols = 1;
  for (int64_t s : reduced_shape) cols *= s;
  // Row-like when the reduced dims are the innermost ones: a row is
  // contiguous and threads of a warp read neighbouring elements.
  bool trailing = true;
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (reduced[i] != in_type.rank() - static_cast<int64_t>(reduced.size() - i)) trailing = false;
  }
  enum class Strategy { kThread, kWarp, kBlock };
  Strategy strategy = Strategy::kThread;
  if (trailing && cols >= 2048) {
    strategy = Strategy::kBlock;
  } else if (trailing && cols >= 64) {
    strategy = Strategy::kWarp;
  }

  std::ostringstream body;
  BodyEmitter e(f, body);
  const ir::Block& region = reduce.region(0).front();
  std::vector<std::string> acc(n), ct(n);
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(reduce.result(j)->type().element()));
    acc[j] = "acc" + std::to_string(j);
  }
  auto combine = [&](const std::vector<std::string>& others) -> Status {
    std::vector<std::string> args = acc;
    args.insert(args.end(), others.begin(), others.end());
    HLOGRAPH_ASSIGN(std::vector<std::string> next, e.EmitRegion(region, args));
    for (size_t j = 0; j < n; ++j) e.Line(acc[j] + " = " + next[j] + ";");
    return Status::Ok();
  };
  // acc = body(acc, operands at the element r of output `out`).
  auto accumulate = [&](const std::string& out_var, const std::string& r_var) -> Status {
    const Index out_idx = e.Delinearize(out_var, out_type.shape());
    const Index red_idx = e.Delinearize(r_var, reduced_shape);
    Index full(static_cast<size_t>(in_type.rank()));
    for (size_t i = 0; i < kept.size(); ++i) full[static_cast<size_t>(kept[i])] = out_idx[i];
    for (size_t i = 0; i < reduced.size(); ++i) full[static_cast<size_t>(reduced[i])] = red_idx[i];
    std::vector<std::string> xs;
    for (size_t j = 0; j < n; ++j) {
      HLOGRAPH_ASSIGN(std::string x, e.Emit(reduce.operand(j), full));
      xs.push_back(x);
    }
    return combine(xs);
  };
  auto init = [&]() -> Status {
    for (size_t j = 0; j < n; ++j) {
      HLOGRAPH_ASSIGN(std::string v, e.Emit(reduce.operand(n + j), Index{}));
      e.Line(ct[j] + " " + acc[j] + " = " + v + ";");
    }
    return Status::Ok();
  };
  auto store = [&](const std::string& out_var) {
    for (size_t j = 0; j < n; ++j) {
      e.Line("o" + std::to_string(j) + "[" + out_var + "] = " +
             StoreExpr(reduce.result(j)->type().element(), acc[j]) + ";");
    }
  };
  // Folds lanes [0, 2 * first_offset) of each warp into lane 0.
  auto warp_reduce = [&](int first_offset) -> Status {
    e.Open("for (int offset = " + std::to_string(first_offset) + "; offset > 0; offset /= 2)");
    std::vector<std::string> others;
    for (size_t j = 0; j < n; ++j) {
      const std::string o = e.Fresh("other");
      e.Line("const " + ct[j] + " " + o + " = hlo_shfl_down(" + acc[j] + ", offset);");
      others.push_back(o);
    }
    HLOGRAPH_TRY(combine(others));
    e.Close();
    return Status::Ok();
  };

  LaunchDims launch;
  std::string strategy_name;
  e.Line("const long long ROWS = " + std::to_string(rows) + "LL, COLS = " + std::to_string(cols) + "LL;");
  if (strategy == Strategy::kThread) {
    strategy_name = "reduction (thread per output)";
    launch = GridStride(rows, options);
    e.Open("for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < ROWS; "
           "row += (long long)gridDim.x * blockDim.x)");
    HLOGRAPH_TRY(init());
    e.Open("for (long long col = 0; col < COLS; ++col)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    store("row");
    e.Close();
  } else if (strategy == Strategy::kWarp) {
    strategy_name = "row reduction (warp per row)";
    const int64_t warps = kThreads / 32;
    launch.block = {kThreads, 1, 1};
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>((rows + warps - 1) / warps, int64_t{1} << 30)), 1, 1};
    e.Line("const int lane = threadIdx.x % 32;");
    e.Open("for (long long row = (long long)blockIdx.x * " + std::to_string(warps) +
           " + threadIdx.x / 32; row < ROWS; row += (long long)gridDim.x * " + std::to_string(warps) + ")");
    HLOGRAPH_TRY(init());
    e.Open("for (long long col = lane; col < COLS; col += 32)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    HLOGRAPH_TRY(warp_reduce(16));
    e.Open("if (lane == 0)");
    store("row");
    e.Close();
    e.Close();
  } else {
    strategy_name = "row reduction (block per row)";
    launch.block = {kThreads, 1, 1};
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>(rows, int64_t{1} << 30)), 1, 1};
    for (size_t j = 0; j < n; ++j) e.Line("__shared__ " + ct[j] + " partial" + std::to_string(j) + "[32];");
    e.Line("const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
    e.Open("for (long long row = blockIdx.x; row < ROWS; row += gridDim.x)");
    HLOGRAPH_TRY(init());
    e.Open("for (long long col = threadIdx.x; col < COLS; col += blockDim.x)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    HLOGRAPH_TRY(warp_reduce(16));
    e.Open("if (lane == 0)");
    for (size_t j = 0; j < n; ++j) e.Line("partial" + std::to_string(j) + "[warp] = " + acc[j] + ";");
    e.Close();
    e.Line("__syncthreads();");
    e.Open("if (warp == 0)");
    e.Open("if (lane < " + std::to_string(kThreads / 32) + ")");
    for (size_t j = 0; j < n; ++j) e.Line(acc[j] + " = partial" + std::to_string(j) + "[lane];");
    e.Close();
    HLOGRAPH_TRY(warp_reduce(kThreads / 64));  // one partial per warp
    e.Open("if (lane == 0)");
    store("row");
    e.Close();
    e.Close();
    e.Line("__syncthreads();");
    e.Close();
  }
  HLOGRAPH_ASSIGN(std::string sig, Signature(f));
  KernelSource k{f.name, std::string(kReductionHelpers) + sig + " {\n" + body.str() + "}\n", launch, strategy_name};
  if (rows == 0) k.launch.grid = {0, 1, 1};
  return k;
}

// Bytes of one element of the compute type (what shared memory holds).
int ComputeBytes(ir::ElementType e) {
  switch (e) {
    case ir::ElementType::kF16:
    case ir::ElementType::kBF16: return 4;
    default: return ir::StorageBytes(e);
  }
}

// stablehlo.sort: one block per row (all dims but the sorted one), a
// bitonic network in shared memory over the row padded to a power of two.
// Ties under the comparator keep their original order (the original index
// breaks them), so the sort is stable whether or not is_stable asks.
StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options) {
  constexpr int64_t kSharedLimit = 48 * 1024;
  const ir::Operation& sort = *f.ops.back();
  const size_t n_ops = sort.num_operands();
  const ir::Type& type = sort.operand(0)->type();
  const int64_t dim = IntAttrOf(sort, "dimension");
  const int64_t n = type.dim(dim);
  int64_t padded = 1;
  while (padded < n) padded *= 2;
  int64_t row_bytes = 4;  // the original index
  for (size_t j = 0; j < n_ops; ++j) row_bytes += ComputeBytes(sort.operand(j)->type().element());
  if (padded * row_bytes > kSharedLimit) {
    return Status::Error("sorting rows of " + std::to_string(n) + " elements of " + std::to_string(n_ops) +
                         " operands is not supported on the GPU yet (a row must fit in 48 KiB of shared memory)");
  }
  std::vector<int64_t> row_shape;
  for (int64_t d = 0; d < type.rank(); ++d) {
    if (d != dim) row_shape.push_back(type.dim(d));
  }
  const int64_t rows = n == 0 ? 0 : type.NumElements() / n;

  std::ostringstream body;
  BodyEmitter e(f, body);
  std::vector<std::string> ct(n_ops);
  for (size_t j = 0; j < n_ops; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(sort.operand(j)->type().element()));
    e.Line("__shared__ " + ct[j] + " s" + std::to_string(j) + "[" + std::to_string(padded) + "];");
  }
  e.Line("__shared__ int order[" + std::to_string(padded) + "];");
  e.Line("const int N = " + std::to_string(n) + ", P = " + std::to_string(padded) + ";");
  e.Open("for (long long row = blockIdx.x; row < " + std::to_string(rows) + "LL; row += gridDim.x)");
  // The element at position `pos` of this row, as an index of the operand.
  auto full_index = [&](const std::string& pos) {
    const Index r = e.Delinearize("row", row_shape);
    Index idx;
    for (int64_t d = 0, k = 0; d < type.rank(); ++d) idx.push_back(d == dim ? pos : r[static_cast<size_t>(k++)]);
    return idx;
  };
  e.Open("for (int i = threadIdx.x; i < P; i += blockDim.x)");
  e.Open("if (i < N)");
  const Index at = full_index("i");
  for (size_t j = 0; j < n_ops; ++j) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(sort.operand(j), at));
    e.Line("s" + std::to_string(j) + "[i] = " + v + ";");
  }
  e.Close();
  e.Line("order[i] = i;  // positions past N are padding, sorted last");
  e.Close();
  e.Line("__syncthreads();");
  e.Open("for (int k = 2; k <= P; k <<= 1)");
  e.Open("for (int j = k >> 1; j > 0; j >>= 1)");
  e.Open("for (int i = threadIdx.x; i < P; i += blockDim.x)");
  e.Line("const int partner = i ^ j;");
  e.Open("if (partner > i)");
  e.Line("const bool ascending = (i & k) == 0;");
  e.Line("const int a = ascending ? partner : i, b = ascending ? i : partner;");
  e.Line("// swap when the element in slot a goes before the one in slot b");
  e.Line("bool before;");
  e.Open("if (order[a] >= N || order[b] >= N)");
  e.Line("before = order[b] >= N && order[a] < N;");
  e.Close();
  e.Open("else");
  auto compare = [&](const std::string& x, const std::string& y) -> StatusOr<std::string> {
    std::vector<std::string> args;
    for (size_t j = 0; j < n_ops; ++j) {
      args.push_back("s" + std::to_string(j) + "[" + x + "]");
      args.push_back("s" + std::to_string(j) + "[" + y + "]");
    }
    HLOGRAPH_ASSIGN(std::vector<std::string> r, e.EmitRegion(sort.region(0).front(), args));
    return r[0];
  };
  HLOGRAPH_ASSIGN(std::string ab, compare("a", "b"));
  HLOGRAPH_ASSIGN(std::string ba, compare("b", "a"));
  e.Line("before = (bool)(" + ab + ") || (!(bool)(" + ba + ") && order[a] < order[b]);");
  e.Close();
  e.Open("if (before)");
  for (size_t j = 0; j < n_ops; ++j) {
    const std::string s_j = "s" + std::to_string(j);
    e.Line("{ const " + ct[j] + " t = " + s_j + "[i]; " + s_j + "[i] = " + s_j + "[partner]; " + s_j +
           "[partner] = t; }");
  }
  e.Line("{ const int t = order[i]; order[i] = order[partner]; order[partner] = t; }");
  e.Close();
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  e.Close();
  e.Open("for (int i = threadIdx.x; i < N; i += blockDim.x)");
  const Index out_at = full_index("i");
  for (size_t j = 0; j < n_ops; ++j) {
    e.Line("o" + std::to_string(j) + "[" + e.Linear(out_at, type.shape()) + "] = " +
           StoreExpr(sort.result(j)->type().element(), "s" + std::to_string(j) + "[i]") + ";");
  }
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  const int threads = static_cast<int>(std::min<int64_t>(std::max<int64_t>(padded / 2, 32), 1024));
  HLOGRAPH_ASSIGN(std::string sig, Signature(f, threads));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {static_cast<uint32_t>(std::min<int64_t>(rows, int64_t{1} << 30)), 1, 1};
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", launch, "sort (block per row, bitonic)"};
  return k;
}

// stablehlo.scatter in one block: the operands are copied into the
// results, then the update windows are applied one after another (a window
// that does not fit entirely is skipped, as XLA does); the elements of one
// window are disjoint, so the block's threads apply them together. Windows
// run in order, so duplicate indices combine exactly as the spec's serial
// semantics say, whatever the update body.
StatusOr<KernelSource> EmitScatter(const Fusion& f, const EmitOptions& options) {
  (void)options;
  constexpr int kBlock = 1024;
  const ir::Operation& op = *f.ops.back();
  const auto* dn = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (!dn) return Status::Error("scatter without scatter_dimension_numbers");
  const size_t n = (op.num_operands() - 1) / 2;
  const ir::Value* indices = op.operand(n);
  const ir::Type& out_type = op.result(0)->type();
  const ir::Type& upd_type = op.operand(n + 1)->type();
  const int64_t ivd = dn->index_vector_dim;
  const auto contains = [](const std::vector<int64_t>& v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::vector<int64_t> scatter_dims, window_dims, window_shape, scatter_shape, idx_batch_dims, operand_window_dims;
  for (int64_t d = 0; d < upd_type.rank(); ++d) {
    if (contains(dn->update_window_dims, d)) {
      window_dims.push_back(d);
      window_shape.push_back(upd_type.dim(d));
    } else {
      scatter_dims.push_back(d);
      scatter_shape.push_back(upd_type.dim(d));
    }
  }
  for (int64_t d = 0; d < indices->type().rank(); ++d) {
    if (d != ivd) idx_batch_dims.push_back(d);
  }
  for (int64_t d = 0; d < out_type.rank(); ++d) {
    if (!contains(dn->inserted_window_dims, d) && !contains(dn->input_batching_dims, d)) operand_window_dims.push_back(d);
  }
  int64_t windows = 1, window_elems = 1;
  for (int64_t s : scatter_shape) windows *= s;
  for (int64_t s : window_shape) window_elems *= s;

  std::ostringstream body;
  BodyEmitter e(f, body);
  std::vector<std::string> ct(n);
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(op.result(j)->type().element()));
  }
  // Copy the operands.
  e.Open("for (long long lin = threadIdx.x; lin < " + std::to_string(out_type.NumElements()) +
         "LL; lin += blockDim.x)");
  const Index all = e.Delinearize("lin", out_type.shape());
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(op.operand(j), all));
    e.Line("o" + std::to_string(j) + "[lin] = " + StoreExpr(op.result(j)->type().element(), v) + ";");
  }
  e.Close();
  e.Line("__syncthreads();");
  e.Open("for (long long s = 0; s < " + std::to_string(windows) + "LL; ++s)");
  const Index sidx = e.Delinearize("s", scatter_shape);
  // The window's start in the operand; out of bounds skips the window.
  Index start(static_cast<size_t>(out_type.rank()), "0");
  const auto batch_index = [&](int64_t indices_dim) {
    const auto at = std::find(idx_batch_dims.begin(), idx_batch_dims.end(), indices_dim) - idx_batch_dims.begin();
    return sidx[static_cast<size_t>(at)];
  };
  for (size_t c = 0; c < dn->scatter_dims_to_operand_dims.size(); ++c) {
    Index at(static_cast<size_t>(indices->type().rank()));
    for (int64_t k = 0; k < indices->type().rank(); ++k) {
      at[static_cast<size_t>(k)] = k == ivd ? std::to_string(c) : batch_index(k);
    }
    HLOGRAPH_ASSIGN(std::string v, e.Emit(indices, at));
    start[static_cast<size_t>(dn->scatter_dims_to_operand_dims[c])] = e.IndexVar("(long long)(" + v + ")");
  }
  for (size_t i = 0; i < dn->input_batching_dims.size(); ++i) {
    start[static_cast<size_t>(dn->input_batching_dims[i])] = batch_index(dn->scatter_indices_batching_dims[i]);
  }
  std::vector<int64_t> extent(static_cast<size_t>(out_type.rank()), 1);  // the window's size per operand dim
  for (size_t i = 0; i < operand_window_dims.size() && i < window_shape.size(); ++i) {
    extent[static_cast<size_t>(operand_window_dims[i])] = window_shape[i];
  }
  std::string fits = "true";
  for (size_t d = 0; d < extent.size(); ++d) {
    fits += " && " + start[d] + " >= 0 && " + start[d] + " <= " +
            std::to_string(out_type.dim(static_cast<int64_t>(d)) - extent[d]) + "LL";
  }
  e.Open("if (" + fits + ")");
  e.Open("for (long long w = threadIdx.x; w < " + std::to_string(window_elems) + "LL; w += blockDim.x)");
  const Index widx = e.Delinearize("w", window_shape);
  Index uidx(static_cast<size_t>(upd_type.rank()));
  for (size_t i = 0; i < scatter_dims.size(); ++i) uidx[static_cast<size_t>(scatter_dims[i])] = sidx[i];
  for (size_t i = 0; i < window_dims.size(); ++i) uidx[static_cast<size_t>(window_dims[i])] = widx[i];
  Index target = start;
  for (size_t i = 0; i < operand_window_dims.size(); ++i) {
    const size_t d = static_cast<size_t>(operand_window_dims[i]);
    target[d] = e.IndexVar(start[d] + " + " + widx[i]);
  }
  const std::string t = e.IndexVar(e.Linear(target, out_type.shape()));
  std::vector<std::string> args;
  for (size_t j = 0; j < n; ++j) {
    const std::string cur = e.Fresh("cur");
    e.Line("const " + ct[j] + " " + cur + " = " +
           LoadExpr(op.result(j)->type().element(), "o" + std::to_string(j) + "[" + t + "]") + ";");
    args.push_back(cur);
  }
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(std::string u, e.Emit(op.operand(n + 1 + j), uidx));
    args.push_back(u);
  }
  HLOGRAPH_ASSIGN(std::vector<std::string> next, e.EmitRegion(op.region(0).front(), args));
  for (size_t j = 0; j < n; ++j) {
    e.Line("o" + std::to_string(j) + "[" + t + "] = " + StoreExpr(op.result(j)->type().element(), next[j]) + ";");
  }
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  HLOGRAPH_ASSIGN(std::string sig, Signature(f, kBlock));
  LaunchDims launch;
  launch.block = {kBlock, 1, 1};
  launch.grid = {1, 1, 1};
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", launch, "scatter (one block, windows in order)"};
  return k;
}

}  // namespace

StatusOr<KernelSource> EmitKernel(const Fusion& fusion, const EmitOptions& options) {
  StatusOr<KernelSource> k = Status::Error("unknown fusion kind");
  switch (fusion.kind) {
    case FusionKind::kLoop: k = EmitLoop(fusion, options); break;
    case FusionKind::kReduction: k = EmitReduction(fusion, options); break;
    case FusionKind::kTranspose: k = EmitTranspose(fusion, options); break;
    case FusionKind::kSort: k = EmitSort(fusion, options); break;
    case FusionKind::kScatter: k = EmitScatter(fusion, options); break;
  }
  if (!k.ok()) return Status::Error(fusion.name + ": " + k.status().message());
  k->code = KernelPrelude() + "\n" + k->code;
  return k;
}

}  // namespace hlograph::gpu

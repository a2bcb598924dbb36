// What the kernel emitters share (codegen/*_kernel.cpp): attribute
// readers, the expression emitter that writes a kernel body (BodyEmitter)
// and the kernel signature. Internal to the code generator.
#pragma once

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/gpu/codegen/elemental.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/scatter_plan.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu::emit {

constexpr int kThreads = 256;  // block size of loop and reduction kernels

inline std::vector<int64_t> I64s(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::DenseArrayAttr>();
  return a ? a->values : std::vector<int64_t>{};
}

inline int64_t IntAttrOf(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : 0;
}

inline std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

using Index = std::vector<std::string>;

// Elements a kernel may load and store four at a time, as one hlo_vec4
// (kVec4 defines it in the kernels that use it).
inline bool IsVectorizable(ir::ElementType t) {
  const int bytes = ir::StorageBytes(t);
  return !ir::IsComplex(t) && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
}
inline constexpr const char* kVec4 = "template <typename T> struct alignas(4 * sizeof(T)) hlo_vec4 { T v[4]; };\n";

// Writes the statements of one kernel body: values are computed into
// local variables, each once per (value, index) within a scope.
class BodyEmitter {
 public:
  BodyEmitter(const Fusion& fusion, std::ostringstream& out, int indent = 2) : out_(out), indent_(indent) {
    for (size_t i = 0; i < fusion.inputs.size(); ++i) inputs_[fusion.inputs[i]] = static_cast<int>(i);
    scopes_.emplace_back();
    fixed_.emplace_back();
  }

  void Line(const std::string& s) { out_ << std::string(static_cast<size_t>(indent_), ' ') << s << "\n"; }
  void Open(const std::string& head) {
    Line(head + " {");
    indent_ += 2;
    scopes_.emplace_back();
    fixed_.emplace_back();
  }
  void Close(const std::string& tail = "") {
    scopes_.pop_back();
    fixed_.pop_back();
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
    bool outer = true;  // no dim before this one is larger than 1
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) {
        idx[d] = "0";
        continue;
      }
      std::string e = strides[d] == 1 ? lin : "(" + lin + " / " + std::to_string(strides[d]) + "LL)";
      if (!outer) e = "(" + e + " % " + std::to_string(shape[d]) + "LL)";
      outer = false;
      idx[d] = IndexVar(e);
    }
    return idx;
  }

  // The index into `from` of element `idx` of its reshape to `to`. The dims
  // split into the shortest runs whose sizes multiply to the same on both
  // sides, and only runs of several dims go through a linear offset: a
  // reshape that adds or drops dims of size 1, or splits one dim, costs no
  // division on the dims it leaves alone.
  Index Reshaped(const Index& idx, const std::vector<int64_t>& to, const std::vector<int64_t>& from) {
    if (std::count(to.begin(), to.end(), 0) > 0) return Delinearize(Linear(idx, to), from);
    Index src(from.size(), "0");
    size_t i = 0, j = 0;
    while (i < to.size() && j < from.size()) {
      const size_t i0 = i, j0 = j;
      int64_t pi = to[i++], pj = from[j++];
      while (pi != pj) {
        if (pi < pj && i < to.size()) {
          pi *= to[i++];
        } else if (pj < pi && j < from.size()) {
          pj *= from[j++];
        } else {
          return Delinearize(Linear(idx, to), from);  // not a reshape of equal sizes
        }
      }
      const auto at = [](auto& v, size_t k) { return v.begin() + static_cast<std::ptrdiff_t>(k); };
      const std::vector<int64_t> to_run(at(to, i0), at(to, i)), from_run(at(from, j0), at(from, j));
      const Index run = Delinearize(Linear(Index(at(idx, i0), at(idx, i)), to_run), from_run);
      std::copy(run.begin(), run.end(), at(src, j0));
    }
    return src;  // dims left over on either side are of size 1
  }

  StatusOr<std::string> CType(const ir::Value* v) { return ComputeType(v->type().element()); }

  // The index into a single-operand reduce's operand of the `reduced`-th
  // element (row-major over the reduced dims) folded into result `idx`.
  Index ReducedOperandIndex(const ir::Operation& reduce, const Index& idx, const std::string& reduced) {
    const ir::Type& x = reduce.operand(0)->type();
    const auto dims = I64s(reduce, "dimensions");
    std::vector<int64_t> sizes;
    for (int64_t d : dims) sizes.push_back(x.dim(d));
    const Index r = Delinearize(reduced, sizes);
    Index src(static_cast<size_t>(x.rank()));
    size_t kept = 0;
    for (int64_t d = 0; d < x.rank(); ++d) {
      const auto at = std::find(dims.begin(), dims.end(), d);
      src[static_cast<size_t>(d)] = at != dims.end() ? r[static_cast<size_t>(at - dims.begin())] : idx[kept++];
    }
    return src;
  }

  // The operand elements a single-operand reduce folds into each result.
  static int64_t ReducedCount(const ir::Operation& reduce) {
    const int64_t out = reduce.result(0)->type().NumElements();
    return out > 0 ? reduce.operand(0)->type().NumElements() / out : 0;
  }

  // The compute-type variable holding `v` at `idx`.
  StatusOr<std::string> Emit(const ir::Value* v, const Index& idx) {
    for (auto it = fixed_.rbegin(); it != fixed_.rend(); ++it) {
      if (const auto fixed = it->find(v); fixed != it->end()) return fixed->second;
    }
    const std::string key = Key(v, idx);
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

  // Emits now the parts of `v` at `idx` that `ready` says can be computed
  // now (a kernel's loads before it waits for its producers, or before its
  // prologue's reductions): `v` itself if it is, else, through elementwise
  // ops, their operands', and, `v` a dynamic_update_slice, its array's
  // element where that is an input's elements moved (a cache this step's
  // row is written into). A later Emit of `v` at the same index finds them
  // (the same scope or one inside it).
  Status EmitReadyParts(const ir::Value* v, const Index& idx, const std::function<bool(const ir::Value*)>& ready) {
    if (ready(v)) return Emit(v, idx).status();
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || inputs_.count(v)) return Status::Ok();
    if (op->name() == "stablehlo.dynamic_update_slice") {
      const ir::Value* array = op->operand(0);
      return ready(array) && OnlyMovesAnInput(array) ? Emit(array, idx).status() : Status::Ok();
    }
    if (!IsElementwise(*op) || op->num_regions() > 0) return Status::Ok();
    for (const ir::Value* o : op->operands()) {
      if (o->type().shape() == v->type().shape()) HLOGRAPH_TRY(EmitReadyParts(o, idx, ready));
    }
    return Status::Ok();
  }

  // Whether computing `v` reads any of `values`.
  bool ReadsAnyOf(const ir::Value* v, const std::set<const ir::Value*>& values) const {
    if (values.count(v)) return true;
    if (inputs_.count(v)) return false;
    const ir::Operation* op = v->defining_op();
    return op != nullptr && std::any_of(op->operands().begin(), op->operands().end(),
                                        [&](const ir::Value* o) { return ReadsAnyOf(o, values); });
  }

  // Whether computing `v` reads no input but those `inputs` lists.
  bool ReadsOnly(const ir::Value* v, const std::vector<int>& inputs) const {
    if (const auto input = inputs_.find(v); input != inputs_.end()) {
      return std::count(inputs.begin(), inputs.end(), input->second) > 0;
    }
    const ir::Operation* op = v->defining_op();
    return op != nullptr && op->num_regions() == 0 &&
           std::all_of(op->operands().begin(), op->operands().end(),
                       [&](const ir::Value* o) { return ReadsOnly(o, inputs); });
  }

  // Makes `var` the value of `v` at `idx` in the current scope (a product
  // computed by the kernel itself, read by the ops of its epilogue).
  void Bind(const ir::Value* v, const Index& idx, const std::string& var) { scopes_.back()[Key(v, idx)] = var; }
  // Binds a float the kernel summed (a product's f32 accumulator) to `v`:
  // an f16/bf16 result is rounded once from it first, as XLA does, so that
  // the epilogue's ops see a value of the format (elemental.cpp's packed
  // bf16 ops read only its high half).
  void BindSum(const ir::Value* v, const Index& idx, const std::string& sum) {
    const ir::ElementType t = v->type().element();
    std::string value = sum;
    if (t == ir::ElementType::kBF16 || t == ir::ElementType::kF16) {
      value = Fresh("product");
      Line("const float " + value + " = " + LoadExpr(t, StoreExpr(t, sum)) + ";");
    }
    Bind(v, idx, value);
  }

  // Loads the kernel's single-element inputs (a loop counter, a
  // position) in the current scope, so that the scopes inside (a
  // dynamic_update_slice's branches) read them from there: a load under
  // each branch would put a memory latency before each of theirs.
  // With `only`, just those inputs (by position).
  Status LoadScalarInputs(const std::vector<int>* only = nullptr) {
    std::vector<std::pair<int, const ir::Value*>> scalars;  // in parameter order, so the code is the same every time
    for (const auto& [v, input] : inputs_) {
      if (only != nullptr && std::count(only->begin(), only->end(), input) == 0) continue;
      if (v->type().IsTensor() && v->type().NumElements() == 1) scalars.emplace_back(input, v);
    }
    std::sort(scalars.begin(), scalars.end());
    for (const auto& [input, v] : scalars) {
      HLOGRAPH_TRY(Emit(v, Index(static_cast<size_t>(v->type().rank()), "0")).status());
    }
    return Status::Ok();
  }

  // Makes `var` the value of `v` at every index in the current scope (a
  // reduction a block computed for the one element of it the block reads).
  void BindEverywhere(const ir::Value* v, const std::string& var) { fixed_.back()[v] = var; }

  // Folds `value` (a float each thread holds) over the block with the
  // reduction body `body`: strided per thread already, then the warps by
  // shuffles, then every thread folds the warps' results (in `scratch`, a
  // __shared__ float array of a slot per warp) in order, so that all hold
  // the same bits. Returns the variable holding the result.
  StatusOr<std::string> FoldOverBlock(const ir::Block& body, const std::string& value, const std::string& scratch,
                                      int warps) {
    HLOGRAPH_ASSIGN(const std::string a, ShuffleFold(body, value, "__shfl_down_sync"));
    Line("if (threadIdx.x % 32 == 0) " + scratch + "[threadIdx.x / 32] = " + a + ";");
    Line("__syncthreads();");
    const std::string r = Fresh("reduced");
    Line("float " + r + " = " + scratch + "[0];");
    for (int w = 1; w < warps; ++w) {
      Open("");
      HLOGRAPH_ASSIGN(std::vector<std::string> folded, EmitRegion(body, {r, scratch + "[" + std::to_string(w) + "]"}));
      Line(r + " = " + folded[0] + ";");
      Close();
    }
    Line("__syncthreads();  // the slots are free again");
    return r;
  }

  // Folds `value` over the lanes of each warp with the reduction body
  // `body` by butterfly shuffles: every lane ends with the same bits where
  // the body is commutative (a maximum, an add). Returns the variable.
  StatusOr<std::string> FoldOverWarp(const ir::Block& body, const std::string& value) {
    return ShuffleFold(body, value, "__shfl_xor_sync");
  }

  // `value` folded with the lane `offset` away by `shuffle` (down: lane 0
  // ends with the warp's fold; xor: every lane does), offsets 16 to 1.
  StatusOr<std::string> ShuffleFold(const ir::Block& body, const std::string& value, const std::string& shuffle) {
    const std::string a = Fresh("across");
    Line("float " + a + " = " + value + ";");
    for (int offset = 16; offset > 0; offset /= 2) {
      Open("");
      const std::string other = Fresh("o");
      Line("const float " + other + " = " + shuffle + "(0xffffffffu, " + a + ", " + std::to_string(offset) + ");");
      HLOGRAPH_ASSIGN(std::vector<std::string> folded, EmitRegion(body, {a, other}));
      Line(a + " = " + folded[0] + ";");
      Close();
    }
    return a;
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

  // Vectorised kernels: an input of `shape` read at `own` (the element the
  // thread computes) comes from lane `lane` of register vector q<input>,
  // loaded by the kernel beforehand. own_reads() says which inputs did.
  void ReadOwnElementFromRegisters(const Index& own, const std::vector<int64_t>& shape, const std::string& lane) {
    own_ = own;
    own_shape_ = shape;
    lane_ = lane;
  }
  const std::set<int>& own_reads() const { return own_reads_; }
  // And an input read at the own element's innermost index alone (a
  // vector broadcast along rows: a bias, a norm's scale) comes from lane
  // `lane` of register vector r<input>, loaded once for the lanes, when
  // the rows' length is a multiple of the lanes (they then share a row).
  void ReadRowVectorsFromRegisters() { row_vectors_ = true; }
  const std::set<int>& row_reads() const { return row_reads_; }

  static StatusOr<std::string> SplatLiteral(const ir::Operation& op) {
    const auto* value = op.attr("value").as<ir::DenseElementsAttr>();
    if (!value) return Status::Error("a constant without a value");
    const ir::ElementType t = value->type.element();
    if (value->bytes.size() < static_cast<size_t>(ir::StorageBytes(t))) {
      return Status::Error("a constant without a value");
    }
    return ElementLiteralExpr(t, value->bytes.data());
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

  // The address (a const char* expression) of the input element that `v`
  // at `idx` reads, where `v` only moves elements of one input: reshape,
  // transpose, slice, dynamic_slice, broadcast_in_dim and convert, and a
  // dynamic_update_slice's array (its update is elsewhere: the address
  // is the one the element had before). An error for anything else. Each
  // of these keeps an element's offset non-decreasing in every index, so
  // the all-zero and the last index bound the bytes `v` reads.
  StatusOr<std::string> AddressOf(const ir::Value* v, const Index& idx) {
    auto in = inputs_.find(v);
    if (in != inputs_.end()) {
      return "(const char*)(p" + std::to_string(in->second) + " + (" + Linear(idx, v->type().shape()) + "))";
    }
    const ir::Operation* op = v->defining_op();
    if (!op || op->num_operands() == 0) return Status::Error("not an input's element");
    if (op->name() == "stablehlo.convert" || op->name() == "stablehlo.dynamic_update_slice") {
      return AddressOf(op->operand(0), idx);
    }
    if (!MovesElements(*op)) return Status::Error("not an input's element");
    HLOGRAPH_ASSIGN(Index src, MovedFrom(*op, idx));
    return AddressOf(op->operand(0), src);
  }

  // The index into `op`'s first operand of its element at `idx`, for an op
  // that moves elements (MovesElements) other than convert.
  StatusOr<Index> MovedFrom(const ir::Operation& op, const Index& idx) {
    const ir::Value* x = op.operand(0);
    const std::string& name = op.name();
    if (name == "stablehlo.reshape") return Reshaped(idx, op.result(0)->type().shape(), x->type().shape());
    if (name == "stablehlo.transpose") {
      const auto perm = I64s(op, "permutation");
      Index src(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) src[static_cast<size_t>(perm[i])] = idx[i];
      return src;
    }
    if (name == "stablehlo.broadcast_in_dim") {
      const auto dims = I64s(op, "broadcast_dimensions");
      Index src(dims.size());
      for (size_t j = 0; j < dims.size(); ++j) {
        src[j] = x->type().dim(static_cast<int64_t>(j)) == 1 ? "0" : idx[static_cast<size_t>(dims[j])];
      }
      return src;
    }
    if (name == "stablehlo.slice") {
      const auto start = I64s(op, "start_indices");
      auto strides = I64s(op, "strides");
      strides.resize(start.size(), 1);
      Index src(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) {
        std::string e = strides[d] == 1 ? idx[d] : idx[d] + " * " + std::to_string(strides[d]) + "LL";
        src[d] = start[d] == 0 ? e : IndexVar(e + " + " + std::to_string(start[d]) + "LL");
      }
      return src;
    }
    if (name == "stablehlo.dynamic_slice") {
      HLOGRAPH_ASSIGN(Index starts, ClampedStarts(op, 1, x->type().shape(), I64s(op, "slice_sizes")));
      Index src(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) src[d] = IndexVar(idx[d] + " + " + starts[d]);
      return src;
    }
    return Status::Error("internal error: '" + name + "' does not move elements");
  }

 private:
  static std::string Key(const ir::Value* v, const Index& idx) {
    std::string key = std::to_string(reinterpret_cast<uintptr_t>(v));
    for (const auto& i : idx) key += "|" + i;
    return key;
  }

  StatusOr<std::string> Load(int input, const ir::Value* v, const Index& idx) {
    HLOGRAPH_ASSIGN(std::string storage, StorageType(v->type().element()));
    (void)storage;
    if (!lane_.empty() && idx == own_ && v->type().shape() == own_shape_ && IsVectorizable(v->type().element())) {
      own_reads_.insert(input);
      return LoadExpr(v->type().element(), "q" + std::to_string(input) + ".v[" + lane_ + "]");
    }
    if (row_vectors_ && !lane_.empty() && !own_.empty() && own_shape_.back() % 4 == 0 &&
        !v->type().shape().empty() && v->type().shape().back() == own_shape_.back() && Linear(idx, v->type().shape()) == own_.back() &&
        IsVectorizable(v->type().element())) {
      row_reads_.insert(input);
      return LoadExpr(v->type().element(), "r" + std::to_string(input) + ".v[" + lane_ + "]");
    }
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
      if (ir::IsComplex(type.element())) {
        const std::string part = ir::ComplexPart(type.element()) == ir::ElementType::kF64 ? "double" : "float";
        return "hlo_cplx<" + part + ">((" + part + ")(" + i + "), (" + part + ")0)";
      }
      // Rounded through the storage type (an f16 iota holds f16 values).
      return LoadExpr(type.element(), StoreExpr(type.element(), "(" + ct + ")(" + i + ")"));
    }
    if (MovesElements(*op) && name != "stablehlo.convert") {
      HLOGRAPH_ASSIGN(Index src, MovedFrom(*op, idx));
      return Emit(x, src);
    }
    if (name == "stablehlo.broadcast") {
      const size_t lead = static_cast<size_t>(type.rank() - x->type().rank());
      return Emit(x, Index(idx.begin() + static_cast<std::ptrdiff_t>(lead), idx.end()));
    }
    if (name == "stablehlo.reverse") {
      Index src = idx;
      for (int64_t d : I64s(*op, "dimensions")) {
        src[static_cast<size_t>(d)] = IndexVar(std::to_string(type.dim(d) - 1) + "LL - " + idx[static_cast<size_t>(d)]);
      }
      return Emit(x, src);
    }
    if (name == "stablehlo.gather") return Gather(*op, idx);
    if (name == "stablehlo.scatter") return ScatterElement(*op, idx);
    if (name == "stablehlo.reduce_window") return ReduceWindow(*op, v, idx);
    if (name == "stablehlo.reduce" && op->num_operands() == 2) return SerialReduce(*op, idx);
    if (name == "stablehlo.select_and_scatter") return SelectAndScatter(*op, idx);
    if (name == "stablehlo.concatenate" || name == "stablehlo.pad" || name == "stablehlo.dynamic_update_slice") {
      return Conditional(*op, idx);
    }
    if (name == "stablehlo.bitcast_convert" && !IsElementwise(*op)) return BitcastResize(*op, idx);
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

  // A single-operand reduce computed by one thread, in row-major order of
  // the reduced dims: what a kernel falls back to where a value its blocks
  // reduced together is read at an index they did not compute.
  StatusOr<std::string> SerialReduce(const ir::Operation& op, const Index& idx) {
    HLOGRAPH_ASSIGN(std::string ct, CType(op.result(0)));
    HLOGRAPH_ASSIGN(std::string init, Emit(op.operand(1), Index{}));
    const std::string acc = Fresh("fold");
    Line(ct + " " + acc + " = " + init + ";");
    const std::string k = Fresh("k");
    Open("for (long long " + k + " = 0; " + k + " < " + std::to_string(ReducedCount(op)) + "LL; ++" + k + ")");
    HLOGRAPH_ASSIGN(std::string v, Emit(op.operand(0), ReducedOperandIndex(op, idx, k)));
    HLOGRAPH_ASSIGN(std::vector<std::string> next, EmitRegion(op.region(0).front(), {acc, v}));
    Line(acc + " = " + next[0] + ";");
    Close();
    return acc;
  }

  // bitcast_convert between widths, little-endian as XLA: a narrower result
  // has one more dimension indexing the pieces of an operand element (the
  // least significant first); a wider one consumes the operand's last one.
  StatusOr<std::string> BitcastResize(const ir::Operation& op, const Index& idx) {
    const ir::Value* x = op.operand(0);
    const ir::ElementType from = x->type().element(), to = op.result(0)->type().element();
    const int wf = ir::BitWidth(from), wt = ir::BitWidth(to);
    if (wf % 8 != 0 || wt % 8 != 0) return Status::Error("bitcast_convert of sub-byte element types");
    if (wf > wt) {
      HLOGRAPH_ASSIGN(std::string v, Emit(x, Index(idx.begin(), idx.end() - 1)));
      const std::string piece = "(" + UnsignedType(wt) + ")((uint64_t)" + BitsExpr(from, v) + " >> (" + idx.back() +
                                " * " + std::to_string(wt) + "))";
      return FromBitsExpr(to, piece);
    }
    std::string bits = "(uint64_t)0";
    for (int k = 0; k < wt / wf; ++k) {
      Index src = idx;
      src.push_back(std::to_string(k));
      HLOGRAPH_ASSIGN(std::string v, Emit(x, src));
      bits += " | ((uint64_t)" + BitsExpr(from, v) + " << " + std::to_string(k * wf) + ")";
    }
    return FromBitsExpr(to, "(" + UnsignedType(wt) + ")(" + bits + ")");
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

  // A scatter whose windows are picked by batching dims alone
  // (IsElementMapScatter): the element at `idx` is the operand's, combined
  // with the update of the one window at its batch coordinates when that
  // window fits and covers it. The update is read at an index clamped into
  // its window, so that the read is in bounds either way.
  StatusOr<std::string> ScatterElement(const ir::Operation& op, const Index& idx) {
    const auto* dn = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
    HLOGRAPH_ASSIGN(const ScatterPlan plan, PlanScatter(op));
    const ir::Value* indices = op.operand(1);
    const ir::Type& out = op.result(0)->type();
    // Scatter position: the batch coordinates of `idx`, per indices dim
    // (0 along the others, of size 1).
    const auto batch_coordinate = [&](int64_t indices_dim) -> std::string {
      const auto& from = dn->scatter_indices_batching_dims;
      const size_t i = static_cast<size_t>(std::find(from.begin(), from.end(), indices_dim) - from.begin());
      return i < from.size() ? idx[static_cast<size_t>(dn->input_batching_dims[i])] : "0";
    };
    Index start = idx;  // batching dims: the element's own coordinate
    for (int64_t d : plan.operand_window_dims) start[static_cast<size_t>(d)] = "0";
    for (int64_t d : dn->inserted_window_dims) start[static_cast<size_t>(d)] = "0";
    for (size_t c = 0; c < dn->scatter_dims_to_operand_dims.size(); ++c) {
      Index at(static_cast<size_t>(indices->type().rank()));
      for (int64_t k = 0; k < indices->type().rank(); ++k) {
        at[static_cast<size_t>(k)] = k == dn->index_vector_dim ? std::to_string(c) : batch_coordinate(k);
      }
      HLOGRAPH_ASSIGN(std::string s, Emit(indices, at));
      start[static_cast<size_t>(dn->scatter_dims_to_operand_dims[c])] = IndexVar("(long long)(" + s + ")");
    }
    std::string covers = "true";
    Index offset(static_cast<size_t>(out.rank()), "0");
    for (int64_t d = 0; d < out.rank(); ++d) {
      const size_t u = static_cast<size_t>(d);
      if (std::find(dn->input_batching_dims.begin(), dn->input_batching_dims.end(), d) != dn->input_batching_dims.end()) {
        continue;
      }
      const std::string last = std::to_string(plan.extent[u] - 1) + "LL";
      covers += " && " + start[u] + " >= 0 && " + start[u] + " <= " + std::to_string(out.dim(d) - plan.extent[u]) + "LL";
      offset[u] = IndexVar(idx[u] + " - " + start[u]);
      covers += " && " + offset[u] + " >= 0 && " + offset[u] + " <= " + last;
      offset[u] = IndexVar("min(max(" + offset[u] + ", 0LL), " + last + ")");
    }
    Index uidx(static_cast<size_t>(op.operand(2)->type().rank()));
    for (size_t i = 0; i < plan.scatter_dims.size(); ++i) {
      uidx[static_cast<size_t>(plan.scatter_dims[i])] = batch_coordinate(plan.index_batch_dims[i]);
    }
    for (size_t i = 0; i < plan.window_dims.size(); ++i) {
      uidx[static_cast<size_t>(plan.window_dims[i])] = offset[static_cast<size_t>(plan.operand_window_dims[i])];
    }
    HLOGRAPH_ASSIGN(std::string cur, Emit(op.operand(0), idx));
    HLOGRAPH_ASSIGN(std::string upd, Emit(op.operand(2), uidx));
    HLOGRAPH_ASSIGN(std::vector<std::string> next, EmitRegion(op.region(0).front(), {cur, upd}));
    return "((" + covers + ") ? " + next[0] + " : " + cur + ")";
  }

  // reduce_window: the body folded over the window, in row-major window
  // order; positions in the padding or between dilated elements contribute
  // the init value, as the spec's padded input does. With several inputs
  // (argmax) the accumulators of every result are computed together, and
  // the results not asked for are remembered for their own reads.
  StatusOr<std::string> ReduceWindow(const ir::Operation& op, const ir::Value* asked, const Index& idx) {
    const size_t n = op.num_operands() / 2;
    const ir::Value* x = op.operand(0);
    const int64_t rank = x->type().rank();
    namespace v = ir::verify;
    HLOGRAPH_ASSIGN(const auto sizes, v::WindowAttr(op, "window_dimensions", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto strides, v::WindowAttr(op, "window_strides", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto base, v::WindowAttr(op, "base_dilations", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto dilations, v::WindowAttr(op, "window_dilations", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", rank));
    std::vector<std::string> ct(n), init(n), acc(n), value(n);
    for (size_t j = 0; j < n; ++j) {
      HLOGRAPH_ASSIGN(ct[j], CType(op.result(j)));
      HLOGRAPH_ASSIGN(init[j], Emit(op.operand(n + j), Index{}));
      acc[j] = Fresh("w");
      Line(ct[j] + " " + acc[j] + " = " + init[j] + ";");
    }
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
    for (size_t j = 0; j < n; ++j) {
      value[j] = Fresh("e");
      Line(ct[j] + " " + value[j] + " = " + init[j] + ";");
    }
    Open("if (" + inside + ")");
    for (size_t j = 0; j < n; ++j) HLOGRAPH_TRY(EmitInto(value[j], op.operand(j), src));
    Close();
    std::vector<std::string> args = acc;
    args.insert(args.end(), value.begin(), value.end());
    HLOGRAPH_ASSIGN(std::vector<std::string> next, EmitRegion(op.region(0).front(), args));
    for (size_t j = 0; j < n; ++j) Line(acc[j] + " = " + next[j] + ";");
    Close();
    std::string result;
    for (size_t j = 0; j < n; ++j) {
      if (op.result(j) == asked) result = acc[j];
      else scopes_.back()[Key(op.result(j), idx)] = acc[j];
    }
    return result;
  }

  // select_and_scatter, gathered per output element: of the windows that
  // contain this element (visited in row-major order, as the interpreter
  // scatters them), each one whose selection picks it folds its source
  // value in. A window's selection scans it in row-major order, skipping
  // padding, and keeps the current pick while select(pick, next) holds.
  StatusOr<std::string> SelectAndScatter(const ir::Operation& op, const Index& idx) {
    const ir::Value* x = op.operand(0);
    const ir::Value* source = op.operand(1);
    const int64_t rank = x->type().rank();
    namespace v = ir::verify;
    HLOGRAPH_ASSIGN(const auto sizes, v::WindowAttr(op, "window_dimensions", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const auto strides, v::WindowAttr(op, "window_strides", rank, "the input rank"));
    HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", rank));
    HLOGRAPH_ASSIGN(std::string ct, CType(op.result(0)));
    HLOGRAPH_ASSIGN(std::string init, Emit(op.operand(2), Index{}));
    const std::string acc = Fresh("s");
    Line(ct + " " + acc + " = " + init + ";");
    // Per dimension, the windows w with w*stride - lo <= i <= w*stride - lo + size - 1.
    std::vector<int64_t> candidates(static_cast<size_t>(rank));
    Index first(static_cast<size_t>(rank));
    int64_t count = 1;
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
      candidates[d] = (sizes[d] + strides[d] - 1) / strides[d];
      count *= candidates[d];
      const std::string t = IndexVar(idx[d] + " + " + std::to_string(padding[d].first - (sizes[d] - 1)) + "LL");
      first[d] = IndexVar(t + " <= 0 ? 0LL : (" + t + " + " + std::to_string(strides[d] - 1) + "LL) / " +
                          std::to_string(strides[d]) + "LL");
    }
    // Both loops have constant trip counts: unrolled, the window offsets
    // they split into are constants too (no division per element).
    const std::string c = Fresh("c");
    Line("#pragma unroll");
    Open("for (int " + c + " = 0; " + c + " < " + std::to_string(count) + "; ++" + c + ")");
    const Index offsets = Delinearize(c, candidates);
    Index window(static_cast<size_t>(rank));
    std::string valid = "true";
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
      window[d] = IndexVar(first[d] + " + " + offsets[d]);
      const std::string start = window[d] + " * " + std::to_string(strides[d]) + "LL - " +
                                std::to_string(padding[d].first) + "LL";
      valid += " && " + window[d] + " < " + std::to_string(source->type().dim(static_cast<int64_t>(d))) + "LL && " +
               start + " <= " + idx[d] + " && " + idx[d] + " <= " + start + " + " + std::to_string(sizes[d] - 1) + "LL";
    }
    Open("if (" + valid + ")");
    const std::string picked = Fresh("p"), picked_value = Fresh("q");
    Line("long long " + picked + " = -1;");
    Line(ct + " " + picked_value + " = " + init + ";");
    int64_t window_count = 1;
    for (int64_t s : sizes) window_count *= s;
    const std::string k = Fresh("k");
    Line("#pragma unroll");
    Open("for (int " + k + " = 0; " + k + " < " + std::to_string(window_count) + "; ++" + k + ")");
    const Index w = Delinearize(k, sizes);
    Index src(static_cast<size_t>(rank));
    std::string inside = "true";
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
      src[d] = IndexVar(window[d] + " * " + std::to_string(strides[d]) + "LL + " + w[d] + " - " +
                        std::to_string(padding[d].first) + "LL");
      inside += " && " + src[d] + " >= 0 && " + src[d] + " < " + std::to_string(x->type().dim(static_cast<int64_t>(d))) + "LL";
    }
    Open("if (" + inside + ")");
    HLOGRAPH_ASSIGN(std::string value, Emit(x, src));
    HLOGRAPH_ASSIGN(std::vector<std::string> keep, EmitRegion(op.region(0).front(), {picked_value, value}));
    Open("if (" + picked + " < 0 || !(bool)(" + keep[0] + "))");
    Line(picked + " = " + Linear(src, x->type().shape()) + ";");
    Line(picked_value + " = " + value + ";");
    Close();
    Close();
    Close();
    Open("if (" + picked + " == " + Linear(idx, x->type().shape()) + ")");
    HLOGRAPH_ASSIGN(std::string update, Emit(source, window));
    HLOGRAPH_ASSIGN(std::vector<std::string> next, EmitRegion(op.region(1).front(), {acc, update}));
    Line(acc + " = " + next[0] + ";");
    Close();
    Close();
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
    if (OnlyMovesAnInput(update)) {
      // Both read, no branch: a load under a branch is waited for before
      // the branches meet, so a kernel reading many elements of a cache
      // with this step's row would wait for each in turn. The update's
      // index is clamped into it where it is not read.
      Index clamped(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) {
        clamped[d] = IndexVar("min(max(" + src[d] + ", 0LL), " +
                              std::to_string(update->type().dim(static_cast<int64_t>(d)) - 1) + "LL)");
      }
      HLOGRAPH_ASSIGN(std::string u, Emit(update, clamped));
      HLOGRAPH_ASSIGN(std::string b, Emit(x, idx));
      Line(var + " = (" + inside + ") ? " + u + " : " + b + ";");
      return var;
    }
    Open("if (" + inside + ")");
    HLOGRAPH_TRY(EmitInto(var, update, src));
    Close();
    Open("else");
    HLOGRAPH_TRY(EmitInto(var, x, idx));
    Close();
    return var;
  }

  // Whether `v` is an input's elements moved (MovesElements: a
  // dynamic_slice's start indices are scalars): cheap to read where it is
  // not needed.
  bool OnlyMovesAnInput(const ir::Value* v) const {
    if (inputs_.count(v)) return true;
    const ir::Operation* op = v->defining_op();
    return op != nullptr && MovesElements(*op) && OnlyMovesAnInput(op->operand(0));
  }

  std::ostringstream& out_;
  Index own_;
  std::vector<int64_t> own_shape_;
  std::string lane_;
  std::set<int> own_reads_;
  bool row_vectors_ = false;
  std::set<int> row_reads_;
  std::unordered_map<const ir::Value*, int> inputs_;
  std::vector<std::map<std::string, std::string>> scopes_;
  std::vector<std::map<const ir::Value*, std::string>> fixed_;  // BindEverywhere's, a map per scope
  int indent_;
  int counter_ = 0;
};

// The kernel's declaration and opening: parameters (const inputs, outputs,
// then scratch), the brace, and the wait for the kernels it depends on
// (kernel prelude: programmatic dependent launch) unless it has
// Fusion::early_inputs. `max_threads` is the
// block size it is launched with (at most); `cluster_blocks` > 0 makes its
// blocks thread-block clusters of that many on sm_90+ (fixed at compile time,
// so every launch of it, graph nodes included, forms them);
// `min_blocks_per_sm` > 0 caps its registers so that many blocks fit an SM.
inline StatusOr<std::string> KernelOpening(const Fusion& f, int max_threads = kThreads, int64_t cluster_blocks = 0,
                                           int min_blocks_per_sm = 0) {
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(max_threads) +
                  (min_blocks_per_sm > 0 ? ", " + std::to_string(min_blocks_per_sm) : "") + ")";
  if (cluster_blocks > 0) {
    s += "\n#if __CUDA_ARCH__ >= 900\n__cluster_dims__(" + std::to_string(cluster_blocks) + ", 1, 1)\n#endif\n";
  }
  s += " " + f.name + "(";
  for (size_t i = 0; i < f.input_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.input_types[i].element()));
    s += (i ? ", const " : "const ") + t + "* __restrict__ p" + std::to_string(i);
  }
  for (size_t i = 0; i < f.output_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.output_types[i].element()));
    s += (f.input_types.empty() && i == 0 ? "" : ", ") + t + "* __restrict__ o" + std::to_string(i);
  }
  for (size_t i = 0; i < f.scratch_bytes.size(); ++i) s += ", void* __restrict__ s" + std::to_string(i);
  s += ") {\n";
  if (f.dependents_at_start) s += "  hlo_start_dependents();\n";
  // A kernel reading inputs before it waits places the wait itself.
  return s + (f.early_inputs.empty() ? "  hlo_wait_for_producers();\n" : "");
}

// Has the first `sm_count` blocks ask for the bytes `v` reads in L2
// (hlo_prefetch_l2) where `v` only moves an input's elements
// (BodyEmitter::AddressOf); emits nothing otherwise.
inline void PrefetchIntoL2(BodyEmitter& e, const Fusion& f, const ir::Value* v, int sm_count) {
  if (AddressingInputs({v}, f.inputs).empty()) return;  // AddressOf would fail
  Index first(static_cast<size_t>(v->type().rank()), "0"), last;
  for (int64_t d : v->type().shape()) last.push_back(std::to_string(d - 1));
  e.Open("if (blockIdx.x < " + std::to_string(sm_count) + ")");
  const std::string lo = *e.AddressOf(v, first), hi = *e.AddressOf(v, last);
  // A range of more than twice v's bytes at the widest element is mostly
  // bytes it skips.
  e.Line("hlo_prefetch_l2(" + lo + ", " + hi + ", " + std::to_string(v->type().NumElements() * 16) + "ULL, " +
         std::to_string(sm_count) + "u);");
  e.Close();
}

inline LaunchDims GridStride(int64_t n, const EmitOptions& options) {
  LaunchDims d;
  d.block = {kThreads, 1, 1};
  const int64_t blocks = std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t{options.sm_count} * 16);
  d.grid = {static_cast<uint32_t>(std::max<int64_t>(blocks, 0)), 1, 1};
  return d;
}

inline const char* const kGridStrideLoop =
    "for (long long lin = (long long)blockIdx.x * blockDim.x + threadIdx.x; lin < N; "
    "lin += (long long)gridDim.x * blockDim.x)";

// One function per kernel kind.
StatusOr<KernelSource> EmitLoop(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitTranspose(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitReduction(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitScatter(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitConvolution(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitTopK(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitFft(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitRngBitGenerator(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitUpdateSliceInPlace(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitDot(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitAttention(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitScan(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitRows(const Fusion& f, const EmitOptions& options);

}  // namespace hlograph::gpu::emit

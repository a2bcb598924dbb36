// BodyEmitter (body_emitter.h): the statements of a kernel body, each value
// computed once per (value, index) within a scope.
#include "backends/gpu/codegen/body_emitter.h"

#include "backends/gpu/plan/op_classes.h"
#include "ir/dot_dims.h"

namespace hlograph::gpu::emit {

BodyEmitter::BodyEmitter(const Fusion& fusion, std::ostringstream& out, int indent) : out_(out), indent_(indent) {
  for (size_t i = 0; i < fusion.inputs.size(); ++i) inputs_[fusion.inputs[i]] = static_cast<int>(i);
  scopes_.emplace_back();
  fixed_.emplace_back();
}

void BodyEmitter::Open(const std::string& head) {
  Line(head + " {");
  indent_ += 2;
  scopes_.emplace_back();
  fixed_.emplace_back();
}

void BodyEmitter::Close(const std::string& tail) {
  scopes_.pop_back();
  fixed_.pop_back();
  indent_ -= 2;
  Line("}" + tail);
}

std::string BodyEmitter::IndexVar(const std::string& expr) {
  const bool simple = std::all_of(expr.begin(), expr.end(), [](char c) { return std::isalnum(c) || c == '_'; });
  if (simple) return expr;
  const std::string v = Fresh("j");
  Line("const long long " + v + " = " + expr + ";");
  return v;
}

std::string BodyEmitter::Linear(const Index& idx, const std::vector<int64_t>& shape) {
  const auto strides = Strides(shape);
  std::string s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!s.empty()) s += " + ";
    s += strides[d] == 1 ? idx[d] : idx[d] + " * " + std::to_string(strides[d]) + "LL";
  }
  return s.empty() ? "0" : s;
}

Index BodyEmitter::Delinearize(const std::string& linear, const std::vector<int64_t>& shape) {
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

Index BodyEmitter::Reshaped(const Index& idx, const std::vector<int64_t>& to, const std::vector<int64_t>& from) {
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

Index BodyEmitter::ReducedOperandIndex(const ir::Operation& reduce, const Index& idx, const std::string& reduced) {
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

int64_t BodyEmitter::ReducedCount(const ir::Operation& reduce) {
  const int64_t out = reduce.result(0)->type().NumElements();
  return out > 0 ? reduce.operand(0)->type().NumElements() / out : 0;
}

StatusOr<std::string> BodyEmitter::Emit(const ir::Value* v, const Index& idx) {
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

Status BodyEmitter::EmitReadyParts(const ir::Value* v, const Index& idx, const std::function<bool(const ir::Value*)>& ready) {
  if (ready(v)) return Emit(v, idx).status();
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || inputs_.count(v)) return Status::Ok();
  if (op->id() == ir::OpId::kDynamicUpdateSlice) {
    const ir::Value* array = op->operand(0);
    return ready(array) && OnlyMovesAnInput(array) ? Emit(array, idx).status() : Status::Ok();
  }
  if (!IsElementwise(*op) || op->num_regions() > 0) return Status::Ok();
  for (const ir::Value* o : op->operands()) {
    if (o->type().shape() == v->type().shape()) HLOGRAPH_TRY(EmitReadyParts(o, idx, ready));
  }
  return Status::Ok();
}

bool BodyEmitter::ReadsAnyOf(const ir::Value* v, const std::set<const ir::Value*>& values) const {
  if (values.count(v)) return true;
  if (inputs_.count(v)) return false;
  const ir::Operation* op = v->defining_op();
  return op != nullptr && std::any_of(op->operands().begin(), op->operands().end(),
                                      [&](const ir::Value* o) { return ReadsAnyOf(o, values); });
}

bool BodyEmitter::ReadsOnly(const ir::Value* v, const std::vector<int>& inputs) const {
  if (const auto input = inputs_.find(v); input != inputs_.end()) {
    return std::count(inputs.begin(), inputs.end(), input->second) > 0;
  }
  const ir::Operation* op = v->defining_op();
  return op != nullptr && op->num_regions() == 0 &&
         std::all_of(op->operands().begin(), op->operands().end(),
                     [&](const ir::Value* o) { return ReadsOnly(o, inputs); });
}

void BodyEmitter::BindSum(const ir::Value* v, const Index& idx, const std::string& sum) {
  const ir::ElementType t = v->type().element();
  std::string value = sum;
  if (t == ir::ElementType::kBF16 || t == ir::ElementType::kF16) {
    value = Fresh("product");
    Line("const float " + value + " = " + LoadExpr(t, StoreExpr(t, sum)) + ";");
  }
  Bind(v, idx, value);
}

Status BodyEmitter::LoadScalarInputs(const std::vector<int>* only) {
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

StatusOr<std::string> BodyEmitter::FoldOverBlock(const ir::Block& body, const std::string& value, const std::string& scratch,
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

StatusOr<std::string> BodyEmitter::FoldOverWarp(const ir::Block& body, const std::string& value) {
  return ShuffleFold(body, value, "__shfl_xor_sync");
}

StatusOr<std::string> BodyEmitter::ShuffleFold(const ir::Block& body, const std::string& value, const std::string& shuffle) {
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

Status BodyEmitter::EmitInto(const std::string& var, const ir::Value* v, const Index& idx) {
  HLOGRAPH_ASSIGN(std::string value, Emit(v, idx));
  Line(var + " = " + value + ";");
  return Status::Ok();
}

StatusOr<std::vector<std::string>> BodyEmitter::EmitRegion(const ir::Block& block, const std::vector<std::string>& args) {
  std::unordered_map<const ir::Value*, std::string> names;
  for (size_t i = 0; i < block.num_arguments(); ++i) names[block.argument(i)] = args[i];
  for (const auto& op : block.operations()) {
    std::vector<std::string> operands;
    for (const ir::Value* v : op->operands()) {
      auto it = names.find(v);
      if (it == names.end()) return Status::Error("a region reads a value from outside it");
      operands.push_back(it->second);
    }
    if (op->id() == ir::OpId::kReturn) return operands;
    std::string expr;
    if (op->id() == ir::OpId::kConstant) {
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

void BodyEmitter::ReadOwnElementFromRegisters(const Index& own, const std::vector<int64_t>& shape, const std::string& lane) {
  own_ = own;
  own_shape_ = shape;
  lane_ = lane;
}

StatusOr<std::string> BodyEmitter::SplatLiteral(const ir::Operation& op) {
  const auto* value = op.attr("value").as<ir::DenseElementsAttr>();
  if (!value) return Status::Error("a constant without a value");
  const ir::ElementType t = value->type.element();
  if (value->bytes.size() < static_cast<size_t>(ir::StorageBytes(t))) {
    return Status::Error("a constant without a value");
  }
  return ElementLiteralExpr(t, value->bytes.data());
}

StatusOr<Index> BodyEmitter::ClampedStarts(const ir::Operation& op, size_t first, const std::vector<int64_t>& shape,
                                const std::vector<int64_t>& sizes) {
  Index starts;
  for (size_t d = 0; d < shape.size(); ++d) {
    HLOGRAPH_ASSIGN(std::string s, Emit(op.operand(first + d), Index{}));
    const std::string hi = std::to_string(shape[d] - sizes[d]) + "LL";
    starts.push_back(IndexVar("min(max((long long)(" + s + "), 0LL), " + hi + ")"));
  }
  return starts;
}

StatusOr<std::string> BodyEmitter::AddressOf(const ir::Value* v, const Index& idx) {
  auto in = inputs_.find(v);
  if (in != inputs_.end()) {
    return "(const char*)(p" + std::to_string(in->second) + " + (" + Linear(idx, v->type().shape()) + "))";
  }
  const ir::Operation* op = v->defining_op();
  if (!op || op->num_operands() == 0) return Status::Error("not an input's element");
  if (op->id() == ir::OpId::kConvert || op->id() == ir::OpId::kDynamicUpdateSlice) {
    return AddressOf(op->operand(0), idx);
  }
  if (!MovesElements(*op)) return Status::Error("not an input's element");
  HLOGRAPH_ASSIGN(Index src, MovedFrom(*op, idx));
  return AddressOf(op->operand(0), src);
}

StatusOr<Index> BodyEmitter::MovedFrom(const ir::Operation& op, const Index& idx) {
  const ir::Value* x = op.operand(0);
  const ir::OpId name = op.id();
  if (name == ir::OpId::kReshape) return Reshaped(idx, op.result(0)->type().shape(), x->type().shape());
  if (name == ir::OpId::kTranspose) {
    const auto perm = I64s(op, "permutation");
    Index src(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) src[static_cast<size_t>(perm[i])] = idx[i];
    return src;
  }
  if (name == ir::OpId::kBroadcastInDim) {
    const auto dims = I64s(op, "broadcast_dimensions");
    Index src(dims.size());
    for (size_t j = 0; j < dims.size(); ++j) {
      src[j] = x->type().dim(static_cast<int64_t>(j)) == 1 ? "0" : idx[static_cast<size_t>(dims[j])];
    }
    return src;
  }
  if (name == ir::OpId::kSlice) {
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
  if (name == ir::OpId::kDynamicSlice) {
    HLOGRAPH_ASSIGN(Index starts, ClampedStarts(op, 1, x->type().shape(), I64s(op, "slice_sizes")));
    Index src(idx.size());
    for (size_t d = 0; d < idx.size(); ++d) src[d] = IndexVar(idx[d] + " + " + starts[d]);
    return src;
  }
  return Status::Error("internal error: '" + op.name() + "' does not move elements");
}

std::string BodyEmitter::Key(const ir::Value* v, const Index& idx) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(v));
  for (const auto& i : idx) key += "|" + i;
  return key;
}

StatusOr<std::string> BodyEmitter::Load(int input, const ir::Value* v, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::Compute(const ir::Value* v, const Index& idx) {
  auto in = inputs_.find(v);
  if (in != inputs_.end()) return Load(in->second, v, idx);
  const ir::Operation* op = v->defining_op();
  if (!op) return Status::Error("internal error: a kernel reads a value it was not given");
  const ir::OpId name = op->id();
  const ir::Type& type = v->type();
  const ir::Value* x = op->num_operands() ? op->operand(0) : nullptr;

  if (name == ir::OpId::kConstant) return SplatLiteral(*op);
  if (name == ir::OpId::kIota) {
    const std::string i = idx[static_cast<size_t>(IntAttrOf(*op, "iota_dimension"))];
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(type.element()));
    if (ir::IsComplex(type.element())) {
      const std::string part = ir::ComplexPart(type.element()) == ir::ElementType::kF64 ? "double" : "float";
      return "hlo_cplx<" + part + ">((" + part + ")(" + i + "), (" + part + ")0)";
    }
    // Rounded through the storage type (an f16 iota holds f16 values).
    return LoadExpr(type.element(), StoreExpr(type.element(), "(" + ct + ")(" + i + ")"));
  }
  if (MovesElements(*op) && name != ir::OpId::kConvert) {
    HLOGRAPH_ASSIGN(Index src, MovedFrom(*op, idx));
    return Emit(x, src);
  }
  if (name == ir::OpId::kBroadcast) {
    const size_t lead = static_cast<size_t>(type.rank() - x->type().rank());
    return Emit(x, Index(idx.begin() + static_cast<std::ptrdiff_t>(lead), idx.end()));
  }
  if (name == ir::OpId::kReverse) {
    Index src = idx;
    for (int64_t d : I64s(*op, "dimensions")) {
      src[static_cast<size_t>(d)] = IndexVar(std::to_string(type.dim(d) - 1) + "LL - " + idx[static_cast<size_t>(d)]);
    }
    return Emit(x, src);
  }
  if (name == ir::OpId::kGather) return Gather(*op, idx);
  if (name == ir::OpId::kDotGeneral) return OuterProduct(*op, idx);
  if (name == ir::OpId::kScatter) return ScatterElement(*op, idx);
  if (name == ir::OpId::kReduceWindow) return ReduceWindow(*op, v, idx);
  if (name == ir::OpId::kReduce && op->num_operands() == 2) return SerialReduce(*op, idx);
  if (name == ir::OpId::kSelectAndScatter) return SelectAndScatter(*op, idx);
  if (name == ir::OpId::kConcatenate || name == ir::OpId::kPad || name == ir::OpId::kDynamicUpdateSlice) {
    return Conditional(*op, idx);
  }
  if (name == ir::OpId::kBitcastConvert && !IsElementwise(*op)) return BitcastResize(*op, idx);
  if (IsElementwise(*op)) {
    std::vector<std::string> operands;
    for (const ir::Value* o : op->operands()) {
      // Scalar operands of clamp and friends broadcast.
      HLOGRAPH_ASSIGN(std::string e, Emit(o, o->type().rank() == 0 ? Index{} : idx));
      operands.push_back(e);
    }
    return ElementalExpr(*op, operands);
  }
  return Status::Error("'" + op->name() + "' cannot be computed inside a kernel");
}

StatusOr<std::string> BodyEmitter::SerialReduce(const ir::Operation& op, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::BitcastResize(const ir::Operation& op, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::OuterProduct(const ir::Operation& op, const Index& idx) {
  const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dn == nullptr || !IsOuterProduct(op)) return Status::Error("internal error: a product computed inline is not an outer product");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  // The result's dims: the batch dims, the lhs's free dims, the rhs's;
  // the contracting dims (of one element) are at 0.
  Index at_lhs(static_cast<size_t>(lhs.rank()), "0"), at_rhs(static_cast<size_t>(rhs.rank()), "0");
  size_t next = 0;
  for (size_t i = 0; i < dn->lhs_batching.size(); ++i, ++next) {
    at_lhs[static_cast<size_t>(dn->lhs_batching[i])] = idx[next];
    at_rhs[static_cast<size_t>(dn->rhs_batching[i])] = idx[next];
  }
  for (int64_t d : ir::DotFreeDims(lhs.rank(), dn->lhs_batching, dn->lhs_contracting)) at_lhs[static_cast<size_t>(d)] = idx[next++];
  for (int64_t d : ir::DotFreeDims(rhs.rank(), dn->rhs_batching, dn->rhs_contracting)) at_rhs[static_cast<size_t>(d)] = idx[next++];
  HLOGRAPH_ASSIGN(const std::string a, Emit(op.operand(0), at_lhs));
  HLOGRAPH_ASSIGN(const std::string b, Emit(op.operand(1), at_rhs));
  const ir::ElementType t = op.result(0)->type().element();
  HLOGRAPH_ASSIGN(const std::string ct, ComputeType(t));
  const std::string product = "((" + ct + ")(" + a + ") * (" + ct + ")(" + b + "))";
  if (t == ir::ElementType::kF32 || t == ir::ElementType::kF64) return product;
  return LoadExpr(t, StoreExpr(t, product));
}

StatusOr<std::string> BodyEmitter::Gather(const ir::Operation& op, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::ScatterElement(const ir::Operation& op, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::ReduceWindow(const ir::Operation& op, const ir::Value* asked, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::SelectAndScatter(const ir::Operation& op, const Index& idx) {
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

StatusOr<std::string> BodyEmitter::Conditional(const ir::Operation& op, const Index& idx) {
  const ir::Value* v = op.result(0);
  HLOGRAPH_ASSIGN(std::string ct, CType(v));
  const std::string var = Fresh("c");
  Line(ct + " " + var + ";");
  const ir::OpId name = op.id();
  if (name == ir::OpId::kConcatenate) {
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
  if (name == ir::OpId::kPad) {
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

bool BodyEmitter::OnlyMovesAnInput(const ir::Value* v) const {
  if (inputs_.count(v)) return true;
  const ir::Operation* op = v->defining_op();
  return op != nullptr && MovesElements(*op) && OnlyMovesAnInput(op->operand(0));
}

}  // namespace hlograph::gpu::emit

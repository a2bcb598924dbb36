#include "backends/gpu/plan/flash_attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"
#include "ir/dot_dims.h"
#include "ir/float_bits.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

// The value of a splat constant `v`, maybe broadcast (a bool as 0 or 1),
// or nothing.
std::optional<double> SplatNumber(const ir::Value* v) {
  const ir::Operation* op = v->defining_op();
  while (op != nullptr && op->id() == ir::OpId::kBroadcastInDim) op = op->operand(0)->defining_op();
  if (op == nullptr || op->id() != ir::OpId::kConstant || !IsSplatConstant(*op)) return std::nullopt;
  const auto* value = op->attr("value").as<ir::DenseElementsAttr>();
  if (value == nullptr) return std::nullopt;
  const ir::ElementType t = value->type.element();
  const size_t bytes = static_cast<size_t>(ir::StorageBytes(t));
  if (value->bytes.size() < bytes || bytes > 8) return std::nullopt;
  uint64_t bits = 0;
  std::memcpy(&bits, value->bytes.data(), bytes);
  if (ir::IsBool(t)) return bits != 0 ? 1.0 : 0.0;
  if (ir::IsFloat(t)) return ir::FloatBitsToDouble(bits, t);
  if (ir::IsSignedInteger(t) && bytes < 8 && (bits >> (8 * bytes - 1)) != 0) bits |= ~uint64_t{0} << (8 * bytes);
  if (ir::IsSignedInteger(t)) return static_cast<double>(static_cast<int64_t>(bits));
  if (ir::IsUnsignedInteger(t)) return static_cast<double>(bits);
  return std::nullopt;
}

// An integer value of S's index space as c + sum of coef[d] * index[d]
// (d a dim of S).
struct Affine {
  int64_t constant = 0;
  std::map<int, int64_t> coef;
};

// `v`, whose dim i is S's dim `dims[i]` (kIndexZero: a dim of size 1
// broadcast along one of S's, its index always 0), as an affine function
// of S's index: iotas, splat constants, sums and differences, broadcasts
// and integer converts of them.
constexpr int kIndexZero = -1;

// The dims of a broadcast_in_dim's operand in S, from its result's.
std::vector<int> OperandDims(const ir::Operation& broadcast, const std::vector<int>& dims) {
  const std::vector<int64_t> b = ir::verify::I64ArrayAttr(broadcast, "broadcast_dimensions");
  std::vector<int> inner;
  for (size_t i = 0; i < b.size(); ++i) {
    const bool expanded = broadcast.operand(0)->type().dim(static_cast<int64_t>(i)) == 1 &&
                          broadcast.result(0)->type().dim(b[i]) != 1;
    inner.push_back(expanded ? kIndexZero : dims[static_cast<size_t>(b[i])]);
  }
  return inner;
}

std::optional<Affine> AffineIndex(const ir::Value* v, const std::vector<int>& dims, int depth = 0) {
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || depth > 16 || !ir::IsInteger(v->type().element())) return std::nullopt;
  const ir::OpId n = op->id();
  if (n == ir::OpId::kConstant) {
    const auto x = SplatNumber(v);
    if (!x || std::fabs(*x) > 1e15) return std::nullopt;
    Affine a;
    a.constant = static_cast<int64_t>(*x);
    return a;
  }
  if (n == ir::OpId::kIota) {
    const int64_t d = ir::verify::IntAttr(*op, "iota_dimension").value_or(-1);
    if (d < 0 || d >= static_cast<int64_t>(dims.size())) return std::nullopt;
    Affine a;
    if (dims[static_cast<size_t>(d)] != kIndexZero) a.coef[dims[static_cast<size_t>(d)]] = 1;
    return a;
  }
  if (n == ir::OpId::kBroadcastInDim) return AffineIndex(op->operand(0), OperandDims(*op, dims), depth + 1);
  if (n == ir::OpId::kConvert && ir::IsInteger(op->operand(0)->type().element()) &&
      ir::BitWidth(v->type().element()) >= ir::BitWidth(op->operand(0)->type().element())) {
    return AffineIndex(op->operand(0), dims, depth + 1);
  }
  if (n == ir::OpId::kAdd || n == ir::OpId::kSubtract) {
    auto a = AffineIndex(op->operand(0), dims, depth + 1);
    auto b = AffineIndex(op->operand(1), dims, depth + 1);
    if (!a || !b) return std::nullopt;
    const int64_t sign = n == ir::OpId::kAdd ? 1 : -1;
    a->constant += sign * b->constant;
    for (const auto& [d, c] : b->coef) a->coef[d] += sign * c;
    return a;
  }
  return std::nullopt;
}

// `v`, a predicate whose dim i is S's dim `dims[i]`, as a conjunction of
// affine conditions (each >= 0): comparisons of affine indices, `and`,
// selects between a predicate and false, broadcasts, splat true.
bool AffinePredicate(const ir::Value* v, const std::vector<int>& dims, std::vector<Affine>& all, int depth = 0) {
  const ir::Operation* op = v->defining_op();
  if (op == nullptr || depth > 16 || !ir::IsBool(v->type().element())) return false;
  const ir::OpId n = op->id();
  if (n == ir::OpId::kConstant) {
    const auto x = SplatNumber(v);
    return x && *x != 0;  // true everywhere: no condition
  }
  if (n == ir::OpId::kBroadcastInDim) return AffinePredicate(op->operand(0), OperandDims(*op, dims), all, depth + 1);
  if (n == ir::OpId::kAnd) {
    return AffinePredicate(op->operand(0), dims, all, depth + 1) && AffinePredicate(op->operand(1), dims, all, depth + 1);
  }
  if (n == ir::OpId::kSelect) {  // p ? q : false is p and q
    const auto otherwise = SplatNumber(op->operand(2));
    return otherwise && *otherwise == 0 && AffinePredicate(op->operand(0), dims, all, depth + 1) &&
           AffinePredicate(op->operand(1), dims, all, depth + 1);
  }
  if (n == ir::OpId::kCompare) {
    const std::string direction = ir::verify::EnumAttrValue(*op, "comparison_direction");
    if (!ir::IsInteger(op->operand(0)->type().element())) return false;
    auto a = AffineIndex(op->operand(0), dims, depth + 1);
    auto b = AffineIndex(op->operand(1), dims, depth + 1);
    if (!a || !b) return false;
    // a - b >= 0 (GE), >= 1 (GT); b - a >= 0 (LE), >= 1 (LT).
    Affine diff;
    int64_t sign = 1, minus = 0;
    if (direction == "GE") {
    } else if (direction == "GT") {
      minus = 1;
    } else if (direction == "LE") {
      sign = -1;
    } else if (direction == "LT") {
      sign = -1;
      minus = 1;
    } else {
      return false;
    }
    diff.constant = sign * (a->constant - b->constant) - minus;
    for (const auto& [d, c] : a->coef) diff.coef[d] += sign * c;
    for (const auto& [d, c] : b->coef) diff.coef[d] -= sign * c;
    all.push_back(std::move(diff));
    return true;
  }
  return false;
}

// The key window of S's mask: S reads, through converts between floats
// alone, select(pred, x, c) with x depending on the scores, pred an affine
// predicate of the key and one query dim, and c so negative that exp(c -
// max) is 0. Inactive otherwise, or where some query would see no key.
KeyWindow FindKeyWindow(const FlashAttention& a) {
  KeyWindow none;
  const SoftmaxAttention& sm = a.softmax;
  const ir::Value* v = sm.s;
  while (const ir::Operation* op = v->defining_op()) {
    if (op->id() != ir::OpId::kConvert || !ir::IsFloat(op->operand(0)->type().element())) break;
    v = op->operand(0);
  }
  const ir::Operation* select = v->defining_op();
  if (select == nullptr || select->id() != ir::OpId::kSelect || select->operand(0)->type().rank() == 0 ||
      std::find(sm.inside.begin(), sm.inside.end(), select) == sm.inside.end()) {
    return none;
  }
  // A masked score gets weight exp(c - max) = 0 (below f32's least
  // subnormal) wherever the row's largest visible score exceeds c + 104:
  // c of -1e30 or less, or the lowest finite value of its type (JAX's
  // finfo.min), keeps that short of overflow.
  const auto masked = SplatNumber(select->operand(2));
  const ir::ElementType masked_type = select->result(0)->type().element();
  const double lowest = masked_type == ir::ElementType::kF16 ? -65504.0 : -1e30;
  if (!masked || *masked > lowest) return none;
  const int rank = static_cast<int>(sm.s->type().rank());
  std::vector<int> dims(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d) dims[static_cast<size_t>(d)] = d;
  std::vector<Affine> conditions;
  if (!AffinePredicate(select->operand(0), dims, conditions) || conditions.empty()) return none;
  KeyWindow w;
  const int key_dim = rank - 1;
  for (const Affine& c : conditions) {
    // coef_k * key + coef_t * t + constant >= 0, coef_k = +-1.
    int64_t coef_k = 0, coef_t = 0;
    int t_dim = -1;
    for (const auto& [d, x] : c.coef) {
      if (x == 0) continue;
      if (d == key_dim) {
        coef_k = x;
      } else if (t_dim < 0) {
        t_dim = d;
        coef_t = x;
      } else {
        return none;  // a second query dim (or a batch dim)
      }
    }
    if (coef_k != 1 && coef_k != -1) return none;
    int query_dim = -1;
    if (t_dim >= 0) {
      const auto at = std::find(a.s_query_dims.begin(), a.s_query_dims.end(), t_dim);
      if (at == a.s_query_dims.end()) return none;
      query_dim = static_cast<int>(at - a.s_query_dims.begin());
      if (w.query_dim >= 0 && w.query_dim != query_dim) return none;
      w.query_dim = query_dim;
    }
    // key >= -coef_t * t - constant, or key <= coef_t * t + constant.
    if (coef_k == 1) {
      w.lower.push_back({-coef_t, -c.constant});
    } else {
      w.upper.push_back({coef_t, c.constant});
    }
  }
  if (w.query_dim < 0) w.query_dim = static_cast<int>(a.query_shape.size()) - 1;  // bounds independent of the query
  // Every query sees a key: the visible range's length is concave in t,
  // so its ends decide.
  const int64_t extent = a.query_shape[static_cast<size_t>(w.query_dim)];
  for (int64_t t : {int64_t{0}, extent - 1}) {
    int64_t lo = 0, hi = sm.keys - 1;
    for (const KeyWindow::Bound& b : w.lower) lo = std::max(lo, b.scale * t + b.offset);
    for (const KeyWindow::Bound& b : w.upper) hi = std::min(hi, b.scale * t + b.offset);
    if (lo > hi) return none;
  }
  w.kept = select->operand(0);
  return w;
}

}  // namespace

std::string KeyWindow::ToString() const {
  if (!active()) return "every key";
  std::string s;
  const auto bound = [](const Bound& b) {
    std::string t = b.scale == 1 ? "t" : b.scale == -1 ? "-t" : std::to_string(b.scale) + " t";
    if (b.scale == 0) t = "";
    if (b.offset == 0) return t.empty() ? std::string("0") : t;
    if (t.empty()) return std::to_string(b.offset);
    return t + (b.offset < 0 ? " - " : " + ") + std::to_string(std::llabs(b.offset));
  };
  for (const Bound& b : lower) s += (s.empty() ? "" : ", ") + std::string("key >= ") + bound(b);
  for (const Bound& b : upper) s += (s.empty() ? "" : ", ") + std::string("key <= ") + bound(b);
  return s + " (t: query dim " + std::to_string(query_dim) + ")";
}

std::optional<FlashAttention> MatchFlashAttention(const ir::Operation& dot2, const ValueUsers& users) {
  if (!PlanOptions::Current().flash_attention) return std::nullopt;
  if (ClassifyOp(dot2) != OpClass::kDot && !IsTileProduct(dot2)) return std::nullopt;
  const auto* dn2 = dot2.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dn2 == nullptr || dn2->lhs_contracting.size() != 1 || dn2->rhs_contracting.size() != 1) return std::nullopt;
  const auto product = [](const ir::Operation& op) {
    return ClassifyOp(op) == OpClass::kDot || ClassifyOp(op) == OpClass::kGeneratedDot;
  };
  FlashAttention f;
  bool found = false;
  for (int pi : {0, 1}) {
    SoftmaxAttention a;
    if (MatchSoftmaxBetweenProducts(dot2, pi, product, true, users, a)) {
      f.softmax = std::move(a);
      f.p_operand = pi;
      found = true;
      break;
    }
  }
  if (!found) return std::nullopt;
  SoftmaxAttention& sm = f.softmax;
  const ir::Operation& dot1 = *sm.scores;
  const auto* dn1 = dot1.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dn1 == nullptr || dn1->lhs_contracting.size() != 1 || dn1->rhs_contracting.size() != 1) return std::nullopt;
  // The products run on the tensor cores: 16-bit operands throughout, P
  // rounded to their format by the program; or f32 operands with both
  // products at a precision that allows TF32 (as the library products
  // would run), P kept in f32.
  const ir::ElementType t = dot1.operand(0)->type().element();
  const int vi = 1 - f.p_operand;
  const ir::Value* values = dot2.operand(static_cast<size_t>(vi));
  if (dot1.operand(1)->type().element() != t || values->type().element() != t ||
      !ir::IsFloat(dot1.result(0)->type().element())) {
    return std::nullopt;
  }
  if (t == ir::ElementType::kBF16 || t == ir::ElementType::kF16) {
    if (sm.rounding == nullptr || sm.rounding->result(0)->type().element() != t) return std::nullopt;
  } else if (t == ir::ElementType::kF32) {
    if (sm.rounding != nullptr || PrecisionOf(dot1) != GemmPrecision::kDefault ||
        PrecisionOf(dot2) != GemmPrecision::kDefault || dot2.result(0)->type().element() != t) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  f.operand_type = t;
  const ir::Type& s_type = sm.s->type();
  const int rank = static_cast<int>(s_type.rank());
  if (rank < 2) return std::nullopt;
  // dot1's result dim of each of S's dims.
  f.scores_dim_of_s.resize(static_cast<size_t>(rank));
  std::vector<int64_t> perm;
  if (sm.scores_transpose != nullptr) perm = ir::verify::I64ArrayAttr(*sm.scores_transpose, "permutation");
  for (int i = 0; i < rank; ++i) f.scores_dim_of_s[static_cast<size_t>(i)] = perm.empty() ? i : static_cast<int>(perm[static_cast<size_t>(i)]);
  const int64_t nb = static_cast<int64_t>(dn1->lhs_batching.size());
  const std::vector<int64_t> lhs_free = ir::DotFreeDims(dot1.operand(0)->type().rank(), dn1->lhs_batching, dn1->lhs_contracting);
  const std::vector<int64_t> rhs_free = ir::DotFreeDims(dot1.operand(1)->type().rank(), dn1->rhs_batching, dn1->rhs_contracting);
  const int64_t key_r = f.scores_dim_of_s.back();
  if (key_r < nb) return std::nullopt;
  const bool keys_in_lhs = key_r < nb + static_cast<int64_t>(lhs_free.size());
  f.q_operand = keys_in_lhs ? 1 : 0;
  const std::vector<int64_t>& q_free = keys_in_lhs ? rhs_free : lhs_free;
  const std::vector<int64_t>& k_free = keys_in_lhs ? lhs_free : rhs_free;
  if (k_free.size() != 1 || q_free.empty()) return std::nullopt;
  const ir::Type& qt = dot1.operand(static_cast<size_t>(f.q_operand))->type();
  const ir::Type& kt = dot1.operand(static_cast<size_t>(1 - f.q_operand))->type();
  const std::vector<int64_t>& q_batching = f.q_operand == 0 ? dn1->lhs_batching : dn1->rhs_batching;
  const std::vector<int64_t>& k_batching = f.q_operand == 0 ? dn1->rhs_batching : dn1->lhs_batching;
  const int64_t q_contract = (f.q_operand == 0 ? dn1->lhs_contracting : dn1->rhs_contracting)[0];
  const int64_t k_contract = (f.q_operand == 0 ? dn1->rhs_contracting : dn1->lhs_contracting)[0];
  if (q_contract != qt.rank() - 1 || k_contract != kt.rank() - 1) return std::nullopt;
  f.depth = qt.dim(q_contract);
  const std::vector<int64_t> q_strides = RowMajorStrides(qt.shape()), k_strides = RowMajorStrides(kt.shape());
  f.k.key = k_strides[static_cast<size_t>(k_free[0])];
  const int64_t q_free_first = keys_in_lhs ? nb + static_cast<int64_t>(lhs_free.size()) : nb;
  for (int i = 0; i + 1 < rank; ++i) {
    const int64_t r = f.scores_dim_of_s[static_cast<size_t>(i)];
    if (r < nb) {
      f.s_batch_dims.push_back(i);
      sm.batch_shape.push_back(s_type.dim(i));
      f.q.batch.push_back(q_strides[static_cast<size_t>(q_batching[static_cast<size_t>(r)])]);
      f.k.batch.push_back(k_strides[static_cast<size_t>(k_batching[static_cast<size_t>(r)])]);
    } else if (r >= q_free_first && r < q_free_first + static_cast<int64_t>(q_free.size())) {
      f.s_query_dims.push_back(i);
      f.query_shape.push_back(s_type.dim(i));
      f.queries *= s_type.dim(i);
      f.q.query.push_back(q_strides[static_cast<size_t>(q_free[static_cast<size_t>(r - q_free_first)])]);
    } else {
      return std::nullopt;
    }
  }
  sm.keys = s_type.dim(rank - 1);
  // dot2: P's keys (its last dim) against the values' keys, P's batch dims
  // S's, its free dims the queries; the values' one free dim contiguous.
  const std::vector<int64_t>& p_batching = f.p_operand == 0 ? dn2->lhs_batching : dn2->rhs_batching;
  const std::vector<int64_t>& v_batching = f.p_operand == 0 ? dn2->rhs_batching : dn2->lhs_batching;
  const int64_t p_contract = (f.p_operand == 0 ? dn2->lhs_contracting : dn2->rhs_contracting)[0];
  const int64_t v_contract = (f.p_operand == 0 ? dn2->rhs_contracting : dn2->lhs_contracting)[0];
  if (p_contract != rank - 1 || p_batching.size() != f.s_batch_dims.size()) return std::nullopt;
  const ir::Type& vt = values->type();
  const std::vector<int64_t> v_free = ir::DotFreeDims(vt.rank(), v_batching, {v_contract});
  const std::vector<int64_t> p_free = ir::DotFreeDims(rank, p_batching, {p_contract});
  if (v_free.size() != 1 || v_free[0] != vt.rank() - 1 || p_free != std::vector<int64_t>(f.s_query_dims.begin(), f.s_query_dims.end())) {
    return std::nullopt;
  }
  f.width = vt.dim(v_free[0]);
  const std::vector<int64_t> v_strides = RowMajorStrides(vt.shape());
  f.v.key = v_strides[static_cast<size_t>(v_contract)];
  const size_t nb2 = p_batching.size();
  for (int s_dim : f.s_batch_dims) {
    const auto at = std::find(p_batching.begin(), p_batching.end(), s_dim);
    if (at == p_batching.end()) return std::nullopt;
    const size_t j = static_cast<size_t>(at - p_batching.begin());
    f.v.batch.push_back(v_strides[static_cast<size_t>(v_batching[j])]);
    f.out_batch_dims.push_back(static_cast<int64_t>(j));
  }
  const size_t p_free_first = f.p_operand == 0 ? nb2 : nb2 + 1;
  for (size_t i = 0; i < p_free.size(); ++i) f.out_query_dims.push_back(static_cast<int64_t>(p_free_first + i));
  f.out_width_dim = static_cast<int64_t>(f.p_operand == 0 ? nb2 + p_free.size() : nb2);
  StoreStridesThrough(f, {});
  const int64_t granule = t == ir::ElementType::kF32 ? 8 : 16;  // the products' k and ldmatrix's 16 dims
  const auto tile_dim = [&](int64_t d) { return d >= 16 && d <= kMaxFlashDim && d % granule == 0; };
  if (!tile_dim(f.depth) || !tile_dim(f.width) || sm.keys < 1 || f.queries < 2) return std::nullopt;
  if (FlashSharedBytes(f) > kMaxFlashSharedBytes) return std::nullopt;
  f.window = FindKeyWindow(f);
  return f;
}

std::vector<const ir::Operation*> FlashOutputMoves(const ir::Operation& dot2, const ValueUsers& users) {
  std::vector<const ir::Operation*> moves;
  const ir::Value* v = dot2.result(0);
  for (;;) {
    const auto it = users.find(v);
    if (it == users.end() || it->second.size() != 1) break;
    const ir::Operation* op = it->second.front();
    const bool transpose = op->id() == ir::OpId::kTranspose;
    if (op->parent_block() != dot2.parent_block() || op->num_operands() != 1 ||
        (!transpose && op->id() != ir::OpId::kReshape) ||
        (transpose && !moves.empty() && moves.back()->id() != ir::OpId::kTranspose)) {
      break;
    }
    moves.push_back(op);
    v = op->result(0);
  }
  // Reshapes alone store the same bytes: nothing to gain.
  if (moves.empty() || moves.front()->id() != ir::OpId::kTranspose) return {};
  return moves;
}

void StoreStridesThrough(FlashAttention& a, const std::vector<const ir::Operation*>& moves) {
  // Where each of dot2's dims ends up in the last transpose's result; the
  // reshapes after keep its row-major bytes.
  const std::vector<int64_t>& result = a.softmax.values->result(0)->type().shape();
  std::vector<int64_t> perm = ComposedTransposes(moves);
  if (perm.empty()) {
    for (size_t d = 0; d < result.size(); ++d) perm.push_back(static_cast<int64_t>(d));
  }
  std::vector<int64_t> shape, at(result.size());
  for (size_t i = 0; i < perm.size(); ++i) {
    shape.push_back(result[static_cast<size_t>(perm[i])]);
    at[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  }
  const std::vector<int64_t> strides = RowMajorStrides(shape);
  const auto stride = [&](int64_t dim) { return strides[static_cast<size_t>(at[static_cast<size_t>(dim)])]; };
  a.out = {};
  for (int64_t d : a.out_batch_dims) a.out.batch.push_back(stride(d));
  for (int64_t d : a.out_query_dims) a.out.query.push_back(stride(d));
  a.out_width = stride(a.out_width_dim);
}

const ir::Value* ReshapedFrom(const ir::Value* v) {
  const ir::Block* block = v->defining_op() != nullptr ? v->defining_op()->parent_block() : nullptr;
  while (const ir::Operation* op = v->defining_op()) {
    if (op->id() != ir::OpId::kReshape || op->parent_block() != block) break;
    v = op->operand(0);
  }
  return v;
}

std::optional<FlashAttention> MatchFlashAttention(const ir::Operation& dot2) {
  const ir::Block* block = dot2.parent_block();
  if (block == nullptr) return std::nullopt;
  return MatchFlashAttention(dot2, UsersInBlock(*block));
}

int64_t FlashTilePairs(const FlashAttention& a) {
  int64_t batch = 1;
  for (int64_t b : a.softmax.batch_shape) batch *= b;
  return batch * ((a.queries + kFlashQueryTile - 1) / kFlashQueryTile);
}

int64_t FlashKeyTiles(const FlashAttention& a) { return (a.softmax.keys + kFlashKeyTile - 1) / kFlashKeyTile; }

int64_t FlashSplits(const FlashAttention& a, int64_t key_chunk) {
  const int64_t chunk_tiles = key_chunk > 0 ? key_chunk / kFlashKeyTile : FlashKeyTiles(a);
  return (FlashKeyTiles(a) + chunk_tiles - 1) / chunk_tiles;
}

int64_t FlashKeyChunk(const FlashAttention& a, int sm_count) {
  const int64_t key_tiles = FlashKeyTiles(a), pairs = FlashTilePairs(a);
  const int64_t wanted = (2 * int64_t{sm_count} + pairs - 1) / pairs;
  const int64_t splits = std::max<int64_t>(1, std::min(wanted, key_tiles / kMinFlashSplitTiles));
  return (key_tiles + splits - 1) / splits * kFlashKeyTile;
}

int64_t FlashPartialBytes(const FlashAttention& a, int64_t key_chunk) {
  return FlashTilePairs(a) * FlashSplits(a, key_chunk) * kFlashQueryTile * (2 + a.width) * 4;
}

int64_t FlashCounterBytes(const FlashAttention& a) { return FlashTilePairs(a) * 4; }

int64_t FlashRowPad(const FlashAttention& a) { return a.operand_type == ir::ElementType::kF32 ? 4 : 8; }

int64_t FlashSharedBytes(const FlashAttention& a) {
  const int64_t pad = FlashRowPad(a), bytes = ir::StorageBytes(a.operand_type);
  return bytes * (kFlashQueryTile * (a.depth + pad) + 2 * kFlashKeyTile * (a.depth + pad) +
                  2 * kFlashKeyTile * (a.width + pad));
}

}  // namespace hlograph::gpu

#include "backends/cpu/kernels/reduction_body.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "ir/attribute.h"

namespace hlograph::cpu::reduction {
namespace {

using ir::ElementType;

template <typename T>
void LoadScalar(const uint8_t* base, int64_t index, Scalar& out) {
  const uint8_t* p = base + static_cast<size_t>(index) * sizeof(T);
  if constexpr (std::is_same_v<T, bool>) {
    out.i = *p != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (std::is_integral_v<T>) {
      out.i = static_cast<int64_t>(v);
    } else if constexpr (std::is_same_v<T, float>) {
      out.f = F32ToDouble(v);
    } else if constexpr (std::is_same_v<T, double>) {
      out.f = v;
    } else if constexpr (kIsNarrowFloat<T>) {
      out.f = static_cast<double>(Load(v));
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      out.f = F32ToDouble(v.real());
      out.im = F32ToDouble(v.imag());
    } else {
      out.f = v.real();
      out.im = v.imag();
    }
  }
}

template <typename T>
void StoreScalar(uint8_t* base, int64_t index, const Scalar& value) {
  uint8_t* p = base + static_cast<size_t>(index) * sizeof(T);
  if constexpr (std::is_same_v<T, bool>) {
    *p = value.i != 0 ? 1 : 0;
  } else {
    T v;
    if constexpr (std::is_integral_v<T>) {
      v = static_cast<T>(value.i);
    } else if constexpr (std::is_same_v<T, float>) {
      v = DoubleToF32(value.f);
    } else if constexpr (std::is_same_v<T, double>) {
      v = value.f;
    } else if constexpr (kIsNarrowFloat<T>) {
      v = Store<T>(static_cast<float>(value.f));
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      v = T(DoubleToF32(value.f), DoubleToF32(value.im));
    } else {
      v = T(value.f, value.im);
    }
    std::memcpy(p, &v, sizeof(T));
  }
}

// Rounds a double holding a float-typed result to narrow float T the way
// XLA computes narrow floats: in f32, rounded to T.
template <typename T>
double RoundTo(double x) {
  return static_cast<double>(Load(Store<T>(static_cast<float>(x))));
}

// Converts a double (exact, or rounded to odd) to narrow float T with one
// rounding, as convert does; bf16 goes through f32 as XLA emits it.
template <typename T>
double ConvertTo(double x) {
  if constexpr (std::is_same_v<T, BF16>) {
    return static_cast<double>(Bf16ToFloat(FloatToBf16(static_cast<float>(x))));
  } else {
    using Bits = decltype(T{}.bits);
    return static_cast<double>(Load(T{static_cast<Bits>(ir::DoubleToFloatBits(x, T::kType))}));
  }
}

using RoundFn = double (*)(double);
RoundFn RoundFnFor(ElementType e, bool for_convert) {
  return DispatchElementType(e, [&](auto tag) -> RoundFn {
    using T = typename decltype(tag)::type;
    if constexpr (kIsNarrowFloat<T>) {
      return for_convert ? &ConvertTo<T> : &RoundTo<T>;
    } else {
      return nullptr;
    }
  });
}

// An integer as a double rounded to odd: exact below 2^53, otherwise the
// dropped bits are folded into the last kept bit, so that rounding it again
// to a narrower float is correctly rounded.
double UintToDoubleRoundOdd(uint64_t u) {
  if (u < (uint64_t{1} << 53)) return static_cast<double>(u);
  int shift = 0;
  while ((u >> shift) >= (uint64_t{1} << 53)) ++shift;
  uint64_t kept = u >> shift;
  if (u & ((uint64_t{1} << shift) - 1)) kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}
double IntToDoubleRoundOdd(int64_t v) {
  const uint64_t mag = v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  const double d = UintToDoubleRoundOdd(mag);
  return v < 0 ? -d : d;
}

std::optional<BinOp> BinOpOf(ir::OpId name) {
  if (name == ir::OpId::kAdd) return BinOp::kAdd;
  if (name == ir::OpId::kMultiply) return BinOp::kMul;
  if (name == ir::OpId::kMaximum) return BinOp::kMax;
  if (name == ir::OpId::kMinimum) return BinOp::kMin;
  if (name == ir::OpId::kAnd) return BinOp::kAnd;
  if (name == ir::OpId::kOr) return BinOp::kOr;
  if (name == ir::OpId::kXor) return BinOp::kXor;
  return std::nullopt;
}

bool BinOpSuits(BinOp op, ElementType e) {
  switch (op) {
    case BinOp::kAdd:
    case BinOp::kMul: return true;
    case BinOp::kMax:
    case BinOp::kMin: return !ir::IsComplex(e);
    case BinOp::kAnd:
    case BinOp::kOr:
    case BinOp::kXor: return ir::IsBool(e) || ir::IsInteger(e);
  }
  return false;
}

bool IsScalarTensor(const ir::Type& t) { return t.IsTensor() && t.rank() == 0; }

// The single block of `region` when it has exactly one, ending in a return.
// The region's single block ending in stablehlo.return, or null. A body
// on quantized scalars (its ops dequantize, compute and quantize) is null
// too: the fast paths below would take the stored integers for values; it
// runs through the interpreter (RegionEvaluator::RunInterpreted).
const ir::Block* SingleBlock(const ir::Region& region) {
  if (region.blocks().size() != 1) return nullptr;
  const ir::Block& block = region.front();
  const ir::Operation* term = block.terminator();
  if (term == nullptr || term->id() != ir::OpId::kReturn) return nullptr;
  for (const auto& arg : block.arguments()) {
    if (arg->type().IsQuantized()) return nullptr;
  }
  for (const auto& op : block.operations()) {
    for (const auto& r : op->results()) {
      if (r->type().IsQuantized()) return nullptr;
    }
  }
  return &block;
}

std::string_view EnumValue(const ir::Operation& op, const std::string& name) {
  const auto* e = op.attr(name).as<ir::EnumAttr>();
  return e ? std::string_view(e->value) : std::string_view();
}

CmpDir Swapped(CmpDir d) {
  switch (d) {
    case CmpDir::kLt: return CmpDir::kGt;
    case CmpDir::kLe: return CmpDir::kGe;
    case CmpDir::kGt: return CmpDir::kLt;
    case CmpDir::kGe: return CmpDir::kLe;
    default: return d;
  }
}

}  // namespace

LoadFn LoaderFor(ElementType t) {
  return DispatchElementType(t, [](auto tag) -> LoadFn { return &LoadScalar<typename decltype(tag)::type>; });
}

StoreFn StorerFor(ElementType t) {
  return DispatchElementType(t, [](auto tag) -> StoreFn { return &StoreScalar<typename decltype(tag)::type>; });
}

std::optional<CmpDir> CmpDirFromName(std::string_view name) {
  if (name == "EQ") return CmpDir::kEq;
  if (name == "NE") return CmpDir::kNe;
  if (name == "LT") return CmpDir::kLt;
  if (name == "LE") return CmpDir::kLe;
  if (name == "GT") return CmpDir::kGt;
  if (name == "GE") return CmpDir::kGe;
  return std::nullopt;
}

std::optional<std::vector<BinOp>> MatchReducer(const ir::Region& region) {
  const ir::Block* block = SingleBlock(region);
  if (block == nullptr) return std::nullopt;
  const size_t num_args = block->num_arguments();
  if (num_args == 0 || num_args % 2 != 0) return std::nullopt;
  const size_t n = num_args / 2;
  const ir::Operation& ret = *block->terminator();
  if (ret.num_operands() != n || block->operations().size() != n + 1) return std::nullopt;
  std::vector<BinOp> ops;
  for (size_t k = 0; k < n; ++k) {
    const ir::Value* acc = block->argument(k);
    const ir::Value* val = block->argument(n + k);
    const ir::Operation* def = ret.operand(k)->defining_op();
    if (def == nullptr || def->parent_block() != block || def->num_operands() != 2 || def->num_regions() != 0) {
      return std::nullopt;
    }
    const std::optional<BinOp> op = BinOpOf(def->id());
    if (!op) return std::nullopt;
    const bool in_order = def->operand(0) == acc && def->operand(1) == val;
    const bool swapped = def->operand(0) == val && def->operand(1) == acc;
    if (!in_order && !swapped) return std::nullopt;
    const ir::Type& t = acc->type();
    if (!IsScalarTensor(t) || val->type() != t || def->result(0)->type() != t) return std::nullopt;
    if (!BinOpSuits(*op, t.element())) return std::nullopt;
    ops.push_back(*op);
  }
  return ops;
}

std::optional<SimpleCompare> MatchSimpleCompare(const ir::Region& region) {
  const ir::Block* block = SingleBlock(region);
  if (block == nullptr || block->num_arguments() != 2 || block->operations().size() != 2) return std::nullopt;
  const ir::Operation& cmp = *block->operations().front();
  const ir::Operation& ret = *block->terminator();
  if (cmp.id() != ir::OpId::kCompare || cmp.num_operands() != 2 || ret.num_operands() != 1 ||
      ret.operand(0) != cmp.result(0)) {
    return std::nullopt;
  }
  const ir::Value* a = block->argument(0);
  const ir::Value* b = block->argument(1);
  if (!IsScalarTensor(a->type()) || a->type() != b->type() || ir::IsComplex(a->type().element())) {
    return std::nullopt;
  }
  std::optional<CmpDir> dir = CmpDirFromName(EnumValue(cmp, "comparison_direction"));
  if (!dir) return std::nullopt;
  if (cmp.operand(0) == b && cmp.operand(1) == a) {
    dir = Swapped(*dir);
  } else if (cmp.operand(0) != a || cmp.operand(1) != b) {
    return std::nullopt;
  }
  return SimpleCompare{*dir, EnumValue(cmp, "compare_type") == "TOTALORDER"};
}

void WrapSubByteIntegers(Tensor& t) {
  const ElementType e = t.element();
  if (!ir::IsInteger(e) || ir::BitWidth(e) >= 8) return;
  uint8_t* p = t.mutable_bytes();
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const int64_t v = ir::IsSignedInteger(e) ? static_cast<int8_t>(p[i]) : p[i];
    p[i] = static_cast<uint8_t>(WrapInteger(v, e));
  }
}

// ---------------------------------------------------------------------------
// Scalar programs.

namespace {

enum class Code : uint8_t {
  kConst, kCopy, kSelect,
  kFAdd, kFSub, kFMul, kFDiv, kFMax, kFMin, kFNeg, kFAbs,
  kIAdd, kISub, kIMul, kSMax, kSMin, kUMax, kUMin, kINeg, kIAbs, kAnd, kOr, kXor, kNot,
  kCAdd, kCSub, kCMul, kCNeg,
  kFCmp, kFCmpTotal, kSCmp, kUCmp, kCEq, kCNe,
  kSToF, kUToF, kFToF, kIToI, kFToS, kFToU, kIToBool, kFToBool, kCToC,
};
enum class Round : uint8_t { kNone, kF32, kOther };
enum class Wrap : uint8_t { kNone, kSigned, kUnsigned, kBool };

struct Step {
  Code code = Code::kConst;
  CmpDir dir = CmpDir::kEq;
  Round round = Round::kNone;
  Wrap wrap = Wrap::kNone;
  uint8_t shift = 0;  // 64 - width, for integers narrower than 64 bits
  uint8_t num_in = 0;  // how many of a, b, c the step reads
  int32_t dst = 0, a = 0, b = 0, c = 0;
  RoundFn round_fn = nullptr;
  Scalar imm;  // kConst: the value; kFToS/kFToU: the range
};

inline double RoundFloat(const Step& s, double x) {
  if (s.round == Round::kF32) return F32ToDouble(static_cast<float>(x));
  if (s.round == Round::kOther) return s.round_fn(x);
  return x;
}

inline int64_t WrapInt(const Step& s, uint64_t v) {
  switch (s.wrap) {
    case Wrap::kNone: return static_cast<int64_t>(v);
    case Wrap::kSigned: return static_cast<int64_t>(v << s.shift) >> s.shift;
    case Wrap::kUnsigned: return static_cast<int64_t>((v << s.shift) >> s.shift);
    case Wrap::kBool: return static_cast<int64_t>(v & 1u);
  }
  return static_cast<int64_t>(v);
}

enum class Cls : uint8_t { kBool, kSigned, kUnsigned, kFloat, kComplex };
Cls ClassOf(ElementType e) {
  if (ir::IsBool(e)) return Cls::kBool;
  if (ir::IsSignedInteger(e)) return Cls::kSigned;
  if (ir::IsUnsignedInteger(e)) return Cls::kUnsigned;
  if (ir::IsComplex(e)) return Cls::kComplex;
  return Cls::kFloat;
}

void SetIntResult(Step& s, ElementType e) {
  if (ir::IsBool(e)) {
    s.wrap = Wrap::kBool;
    return;
  }
  const int w = ir::BitWidth(e);
  if (w < 64) {
    s.wrap = ir::IsSignedInteger(e) ? Wrap::kSigned : Wrap::kUnsigned;
    s.shift = static_cast<uint8_t>(64 - w);
  }
}

// Rounding of float results to element type `e`: arithmetic rounds like an
// f32 computation stored to `e`, conversions round once to `e`.
void SetFloatResult(Step& s, ElementType e, bool for_convert = false) {
  if (ir::IsComplex(e)) e = ir::ComplexPart(e);
  if (e == ElementType::kF64) {
    s.round = Round::kNone;
  } else if (e == ElementType::kF32) {
    s.round = Round::kF32;
  } else {
    s.round = Round::kOther;
    s.round_fn = RoundFnFor(e, for_convert);
  }
}

}  // namespace

class ScalarProgram {
 public:
  // Null when the region uses anything outside the supported subset.
  static std::unique_ptr<ScalarProgram> Compile(const ir::Region& region);

  void Run(Scalar* s) const;
  size_t num_slots() const { return slot_types_.size(); }
  const std::vector<size_t>& results() const { return results_; }

 private:
  friend class SortComparator;

  std::optional<int32_t> SlotOf(const ir::Value* v, ElementType* type) const {
    auto it = slot_of_.find(v);
    if (it == slot_of_.end()) return std::nullopt;
    *type = slot_types_[static_cast<size_t>(it->second)];
    return it->second;
  }
  int32_t NewSlot(const ir::Value* v, ElementType e) {
    const auto slot = static_cast<int32_t>(slot_types_.size());
    slot_types_.push_back(e);
    slot_of_[v] = slot;
    return slot;
  }
  bool AddOp(const ir::Operation& op);
  bool AddConvert(Step& s, ElementType from, ElementType to);

  std::vector<Step> steps_;
  std::vector<ElementType> slot_types_;
  std::unordered_map<const ir::Value*, int32_t> slot_of_;  // compile time only
  std::vector<size_t> results_;
};

std::unique_ptr<ScalarProgram> ScalarProgram::Compile(const ir::Region& region) {
  const ir::Block* block = SingleBlock(region);
  if (block == nullptr) return nullptr;
  auto program = std::make_unique<ScalarProgram>();
  for (const auto& arg : block->arguments()) {
    if (!IsScalarTensor(arg->type())) return nullptr;
    program->NewSlot(arg.get(), arg->type().element());
  }
  const auto& ops = block->operations();
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    if (!program->AddOp(*ops[i])) return nullptr;
  }
  for (const ir::Value* v : block->terminator()->operands()) {
    ElementType e;
    std::optional<int32_t> slot = program->SlotOf(v, &e);
    if (!slot) return nullptr;
    program->results_.push_back(static_cast<size_t>(*slot));
  }
  program->slot_of_.clear();
  return program;
}

bool ScalarProgram::AddOp(const ir::Operation& op) {
  if (op.num_results() != 1 || op.num_regions() != 0 || !IsScalarTensor(op.result(0)->type())) return false;
  const ElementType e = op.result(0)->type().element();
  const Cls cls = ClassOf(e);
  const ir::OpId name = op.id();
  std::vector<int32_t> in;
  std::vector<ElementType> in_types;
  for (const ir::Value* v : op.operands()) {
    ElementType t;
    std::optional<int32_t> slot = SlotOf(v, &t);
    if (!slot) return false;  // captured from outside the region, or not a scalar
    in.push_back(*slot);
    in_types.push_back(t);
  }
  Step s;
  s.num_in = static_cast<uint8_t>(in.size());
  if (in.size() > 0) s.a = in[0];
  if (in.size() > 1) s.b = in[1];
  if (in.size() > 2) s.c = in[2];
  const bool same_types = std::all_of(in_types.begin(), in_types.end(), [&](ElementType t) { return t == e; });

  if (name == ir::OpId::kConstant) {
    const auto* attr = op.attr("value").as<ir::DenseElementsAttr>();
    if (attr == nullptr || !attr->type.IsTensor() || attr->type.element() != e || attr->type.NumElements() != 1 ||
        attr->bytes.size() < static_cast<size_t>(ir::StorageBytes(e))) {
      return false;
    }
    LoaderFor(e)(attr->bytes.data(), 0, s.imm);
    if (cls == Cls::kSigned || cls == Cls::kUnsigned) s.imm.i = WrapInteger(s.imm.i, e);
    s.code = Code::kConst;
  } else if (name == ir::OpId::kSelect) {
    if (in.size() != 3 || in_types[0] != ElementType::kI1 || in_types[1] != e || in_types[2] != e) return false;
    s.code = Code::kSelect;
  } else if (name == ir::OpId::kCompare) {
    if (in.size() != 2 || in_types[0] != in_types[1] || e != ElementType::kI1) return false;
    std::optional<CmpDir> dir = CmpDirFromName(EnumValue(op, "comparison_direction"));
    if (!dir) return false;
    s.dir = *dir;
    switch (ClassOf(in_types[0])) {
      case Cls::kFloat: s.code = EnumValue(op, "compare_type") == "TOTALORDER" ? Code::kFCmpTotal : Code::kFCmp; break;
      case Cls::kSigned: s.code = Code::kSCmp; break;
      case Cls::kBool:
      case Cls::kUnsigned: s.code = Code::kUCmp; break;
      case Cls::kComplex:
        if (*dir == CmpDir::kEq) {
          s.code = Code::kCEq;
        } else if (*dir == CmpDir::kNe) {
          s.code = Code::kCNe;
        } else {
          return false;
        }
        break;
    }
  } else if (name == ir::OpId::kConvert) {
    if (in.size() != 1 || !AddConvert(s, in_types[0], e)) return false;
  } else {
    // Elementwise arithmetic and logic: operands and result of one type.
    if (!same_types) return false;
    const bool unary = in.size() == 1;
    const bool binary = in.size() == 2;
    struct Entry {
      ir::OpId name;
      bool binary;
      Code f, s, u, b, c;  // per class; kConst marks "unsupported"
    };
    constexpr Code X = Code::kConst;
    static const Entry kTable[] = {
        {ir::OpId::kAdd, true, Code::kFAdd, Code::kIAdd, Code::kIAdd, Code::kOr, Code::kCAdd},
        {ir::OpId::kSubtract, true, Code::kFSub, Code::kISub, Code::kISub, X, Code::kCSub},
        {ir::OpId::kMultiply, true, Code::kFMul, Code::kIMul, Code::kIMul, Code::kAnd, Code::kCMul},
        {ir::OpId::kDivide, true, Code::kFDiv, X, X, X, X},
        {ir::OpId::kMaximum, true, Code::kFMax, Code::kSMax, Code::kUMax, Code::kOr, X},
        {ir::OpId::kMinimum, true, Code::kFMin, Code::kSMin, Code::kUMin, Code::kAnd, X},
        {ir::OpId::kAnd, true, X, Code::kAnd, Code::kAnd, Code::kAnd, X},
        {ir::OpId::kOr, true, X, Code::kOr, Code::kOr, Code::kOr, X},
        {ir::OpId::kXor, true, X, Code::kXor, Code::kXor, Code::kXor, X},
        {ir::OpId::kNot, false, X, Code::kNot, Code::kNot, Code::kNot, X},
        {ir::OpId::kNegate, false, Code::kFNeg, Code::kINeg, Code::kINeg, X, Code::kCNeg},
        {ir::OpId::kAbs, false, Code::kFAbs, Code::kIAbs, Code::kCopy, X, X},
    };
    const Entry* entry = nullptr;
    for (const Entry& t : kTable) {
      if (name == t.name) entry = &t;
    }
    if (entry == nullptr || (entry->binary ? !binary : !unary)) return false;
    switch (cls) {
      case Cls::kFloat: s.code = entry->f; break;
      case Cls::kSigned: s.code = entry->s; break;
      case Cls::kUnsigned: s.code = entry->u; break;
      case Cls::kBool: s.code = entry->b; break;
      case Cls::kComplex: s.code = entry->c; break;
    }
    if (s.code == X) return false;
    if (cls == Cls::kFloat || cls == Cls::kComplex) {
      SetFloatResult(s, e);
    } else {
      SetIntResult(s, e);
    }
  }
  s.dst = NewSlot(op.result(0), e);
  steps_.push_back(s);
  return true;
}

bool ScalarProgram::AddConvert(Step& s, ElementType from, ElementType to) {
  const Cls f = ClassOf(from);
  const Cls t = ClassOf(to);
  if (f == Cls::kComplex || t == Cls::kComplex) {
    if (f != Cls::kComplex || t != Cls::kComplex) return false;
    s.code = Code::kCToC;
    SetFloatResult(s, to, /*for_convert=*/true);
    return true;
  }
  if (t == Cls::kBool) {
    s.code = f == Cls::kFloat ? Code::kFToBool : Code::kIToBool;
    return true;
  }
  if (t == Cls::kFloat) {
    s.code = f == Cls::kFloat ? Code::kFToF : (f == Cls::kUnsigned ? Code::kUToF : Code::kSToF);
    SetFloatResult(s, to, /*for_convert=*/true);
    return true;
  }
  // Integer results.
  SetIntResult(s, to);
  if (f != Cls::kFloat) {
    s.code = Code::kIToI;
    return true;
  }
  // Float to integer saturates and sends NaN to 0, as XLA does.
  const int w = ir::BitWidth(to);
  if (t == Cls::kSigned) {
    s.code = Code::kFToS;
    s.imm.f = -std::ldexp(1.0, w - 1);  // lowest value
    s.imm.im = std::ldexp(1.0, w - 1);  // one past the highest
    s.imm.i = w >= 64 ? INT64_MIN : -(int64_t{1} << (w - 1));
  } else {
    s.code = Code::kFToU;
    s.imm.im = std::ldexp(1.0, w);
  }
  return true;
}

void ScalarProgram::Run(Scalar* slot) const {
  for (const Step& s : steps_) {
    Scalar& d = slot[s.dst];
    const Scalar& x = slot[s.a];
    const Scalar& y = slot[s.b];
    switch (s.code) {
      case Code::kConst: d = s.imm; break;
      case Code::kCopy: d = x; break;
      case Code::kSelect: d = x.i != 0 ? y : slot[s.c]; break;
      case Code::kFAdd: d.f = RoundFloat(s, x.f + y.f); break;
      case Code::kFSub: d.f = RoundFloat(s, x.f - y.f); break;
      case Code::kFMul: d.f = RoundFloat(s, x.f * y.f); break;
      case Code::kFDiv: d.f = RoundFloat(s, x.f / y.f); break;
      case Code::kFMax: d.f = FloatMax(x.f, y.f); break;
      case Code::kFMin: d.f = FloatMin(x.f, y.f); break;
      case Code::kFNeg: d.f = -x.f; break;
      case Code::kFAbs: d.f = std::fabs(x.f); break;
      case Code::kIAdd: d.i = WrapInt(s, static_cast<uint64_t>(x.i) + static_cast<uint64_t>(y.i)); break;
      case Code::kISub: d.i = WrapInt(s, static_cast<uint64_t>(x.i) - static_cast<uint64_t>(y.i)); break;
      case Code::kIMul: d.i = WrapInt(s, static_cast<uint64_t>(x.i) * static_cast<uint64_t>(y.i)); break;
      case Code::kSMax: d.i = std::max(x.i, y.i); break;
      case Code::kSMin: d.i = std::min(x.i, y.i); break;
      case Code::kUMax:
        d.i = static_cast<int64_t>(std::max(static_cast<uint64_t>(x.i), static_cast<uint64_t>(y.i)));
        break;
      case Code::kUMin:
        d.i = static_cast<int64_t>(std::min(static_cast<uint64_t>(x.i), static_cast<uint64_t>(y.i)));
        break;
      case Code::kINeg: d.i = WrapInt(s, uint64_t{0} - static_cast<uint64_t>(x.i)); break;
      case Code::kIAbs: d.i = x.i < 0 ? WrapInt(s, uint64_t{0} - static_cast<uint64_t>(x.i)) : x.i; break;
      case Code::kAnd: d.i = x.i & y.i; break;
      case Code::kOr: d.i = x.i | y.i; break;
      case Code::kXor: d.i = x.i ^ y.i; break;
      case Code::kNot: d.i = WrapInt(s, ~static_cast<uint64_t>(x.i)); break;
      case Code::kCAdd:
        d.f = RoundFloat(s, x.f + y.f);
        d.im = RoundFloat(s, x.im + y.im);
        break;
      case Code::kCSub:
        d.f = RoundFloat(s, x.f - y.f);
        d.im = RoundFloat(s, x.im - y.im);
        break;
      case Code::kCMul:
        if (s.round == Round::kF32) {
          // In f32 arithmetic, rounding each product as complex<f32> does.
          const auto a = static_cast<float>(x.f), b = static_cast<float>(x.im);
          const auto c = static_cast<float>(y.f), e = static_cast<float>(y.im);
          d.f = F32ToDouble(a * c - b * e);
          d.im = F32ToDouble(a * e + b * c);
        } else {
          d.f = x.f * y.f - x.im * y.im;
          d.im = x.f * y.im + x.im * y.f;
        }
        break;
      case Code::kCNeg:
        d.f = -x.f;
        d.im = -x.im;
        break;
      case Code::kFCmp: d.i = CompareWith(s.dir, x.f, y.f); break;
      case Code::kFCmpTotal: d.i = CompareWith(s.dir, TotalOrderKey(x.f), TotalOrderKey(y.f)); break;
      case Code::kSCmp: d.i = CompareWith(s.dir, x.i, y.i); break;
      case Code::kUCmp: d.i = CompareWith(s.dir, static_cast<uint64_t>(x.i), static_cast<uint64_t>(y.i)); break;
      case Code::kCEq: d.i = x.f == y.f && x.im == y.im; break;
      case Code::kCNe: d.i = x.f != y.f || x.im != y.im; break;
      case Code::kSToF:
        // One rounding from the integer to the result type.
        if (s.round == Round::kNone) {
          d.f = static_cast<double>(x.i);
        } else if (s.round == Round::kF32) {
          d.f = static_cast<double>(static_cast<float>(x.i));
        } else {
          d.f = s.round_fn(IntToDoubleRoundOdd(x.i));
        }
        break;
      case Code::kUToF: {
        const auto u = static_cast<uint64_t>(x.i);
        if (s.round == Round::kNone) {
          d.f = static_cast<double>(u);
        } else if (s.round == Round::kF32) {
          d.f = static_cast<double>(static_cast<float>(u));
        } else {
          d.f = s.round_fn(UintToDoubleRoundOdd(u));
        }
        break;
      }
      case Code::kFToF: d.f = RoundFloat(s, x.f); break;
      case Code::kIToI: d.i = WrapInt(s, static_cast<uint64_t>(x.i)); break;
      case Code::kFToS: {
        const double t = std::trunc(x.f);
        if (x.f != x.f) {
          d.i = 0;
        } else if (t <= s.imm.f) {
          d.i = s.imm.i;
        } else if (t >= s.imm.im) {
          d.i = ~s.imm.i;  // the highest value
        } else {
          d.i = static_cast<int64_t>(t);
        }
        break;
      }
      case Code::kFToU: {
        const double t = std::trunc(x.f);
        if (x.f != x.f || t <= 0) {
          d.i = 0;
        } else if (t >= s.imm.im) {
          d.i = WrapInt(s, ~uint64_t{0});
        } else {
          d.i = static_cast<int64_t>(static_cast<uint64_t>(t));
        }
        break;
      }
      case Code::kIToBool: d.i = x.i != 0; break;
      case Code::kFToBool: d.i = x.f != 0; break;
      case Code::kCToC:
        d.f = RoundFloat(s, x.f);
        d.im = RoundFloat(s, x.im);
        break;
    }
  }
}

// ---------------------------------------------------------------------------
// SortComparator.

SortComparator::SortComparator() = default;
SortComparator::~SortComparator() = default;

std::unique_ptr<SortComparator> SortComparator::Make(const RegionEvaluator& evaluator) {
  const ScalarProgram* program = evaluator.program();
  if (program == nullptr || evaluator.num_results() != 1) return nullptr;
  // Which sides each slot depends on: bit 0 the left-hand arguments, bit 1
  // the right-hand ones (0: a constant).
  std::vector<uint8_t> side(program->num_slots(), 0);
  for (size_t i = 0; i < evaluator.num_args() && i < side.size(); ++i) side[i] = i % 2 == 0 ? 1 : 2;
  std::unique_ptr<SortComparator> c(new SortComparator());
  c->lhs_ = std::make_unique<ScalarProgram>();
  c->rhs_ = std::make_unique<ScalarProgram>();
  c->mixed_ = std::make_unique<ScalarProgram>();
  c->slots_.resize(program->num_slots());
  std::vector<bool> read_by_mixed(program->num_slots(), false);
  for (const Step& s : program->steps_) {
    uint8_t d = 0;
    const int32_t in[3] = {s.a, s.b, s.c};
    for (int i = 0; i < s.num_in; ++i) d |= side[static_cast<size_t>(in[i])];
    side[static_cast<size_t>(s.dst)] = d;
    if (d == 0) {
      // Constants: computed once, and never overwritten.
      ScalarProgram once;
      once.steps_.push_back(s);
      once.Run(c->slots_.data());
    } else if (d == 1) {
      c->lhs_->steps_.push_back(s);
    } else if (d == 2) {
      c->rhs_->steps_.push_back(s);
    } else {
      c->mixed_->steps_.push_back(s);
      for (int i = 0; i < s.num_in; ++i) read_by_mixed[static_cast<size_t>(in[i])] = true;
    }
  }
  c->result_ = program->results()[0];
  read_by_mixed[c->result_] = true;
  for (size_t slot = 0; slot < side.size(); ++slot) {
    if (!read_by_mixed[slot]) continue;
    if (side[slot] == 1) c->left_slots_.push_back(slot);
    if (side[slot] == 2) c->right_slots_.push_back(slot);
  }
  return c;
}

void SortComparator::Prepare(const std::vector<std::vector<Scalar>>& columns) {
  const size_t n = columns.empty() ? 0 : columns[0].size();
  left_.resize(n * left_slots_.size());
  right_.resize(n * right_slots_.size());
  for (size_t e = 0; e < n; ++e) {
    for (size_t k = 0; k < columns.size(); ++k) {
      slots_[2 * k] = columns[k][e];
      slots_[2 * k + 1] = columns[k][e];
    }
    lhs_->Run(slots_.data());
    rhs_->Run(slots_.data());
    for (size_t i = 0; i < left_slots_.size(); ++i) left_[e * left_slots_.size() + i] = slots_[left_slots_[i]];
    for (size_t i = 0; i < right_slots_.size(); ++i) right_[e * right_slots_.size() + i] = slots_[right_slots_[i]];
  }
}

void SortComparator::RunMixed() { mixed_->Run(slots_.data()); }

// ---------------------------------------------------------------------------
// RegionEvaluator.

RegionEvaluator::RegionEvaluator(const ir::Region& region, Interpreter& interpreter)
    : region_(region), interpreter_(interpreter) {
  if (region.empty()) return;
  const ir::Block& block = region.front();
  num_args_ = block.num_arguments();
  const ir::Operation* term = block.terminator();
  num_results_ = term ? term->num_operands() : 0;
  program_ = ScalarProgram::Compile(region);
  if (program_) {
    slots_.resize(program_->num_slots());
    result_slots_ = program_->results();
    return;
  }
  for (const auto& arg : block.arguments()) arg_types_.push_back(arg->type());
  if (term) {
    for (const ir::Value* v : term->operands()) result_elements_.push_back(v->type().element());
  }
  slots_.resize(num_args_ + num_results_);
  for (size_t i = 0; i < num_results_; ++i) result_slots_.push_back(num_args_ + i);
}

RegionEvaluator::~RegionEvaluator() = default;

void RegionEvaluator::Execute() { program_->Run(slots_.data()); }

Status RegionEvaluator::RunInterpreted() {
  if (region_.empty()) return Status::Error("the region has no block");
  std::vector<Tensor> args;
  args.reserve(num_args_);
  for (size_t i = 0; i < num_args_; ++i) {
    const ir::Type& t = arg_types_[i];
    if (!IsScalarTensor(t)) {
      return Status::Error("expects the region to take scalar tensors, got " + t.ToString());
    }
    Tensor arg(t);
    StorerFor(t.element())(arg.mutable_bytes(), 0, slots_[i]);
    args.push_back(std::move(arg));
  }
  HLOGRAPH_ASSIGN(std::vector<Tensor> results, interpreter_.RunRegion(region_, args));
  if (results.size() != num_results_) {
    return Status::Error("the region returned " + std::to_string(results.size()) + " values, expected " +
                         std::to_string(num_results_));
  }
  for (size_t i = 0; i < num_results_; ++i) {
    const Tensor& r = results[i];
    if (!r.type().IsTensor() || r.num_elements() != 1 || r.element() != result_elements_[i]) {
      return Status::Error("the region returned " + r.type().ToString() + " for result " + std::to_string(i));
    }
    LoaderFor(r.element())(r.bytes(), 0, slots_[num_args_ + i]);
  }
  return Status::Ok();
}

}  // namespace hlograph::cpu::reduction

#include "ir/verify/verify_util.h"

#include <algorithm>
#include <set>

#include "ir/module.h"

namespace hlograph::ir::verify {

// ---------------------------------------------------------------------------
// Messages

std::string TypeStr(const Type& t) { return t.ToString(); }

std::string TypesStr(const std::vector<Type>& types) {
  std::string s = "(";  // appended: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string
  s += TypeListToString(types);
  s += ')';
  return s;
}

std::string DimsStr(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

// ---------------------------------------------------------------------------
// Attributes

std::vector<int64_t> I64ArrayAttr(const Operation& op, const std::string& name) { return I64ArrayOr(op, name, {}); }

std::vector<int64_t> I64ArrayOr(const Operation& op, const std::string& name, std::vector<int64_t> fallback) {
  const auto* a = AttrAs<DenseArrayAttr>(op, name);
  return a ? a->values : std::move(fallback);
}

std::optional<int64_t> IntAttr(const Operation& op, const std::string& name) {
  const auto* a = AttrAs<IntegerAttr>(op, name);
  if (a == nullptr) return std::nullopt;
  return a->value;
}

bool BoolAttrOr(const Operation& op, const std::string& name, bool fallback) {
  const auto* a = AttrAs<BoolAttr>(op, name);
  return a ? a->value : fallback;
}

std::string EnumAttrValue(const Operation& op, const std::string& name) {
  const auto* a = AttrAs<EnumAttr>(op, name);
  return a ? a->value : "";
}

size_t ArrayAttrSize(const Operation& op, const std::string& name) {
  const auto* a = AttrAs<ArrayAttr>(op, name);
  return a ? a->elements.size() : 0;
}

std::optional<std::vector<int64_t>> IntElements(const DenseElementsAttr& attr) {
  constexpr int64_t kMaxElements = int64_t{1} << 24;
  const ElementType e = attr.type.element();
  if (!attr.type.IsTensor() || !(IsInteger(e) || IsBool(e))) return std::nullopt;
  const int64_t count = attr.type.NumElements();
  if (count > kMaxElements) return std::nullopt;
  const size_t width = static_cast<size_t>(StorageBytes(e));
  const size_t stored = static_cast<size_t>(attr.splat ? 1 : count);
  if (width == 0 || width > 8 || attr.bytes.size() != stored * width) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(count));
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    const size_t base = (attr.splat ? 0 : i) * width;
    uint64_t bits = 0;
    for (size_t b = 0; b < width; ++b) bits |= static_cast<uint64_t>(attr.bytes[base + b]) << (8 * b);
    const int bit_width = BitWidth(e);
    if (IsSignedInteger(e) && bit_width < 64 && ((bits >> (bit_width - 1)) & 1u)) {
      bits |= ~uint64_t{0} << bit_width;  // sign-extend
    }
    out.push_back(static_cast<int64_t>(bits));
  }
  return out;
}

StatusOr<std::vector<int64_t>> WindowAttr(const Operation& op, const std::string& name, int64_t n,
                                          std::string_view n_desc) {
  const std::vector<int64_t> ones(static_cast<size_t>(std::max<int64_t>(n, 0)), 1);
  const std::vector<int64_t> v = I64ArrayOr(op, name, ones);
  HLOGRAPH_TRY(ExpectSize(v, n, name, n_desc));
  HLOGRAPH_TRY(ExpectAllPositive(v, name));
  return v;
}

StatusOr<Padding> PaddingAttr(const Operation& op, const std::string& name, int64_t n) {
  const Attribute attr = op.attr(name);
  if (!attr) return Padding(static_cast<size_t>(std::max<int64_t>(n, 0)), {0, 0});
  const auto* elements = attr.as<DenseElementsAttr>();
  if (elements == nullptr) return Err("expects ", name, " to be a dense elements attribute");
  const Type& t = elements->type;
  if (!t.IsTensor() || t.rank() != 2 || t.dim(0) != n || t.dim(1) != 2) {
    return Err("expects ", name, " to have shape [", n, ", 2], got ", TypeStr(t));
  }
  std::optional<std::vector<int64_t>> values = IntElements(*elements);
  if (!values) return Err("expects ", name, " to hold integers, got ", TypeStr(t));
  Padding out;
  for (size_t i = 0; i + 1 < values->size(); i += 2) out.emplace_back((*values)[i], (*values)[i + 1]);
  return out;
}

// ---------------------------------------------------------------------------
// Types

const Type& OperandType(const Operation& op, size_t i) { return op.operand(i)->type(); }

const Type& ResultType(const Operation& op, size_t i) { return op.result(i)->type(); }

Type ScalarType(ElementType e) { return Type::Tensor(e, {}); }

Type ScalarOf(const Type& t) { return t.IsQuantized() ? t.WithShape({}) : ScalarType(t.element()); }

std::vector<Type> ScalarTypesOf(const std::vector<Type>& tensors) {
  std::vector<Type> out;
  out.reserve(tensors.size());
  for (const Type& t : tensors) out.push_back(t.IsQuantized() ? t.WithShape({}) : ScalarType(t.element()));
  return out;
}

Status ExpectTensor(const Type& t, std::string_view what) {
  if (!t.IsTensor()) return Err("expects ", what, " to be a tensor, got ", t);
  return Status::Ok();
}

Status ExpectTensors(const std::vector<Type>& types, std::string_view what) {
  for (size_t i = 0; i < types.size(); ++i) {
    HLOGRAPH_TRY(ExpectTensor(types[i], Str(what, " ", i)));
  }
  return Status::Ok();
}

Status ExpectRank(const Type& t, int64_t rank, std::string_view what) {
  HLOGRAPH_TRY(ExpectTensor(t, what));
  if (t.rank() != rank) return Err("expects ", what, " to have rank ", rank, ", got ", t);
  return Status::Ok();
}

Status ExpectMinRank(const Type& t, int64_t min_rank, std::string_view what) {
  HLOGRAPH_TRY(ExpectTensor(t, what));
  if (t.rank() < min_rank) return Err("expects ", what, " to have rank at least ", min_rank, ", got ", t);
  return Status::Ok();
}

Status ExpectShape(const Type& t, const std::vector<int64_t>& shape, std::string_view what) {
  HLOGRAPH_TRY(ExpectTensor(t, what));
  if (t.shape() != shape) return Err("expects ", what, " to have shape ", shape, ", got ", t);
  return Status::Ok();
}

Status ExpectSameShape(const Type& a, std::string_view a_what, const Type& b, std::string_view b_what) {
  HLOGRAPH_TRY(ExpectTensor(a, a_what));
  HLOGRAPH_TRY(ExpectTensor(b, b_what));
  if (a.shape() != b.shape()) {
    return Err("expects ", a_what, " and ", b_what, " to have the same shape, got ", a, " and ", b);
  }
  return Status::Ok();
}

bool CompatibleElements(const Type& a, const Type& b) {
  if (!a.IsQuantized() && !b.IsQuantized()) return a.element() == b.element();
  if (a.IsQuantized() && b.IsQuantized()) return a.quant()->SameStorageAndExpressed(*b.quant());
  // One quantized, one not: a hybrid op's float side against the expressed type.
  const Type& q = a.IsQuantized() ? a : b;
  const Type& f = a.IsQuantized() ? b : a;
  return IsFloat(f.element()) && q.quant()->expressed == f.element();
}

bool CompatibleTypes(const Type& a, const Type& b) {
  if (a.kind() != b.kind()) return false;
  if (a.IsTuple()) {
    if (a.tuple_elements().size() != b.tuple_elements().size()) return false;
    for (size_t i = 0; i < a.tuple_elements().size(); ++i) {
      if (!CompatibleTypes(a.tuple_elements()[i], b.tuple_elements()[i])) return false;
    }
    return true;
  }
  if (!a.IsTensor()) return a == b;
  if (!a.IsQuantized() && !b.IsQuantized()) return a == b;
  return a.shape() == b.shape() && CompatibleElements(a, b);
}

Status ExpectSameElement(const Type& a, std::string_view a_what, const Type& b, std::string_view b_what) {
  HLOGRAPH_TRY(ExpectTensor(a, a_what));
  HLOGRAPH_TRY(ExpectTensor(b, b_what));
  if (!CompatibleElements(a, b)) {
    return Err("expects ", a_what, " and ", b_what, " to have the same element type, got ", a, " and ", b);
  }
  return Status::Ok();
}

Status ExpectElement(const Type& t, ElementType e, std::string_view what) {
  HLOGRAPH_TRY(ExpectTensor(t, what));
  if (t.element() != e || t.IsQuantized()) {
    return Err("expects ", what, " to have element type ", ElementTypeName(e), ", got ", t);
  }
  return Status::Ok();
}

Status ExpectType(const Type& got, const Type& want, std::string_view what) {
  if (!CompatibleTypes(got, want)) return Err("expects ", what, " to have type ", want, ", got ", got);
  return Status::Ok();
}

Status ExpectTypes(const std::vector<Type>& got, const std::vector<Type>& want, std::string_view what) {
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = CompatibleTypes(got[i], want[i]);
  if (!same) return Err("expects ", what, " to have types ", want, ", got ", got);
  return Status::Ok();
}

Status ExpectAllSameType(const std::vector<Type>& types, std::string_view what) {
  for (size_t i = 1; i < types.size(); ++i) {
    if (!CompatibleTypes(types[i], types[0])) {
      return Err("expects all ", what, " to have the same type, got ", types[0], " and ", types[i]);
    }
  }
  return Status::Ok();
}

std::string ClassDescription(uint8_t mask) {
  std::vector<std::string_view> names;
  if (mask & kBoolClass) names.push_back("boolean");
  if ((mask & kIntClass) == kIntClass) {
    names.push_back("integer");
  } else if (mask & kSignedClass) {
    names.push_back("signed integer");
  } else if (mask & kUnsignedClass) {
    names.push_back("unsigned integer");
  }
  if (mask & kFloatClass) names.push_back("floating-point");
  if (mask & kComplexClass) names.push_back("complex");
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += (i + 1 == names.size()) ? " or " : ", ";
    s += names[i];
  }
  return s;
}

Status ExpectElementClass(const Type& t, uint8_t mask, std::string_view what) {
  if (!t.IsTensor() || !InClass(t.ExpressedElement(), mask)) {
    return Err("expects ", what, " to be a tensor of ", ClassDescription(mask), " type, got ", t);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// Dimension lists

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool IsUnique(const std::vector<int64_t>& v) {
  std::set<int64_t> seen(v.begin(), v.end());
  return seen.size() == v.size();
}

bool IsSorted(const std::vector<int64_t>& v) { return std::is_sorted(v.begin(), v.end()); }

bool IsPermutation(const std::vector<int64_t>& v) {
  const auto n = static_cast<int64_t>(v.size());
  std::vector<bool> seen(v.size(), false);
  for (int64_t x : v) {
    if (x < 0 || x >= n || seen[static_cast<size_t>(x)]) return false;
    seen[static_cast<size_t>(x)] = true;
  }
  return true;
}

std::vector<int64_t> Concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

std::vector<int64_t> DropDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!Contains(dims, static_cast<int64_t>(i))) out.push_back(shape[i]);
  }
  return out;
}

std::vector<int64_t> PickDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (int64_t d : dims) out.push_back(shape[static_cast<size_t>(d)]);
  return out;
}

std::vector<int64_t> OtherDims(int64_t rank, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(dims, d)) out.push_back(d);
  }
  return out;
}

Status ExpectSize(const std::vector<int64_t>& v, int64_t n, std::string_view what, std::string_view n_desc) {
  if (static_cast<int64_t>(v.size()) != n) {
    return Err("expects ", what, " to have ", n, n == 1 ? " entry (" : " entries (", n_desc, "), got ", v.size());
  }
  return Status::Ok();
}

Status ExpectInRange(const std::vector<int64_t>& v, int64_t lo, int64_t hi, std::string_view what) {
  for (int64_t x : v) {
    if (x < lo || x >= hi) return Err("expects every entry of ", what, " to be in [", lo, ", ", hi, "), got ", x);
  }
  return Status::Ok();
}

Status ExpectIndexInRange(int64_t x, int64_t lo, int64_t hi, std::string_view what) {
  if (x < lo || x >= hi) return Err("expects ", what, " to be in [", lo, ", ", hi, "), got ", x);
  return Status::Ok();
}

Status ExpectUnique(const std::vector<int64_t>& v, std::string_view what) {
  if (!IsUnique(v)) return Err("expects ", what, " to have no duplicate entries, got ", v);
  return Status::Ok();
}

Status ExpectSorted(const std::vector<int64_t>& v, std::string_view what) {
  if (!IsSorted(v)) return Err("expects ", what, " to be sorted in ascending order, got ", v);
  return Status::Ok();
}

Status ExpectAllPositive(const std::vector<int64_t>& v, std::string_view what) {
  for (int64_t x : v) {
    if (x <= 0) return Err("expects every entry of ", what, " to be positive, got ", v);
  }
  return Status::Ok();
}

Status ExpectAllNonNegative(const std::vector<int64_t>& v, std::string_view what) {
  for (int64_t x : v) {
    if (x < 0) return Err("expects every entry of ", what, " to be non-negative, got ", v);
  }
  return Status::Ok();
}

Status ExpectDimList(const std::vector<int64_t>& v, int64_t rank, std::string_view what) {
  HLOGRAPH_TRY(ExpectInRange(v, 0, rank, what));
  return ExpectUnique(v, what);
}

// ---------------------------------------------------------------------------
// Arithmetic

std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

namespace {

// (size - 1) * dilation + 1, or 0 for an empty size.
std::optional<int64_t> Dilated(int64_t size, int64_t dilation) {
  if (size <= 0) return 0;
  std::optional<int64_t> scaled = CheckedMul(size - 1, dilation);
  if (!scaled) return std::nullopt;
  return CheckedAdd(*scaled, 1);
}

}  // namespace

std::optional<int64_t> NumWindows(int64_t input, const WindowDim& w) {
  std::optional<int64_t> dilated_input = Dilated(input, w.base_dilation);
  std::optional<int64_t> dilated_window = Dilated(w.size, w.window_dilation);
  if (!dilated_input || !dilated_window) return std::nullopt;
  std::optional<int64_t> padded = CheckedAdd(*dilated_input, w.pad_low);
  if (padded) padded = CheckedAdd(*padded, w.pad_high);
  if (!padded) return std::nullopt;
  if (*padded <= 0 || *dilated_window > *padded) return 0;
  return (*padded - *dilated_window) / w.stride + 1;
}

StatusOr<std::vector<int64_t>> WindowedShape(const std::vector<int64_t>& input_shape,
                                             const std::vector<WindowDim>& windows) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < input_shape.size() && i < windows.size(); ++i) {
    std::optional<int64_t> n = NumWindows(input_shape[i], windows[i]);
    if (!n) return Err("expects the window parameters of dimension ", i, " not to overflow 64-bit sizes");
    out.push_back(*n);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Regions

std::vector<Type> BlockArgumentTypes(const Block& block) {
  std::vector<Type> out;
  out.reserve(block.num_arguments());
  for (const auto& arg : block.arguments()) out.push_back(arg->type());
  return out;
}

Status ExpectRegionSignature(const Operation& op, size_t index, const std::vector<Type>& args,
                             const std::vector<Type>& results, std::string_view what, std::string_view terminator) {
  if (index >= op.num_regions() || op.region(index).empty()) return Err("expects ", what, " to have a block");
  const Region& region = op.region(index);
  const std::vector<Type> got_args = BlockArgumentTypes(region.front());
  if (got_args != args) return Err("expects ", what, " to take ", args, ", got ", got_args);
  for (const auto& block : region.blocks()) {
    const Operation* term = block->terminator();
    if (term == nullptr) return Err("expects ", what, " to end with ", terminator, ", got an empty block");
    if (term->name() != terminator) return Err("expects ", what, " to end with ", terminator, ", got ", term->name());
    const std::vector<Type> got_results = term->OperandTypes();
    if (got_results != results) return Err("expects ", what, " to return ", results, ", got ", got_results);
  }
  return Status::Ok();
}

Status ExpectReducerRegion(const Operation& op, size_t index, const std::vector<Type>& elements,
                           std::string_view what) {
  const std::vector<Type>& scalars = elements;
  std::vector<Type> args = scalars;
  args.insert(args.end(), scalars.begin(), scalars.end());
  return ExpectRegionSignature(op, index, args, scalars, what);
}

// ---------------------------------------------------------------------------
// Symbols

Status ExpectCallTypes(const Operation& op, const FunctionType& sig, std::string_view callee) {
  const std::vector<Type> operands = op.OperandTypes();
  if (operands != sig.inputs) {
    return Err("expects the operands to have types ", sig.inputs, " (the inputs of ", callee, "), got ", operands);
  }
  const std::vector<Type> results = op.ResultTypes();
  if (results != sig.results) {
    return Err("expects the results to have types ", sig.results, " (the results of ", callee, "), got ", results);
  }
  return Status::Ok();
}

}  // namespace hlograph::ir::verify

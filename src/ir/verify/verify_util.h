// Building blocks shared by the op verifiers: message assembly, attribute
// readers, type and dimension-list checks, window arithmetic, region
// signatures and symbol lookup. Every check returns a Status whose message
// starts with a lower-case verb ("expects ...") and says what was expected
// and what was found.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "hlograph/status.h"
#include "ir/attribute.h"
#include "ir/elementwise_ops.h"
#include "ir/operation.h"
#include "ir/type.h"

namespace hlograph::ir::verify {

// ---------------------------------------------------------------------------
// Messages

std::string TypeStr(const Type& t);                    // tensor<2x3xf32>
std::string TypesStr(const std::vector<Type>& types);  // (tensor<f32>, !stablehlo.token)
std::string DimsStr(const std::vector<int64_t>& v);    // [1, 2]

namespace detail {
inline void Append(std::string& s, std::string_view v) { s += v; }
inline void Append(std::string& s, const char* v) { s += v; }
inline void Append(std::string& s, const std::string& v) { s += v; }
inline void Append(std::string& s, char c) { s += c; }
template <typename T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>) void Append(std::string& s,
                                                                                                    T v) {
  s += std::to_string(v);
}
inline void Append(std::string& s, const Type& t) { s += TypeStr(t); }
inline void Append(std::string& s, const std::vector<int64_t>& v) { s += DimsStr(v); }
inline void Append(std::string& s, const std::vector<Type>& v) { s += TypesStr(v); }
}  // namespace detail

// Concatenates strings, integers, types, dimension lists and type lists.
template <typename... Pieces>
std::string Str(const Pieces&... pieces) {
  std::string s;
  (detail::Append(s, pieces), ...);
  return s;
}

// An error whose message is the concatenation of `pieces`.
template <typename... Pieces>
Status Err(const Pieces&... pieces) {
  return Status::Error(Str(pieces...));
}

// ---------------------------------------------------------------------------
// Attributes

// The attribute `name` as T, or null when absent or of another kind.
template <typename T>
const T* AttrAs(const Operation& op, const std::string& name) {
  return op.attr(name).as<T>();
}

// Like AttrAs, but an absent attribute is an error (for declared, required
// attributes; the generic checks normally catch this first).
template <typename T>
Status RequireAttr(const Operation& op, const std::string& name, const T*& out) {
  out = AttrAs<T>(op, name);
  if (out == nullptr) return Err("requires the attribute '", name, "' of the declared kind");
  return Status::Ok();
}

// The values of an array<i64: ...> attribute; empty when absent.
std::vector<int64_t> I64ArrayAttr(const Operation& op, const std::string& name);
// The values of an array<i64: ...> attribute, or `fallback` when absent.
std::vector<int64_t> I64ArrayOr(const Operation& op, const std::string& name, std::vector<int64_t> fallback);
// The value of an integer attribute, if present.
std::optional<int64_t> IntAttr(const Operation& op, const std::string& name);
// A boolean attribute's value, or `fallback` when absent.
bool BoolAttrOr(const Operation& op, const std::string& name, bool fallback);
// The value of an enum attribute ("LT"), or "" when absent.
std::string EnumAttrValue(const Operation& op, const std::string& name);
// The number of entries of an array attribute (precision_config); 0 when absent.
size_t ArrayAttrSize(const Operation& op, const std::string& name);

// The integer contents of a dense elements attribute in row-major order,
// splats expanded. Null when the element type is not an integer (or bool),
// the storage size does not match the type, or the tensor is too large.
std::optional<std::vector<int64_t>> IntElements(const DenseElementsAttr& attr);

// A window attribute (strides, dilations, window sizes): `n` positive
// entries; absent means all 1. `n_desc` says where n comes from.
StatusOr<std::vector<int64_t>> WindowAttr(const Operation& op, const std::string& name, int64_t n,
                                          std::string_view n_desc);

// (low, high) padding per dimension.
using Padding = std::vector<std::pair<int64_t, int64_t>>;
// Reads an optional [n, 2] padding attribute; absent means n zero pairs.
StatusOr<Padding> PaddingAttr(const Operation& op, const std::string& name, int64_t n);

// ---------------------------------------------------------------------------
// Types

const Type& OperandType(const Operation& op, size_t i);
const Type& ResultType(const Operation& op, size_t i);
// tensor<E> for each tensor's element type E (the scalar types of a region).
std::vector<Type> ScalarTypesOf(const std::vector<Type>& tensors);
Type ScalarType(ElementType e);
// The rank-0 tensor of t's element type (quantization kept).
Type ScalarOf(const Type& t);

Status ExpectTensor(const Type& t, std::string_view what);
// Element types that may meet in one op: equal, or (quantized) the same
// storage and expressed types whatever the scales, or a quantized type and
// a float of its expressed type (hybrid ops).
bool CompatibleElements(const Type& a, const Type& b);
// Equal types, or tensors of one shape with compatible elements.
bool CompatibleTypes(const Type& a, const Type& b);
// Every type in `types` is a tensor; `what` names the list ("operand").
Status ExpectTensors(const std::vector<Type>& types, std::string_view what);
Status ExpectRank(const Type& t, int64_t rank, std::string_view what);
Status ExpectMinRank(const Type& t, int64_t min_rank, std::string_view what);
Status ExpectShape(const Type& t, const std::vector<int64_t>& shape, std::string_view what);
Status ExpectSameShape(const Type& a, std::string_view a_what, const Type& b, std::string_view b_what);
Status ExpectSameElement(const Type& a, std::string_view a_what, const Type& b, std::string_view b_what);
Status ExpectElement(const Type& t, ElementType e, std::string_view what);
// "expects <what> to have type <want>, got <got>".
Status ExpectType(const Type& got, const Type& want, std::string_view what);
// Same count and types, element by element.
Status ExpectTypes(const std::vector<Type>& got, const std::vector<Type>& want, std::string_view what);
// Every one of `types` equals the first.
Status ExpectAllSameType(const std::vector<Type>& types, std::string_view what);

// Element type classes (ElementClass in ir/elementwise_ops.h) in words:
// "integer, floating-point or complex".
std::string ClassDescription(uint8_t mask);
// A tensor whose element type is in `mask` (quantized tensors count as
// their expressed type).
Status ExpectElementClass(const Type& t, uint8_t mask, std::string_view what);

// ---------------------------------------------------------------------------
// Dimension lists

bool Contains(const std::vector<int64_t>& v, int64_t x);
bool IsUnique(const std::vector<int64_t>& v);
bool IsSorted(const std::vector<int64_t>& v);
// Whether v is a permutation of [0, size(v)).
bool IsPermutation(const std::vector<int64_t>& v);
std::vector<int64_t> Concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// `shape` without the entries at `dims` (which must be in range).
std::vector<int64_t> DropDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims);
// shape[dims[0]], shape[dims[1]], ... (dims must be in range).
std::vector<int64_t> PickDims(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims);
// The dims of [0, rank) not in `dims`, in ascending order.
std::vector<int64_t> OtherDims(int64_t rank, const std::vector<int64_t>& dims);

// "expects <what> to have <n> entries (<n_desc>), got <size>".
Status ExpectSize(const std::vector<int64_t>& v, int64_t n, std::string_view what, std::string_view n_desc);
// Every entry in [lo, hi).
Status ExpectInRange(const std::vector<int64_t>& v, int64_t lo, int64_t hi, std::string_view what);
// A single value in [lo, hi).
Status ExpectIndexInRange(int64_t x, int64_t lo, int64_t hi, std::string_view what);
Status ExpectUnique(const std::vector<int64_t>& v, std::string_view what);
Status ExpectSorted(const std::vector<int64_t>& v, std::string_view what);
Status ExpectAllPositive(const std::vector<int64_t>& v, std::string_view what);
Status ExpectAllNonNegative(const std::vector<int64_t>& v, std::string_view what);
// Unique and each in [0, rank).
Status ExpectDimList(const std::vector<int64_t>& v, int64_t rank, std::string_view what);

// ---------------------------------------------------------------------------
// Arithmetic on attribute values (which may be hostile)

std::optional<int64_t> CheckedAdd(int64_t a, int64_t b);
std::optional<int64_t> CheckedMul(int64_t a, int64_t b);

// One dimension of a windowed op (reduce_window, convolution,
// select_and_scatter): the window and how it sweeps the input.
struct WindowDim {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t pad_low = 0;
  int64_t pad_high = 0;
  int64_t base_dilation = 1;
  int64_t window_dilation = 1;
};
// The number of window positions along an input dimension of size `input`
// (the spec's num_windows); null on arithmetic overflow. Sizes, strides and
// dilations must already be known to be positive.
std::optional<int64_t> NumWindows(int64_t input, const WindowDim& w);
// The result shape of sweeping `windows` over `input_shape` (same sizes).
StatusOr<std::vector<int64_t>> WindowedShape(const std::vector<int64_t>& input_shape,
                                             const std::vector<WindowDim>& windows);

// ---------------------------------------------------------------------------
// Regions

std::vector<Type> BlockArgumentTypes(const Block& block);
// Checks that region `index` of `op` has an entry block taking `args` and
// that every block ends in `terminator` returning `results`. `what` names
// the region ("the body", "the comparator").
Status ExpectRegionSignature(const Operation& op, size_t index, const std::vector<Type>& args,
                             const std::vector<Type>& results, std::string_view what,
                             std::string_view terminator = "stablehlo.return");

// A reducer (reduce, reduce_window, scatter, all_reduce) over the scalar
// types `elements` (tensor<E0>, ..., tensor<EN-1>): takes them twice and
// returns them once.
Status ExpectReducerRegion(const Operation& op, size_t index, const std::vector<Type>& elements,
                           std::string_view what);

// ---------------------------------------------------------------------------
// Symbols

// `op`'s operand and result types equal `sig`'s inputs and results;
// `callee` names the function in messages ("@foo").
Status ExpectCallTypes(const Operation& op, const FunctionType& sig, std::string_view callee);

}  // namespace hlograph::ir::verify

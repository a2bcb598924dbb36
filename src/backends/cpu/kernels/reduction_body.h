// Shared machinery of the region-holding reduction kernels (reduce,
// reduce_window, select_and_scatter, sort, map): recognising bodies that are
// one binary op so they run as typed loops, and evaluating any other body on
// scalars, through a compiled scalar program when the body only uses simple
// elementwise ops, else through the interpreter.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel.h"
#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/operation.h"

namespace hlograph::cpu::reduction {

// One rank-0 value of any element type. Integers and bools live in `i`
// (signed types sign-extended, unsigned zero-extended, u64 as its bits);
// floats of every width live in `f`, holding their value exactly (f32 NaN
// payloads included); complex numbers in `f` (real) and `im`.
struct Scalar {
  int64_t i = 0;
  double f = 0;
  double im = 0;
};

// Reads element `index` of a dense buffer of one element type into a Scalar,
// and writes it back.
using LoadFn = void (*)(const uint8_t* base, int64_t index, Scalar& out);
using StoreFn = void (*)(uint8_t* base, int64_t index, const Scalar& value);
LoadFn LoaderFor(ir::ElementType t);
StoreFn StorerFor(ir::ElementType t);

// f32 <-> double keeping NaN payloads bit-exact (hardware conversion quiets
// signalling NaNs, which would reorder them under TOTALORDER).
inline double F32ToDouble(float x) {
  if (x == x) return x;
  uint32_t b;
  std::memcpy(&b, &x, 4);
  const uint64_t d = (uint64_t{b >> 31} << 63) | (uint64_t{0x7ff} << 52) | (uint64_t{b & 0x7fffffu} << 29);
  double r;
  std::memcpy(&r, &d, 8);
  return r;
}
inline float DoubleToF32(double x) {
  if (x == x) return static_cast<float>(x);
  uint64_t d;
  std::memcpy(&d, &x, 8);
  uint32_t b = (static_cast<uint32_t>(d >> 63) << 31) | 0x7f800000u | static_cast<uint32_t>((d >> 29) & 0x7fffffu);
  if ((b & 0x7fffffu) == 0) b |= 0x400000u;  // keep it a NaN
  float r;
  std::memcpy(&r, &b, 4);
  return r;
}

// Keys that order floats by IEEE totalOrder when compared as signed integers
// (-NaN < -inf < ... < -0 < +0 < ... < inf < +NaN).
inline int64_t TotalOrderKey(double x) {
  int64_t k;
  std::memcpy(&k, &x, 8);
  return k < 0 ? k ^ INT64_MAX : k;
}
inline int32_t TotalOrderKey(float x) {
  int32_t k;
  std::memcpy(&k, &x, 4);
  return k < 0 ? k ^ INT32_MAX : k;
}

// comparison_direction values, in this order.
enum class CmpDir : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
std::optional<CmpDir> CmpDirFromName(std::string_view name);

template <typename V>
inline bool CompareWith(CmpDir dir, V a, V b) {
  switch (dir) {
    case CmpDir::kEq: return a == b;
    case CmpDir::kNe: return a != b;
    case CmpDir::kLt: return a < b;
    case CmpDir::kLe: return a <= b;
    case CmpDir::kGt: return a > b;
    case CmpDir::kGe: return a >= b;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Bodies that are a single binary op.

enum class BinOp : uint8_t { kAdd, kMul, kMax, kMin, kAnd, kOr, kXor };

// IEEE 754-2019 maximum/minimum, as StableHLO's maximum/minimum on floats:
// NaN propagates and -0 < +0.
template <typename C>
inline C FloatMax(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a > b) return a;
  if (b > a) return b;
  return std::signbit(a) ? b : a;
}
template <typename C>
inline C FloatMin(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a < b) return a;
  if (b < a) return b;
  return std::signbit(a) ? a : b;
}

// `kOp` on two values of compute type C. Integers wrap (two's complement);
// bools treat add/max as or and multiply/min as and. Combinations that the
// matchers reject (bitwise ops on floats, max/min on complex) return `a`.
template <BinOp kOp, typename C>
inline C ApplyBinOp(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    if constexpr (kOp == BinOp::kAdd || kOp == BinOp::kMax || kOp == BinOp::kOr) return a || b;
    if constexpr (kOp == BinOp::kMul || kOp == BinOp::kMin || kOp == BinOp::kAnd) return a && b;
    if constexpr (kOp == BinOp::kXor) return a != b;
  } else if constexpr (std::is_integral_v<C>) {
    using U = uint64_t;
    if constexpr (kOp == BinOp::kAdd) return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
    if constexpr (kOp == BinOp::kMul) return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
    if constexpr (kOp == BinOp::kMax) return a > b ? a : b;
    if constexpr (kOp == BinOp::kMin) return a < b ? a : b;
    if constexpr (kOp == BinOp::kAnd) return static_cast<C>(a & b);
    if constexpr (kOp == BinOp::kOr) return static_cast<C>(a | b);
    if constexpr (kOp == BinOp::kXor) return static_cast<C>(a ^ b);
  } else if constexpr (std::is_floating_point_v<C>) {
    if constexpr (kOp == BinOp::kAdd) return a + b;
    if constexpr (kOp == BinOp::kMul) return a * b;
    if constexpr (kOp == BinOp::kMax) return FloatMax(a, b);
    if constexpr (kOp == BinOp::kMin) return FloatMin(a, b);
  } else if constexpr (kIsComplex<C>) {
    if constexpr (kOp == BinOp::kAdd) return C(a.real() + b.real(), a.imag() + b.imag());
    // The textbook product, without C99 Annex G's inf/NaN recovery.
    if constexpr (kOp == BinOp::kMul) {
      return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    }
  }
  return a;
}

// Whether ApplyBinOp<kOp> is meaningful on storage type T (the typed loops
// are only instantiated for these).
template <BinOp kOp, typename T>
inline constexpr bool kBinOpSuits = kOp == BinOp::kAdd || kOp == BinOp::kMul ||
                                    ((kOp == BinOp::kMax || kOp == BinOp::kMin) && !kIsComplex<T>) ||
                                    std::is_integral_v<T>;

// Calls fn(std::integral_constant<BinOp, op>{}).
template <typename Fn>
decltype(auto) DispatchBinOp(BinOp op, Fn&& fn) {
  switch (op) {
    case BinOp::kAdd: return fn(std::integral_constant<BinOp, BinOp::kAdd>{});
    case BinOp::kMul: return fn(std::integral_constant<BinOp, BinOp::kMul>{});
    case BinOp::kMax: return fn(std::integral_constant<BinOp, BinOp::kMax>{});
    case BinOp::kMin: return fn(std::integral_constant<BinOp, BinOp::kMin>{});
    case BinOp::kAnd: return fn(std::integral_constant<BinOp, BinOp::kAnd>{});
    case BinOp::kOr: return fn(std::integral_constant<BinOp, BinOp::kOr>{});
    case BinOp::kXor: return fn(std::integral_constant<BinOp, BinOp::kXor>{});
  }
  return fn(std::integral_constant<BinOp, BinOp::kAdd>{});
}

// When every result k of `region` (2N scalar arguments, N results) is
// `op_k(arg k, arg N+k)` (operands in either order; all these ops are
// commutative) and op_k suits the element type, the ops; else nullopt.
std::optional<std::vector<BinOp>> MatchReducer(const ir::Region& region);

// A region of two scalar arguments whose only op is a compare of them
// (either order), returned: the direction as seen with the arguments in
// order, and whether it compares by total order.
struct SimpleCompare {
  CmpDir dir;
  bool total_order;
};
std::optional<SimpleCompare> MatchSimpleCompare(const ir::Region& region);

// Integers narrower than their storage (i2, i4, ui2, ui4) wrap at their own
// width; the typed loops wrap in the storage type, so canonicalise after.
void WrapSubByteIntegers(Tensor& t);

// ---------------------------------------------------------------------------
// General bodies.

class ScalarProgram;

// Evaluates a region on scalar arguments. Regions made of constants,
// elementwise arithmetic, compare, select, convert and logic ops on rank-0
// values are compiled once into a scalar program; any other region runs
// through Interpreter::RunRegion (slow but complete).
class RegionEvaluator {
 public:
  RegionEvaluator(const ir::Region& region, Interpreter& interpreter);
  ~RegionEvaluator();
  RegionEvaluator(const RegionEvaluator&) = delete;
  RegionEvaluator& operator=(const RegionEvaluator&) = delete;

  size_t num_args() const { return num_args_; }
  size_t num_results() const { return num_results_; }
  // Argument slots, to be filled before Run().
  Scalar* args() { return slots_.data(); }
  Status Run() {
    if (program_) {
      Execute();
      return Status::Ok();
    }
    return RunInterpreted();
  }
  const Scalar& result(size_t i) const { return slots_[result_slots_[i]]; }
  // Whether the region runs as a compiled scalar program.
  bool compiled() const { return program_ != nullptr; }
  const ScalarProgram* program() const { return program_.get(); }

 private:
  void Execute();
  Status RunInterpreted();

  const ir::Region& region_;
  Interpreter& interpreter_;
  size_t num_args_ = 0;
  size_t num_results_ = 0;
  std::unique_ptr<ScalarProgram> program_;
  std::vector<Scalar> slots_;
  std::vector<size_t> result_slots_;
  // For the interpreter path.
  std::vector<ir::Type> arg_types_;
  std::vector<ir::ElementType> result_elements_;
};

// A compiled sort comparator prepared for many comparisons among the same
// elements: the steps that read only the left-hand arguments (or only the
// right-hand ones) run once per element, so that a comparison runs only the
// steps mixing both sides (for JAX's float comparator, the final compare).
class SortComparator {
 public:
  // Null when `evaluator` runs its region through the interpreter. The
  // comparator's 2N arguments are (lhs 0, rhs 0, lhs 1, rhs 1, ...).
  static std::unique_ptr<SortComparator> Make(const RegionEvaluator& evaluator);
  ~SortComparator();

  // Precomputes the per-element values; columns[k][e] is element e of
  // operand k, for every operand.
  void Prepare(const std::vector<std::vector<Scalar>>& columns);

  // Whether element a sorts before element b.
  bool Less(int64_t a, int64_t b) {
    const Scalar* l = left_.data() + static_cast<size_t>(a) * left_slots_.size();
    for (size_t i = 0; i < left_slots_.size(); ++i) slots_[left_slots_[i]] = l[i];
    const Scalar* r = right_.data() + static_cast<size_t>(b) * right_slots_.size();
    for (size_t i = 0; i < right_slots_.size(); ++i) slots_[right_slots_[i]] = r[i];
    RunMixed();
    return slots_[result_].i != 0;
  }

 private:
  SortComparator();
  void RunMixed();

  std::unique_ptr<ScalarProgram> lhs_, rhs_, mixed_;
  std::vector<Scalar> slots_;
  std::vector<size_t> left_slots_, right_slots_;  // per-side values the mixed steps read
  std::vector<Scalar> left_, right_;               // their values, per element
  size_t result_ = 0;
};

// The kernels of the family outside reduction.cpp.
Status ReduceWindowKernel(KernelContext& ctx);
Status SelectAndScatterKernel(KernelContext& ctx);
Status SortKernel(KernelContext& ctx);

}  // namespace hlograph::cpu::reduction

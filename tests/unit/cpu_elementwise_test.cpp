// The CPU interpreter's elementwise kernels, checked against values known
// independently of it: hand-computed integer results, IEEE-754 facts,
// mathematical constants and the StableHLO spec's own examples.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/tensor.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

using cpu::Tensor;
using E = ir::ElementType;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

constexpr double kPi = std::numbers::pi;
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A tensor of `e` with `shape`, its storage filled from `values` (which must
// use the storage type: int8_t for i4, uint16_t bits for f16, ...).
template <typename T>
Tensor Make(E e, std::vector<int64_t> shape, const std::vector<T>& values) {
  Tensor t(ir::Type::Tensor(e, std::move(shape)));
  EXPECT_EQ(static_cast<size_t>(t.num_elements()), values.size());
  EXPECT_EQ(t.byte_size(), values.size() * sizeof(T));
  if (t.byte_size() != values.size() * sizeof(T)) return t;
  if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < values.size(); ++i) t.mutable_bytes()[i] = values[i] ? 1 : 0;
  } else if (!values.empty()) {
    std::memcpy(t.mutable_bytes(), values.data(), t.byte_size());
  }
  return t;
}

template <typename T>
Tensor Vec(E e, const std::vector<T>& values) {
  return Make<T>(e, {static_cast<int64_t>(values.size())}, values);
}

template <typename T>
std::vector<T> Get(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.num_elements()));
  EXPECT_EQ(t.byte_size(), v.size() * sizeof(T));
  if (t.byte_size() != v.size() * sizeof(T)) return v;
  if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = t.bytes()[i] != 0;
  } else if (!v.empty()) {
    std::memcpy(v.data(), t.bytes(), t.byte_size());
  }
  return v;
}

// Runs `text` (a module whose entry takes `args`), failing the test on any
// parse, verify or run error.
std::vector<Tensor> RunText(const std::string& text, const std::vector<Tensor>& args) {
  auto modules = ParseOrDie(text);
  if (modules.empty()) return {};
  Status verified = ir::VerifyModule(*modules[0]);
  EXPECT_TRUE(verified.ok()) << verified.message() << "\n" << text;
  if (!verified.ok()) return {};
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  EXPECT_TRUE(results.ok()) << results.status().message() << "\n" << text;
  if (!results.ok()) return {};
  return *results;
}

// A module applying one op (generic form) to the arguments.
std::string OpProgram(const std::string& op, const std::vector<Tensor>& args, const std::string& result_type,
                      const std::string& attrs) {
  std::string params, operands, types;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string t = args[i].type().ToString();
    params += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " + t;
    operands += (i ? ", " : "") + std::string("%a") + std::to_string(i);
    types += (i ? ", " : "") + t;
  }
  return "func.func @main(" + params + ") -> " + result_type + " {\n  %r = \"" + op + "\"(" + operands + ") " +
         (attrs.empty() ? "" : "{" + attrs + "} ") + ": (" + types + ") -> " + result_type + "\n  return %r : " +
         result_type + "\n}\n";
}

// Runs `op` on `args`; the result type defaults to the first argument's.
Tensor RunOp(const std::string& op, const std::vector<Tensor>& args, std::string result_type = "",
             const std::string& attrs = "") {
  if (result_type.empty()) result_type = args[0].type().ToString();
  auto results = RunText(OpProgram(op, args, result_type, attrs), args);
  if (results.size() != 1) {
    ADD_FAILURE() << op << " produced " << results.size() << " results";
    return Tensor();
  }
  return results[0];
}

// The error message of running `op` (empty when it succeeds).
std::string RunOpError(const std::string& op, const std::vector<Tensor>& args, const std::string& result_type) {
  const std::string text = OpProgram(op, args, result_type, "");
  auto modules = ParseOrDie(text);
  if (modules.empty()) return "<parse error>";
  Status verified = ir::VerifyModule(*modules[0]);
  EXPECT_TRUE(verified.ok()) << verified.message();
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  return results.ok() ? std::string() : results.status().message();
}

// Equal as IEEE values, except that NaN matches NaN and zeros must agree in
// sign.
template <typename F>
::testing::AssertionResult SameFloat(F actual, F expected) {
  if (std::isnan(expected) ? std::isnan(actual)
                           : (actual == expected && std::signbit(actual) == std::signbit(expected))) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << actual << ", expected " << expected;
}

template <typename F>
void ExpectFloats(const std::vector<F>& actual, const std::vector<F>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_TRUE(SameFloat(actual[i], expected[i])) << "at " << i;
}

// Within `rel` relative error (absolute near zero); infinities and NaN exact.
template <typename F>
void ExpectNear(const std::vector<F>& actual, const std::vector<double>& expected, double rel) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    const double a = static_cast<double>(actual[i]), e = expected[i];
    if (std::isnan(e) || std::isinf(e) || e == 0) {
      EXPECT_TRUE(SameFloat(a, e)) << "at " << i;
    } else {
      EXPECT_NEAR(a, e, rel * std::fabs(e)) << "at " << i;
    }
  }
}

double Bits64ToDouble(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
float BitsToFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// ---------------------------------------------------------------------------
// Integer arithmetic.

TEST(CpuElementwise, AddWrapsAround) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  Tensor r = RunOp("stablehlo.add", {Vec<int32_t>(E::kI32, {max, -5, 1}), Vec<int32_t>(E::kI32, {1, 3, -1})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -2, 0}));
  r = RunOp("stablehlo.add", {Vec<uint8_t>(E::kU8, {255, 200}), Vec<uint8_t>(E::kU8, {1, 100})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0, 44}));
  // i4 wraps at 4 bits: 7 + 1 = -8, stored sign-extended.
  r = RunOp("stablehlo.add", {Vec<int8_t>(E::kI4, {7, -8, 3}), Vec<int8_t>(E::kI4, {1, -1, 2})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-8, 7, 5}));
  // ui4 wraps too and stays masked.
  r = RunOp("stablehlo.add", {Vec<uint8_t>(E::kU4, {15, 9}), Vec<uint8_t>(E::kU4, {1, 9})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0, 2}));
  // Bool addition is logical or.
  r = RunOp("stablehlo.add", {Vec<bool>(E::kI1, {false, false, true, true}), Vec<bool>(E::kI1, {false, true, false, true})});
  EXPECT_EQ(Get<bool>(r), (std::vector<bool>{false, true, true, true}));
}

TEST(CpuElementwise, SubtractAndMultiplyWrap) {
  Tensor r = RunOp("stablehlo.subtract", {Vec<int8_t>(E::kI8, {-128, 5}), Vec<int8_t>(E::kI8, {1, 7})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{127, -2}));
  r = RunOp("stablehlo.multiply", {Vec<int8_t>(E::kI8, {-128, 16, -3}), Vec<int8_t>(E::kI8, {-1, 16, 5})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-128, 0, -15}));
  // 65535^2 = 2^32 - 2^17 + 1 = 1 (mod 2^16): no int promotion overflow.
  r = RunOp("stablehlo.multiply", {Vec<uint16_t>(E::kU16, {65535, 300}), Vec<uint16_t>(E::kU16, {65535, 300})});
  EXPECT_EQ(Get<uint16_t>(r), (std::vector<uint16_t>{1, 24464}));
  r = RunOp("stablehlo.multiply", {Vec<int64_t>(E::kI64, {int64_t{1} << 62, -7}), Vec<int64_t>(E::kI64, {4, 6})});
  EXPECT_EQ(Get<int64_t>(r), (std::vector<int64_t>{0, -42}));
  r = RunOp("stablehlo.multiply", {Vec<bool>(E::kI1, {true, true, false}), Vec<bool>(E::kI1, {true, false, false})});
  EXPECT_EQ(Get<bool>(r), (std::vector<bool>{true, false, false}));
}

TEST(CpuElementwise, IntegerDivideByZeroAndOverflow) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  Tensor r = RunOp("stablehlo.divide",
                   {Vec<int32_t>(E::kI32, {7, -7, 7, 5, min, 0}), Vec<int32_t>(E::kI32, {2, 2, -2, 0, -1, 0})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{3, -3, -3, -1, min, -1}));
  const int64_t min64 = std::numeric_limits<int64_t>::min();
  r = RunOp("stablehlo.divide", {Vec<int64_t>(E::kI64, {min64, 9}), Vec<int64_t>(E::kI64, {-1, 0})});
  EXPECT_EQ(Get<int64_t>(r), (std::vector<int64_t>{min64, -1}));
  // Unsigned division by zero gives all ones.
  r = RunOp("stablehlo.divide", {Vec<uint32_t>(E::kU32, {5, 4000000000u}), Vec<uint32_t>(E::kU32, {0, 3})});
  EXPECT_EQ(Get<uint32_t>(r), (std::vector<uint32_t>{0xFFFFFFFFu, 1333333333u}));
  r = RunOp("stablehlo.divide", {Vec<uint8_t>(E::kU4, {9, 15}), Vec<uint8_t>(E::kU4, {0, 4})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{15, 3}));
  // i4: -8 / -1 wraps to -8.
  r = RunOp("stablehlo.divide", {Vec<int8_t>(E::kI4, {-8, 7}), Vec<int8_t>(E::kI4, {-1, 0})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-8, -1}));
}

TEST(CpuElementwise, IntegerRemainder) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  Tensor r = RunOp("stablehlo.remainder",
                   {Vec<int32_t>(E::kI32, {7, -7, 7, -7, 5, min}), Vec<int32_t>(E::kI32, {3, 3, -3, -3, 0, -1})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1, -1, 1, -1, 5, 0}));
  r = RunOp("stablehlo.remainder", {Vec<uint8_t>(E::kU8, {200, 200}), Vec<uint8_t>(E::kU8, {0, 7})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{200, 4}));
}

TEST(CpuElementwise, FloatRemainderIsFmod) {
  Tensor r = RunOp("stablehlo.remainder", {Vec<float>(E::kF32, {5.5f, -5.5f, 5.5f, 1.0f, kInff, 1.0f, -0.0f}),
                                           Vec<float>(E::kF32, {2.0f, 2.0f, -2.0f, 0.0f, 1.0f, kInff, 3.0f})});
  ExpectFloats(Get<float>(r), {1.5f, -1.5f, 1.5f, kNaNf, kNaNf, 1.0f, -0.0f});
}

TEST(CpuElementwise, IntegerPower) {
  Tensor r = RunOp("stablehlo.power", {Vec<int32_t>(E::kI32, {2, 3, -2, 2, 1, -1, -1, 0, 2, 5}),
                                       Vec<int32_t>(E::kI32, {10, 0, 3, -1, -5, -3, -2, 0, 31, -2})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1024, 1, -8, 0, 1, -1, 1, 1, std::numeric_limits<int32_t>::min(), 0}));
  // 3^5 = 243 wraps to -13 in i8.
  r = RunOp("stablehlo.power", {Vec<int8_t>(E::kI8, {3}), Vec<int8_t>(E::kI8, {5})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-13}));
  r = RunOp("stablehlo.power", {Vec<uint32_t>(E::kU32, {3, 7}), Vec<uint32_t>(E::kU32, {4, 2})});
  EXPECT_EQ(Get<uint32_t>(r), (std::vector<uint32_t>{81, 49}));
  // Unsigned exponents are never negative: 255^255 = (-1)^255 = 255 (mod 2^8).
  r = RunOp("stablehlo.power", {Vec<uint8_t>(E::kU8, {255, 3}), Vec<uint8_t>(E::kU8, {255, 4})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{255, 81}));
  // Like XLA:CPU, only the exponent's low six bits count: 3^64 = 3^0, 3^65 = 3.
  r = RunOp("stablehlo.power", {Vec<int32_t>(E::kI32, {3, 3}), Vec<int32_t>(E::kI32, {64, 65})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1, 3}));
}

TEST(CpuElementwise, FloatPowerSpecExample) {
  // The spec's example; its printed results (0.333333343, inf) are f32's.
  Tensor r = RunOp("stablehlo.power", {Vec<float>(E::kF32, {-2.0f, -0.0f, -36.0f, 5.0f, 3.0f, 10000.0f}),
                                       Vec<float>(E::kF32, {2.0f, 2.0f, 1.1f, 2.0f, -1.0f, 10.0f})});
  ExpectFloats(Get<float>(r), {4.0f, 0.0f, kNaNf, 25.0f, 0.333333343f, kInff});
  r = RunOp("stablehlo.power", {Vec<double>(E::kF64, {10000.0, 0.0, 2.0}), Vec<double>(E::kF64, {10.0, -1.0, 0.5})});
  ExpectFloats(Get<double>(r), {1e40, kInf, std::sqrt(2.0)});
}

// ---------------------------------------------------------------------------
// Maximum / minimum.

TEST(CpuElementwise, FloatMaxMinPropagateNaN) {
  Tensor a = Vec<float>(E::kF32, {1.0f, kNaNf, -0.0f, 0.0f, -kInff, 2.0f});
  Tensor b = Vec<float>(E::kF32, {kNaNf, 1.0f, 0.0f, -0.0f, 3.0f, -7.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.maximum", {a, b})), {kNaNf, kNaNf, 0.0f, 0.0f, 3.0f, 2.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.minimum", {a, b})), {kNaNf, kNaNf, -0.0f, -0.0f, -kInff, -7.0f});
}

TEST(CpuElementwise, IntegerBoolComplexMaxMin) {
  Tensor r = RunOp("stablehlo.maximum", {Vec<uint8_t>(E::kU8, {200, 3}), Vec<uint8_t>(E::kU8, {100, 4})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{200, 4}));
  r = RunOp("stablehlo.minimum", {Vec<int8_t>(E::kI8, {-100, 3}), Vec<int8_t>(E::kI8, {100, 4})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-100, 3}));
  // Spec example.
  r = RunOp("stablehlo.maximum", {Make<int32_t>(E::kI32, {2, 2}, {1, 2, 7, 8}), Make<int32_t>(E::kI32, {2, 2}, {5, 6, 3, 4})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{5, 6, 7, 8}));
  r = RunOp("stablehlo.maximum", {Vec<bool>(E::kI1, {false, true}), Vec<bool>(E::kI1, {false, false})});
  EXPECT_EQ(Get<bool>(r), (std::vector<bool>{false, true}));
  // Complex: lexicographic on (real, imag).
  Tensor ca = Vec<c64>(E::kC64, {{1, 5}, {1, 5}, {-1, 9}});
  Tensor cb = Vec<c64>(E::kC64, {{2, 0}, {1, 7}, {-2, 0}});
  EXPECT_EQ(Get<c64>(RunOp("stablehlo.maximum", {ca, cb})), (std::vector<c64>{{2, 0}, {1, 7}, {-1, 9}}));
  EXPECT_EQ(Get<c64>(RunOp("stablehlo.minimum", {ca, cb})), (std::vector<c64>{{1, 5}, {1, 5}, {-2, 0}}));
}

// ---------------------------------------------------------------------------
// Bitwise ops and shifts.

TEST(CpuElementwise, LogicalOps) {
  Tensor p = Vec<bool>(E::kI1, {false, false, true, true});
  Tensor q = Vec<bool>(E::kI1, {false, true, false, true});
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.and", {p, q})), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.or", {p, q})), (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.xor", {p, q})), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.not", {p})), (std::vector<bool>{true, true, false, false}));
  // Spec examples.
  Tensor a = Make<int32_t>(E::kI32, {2, 2}, {1, 2, 3, 4});
  Tensor b = Make<int32_t>(E::kI32, {2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.and", {a, b})), (std::vector<int32_t>{1, 2, 3, 0}));
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.or", {a, b})), (std::vector<int32_t>{5, 6, 7, 12}));
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.xor", {a, b})), (std::vector<int32_t>{4, 4, 4, 12}));
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.not", {a})), (std::vector<int32_t>{-2, -3, -4, -5}));
  // not on ui4 stays within 4 bits.
  EXPECT_EQ(Get<uint8_t>(RunOp("stablehlo.not", {Vec<uint8_t>(E::kU4, {0, 10})})), (std::vector<uint8_t>{15, 5}));
  EXPECT_EQ(Get<int8_t>(RunOp("stablehlo.not", {Vec<int8_t>(E::kI4, {0, -8})})), (std::vector<int8_t>{-1, 7}));
}

TEST(CpuElementwise, ShiftsSaturateAtBitWidth) {
  const int32_t min = std::numeric_limits<int32_t>::min();
  Tensor r = RunOp("stablehlo.shift_left",
                   {Vec<int32_t>(E::kI32, {1, 1, 1, 1, 3}), Vec<int32_t>(E::kI32, {31, 32, -1, 100, 2})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{min, 0, 0, 0, 12}));
  r = RunOp("stablehlo.shift_right_logical", {Vec<int32_t>(E::kI32, {-1, -1, -1, 16}), Vec<int32_t>(E::kI32, {28, 32, -3, 2})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{15, 0, 0, 4}));
  r = RunOp("stablehlo.shift_right_arithmetic",
            {Vec<int32_t>(E::kI32, {-8, -8, 8, min, 7}), Vec<int32_t>(E::kI32, {1, 40, 40, 31, -1})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{-4, -1, 0, -1, 0}));
  // Unsigned: the arithmetic shift copies the top bit.
  r = RunOp("stablehlo.shift_right_arithmetic", {Vec<uint8_t>(E::kU8, {0x80, 0x80, 0x40}), Vec<uint8_t>(E::kU8, {1, 8, 1})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0xC0, 0xFF, 0x20}));
  r = RunOp("stablehlo.shift_right_logical", {Vec<uint8_t>(E::kU8, {0x80, 0xFF}), Vec<uint8_t>(E::kU8, {7, 8})});
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{1, 0}));
  // i4: the width is 4 bits, not the storage byte.
  r = RunOp("stablehlo.shift_right_logical", {Vec<int8_t>(E::kI4, {-8, -1, -1}), Vec<int8_t>(E::kI4, {1, 3, 4})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{4, 1, 0}));
  r = RunOp("stablehlo.shift_left", {Vec<int8_t>(E::kI4, {1, 1, 3}), Vec<int8_t>(E::kI4, {3, 4, 2})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-8, 0, -4}));
  r = RunOp("stablehlo.shift_right_arithmetic", {Vec<int8_t>(E::kI4, {-8, -8, 4}), Vec<int8_t>(E::kI4, {2, 4, 7})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-2, -1, 0}));
  // 64-bit.
  r = RunOp("stablehlo.shift_left", {Vec<uint64_t>(E::kU64, {1, 1}), Vec<uint64_t>(E::kU64, {63, 64})});
  EXPECT_EQ(Get<uint64_t>(r), (std::vector<uint64_t>{uint64_t{1} << 63, 0}));
}

TEST(CpuElementwise, PopcntAndCountLeadingZeros) {
  Tensor r = RunOp("stablehlo.popcnt", {Vec<int32_t>(E::kI32, {-1, 0, 7, std::numeric_limits<int32_t>::min()})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{32, 0, 3, 1}));
  r = RunOp("stablehlo.count_leading_zeros", {Vec<int32_t>(E::kI32, {0, 1, -1, 0x00010000})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{32, 31, 0, 15}));
  r = RunOp("stablehlo.count_leading_zeros", {Vec<uint64_t>(E::kU64, {1, 0})});
  EXPECT_EQ(Get<uint64_t>(r), (std::vector<uint64_t>{63, 64}));
  r = RunOp("stablehlo.popcnt", {Vec<int8_t>(E::kI4, {-1, -8, 5})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{4, 1, 2}));
  r = RunOp("stablehlo.count_leading_zeros", {Vec<int8_t>(E::kI4, {0, 1, -1})});
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{4, 3, 0}));
}

TEST(CpuElementwise, MulHi) {
  Tensor r = RunOp("chlo.mulhi", {Vec<int32_t>(E::kI32, {0x40000000, -1, -1, 3}), Vec<int32_t>(E::kI32, {4, -1, 1, 5})});
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1, 0, -1, 0}));
  r = RunOp("chlo.mulhi", {Vec<uint32_t>(E::kU32, {0xFFFFFFFFu}), Vec<uint32_t>(E::kU32, {0xFFFFFFFFu})});
  EXPECT_EQ(Get<uint32_t>(r), (std::vector<uint32_t>{0xFFFFFFFEu}));
}

// ---------------------------------------------------------------------------
// compare

Tensor Compare(const std::string& dir, const Tensor& a, const Tensor& b, const std::string& type) {
  std::vector<int64_t> shape = a.shape();
  const std::string result = ir::Type::Tensor(E::kI1, shape).ToString();
  std::string attrs = "comparison_direction = #stablehlo<comparison_direction " + dir + ">";
  if (!type.empty()) attrs += ", compare_type = #stablehlo<comparison_type " + type + ">";
  return RunOp("stablehlo.compare", {a, b}, result, attrs);
}

TEST(CpuElementwise, CompareFloatIeee) {
  Tensor a = Vec<float>(E::kF32, {kNaNf, -0.0f, 1.0f, 1.0f, -kInff});
  Tensor b = Vec<float>(E::kF32, {kNaNf, 0.0f, 2.0f, kNaNf, 0.0f});
  EXPECT_EQ(Get<bool>(Compare("EQ", a, b, "FLOAT")), (std::vector<bool>{false, true, false, false, false}));
  EXPECT_EQ(Get<bool>(Compare("NE", a, b, "FLOAT")), (std::vector<bool>{true, false, true, true, true}));
  EXPECT_EQ(Get<bool>(Compare("LT", a, b, "FLOAT")), (std::vector<bool>{false, false, true, false, true}));
  EXPECT_EQ(Get<bool>(Compare("LE", a, b, "")), (std::vector<bool>{false, true, true, false, true}));
  EXPECT_EQ(Get<bool>(Compare("GT", a, b, "FLOAT")), (std::vector<bool>{false, false, false, false, false}));
  EXPECT_EQ(Get<bool>(Compare("GE", a, b, "FLOAT")), (std::vector<bool>{false, true, false, false, false}));
  // Spec example.
  EXPECT_EQ(Get<bool>(Compare("LT", Vec<float>(E::kF32, {1.0f, 3.0f}), Vec<float>(E::kF32, {1.1f, 2.9f}), "FLOAT")),
            (std::vector<bool>{true, false}));
}

TEST(CpuElementwise, CompareTotalOrder) {
  const float neg_nan = BitsToFloat(0xFFC00000u);
  // Ascending in the total order.
  const std::vector<float> order = {neg_nan, -kInff, -1.0f, -0.0f, 0.0f, 1e-45f, 1.0f, kInff, kNaNf};
  std::vector<float> lo(order.begin(), order.end() - 1), hi(order.begin() + 1, order.end());
  Tensor a = Vec<float>(E::kF32, lo), b = Vec<float>(E::kF32, hi);
  EXPECT_EQ(Get<bool>(Compare("LT", a, b, "TOTALORDER")), std::vector<bool>(lo.size(), true));
  EXPECT_EQ(Get<bool>(Compare("GT", a, b, "TOTALORDER")), std::vector<bool>(lo.size(), false));
  EXPECT_EQ(Get<bool>(Compare("GE", b, a, "TOTALORDER")), std::vector<bool>(lo.size(), true));
  // Equality is of the bits: -0 != +0, NaN == the same NaN.
  Tensor x = Vec<float>(E::kF32, {-0.0f, kNaNf, 1.0f});
  Tensor y = Vec<float>(E::kF32, {0.0f, kNaNf, 1.0f});
  EXPECT_EQ(Get<bool>(Compare("EQ", x, y, "TOTALORDER")), (std::vector<bool>{false, true, true}));
  EXPECT_EQ(Get<bool>(Compare("NE", x, y, "TOTALORDER")), (std::vector<bool>{true, false, false}));
  // Narrow floats use their own sign bit: f16 -0 (0x8000) < +0 (0x0000) < NaN.
  Tensor h = Vec<uint16_t>(E::kF16, {0x8000, 0x0000, 0xFC00});
  Tensor k = Vec<uint16_t>(E::kF16, {0x0000, 0x7E00, 0x8000});
  EXPECT_EQ(Get<bool>(Compare("LT", h, k, "TOTALORDER")), (std::vector<bool>{true, true, true}));
  // f8E4M3FNUZ: the only NaN is the "-0" pattern 0x80, ordered below -max
  // (0xFF); then -min (0x81) < +0 < +max (0x7F).
  Tensor u = Vec<uint8_t>(E::kF8E4M3FNUZ, {0x80, 0xFF, 0x81, 0x00});
  Tensor v = Vec<uint8_t>(E::kF8E4M3FNUZ, {0xFF, 0x81, 0x00, 0x7F});
  EXPECT_EQ(Get<bool>(Compare("LT", u, v, "TOTALORDER")), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(Get<bool>(Compare("GT", u, v, "TOTALORDER")), (std::vector<bool>{false, false, false, false}));
}

TEST(CpuElementwise, CompareIntegersBoolsComplex) {
  EXPECT_EQ(Get<bool>(Compare("LT", Vec<int32_t>(E::kI32, {-1, 5}), Vec<int32_t>(E::kI32, {1, 5}), "SIGNED")),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(Get<bool>(Compare("LT", Vec<uint32_t>(E::kU32, {0xFFFFFFFFu, 0}), Vec<uint32_t>(E::kU32, {1, 1}), "UNSIGNED")),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(Get<bool>(Compare("GE", Vec<int8_t>(E::kI4, {-8, 7}), Vec<int8_t>(E::kI4, {7, -8}), "SIGNED")),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(Get<bool>(Compare("LT", Vec<bool>(E::kI1, {false, true, false}), Vec<bool>(E::kI1, {true, false, false}), "UNSIGNED")),
            (std::vector<bool>{true, false, false}));
  Tensor a = Vec<c64>(E::kC64, {{1, 2}, {1, 2}, {1, 2}, {kNaNf, 0}});
  Tensor b = Vec<c64>(E::kC64, {{1, 2}, {1, 3}, {0, 9}, {kNaNf, 0}});
  EXPECT_EQ(Get<bool>(Compare("EQ", a, b, "FLOAT")), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(Get<bool>(Compare("NE", a, b, "FLOAT")), (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(Get<bool>(Compare("LT", a, b, "FLOAT")), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(Get<bool>(Compare("GE", a, b, "FLOAT")), (std::vector<bool>{true, false, true, false}));
}

// ---------------------------------------------------------------------------
// select / clamp

TEST(CpuElementwise, Select) {
  Tensor on_true = Make<int32_t>(E::kI32, {2, 2}, {1, 2, 3, 4});
  Tensor on_false = Make<int32_t>(E::kI32, {2, 2}, {5, 6, 7, 8});
  Tensor pred = Make<bool>(E::kI1, {2, 2}, {true, false, false, true});
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.select", {pred, on_true, on_false}, "tensor<2x2xi32>")),
            (std::vector<int32_t>{1, 6, 7, 4}));
  Tensor scalar = Make<bool>(E::kI1, {}, {false});
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.select", {scalar, on_true, on_false}, "tensor<2x2xi32>")),
            (std::vector<int32_t>{5, 6, 7, 8}));
  Tensor ct = Vec<c128>(E::kC128, {{1, 2}, {3, 4}});
  Tensor cf = Vec<c128>(E::kC128, {{5, 6}, {7, 8}});
  EXPECT_EQ(Get<c128>(RunOp("stablehlo.select", {Vec<bool>(E::kI1, {false, true}), ct, cf}, "tensor<2xcomplex<f64>>")),
            (std::vector<c128>{{5, 6}, {3, 4}}));
}

TEST(CpuElementwise, Clamp) {
  // Spec example.
  Tensor r = RunOp("stablehlo.clamp", {Vec<int32_t>(E::kI32, {5, 10, 15}), Vec<int32_t>(E::kI32, {3, 13, 23}),
                                       Vec<int32_t>(E::kI32, {10, 15, 20})},
                   "tensor<3xi32>");
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{5, 13, 20}));
  // Scalar bounds; NaN propagates.
  r = RunOp("stablehlo.clamp", {Make<float>(E::kF32, {}, {-1.0f}), Vec<float>(E::kF32, {-5.0f, 0.5f, 9.0f, kNaNf}),
                                Make<float>(E::kF32, {}, {1.0f})},
            "tensor<4xf32>");
  ExpectFloats(Get<float>(r), {-1.0f, 0.5f, 1.0f, kNaNf});
  r = RunOp("stablehlo.clamp", {Make<uint8_t>(E::kU8, {}, {10}), Vec<uint8_t>(E::kU8, {0, 200, 50}),
                                Make<uint8_t>(E::kU8, {}, {100})},
            "tensor<3xui8>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{10, 100, 50}));
}

// ---------------------------------------------------------------------------
// convert

TEST(CpuElementwise, ConvertFloatToIntTruncatesAndSaturates) {
  const int32_t max = std::numeric_limits<int32_t>::max(), min = std::numeric_limits<int32_t>::min();
  Tensor r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {1.9f, -1.9f, kNaNf, 3e9f, -3e9f, kInff, -kInff, -0.5f})},
                   "tensor<8xi32>");
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1, -1, 0, max, min, max, min, 0}));
  r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {-1.0f, 300.0f, 255.9f, kNaNf, 1.5f, -kInff})}, "tensor<6xui8>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0, 255, 255, 0, 1, 0}));
  // The largest double below 2^63 converts exactly; beyond saturates.
  r = RunOp("stablehlo.convert", {Vec<double>(E::kF64, {9223372036854774784.0, 1e19, -1e19, -9223372036854775808.0})},
            "tensor<4xi64>");
  EXPECT_EQ(Get<int64_t>(r), (std::vector<int64_t>{9223372036854774784, std::numeric_limits<int64_t>::max(),
                                                    std::numeric_limits<int64_t>::min(),
                                                    std::numeric_limits<int64_t>::min()}));
  r = RunOp("stablehlo.convert", {Vec<double>(E::kF64, {1.8446744073709552e19, 1.8446744073709550e19})}, "tensor<2xui64>");
  EXPECT_EQ(Get<uint64_t>(r), (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 18446744073709549568u}));
  // Sub-byte saturation: i4 holds [-8, 7].
  r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {100.0f, -100.0f, 7.9f, -8.5f})}, "tensor<4xi4>");
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{7, -8, 7, -8}));
  // f16 source.
  r = RunOp("stablehlo.convert", {Vec<uint16_t>(E::kF16, {0x7C00, 0x7E00, 0xC100})}, "tensor<3xi8>");
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{127, 0, -2}));
}

TEST(CpuElementwise, ConvertIntegersWrapAndBools) {
  Tensor r = RunOp("stablehlo.convert", {Vec<int32_t>(E::kI32, {257, -1, 128})}, "tensor<3xui8>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{1, 255, 128}));
  r = RunOp("stablehlo.convert", {Vec<uint8_t>(E::kU8, {200, 127})}, "tensor<2xi8>");
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-56, 127}));
  r = RunOp("stablehlo.convert", {Vec<int32_t>(E::kI32, {300, 7, 8})}, "tensor<3xi4>");
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{-4, 7, -8}));
  r = RunOp("stablehlo.convert", {Vec<int8_t>(E::kI4, {-1})}, "tensor<1xui32>");
  EXPECT_EQ(Get<uint32_t>(r), (std::vector<uint32_t>{0xFFFFFFFFu}));
  r = RunOp("stablehlo.convert", {Vec<int32_t>(E::kI32, {0, 2, -1})}, "tensor<3xi1>");
  EXPECT_EQ(Get<bool>(r), (std::vector<bool>{false, true, true}));
  r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {0.0f, -0.0f, kNaNf, 0.5f})}, "tensor<4xi1>");
  EXPECT_EQ(Get<bool>(r), (std::vector<bool>{false, false, true, true}));
  r = RunOp("stablehlo.convert", {Vec<bool>(E::kI1, {true, false})}, "tensor<2xf32>");
  ExpectFloats(Get<float>(r), {1.0f, 0.0f});
  r = RunOp("stablehlo.convert", {Vec<bool>(E::kI1, {true, false})}, "tensor<2xi32>");
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{1, 0}));
  r = RunOp("stablehlo.convert", {Vec<uint64_t>(E::kU64, {0x1234567890ABCDEFull})}, "tensor<1xui32>");
  EXPECT_EQ(Get<uint32_t>(r), (std::vector<uint32_t>{0x90ABCDEFu}));
}

TEST(CpuElementwise, ConvertRoundsToNearestEven) {
  // f32 -> f16: ties go to the even mantissa; 65520 is the first value that
  // rounds to infinity; 2^-25 is the tie between 0 and the smallest denormal.
  const float one_half_ulp = 1.0f + std::ldexp(1.0f, -11);
  const float three_half_ulps = 1.0f + 3 * std::ldexp(1.0f, -11);
  Tensor r = RunOp("stablehlo.convert",
                   {Vec<float>(E::kF32, {one_half_ulp, three_half_ulps, 65504.0f, 65519.0f, 65520.0f,
                                         std::ldexp(1.0f, -25), 3 * std::ldexp(1.0f, -26), -0.0f, kNaNf})},
                   "tensor<9xf16>");
  std::vector<uint16_t> h = Get<uint16_t>(r);
  EXPECT_EQ(std::vector<uint16_t>(h.begin(), h.end() - 1),
            (std::vector<uint16_t>{0x3C00, 0x3C02, 0x7BFF, 0x7BFF, 0x7C00, 0x0000, 0x0001, 0x8000}));
  EXPECT_EQ(h.back() & 0x7C00, 0x7C00);
  EXPECT_NE(h.back() & 0x03FF, 0);
  // f32 -> bf16.
  r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {1.0f + std::ldexp(1.0f, -8), 1.0f + 3 * std::ldexp(1.0f, -8),
                                                       3.0e38f, 1.0f})},
            "tensor<4xbf16>");
  EXPECT_EQ(Get<uint16_t>(r), (std::vector<uint16_t>{0x3F80, 0x3F82, 0x7F62, 0x3F80}));
  // f64 -> f32 and integers -> f32 round to nearest even.
  r = RunOp("stablehlo.convert", {Vec<double>(E::kF64, {1.0 + std::ldexp(1.0, -24), 1.0 + 3 * std::ldexp(1.0, -24), 1e40})},
            "tensor<3xf32>");
  ExpectFloats(Get<float>(r), {1.0f, 1.0f + std::ldexp(1.0f, -22), kInff});
  r = RunOp("stablehlo.convert", {Vec<int64_t>(E::kI64, {16777217, 16777219, std::numeric_limits<int64_t>::max()})},
            "tensor<3xf32>");
  ExpectFloats(Get<float>(r), {16777216.0f, 16777220.0f, 9223372036854775808.0f});
  // Integers -> f16: 2049 is a tie (even: 2048), 2051 rounds to 2052.
  r = RunOp("stablehlo.convert", {Vec<int32_t>(E::kI32, {2049, 2051, 100000, -3})}, "tensor<4xf16>");
  EXPECT_EQ(Get<uint16_t>(r), (std::vector<uint16_t>{0x6800, 0x6802, 0x7C00, 0xC200}));
  // f16 -> f32 is exact.
  r = RunOp("stablehlo.convert", {Vec<uint16_t>(E::kF16, {0x0001, 0x7BFF, 0xFC00})}, "tensor<3xf32>");
  ExpectFloats(Get<float>(r), {std::ldexp(1.0f, -24), 65504.0f, -kInff});
}

TEST(CpuElementwise, ConvertComplex) {
  Tensor r = RunOp("stablehlo.convert", {Vec<int64_t>(E::kI64, {-1, 0, 1})}, "tensor<3xcomplex<f64>>");
  EXPECT_EQ(Get<c128>(r), (std::vector<c128>{{-1, 0}, {0, 0}, {1, 0}}));  // spec example
  r = RunOp("stablehlo.convert", {Vec<c64>(E::kC64, {{1.5f, 2.0f}, {-3.0f, 4.0f}})}, "tensor<2xf32>");
  ExpectFloats(Get<float>(r), {1.5f, -3.0f});
  r = RunOp("stablehlo.convert", {Vec<c128>(E::kC128, {{1.0 + std::ldexp(1.0, -30), -2.0}})}, "tensor<1xcomplex<f32>>");
  EXPECT_EQ(Get<c64>(r), (std::vector<c64>{{1.0f, -2.0f}}));
  r = RunOp("stablehlo.convert", {Vec<float>(E::kF32, {2.5f})}, "tensor<1xcomplex<f32>>");
  EXPECT_EQ(Get<c64>(r), (std::vector<c64>{{2.5f, 0.0f}}));
  r = RunOp("stablehlo.convert", {Vec<c64>(E::kC64, {{-2.7f, 9.0f}})}, "tensor<1xi32>");
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{-2}));
}

// ---------------------------------------------------------------------------
// bitcast_convert

TEST(CpuElementwise, BitcastConvert) {
  Tensor r = RunOp("stablehlo.bitcast_convert", {Vec<float>(E::kF32, {1.0f, -2.0f})}, "tensor<2xi32>");
  EXPECT_EQ(Get<int32_t>(r), (std::vector<int32_t>{0x3F800000, static_cast<int32_t>(0xC0000000u)}));
  // Narrower result: a trailing dimension, little-endian.
  r = RunOp("stablehlo.bitcast_convert", {Vec<float>(E::kF32, {1.0f})}, "tensor<1x4xui8>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F}));
  r = RunOp("stablehlo.bitcast_convert", {Make<uint32_t>(E::kU32, {1, 2}, {0x89ABCDEFu, 0x01234567u})}, "tensor<1xui64>");
  EXPECT_EQ(Get<uint64_t>(r), (std::vector<uint64_t>{0x0123456789ABCDEFull}));
  // Spec example: f64 0x0123456789ABCDEF -> 4 x f16.
  r = RunOp("stablehlo.bitcast_convert", {Make<double>(E::kF64, {}, {Bits64ToDouble(0x0123456789ABCDEFull)})},
            "tensor<4xf16>");
  EXPECT_EQ(Get<uint16_t>(r), (std::vector<uint16_t>{0xCDEF, 0x89AB, 0x4567, 0x0123}));
  // Sub-byte: i8 0xF1 is the i4 pair (low nibble first) 1, -1.
  r = RunOp("stablehlo.bitcast_convert", {Vec<int8_t>(E::kI8, {-15})}, "tensor<1x2xi4>");
  EXPECT_EQ(Get<int8_t>(r), (std::vector<int8_t>{1, -1}));
  r = RunOp("stablehlo.bitcast_convert", {Make<int8_t>(E::kI4, {1, 2}, {1, -1})}, "tensor<1xui8>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{0xF1}));
  r = RunOp("stablehlo.bitcast_convert", {Vec<int8_t>(E::kI4, {-8, 7})}, "tensor<2xui4>");
  EXPECT_EQ(Get<uint8_t>(r), (std::vector<uint8_t>{8, 7}));
  r = RunOp("stablehlo.bitcast_convert", {Make<c64>(E::kC64, {}, {{1.0f, 2.0f}})}, "tensor<complex<f32>>");
  EXPECT_EQ(Get<c64>(r), (std::vector<c64>{{1.0f, 2.0f}}));
}

// ---------------------------------------------------------------------------
// reduce_precision

Tensor ReducePrecision(const Tensor& t, int e, int m) {
  return RunOp("stablehlo.reduce_precision", {t}, "",
               "exponent_bits = " + std::to_string(e) + " : i32, mantissa_bits = " + std::to_string(m) + " : i32");
}

TEST(CpuElementwise, ReducePrecisionSpecExample) {
  Tensor t = Vec<double>(E::kF64, {kInf, kNaN, Bits64ToDouble(1), 0.0, 65519.0, 65520.0});
  ExpectFloats(Get<double>(ReducePrecision(t, 5, 10)), {kInf, kNaN, 0.0, 0.0, 65504.0, kInf});
}

TEST(CpuElementwise, ReducePrecisionMatchesF16Rounding) {
  // e5m10 is f16: round to nearest even, overflow to inf, keep signs; f16's
  // own denormal range (below 2^-14) flushes to zero.
  const float tie_down = 1.0f + std::ldexp(1.0f, -11), tie_up = 1.0f + 3 * std::ldexp(1.0f, -11);
  Tensor t = Vec<float>(E::kF32, {tie_down, tie_up, -tie_up, 65519.0f, 70000.0f, -70000.0f, 1e-5f, -1e-5f,
                                  std::ldexp(1.0f, -14), 3.0f, kNaNf, -kInff});
  ExpectFloats(Get<float>(ReducePrecision(t, 5, 10)),
               {1.0f, 1.0f + std::ldexp(1.0f, -9), -(1.0f + std::ldexp(1.0f, -9)), 65504.0f, kInff, -kInff, 0.0f,
                -0.0f, std::ldexp(1.0f, -14), 3.0f, kNaNf, -kInff});
  // e8m7 is bf16.
  ExpectFloats(Get<float>(ReducePrecision(Vec<float>(E::kF32, {1.0f + std::ldexp(1.0f, -8), 1.0f + 3 * std::ldexp(1.0f, -8)}), 8, 7)),
               {1.0f, 1.0f + std::ldexp(1.0f, -6)});
  // No mantissa bits: ties go to the even bit pattern, which is now the one
  // with an even exponent field: 1.5 -> 2 (2^1), 3 -> 2 (not 4 = 2^2), 6 -> 8.
  // NaN stays NaN.
  ExpectFloats(Get<float>(ReducePrecision(Vec<float>(E::kF32, {1.5f, 1.25f, 3.0f, 6.0f, kNaNf}), 8, 0)),
               {2.0f, 1.0f, 2.0f, 8.0f, kNaNf});
  ExpectFloats(Get<double>(ReducePrecision(Vec<double>(E::kF64, {kNaN, -kNaN}), 1, 0)), {kNaN, kNaN});
  // An f16 operand rounded to e5m2 (f8E5M2's precision) on its own bits.
  Tensor h = Vec<uint16_t>(E::kF16, {0x3C80 /*1.125*/, 0x3D80 /*1.375*/, 0x7BFF /*65504*/});
  EXPECT_EQ(Get<uint16_t>(ReducePrecision(h, 5, 2)), (std::vector<uint16_t>{0x3C00, 0x3E00, 0x7C00}));
  // f8 operands are widened as XLA does and rounded on the wider type's
  // bits (expected values from jax.lax.reduce_precision on XLA:CPU).
  // f8E5M2 goes to f16: 2^-16 (f16 0x0100) and 2^-15 (0x0200) keep their
  // f16 denormal grid, so one mantissa bit drops 2^-16 (a tie, to even).
  Tensor f8 = Vec<uint8_t>(E::kF8E5M2, {0x01 /*2^-16*/, 0x02 /*2^-15*/, 0x3C /*1.0*/});
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(f8, 8, 2)), (std::vector<uint8_t>{0x01, 0x02, 0x3C}));
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(f8, 5, 1)), (std::vector<uint8_t>{0x00, 0x02, 0x3C}));
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(f8, 4, 2)), (std::vector<uint8_t>{0x00, 0x00, 0x3C}));
  // f8E4M3FN goes to f16 too; a 4-bit exponent there flushes everything at
  // or below 2^-7, and 448 (0x7E) overflows to inf, which is NaN in e4m3fn.
  Tensor e4 = Vec<uint8_t>(E::kF8E4M3FN, {0x01, 0x04 /*2^-7*/, 0x08 /*2^-6*/, 0x3C /*1.5*/, 0x7E /*448*/});
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(e4, 4, 3)), (std::vector<uint8_t>{0x00, 0x00, 0x08, 0x3C, 0x7F}));
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(e4, 8, 0)), (std::vector<uint8_t>{0x01, 0x04, 0x08, 0x40, 0x7F}));
  EXPECT_EQ(Get<uint8_t>(ReducePrecision(e4, 8, 3)), (std::vector<uint8_t>{0x01, 0x04, 0x08, 0x3C, 0x7E}));
  // Attributes wider than the type change nothing.
  ExpectFloats(Get<float>(ReducePrecision(Vec<float>(E::kF32, {0.1f, 1e-45f}), 30, 60)), {0.1f, 1e-45f});
}

// ---------------------------------------------------------------------------
// Float math.

TEST(CpuElementwise, RoundingOps) {
  Tensor t = Vec<float>(E::kF32, {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, -0.2f, 0.2f});
  ExpectFloats(Get<float>(RunOp("stablehlo.round_nearest_afz", {t})), {-3, -2, -1, 1, 2, 3, -0.0f, 0.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.round_nearest_even", {t})), {-2, -2, -0.0f, 0.0f, 2, 2, -0.0f, 0.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.floor", {t})), {-3, -2, -1, 0, 1, 2, -1, 0});
  ExpectFloats(Get<float>(RunOp("stablehlo.ceil", {t})), {-2, -1, -0.0f, 1, 2, 3, -0.0f, 1});
  // Spec example.
  ExpectFloats(Get<float>(RunOp("stablehlo.ceil", {Vec<float>(E::kF32, {-0.8166f, -0.2530f, 0.2530f, 0.8166f, 2.0f})})),
               {-0.0f, -0.0f, 1.0f, 1.0f, 2.0f});
}

TEST(CpuElementwise, SignAbsNegate) {
  ExpectFloats(Get<float>(RunOp("stablehlo.sign", {Vec<float>(E::kF32, {kNaNf, -0.0f, 0.0f, -5.0f, 3.0f, -kInff})})),
               {kNaNf, -0.0f, 0.0f, -1.0f, 1.0f, -1.0f});
  const int32_t min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.sign", {Vec<int32_t>(E::kI32, {-5, 0, 7, min})})),
            (std::vector<int32_t>{-1, 0, 1, -1}));
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.abs", {Vec<int32_t>(E::kI32, {-5, 0, 7, min})})),
            (std::vector<int32_t>{5, 0, 7, min}));
  EXPECT_EQ(Get<int8_t>(RunOp("stablehlo.abs", {Vec<int8_t>(E::kI4, {-8, -3})})), (std::vector<int8_t>{-8, 3}));
  ExpectFloats(Get<float>(RunOp("stablehlo.abs", {Vec<float>(E::kF32, {-0.0f, -kInff, kNaNf, -2.5f})})),
               {0.0f, kInff, kNaNf, 2.5f});
  ExpectFloats(Get<float>(RunOp("stablehlo.abs", {Vec<c64>(E::kC64, {{3, 4}, {-5, 12}, {0, 0}})}, "tensor<3xf32>")),
               {5.0f, 13.0f, 0.0f});
  EXPECT_EQ(Get<uint8_t>(RunOp("stablehlo.negate", {Vec<uint8_t>(E::kU8, {1, 0, 128})})), (std::vector<uint8_t>{255, 0, 128}));
  EXPECT_EQ(Get<int32_t>(RunOp("stablehlo.negate", {Vec<int32_t>(E::kI32, {min, 0, -2})})), (std::vector<int32_t>{min, 0, 2}));
  ExpectFloats(Get<float>(RunOp("stablehlo.negate", {Vec<float>(E::kF32, {0.0f, -kInff})})), {-0.0f, kInff});
  EXPECT_EQ(Get<c64>(RunOp("stablehlo.negate", {Vec<c64>(E::kC64, {{2.5f, 0.0f}})})), (std::vector<c64>{{-2.5f, -0.0f}}));
  std::vector<c64> s = Get<c64>(RunOp("stablehlo.sign", {Vec<c64>(E::kC64, {{3, 4}, {0, 0}})}));
  EXPECT_FLOAT_EQ(s[0].real(), 0.6f);
  EXPECT_FLOAT_EQ(s[0].imag(), 0.8f);
  EXPECT_EQ(s[1], c64(0, 0));
}

TEST(CpuElementwise, TranscendentalF64) {
  const double e = std::numbers::e;
  ExpectNear(Get<double>(RunOp("stablehlo.exponential", {Vec<double>(E::kF64, {0.0, 1.0, -kInf, 710.0})})),
             {1.0, e, 0.0, kInf}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.log", {Vec<double>(E::kF64, {1.0, e, 0.0, -1.0})})), {0.0, 1.0, -kInf, kNaN},
             1e-15);
  ExpectFloats(Get<double>(RunOp("stablehlo.sqrt", {Vec<double>(E::kF64, {4.0, -0.0, -1.0, kInf})})),
               {2.0, -0.0, kNaN, kInf});
  ExpectFloats(Get<double>(RunOp("stablehlo.rsqrt", {Vec<double>(E::kF64, {4.0, 0.0, kInf})})), {0.5, kInf, 0.0});
  ExpectFloats(Get<double>(RunOp("stablehlo.cbrt", {Vec<double>(E::kF64, {0.0, 1.0, 8.0, 27.0, -27.0})})),
               {0.0, 1.0, 2.0, 3.0, -3.0});  // spec example, plus a negative
  ExpectNear(Get<double>(RunOp("stablehlo.sine", {Vec<double>(E::kF64, {0.0, kPi / 2, kPi / 6})})), {0.0, 1.0, 0.5},
             1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.cosine", {Vec<double>(E::kF64, {0.0, kPi / 3})})), {1.0, 0.5}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.tan", {Vec<double>(E::kF64, {kPi / 4})})), {1.0}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.tanh", {Vec<double>(E::kF64, {0.0, kInf, -kInf, 0.5})})),
             {0.0, 1.0, -1.0, 0.46211715726000974}, 1e-15);
  // Near zero, expm1 and log1p keep full precision (x + x^2/2 ...).
  ExpectNear(Get<double>(RunOp("stablehlo.exponential_minus_one", {Vec<double>(E::kF64, {1e-10, -kInf, 1.0})})),
             {1.00000000005e-10, -1.0, e - 1}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.log_plus_one", {Vec<double>(E::kF64, {1e-10, -1.0, e - 1})})),
             {9.9999999995e-11, -kInf, 1.0}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.logistic", {Vec<double>(E::kF64, {0.0, -kInf, kInf, -800.0, 2.0})})),
             {0.5, 0.0, 1.0, 0.0, 1.0 / (1.0 + std::exp(-2.0))}, 1e-15);
  ExpectNear(Get<double>(RunOp("stablehlo.atan2", {Vec<double>(E::kF64, {0.0, 1.0, -1.0, -0.0}),
                                                   Vec<double>(E::kF64, {0.0, 0.0, 0.0, -1.0})})),
             {0.0, kPi / 2, -kPi / 2, -kPi}, 1e-15);  // spec example, plus -0 / -1
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.is_finite", {Vec<double>(E::kF64, {1.0, kInf, -kInf, kNaN, -0.0})}, "tensor<5xi1>")),
            (std::vector<bool>{true, false, false, false, true}));
}

TEST(CpuElementwise, NarrowFloatArithmeticRoundsOnce) {
  // f16: 1 + 2^-11 is a tie (to 1.0); 1 + 2^-10 + 2^-11 ties up to 1 + 2^-9.
  Tensor a = Vec<uint16_t>(E::kF16, {0x3C00, 0x3C01, 0x7BFF, 0x0001});
  Tensor b = Vec<uint16_t>(E::kF16, {0x1000, 0x1000, 0x7BFF, 0x8001});
  EXPECT_EQ(Get<uint16_t>(RunOp("stablehlo.add", {a, b})), (std::vector<uint16_t>{0x3C00, 0x3C02, 0x7C00, 0x0000}));
  // bf16: 1.5 * 1.5 = 2.25 exactly; 3 * (1 + 2^-7) = 3 + 3*2^-7 rounds to 3 + 2^-5.
  Tensor c = Vec<uint16_t>(E::kBF16, {0x3FC0, 0x4040});
  Tensor d = Vec<uint16_t>(E::kBF16, {0x3FC0, 0x3F81});
  EXPECT_EQ(Get<uint16_t>(RunOp("stablehlo.multiply", {c, d})), (std::vector<uint16_t>{0x4010, 0x4042}));
  // f8E4M3FN has no infinity: 448 * 2 saturates to NaN per its format.
  Tensor f = Vec<uint8_t>(E::kF8E4M3FN, {0x38 /*1.0*/, 0x7E /*448*/});
  Tensor g = Vec<uint8_t>(E::kF8E4M3FN, {0x38, 0x40 /*2.0*/});
  EXPECT_EQ(Get<uint8_t>(RunOp("stablehlo.add", {f, f})), (std::vector<uint8_t>{0x40, 0x7F}));
  EXPECT_EQ(Get<uint8_t>(RunOp("stablehlo.multiply", {f, g})), (std::vector<uint8_t>{0x38, 0x7F}));
  // Unary math on f16: sqrt(4) = 2, exp(0) = 1.
  EXPECT_EQ(Get<uint16_t>(RunOp("stablehlo.sqrt", {Vec<uint16_t>(E::kF16, {0x4400, 0xBC00})}))[0], 0x4000);
  EXPECT_EQ(Get<uint16_t>(RunOp("stablehlo.exponential", {Vec<uint16_t>(E::kF16, {0x0000})}))[0], 0x3C00);
}

TEST(CpuElementwise, ComplexArithmetic) {
  Tensor a = Vec<c64>(E::kC64, {{1, 2}, {-5, 10}, {1, 1}});
  Tensor b = Vec<c64>(E::kC64, {{3, 4}, {3, 4}, {0, 0}});
  EXPECT_EQ(Get<c64>(RunOp("stablehlo.add", {a, b})), (std::vector<c64>{{4, 6}, {-2, 14}, {1, 1}}));
  EXPECT_EQ(Get<c64>(RunOp("stablehlo.multiply", {a, b})), (std::vector<c64>{{-5, 10}, {-55, 10}, {0, 0}}));
  std::vector<c64> q = Get<c64>(RunOp("stablehlo.divide", {a, b}));
  EXPECT_NEAR(q[0].real(), 0.44f, 1e-6f);
  EXPECT_NEAR(q[0].imag(), 0.08f, 1e-6f);
  EXPECT_NEAR(q[1].real(), 1.0f, 1e-6f);
  EXPECT_NEAR(q[1].imag(), 2.0f, 1e-6f);
  EXPECT_EQ(q[2], c64(kInff, kInff));  // finite / 0 = infinity
  Tensor z = Vec<c128>(E::kC128, {{0, kPi}, {0, 1}, {-4, 0}});
  std::vector<c128> ex = Get<c128>(RunOp("stablehlo.exponential", {z}));
  EXPECT_NEAR(ex[0].real(), -1.0, 1e-15);
  EXPECT_NEAR(ex[0].imag(), 0.0, 1e-15);
  std::vector<c128> lg = Get<c128>(RunOp("stablehlo.log", {z}));
  EXPECT_NEAR(lg[1].real(), 0.0, 1e-15);
  EXPECT_NEAR(lg[1].imag(), kPi / 2, 1e-15);
  std::vector<c128> sq = Get<c128>(RunOp("stablehlo.sqrt", {z}));
  EXPECT_NEAR(sq[2].real(), 0.0, 1e-15);
  EXPECT_NEAR(sq[2].imag(), 2.0, 1e-15);
  std::vector<c128> cb = Get<c128>(RunOp("stablehlo.cbrt", {Vec<c128>(E::kC128, {{8, 0}, {0, 27}})}));
  EXPECT_NEAR(cb[0].real(), 2.0, 1e-15);
  EXPECT_NEAR(cb[1].real(), 3 * std::cos(kPi / 6), 1e-14);
  EXPECT_NEAR(cb[1].imag(), 1.5, 1e-14);
  std::vector<c128> em = Get<c128>(RunOp("stablehlo.exponential_minus_one", {Vec<c128>(E::kC128, {{1e-10, 0}, {0, kPi}})}));
  EXPECT_NEAR(em[0].real(), 1.00000000005e-10, 1e-25);
  EXPECT_NEAR(em[1].real(), -2.0, 1e-15);
  std::vector<c128> l1 = Get<c128>(RunOp("stablehlo.log_plus_one", {Vec<c128>(E::kC128, {{1e-10, 0}, {-1, 1}})}));
  EXPECT_NEAR(l1[0].real(), 9.9999999995e-11, 1e-25);
  EXPECT_NEAR(l1[1].real(), 0.0, 1e-15);
  EXPECT_NEAR(l1[1].imag(), kPi / 2, 1e-15);
  // Complex remainder is not defined.
  EXPECT_TRUE(HasSubstr(RunOpError("stablehlo.remainder", {a, b}, "tensor<3xcomplex<f32>>"),
                        "does not support element type complex<f32>"));
}

TEST(CpuElementwise, RealImagComplex) {
  Tensor re = Vec<double>(E::kF64, {1.0, 3.0});
  Tensor im = Vec<double>(E::kF64, {2.0, 4.0});
  Tensor c = RunOp("stablehlo.complex", {re, im}, "tensor<2xcomplex<f64>>");
  EXPECT_EQ(Get<c128>(c), (std::vector<c128>{{1, 2}, {3, 4}}));
  ExpectFloats(Get<float>(RunOp("stablehlo.real", {Vec<c64>(E::kC64, {{1, 2}, {3, 4}})}, "tensor<2xf32>")), {1.0f, 3.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.imag", {Vec<c64>(E::kC64, {{1, 2}, {3, 4}})}, "tensor<2xf32>")), {2.0f, 4.0f});
  ExpectFloats(Get<float>(RunOp("stablehlo.real", {Vec<float>(E::kF32, {-1.5f})})), {-1.5f});
  ExpectFloats(Get<float>(RunOp("stablehlo.imag", {Vec<float>(E::kF32, {-1.5f})})), {0.0f});
  EXPECT_EQ(Get<c64>(RunOp("chlo.conj", {Vec<c64>(E::kC64, {{1, 2}})})), (std::vector<c64>{{1, -2}}));
}

// ---------------------------------------------------------------------------
// CHLO.

TEST(CpuElementwise, ChloTrigAndHyperbolic) {
  ExpectNear(Get<double>(RunOp("chlo.asin", {Vec<double>(E::kF64, {1.0, 0.5, 2.0})})), {kPi / 2, kPi / 6, kNaN}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.acos", {Vec<double>(E::kF64, {-1.0, 0.5})})), {kPi, kPi / 3}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.atan", {Vec<double>(E::kF64, {1.0, -kInf})})), {kPi / 4, -kPi / 2}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.sinh", {Vec<double>(E::kF64, {0.0, 1.0})})), {0.0, (std::numbers::e - 1 / std::numbers::e) / 2}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.cosh", {Vec<double>(E::kF64, {0.0, 1.0})})), {1.0, (std::numbers::e + 1 / std::numbers::e) / 2}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.asinh", {Vec<double>(E::kF64, {0.0, 1.0})})), {0.0, std::log(1 + std::sqrt(2.0))}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.acosh", {Vec<double>(E::kF64, {1.0, 0.5})})), {0.0, kNaN}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.atanh", {Vec<double>(E::kF64, {0.5, 1.0, -1.0})})), {0.5493061443340549, kInf, -kInf}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.tan", {Vec<double>(E::kF64, {kPi / 4})})), {1.0}, 1e-15);
  EXPECT_EQ(Get<int32_t>(RunOp("chlo.square", {Vec<int32_t>(E::kI32, {65536, -3})})), (std::vector<int32_t>{0, 9}));
  EXPECT_EQ(Get<c64>(RunOp("chlo.square", {Vec<c64>(E::kC64, {{1, 2}})})), (std::vector<c64>{{-3, 4}}));
}

TEST(CpuElementwise, ChloInfPredicates) {
  Tensor t = Vec<float>(E::kF32, {kInff, -kInff, kNaNf, 1.0f, -0.0f});
  EXPECT_EQ(Get<bool>(RunOp("chlo.is_inf", {t}, "tensor<5xi1>")), (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(Get<bool>(RunOp("chlo.is_pos_inf", {t}, "tensor<5xi1>")), (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(Get<bool>(RunOp("chlo.is_neg_inf", {t}, "tensor<5xi1>")), (std::vector<bool>{false, true, false, false, false}));
  EXPECT_EQ(Get<bool>(RunOp("stablehlo.is_finite", {t}, "tensor<5xi1>")), (std::vector<bool>{false, false, false, true, true}));
}

TEST(CpuElementwise, ChloErfFamily) {
  ExpectNear(Get<double>(RunOp("chlo.erf", {Vec<double>(E::kF64, {0.0, 0.5, -kInf, 3.0})})),
             {0.0, 0.5204998778130465, -1.0, 0.9999779095030014}, 1e-15);
  ExpectNear(Get<double>(RunOp("chlo.erfc", {Vec<double>(E::kF64, {0.5, 10.0})})),
             {0.4795001221869535, 2.088487583762545e-45}, 1e-14);
  ExpectNear(Get<double>(RunOp("chlo.erf_inv", {Vec<double>(E::kF64, {0.0, 0.5, 0.9, -0.999, 1.0, -1.0, 1.5, 1e-300})})),
             {0.0, 0.4769362762044699, 1.1630871536766743, -2.326753765513525, kInf, -kInf, kNaN, 8.862269254527580e-301},
             1e-14);
  // erf_inv inverts erf across the range, including deep in the tails.
  std::vector<double> xs = {-5.5, -3.0, -0.75, -1e-8, 0.1, 0.6, 1.7, 2.9, 4.2, 5.8};
  std::vector<double> ys;
  for (double x : xs) ys.push_back(std::erf(x));
  std::vector<double> back = Get<double>(RunOp("chlo.erf_inv", {Vec<double>(E::kF64, ys)}));
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_NEAR(std::erf(back[i]), ys[i], 2e-16 * std::fabs(ys[i]) + 1e-300) << i;
  // f32 is computed in double and rounded once.
  std::vector<float> f = Get<float>(RunOp("chlo.erf_inv", {Vec<float>(E::kF32, {0.5f})}));
  EXPECT_EQ(f[0], 0.47693628f);
}

TEST(CpuElementwise, ChloGammaFamily) {
  const double euler = std::numbers::egamma;
  ExpectNear(Get<double>(RunOp("chlo.lgamma", {Vec<double>(E::kF64, {0.5, 1.0, -0.5, 0.0, 10.0})})),
             {0.5723649429247001, 0.0, 1.2655121234846454, kInf, std::log(362880.0)}, 1e-14);
  // Poles: -inf at 0 (XLA's choice, the limit from above), NaN at -1, -2, ...
  ExpectNear(Get<double>(RunOp("chlo.digamma", {Vec<double>(E::kF64, {1.0, 0.5, 0.0, -1.0, -0.5, 100.0, 1e-8})})),
             {-euler, -euler - 2 * std::log(2.0), -kInf, kNaN, -euler - 2 * std::log(2.0) + 2, 4.600161852738087,
              -100000000.57721566},
             1e-14);
  const double zeta3 = 1.2020569031595942;
  ExpectNear(Get<double>(RunOp("chlo.zeta", {Vec<double>(E::kF64, {2.0, 3.0, 2.0, 1.0, 0.5, 4.0, 2.0}),
                                             Vec<double>(E::kF64, {1.0, 1.0, 2.0, 1.0, 1.0, 0.5, 1000.0})})),
             {kPi * kPi / 6, zeta3, kPi * kPi / 6 - 1, kInf, kNaN, std::pow(kPi, 4) / 6, 0.0010005001666666333},
             1e-14);
  // q <= 0: a non-positive integer q is a pole (+inf for even s, no limit for
  // odd s); otherwise zeta(s, q) = q^-s + zeta(s, q + 1).
  ExpectNear(Get<double>(RunOp("chlo.zeta", {Vec<double>(E::kF64, {2.0, 3.0, 2.0, 2.5}),
                                             Vec<double>(E::kF64, {-1.0, 0.0, -0.5, -0.5})})),
             {kInf, kNaN, 4 + kPi * kPi / 2, kNaN}, 1e-14);
  ExpectNear(Get<double>(RunOp("chlo.polygamma", {Vec<double>(E::kF64, {1.0, 1.0, 2.0, 0.0, 1.5, 3.0}),
                                                  Vec<double>(E::kF64, {1.0, 0.5, 1.0, 1.0, 1.0, 1.0})})),
             {kPi * kPi / 6, kPi * kPi / 2, -2 * zeta3, -euler, kNaN, std::pow(kPi, 4) / 15}, 1e-14);
}

TEST(CpuElementwise, ChloBesselI1e) {
  ExpectNear(Get<double>(RunOp("chlo.bessel_i1e", {Vec<double>(E::kF64, {0.0, 1.0, -1.0, 100.0, kInf})})),
             {0.0, 0.20791041534970844, -0.20791041534970844, 0.03974415302513025, 0.0}, 1e-14);
  // The series and the asymptotic expansion agree where they meet.
  std::vector<double> v = Get<double>(RunOp("chlo.bessel_i1e", {Vec<double>(E::kF64, {25.0, std::nextafter(25.0, 26.0)})}));
  EXPECT_NEAR(v[0], v[1], 1e-14 * v[0]);
}

TEST(CpuElementwise, ChloNextAfter) {
  Tensor r = RunOp("chlo.next_after", {Vec<float>(E::kF32, {1.0f, 1.0f, 0.0f, 2.0f, kNaNf}),
                                       Vec<float>(E::kF32, {2.0f, 0.0f, -1.0f, 2.0f, 1.0f})});
  ExpectFloats(Get<float>(r), {1.0f + std::ldexp(1.0f, -23), 1.0f - std::ldexp(1.0f, -24), -std::ldexp(1.0f, -149), 2.0f,
                               kNaNf});
  // f16 steps in its own format.
  r = RunOp("chlo.next_after", {Vec<uint16_t>(E::kF16, {0x3C00, 0x3C00, 0x0000, 0x8001, 0x7BFF}),
                                Vec<uint16_t>(E::kF16, {0x4000, 0x0000, 0xBC00, 0x3C00, 0x7C00})});
  EXPECT_EQ(Get<uint16_t>(r), (std::vector<uint16_t>{0x3C01, 0x3BFF, 0x8001, 0x8000, 0x7C00}));
}

// ---------------------------------------------------------------------------
// Empty tensors.

TEST(CpuElementwise, EmptyTensors) {
  Tensor e = Make<float>(E::kF32, {0}, {});
  EXPECT_EQ(RunOp("stablehlo.add", {e, e}).num_elements(), 0);
  EXPECT_EQ(RunOp("stablehlo.exponential", {e}).num_elements(), 0);
  Tensor z = Make<int32_t>(E::kI32, {2, 0}, {});
  EXPECT_EQ(RunOp("stablehlo.divide", {z, z}).shape(), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(RunOp("stablehlo.convert", {z}, "tensor<2x0xf16>").num_elements(), 0);
  EXPECT_EQ(RunOp("stablehlo.bitcast_convert", {e}, "tensor<0x4xui8>").num_elements(), 0);
  EXPECT_EQ(Compare("LT", e, e, "TOTALORDER").num_elements(), 0);
  Tensor p = Make<bool>(E::kI1, {0}, {});
  EXPECT_EQ(RunOp("stablehlo.select", {p, e, e}, "tensor<0xf32>").num_elements(), 0);
  EXPECT_EQ(ReducePrecision(e, 5, 10).num_elements(), 0);
  EXPECT_EQ(RunOp("stablehlo.bitcast_convert", {Make<int8_t>(E::kI4, {0, 2}, {})}, "tensor<0xi8>").num_elements(), 0);
}

}  // namespace
}  // namespace hlograph::testing

// The CPU interpreter's reduction family: reduce, reduce_window,
// select_and_scatter, sort and map. Expected values are worked out by hand,
// taken from the StableHLO spec's examples, or computed by plain loops in
// the test.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel.h"
#include "backends/cpu/tensor.h"
#include "ir/verifier.h"
#include "cpu_test_util.h"
#include "test_util.h"

namespace hlograph {
namespace {

using cpu::Tensor;
using E = ir::ElementType;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

using cpu::test_util::Make;
using cpu::test_util::Values;

std::vector<float> Iota(int64_t n, float scale = 1.0f) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i) * scale;
  return v;
}

// Parses, verifies and runs `text`; failures are reported and give {}.
std::vector<Tensor> RunProgram(const std::string& text, const std::vector<Tensor>& args) {
  return cpu::test_util::RunOk(text, args);
}

// The error message of running `text` (which must fail).
std::string RunError(const std::string& text, const std::vector<Tensor>& args) {
  auto modules = testing::ParseOrDie(text);
  if (modules.empty()) return "<parse error>";
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  return results.ok() ? std::string("<ran fine>") : results.status().message();
}

std::string Module(const std::string& body) { return "module {\n" + body + "\n}\n"; }

bool HaveKernels(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (cpu::CpuKernels().Find(ir::OpIdOf(n)) == nullptr) return false;
  }
  return true;
}
bool HaveElementwiseKernels() { return HaveKernels({"stablehlo.add", "stablehlo.multiply"}); }

// ---------------------------------------------------------------------------
// reduce

std::string DimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string ShapeText(const std::vector<int64_t>& shape, const std::string& elem) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + elem + ">";
}

std::string ReduceProgram(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims, const std::string& elem,
                          const std::string& op, const std::string& init) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool reduced = false;
    for (int64_t r : dims) reduced |= r == static_cast<int64_t>(d);
    if (!reduced) out.push_back(shape[d]);
  }
  const std::string in_t = ShapeText(shape, elem);
  const std::string out_t = ShapeText(out, elem);
  return Module("func.func @main(%arg0: " + in_t + ") -> " + out_t + " {\n" +
                "  %init = stablehlo.constant dense<" + init + "> : tensor<" + elem + ">\n" +
                "  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo." + op + " across dimensions = " +
                DimsText(dims) + " : (" + in_t + ", tensor<" + elem + ">) -> " + out_t + "\n" +
                "  return %0 : " + out_t + "\n}");
}

// Reference reduction of a 2x3x4 tensor by plain loops.
template <typename T, typename Op>
std::vector<T> ReferenceReduce(const std::vector<T>& x, const std::vector<int64_t>& dims, T init, Op op) {
  const int64_t shape[3] = {2, 3, 4};
  bool reduced[3] = {false, false, false};
  for (int64_t d : dims) reduced[d] = true;
  int64_t out_shape[3];
  for (int d = 0; d < 3; ++d) out_shape[d] = reduced[d] ? 1 : shape[d];
  std::vector<T> out(static_cast<size_t>(out_shape[0] * out_shape[1] * out_shape[2]), init);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 4; ++k) {
        const int64_t oi = reduced[0] ? 0 : i, oj = reduced[1] ? 0 : j, ok = reduced[2] ? 0 : k;
        T& o = out[static_cast<size_t>((oi * out_shape[1] + oj) * out_shape[2] + ok)];
        o = op(o, x[static_cast<size_t>((i * 3 + j) * 4 + k)]);
      }
    }
  }
  return out;
}

const std::vector<std::vector<int64_t>> kAllDimSets = {{}, {0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}, {0, 1, 2}};

TEST(CpuReduction, SumMaxMinOverEveryDimSetOfRank3F32) {
  std::vector<float> x(24);
  for (int i = 0; i < 24; ++i) x[static_cast<size_t>(i)] = static_cast<float>((i * 7) % 11) - 5.0f;
  const Tensor input = Make(E::kF32, {2, 3, 4}, x);
  for (const auto& dims : kAllDimSets) {
    SCOPED_TRACE("dims " + DimsText(dims));
    auto sum = RunProgram(ReduceProgram({2, 3, 4}, dims, "f32", "add", "0.000000e+00"), {input});
    ASSERT_EQ(sum.size(), 1u);
    EXPECT_EQ(Values<float>(sum[0]), ReferenceReduce<float>(x, dims, 0.0f, [](float a, float b) { return a + b; }));
    auto max = RunProgram(ReduceProgram({2, 3, 4}, dims, "f32", "maximum", "0xFF800000"), {input});
    ASSERT_EQ(max.size(), 1u);
    EXPECT_EQ(Values<float>(max[0]),
              ReferenceReduce<float>(x, dims, -kInf, [](float a, float b) { return std::max(a, b); }));
    auto min = RunProgram(ReduceProgram({2, 3, 4}, dims, "f32", "minimum", "0x7F800000"), {input});
    ASSERT_EQ(min.size(), 1u);
    EXPECT_EQ(Values<float>(min[0]),
              ReferenceReduce<float>(x, dims, kInf, [](float a, float b) { return std::min(a, b); }));
  }
}

TEST(CpuReduction, SumMaxMultiplyOverEveryDimSetOfRank3I32) {
  std::vector<int32_t> x(24);
  for (int i = 0; i < 24; ++i) x[static_cast<size_t>(i)] = (i * 5) % 9 - 4;
  const Tensor input = Make(E::kI32, {2, 3, 4}, x);
  for (const auto& dims : kAllDimSets) {
    SCOPED_TRACE("dims " + DimsText(dims));
    auto sum = RunProgram(ReduceProgram({2, 3, 4}, dims, "i32", "add", "0"), {input});
    ASSERT_EQ(sum.size(), 1u);
    EXPECT_EQ(Values<int32_t>(sum[0]), ReferenceReduce<int32_t>(x, dims, 0, [](int32_t a, int32_t b) { return a + b; }));
    auto max = RunProgram(ReduceProgram({2, 3, 4}, dims, "i32", "maximum", "-2147483648"), {input});
    ASSERT_EQ(max.size(), 1u);
    EXPECT_EQ(Values<int32_t>(max[0]),
              ReferenceReduce<int32_t>(x, dims, INT32_MIN, [](int32_t a, int32_t b) { return std::max(a, b); }));
  }
  // Products wrap around like two's complement.
  const Tensor big = Make<int32_t>(E::kI32, {3}, {65536, 65536, 3});
  auto prod = RunProgram(ReduceProgram({3}, {0}, "i32", "multiply", "1"), {big});
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_EQ(Values<int32_t>(prod[0]), std::vector<int32_t>{0});
}

TEST(CpuReduction, HandComputedSums) {
  // x[i][j][k] = 12i + 4j + k.
  const Tensor input = Make(E::kF32, {2, 3, 4}, Iota(24));
  auto over_0_2 = RunProgram(ReduceProgram({2, 3, 4}, {0, 2}, "f32", "add", "0.000000e+00"), {input});
  ASSERT_EQ(over_0_2.size(), 1u);
  // sum over i, k of 12i + 4j + k = 4*12 + 8*4j + 2*6 = 60 + 32j.
  EXPECT_EQ(Values<float>(over_0_2[0]), (std::vector<float>{60, 92, 124}));
  auto all = RunProgram(ReduceProgram({2, 3, 4}, {0, 1, 2}, "f32", "add", "1.000000e+01"), {input});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(Values<float>(all[0]), std::vector<float>{10 + 276});  // init + 0 + ... + 23
}

TEST(CpuReduction, MaxPropagatesNaNAndOrdersSignedZeros) {
  const Tensor input = Make<float>(E::kF32, {2, 3}, {1, kNaN, 3, -0.0f, 0.0f, -0.0f});
  auto max = RunProgram(ReduceProgram({2, 3}, {1}, "f32", "maximum", "0xFF800000"), {input});
  ASSERT_EQ(max.size(), 1u);
  const auto v = Values<float>(max[0]);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_FALSE(std::signbit(v[1]));  // +0 > -0
  auto min = RunProgram(ReduceProgram({2, 3}, {1}, "f32", "minimum", "0x7F800000"), {input});
  ASSERT_EQ(min.size(), 1u);
  const auto m = Values<float>(min[0]);
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_TRUE(std::signbit(m[1]));
}

TEST(CpuReduction, BoolAndOrReductions) {
  const Tensor input = Make<uint8_t>(E::kI1, {2, 3}, {1, 1, 1, 1, 0, 1});
  auto all = RunProgram(ReduceProgram({2, 3}, {1}, "i1", "and", "true"), {input});
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(all[0]), (std::vector<uint8_t>{1, 0}));
  auto any = RunProgram(ReduceProgram({2, 3}, {0}, "i1", "or", "false"), {input});
  ASSERT_EQ(any.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(any[0]), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(CpuReduction, SubByteSumWrapsAtItsWidth) {
  // i4 values 7 + 1 = 8 wraps to -8; stored sign-extended, one per byte.
  const Tensor input = Make<int8_t>(E::kI4, {2}, {7, 1});
  auto sum = RunProgram(ReduceProgram({2}, {0}, "i4", "add", "0"), {input});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(Values<int8_t>(sum[0]), std::vector<int8_t>{-8});
}

TEST(CpuReduction, Bf16SumRoundsToBf16) {
  // bf16 bits: 1.0 = 0x3F80, 2.0 = 0x4000, 0.5 = 0x3F00; 3.5 = 0x4060.
  const Tensor input = Make<uint16_t>(E::kBF16, {3}, {0x3F80, 0x4000, 0x3F00});
  auto sum = RunProgram(ReduceProgram({3}, {0}, "bf16", "add", "0.000000e+00"), {input});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(Values<uint16_t>(sum[0]), std::vector<uint16_t>{0x4060});
}

TEST(CpuReduction, EmptyAndZeroSizeReductions) {
  // Reducing a zero-size dimension gives the init value.
  const Tensor empty_rows = Make<float>(E::kF32, {0, 3}, {});
  auto r = RunProgram(ReduceProgram({0, 3}, {0}, "f32", "add", "2.500000e+00"), {empty_rows});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{2.5f, 2.5f, 2.5f}));
  // A zero-size result.
  const Tensor empty_cols = Make<float>(E::kF32, {2, 0}, {});
  auto z = RunProgram(ReduceProgram({2, 0}, {0}, "f32", "add", "0.000000e+00"), {empty_cols});
  ASSERT_EQ(z.size(), 1u);
  EXPECT_EQ(z[0].num_elements(), 0);
  // No dimensions: each result is body(init, x).
  const Tensor x = Make<int32_t>(E::kI32, {3}, {4, -5, 6});
  auto none = RunProgram(ReduceProgram({3}, {}, "i32", "add", "10"), {x});
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(Values<int32_t>(none[0]), (std::vector<int32_t>{14, 5, 16}));
  // Rank 0.
  const Tensor scalar = Make<int32_t>(E::kI32, {}, {7});
  auto s = RunProgram(ReduceProgram({}, {}, "i32", "maximum", "9"), {scalar});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(Values<int32_t>(s[0]), std::vector<int32_t>{9});
}

// The argmax JAX emits: a variadic reduce of (values, iota) whose body
// prefers the larger value, NaN over everything, and the lower index on ties.
const char* kArgmax = R"(
module {
  func.func @main(%arg0: tensor<3x5xf32>, %0: tensor<3x5xi32>) -> (tensor<3xi32>, tensor<3xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1, %1#0 : tensor<3xi32>, tensor<3xf32>
  }
}
)";

TEST(CpuReduction, ArgmaxViaVariadicReduce) {
  const Tensor x = Make<float>(E::kF32, {3, 5},
                               {1, 9, 3, 9, 2,          // tie: the first 9 wins
                                -4, -2, -8, -1, -3,     // all negative
                                0, 5, kNaN, 7, kNaN});  // NaN wins, the first one
  const Tensor iota = Make<int32_t>(E::kI32, {3, 5}, {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4});
  auto r = RunProgram(kArgmax, {x, iota});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{1, 3, 2}));
  const auto v = Values<float>(r[1]);
  EXPECT_EQ(v[0], 9.0f);
  EXPECT_EQ(v[1], -1.0f);
  EXPECT_TRUE(std::isnan(v[2]));
}

TEST(CpuReduction, GeneralBodyRunsInRowMajorOrder) {
  // acc - x is not associative: the result shows the order, and that the
  // accumulator is the body's first argument.
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<2x3xi32>) -> tensor<2xi32> {
    %c = stablehlo.constant dense<100> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
     reducer(%acc: tensor<i32>, %x: tensor<i32>)  {
      %two = stablehlo.constant dense<2> : tensor<i32>
      %1 = stablehlo.multiply %x, %two : tensor<i32>
      %2 = stablehlo.subtract %acc, %1 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }
    return %0 : tensor<2xi32>
  })");
  const Tensor x = Make<int32_t>(E::kI32, {2, 3}, {1, 2, 3, 10, 20, 30});
  auto r = RunProgram(text, {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{100 - 12, 100 - 120}));
}

TEST(CpuReduction, BodyOutsideTheScalarSubsetRunsThroughTheInterpreter) {
  // The body holds a nested reduce (a region), which the scalar programs do
  // not compile: each step goes through Interpreter::RunRegion.
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
    %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
     reducer(%acc: tensor<f32>, %x: tensor<f32>)  {
      %1 = stablehlo.reduce(%x init: %acc) applies stablehlo.maximum across dimensions = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }
    return %0 : tensor<2xf32>
  })");
  const Tensor x = Make<float>(E::kF32, {2, 3}, {-1, 3, 2, -7, -8, -9});
  auto r = RunProgram(text, {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{3.0f, 0.5f}));
}

TEST(CpuReduction, BodyCapturingAnOuterValue) {
  if (!HaveElementwiseKernels()) GTEST_SKIP() << "needs the elementwise kernels";
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<4xf32>, %scale: tensor<f32>) -> tensor<f32> {
    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
     reducer(%acc: tensor<f32>, %x: tensor<f32>)  {
      %1 = stablehlo.multiply %x, %scale : tensor<f32>
      %2 = stablehlo.add %acc, %1 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }
    return %0 : tensor<f32>
  })");
  auto r = RunProgram(text, {Make<float>(E::kF32, {4}, {1, 2, 3, 4}), Make<float>(E::kF32, {}, {3})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), std::vector<float>{30});
}

// ---------------------------------------------------------------------------
// reduce_window

std::string ReduceWindowProgram(const std::string& in_t, const std::string& out_t, const std::string& elem,
                                const std::string& attrs, const std::string& op, const std::string& init) {
  return Module("func.func @main(%arg0: " + in_t + ") -> " + out_t + " {\n" +
                "  %init = stablehlo.constant dense<" + init + "> : tensor<" + elem + ">\n" +
                "  %0 = \"stablehlo.reduce_window\"(%arg0, %init) <{" + attrs + "}> ({\n" +
                "  ^bb0(%a: tensor<" + elem + ">, %b: tensor<" + elem + ">):\n" +
                "    %1 = stablehlo." + op + " %a, %b : tensor<" + elem + ">\n" +
                "    stablehlo.return %1 : tensor<" + elem + ">\n" +
                "  }) : (" + in_t + ", tensor<" + elem + ">) -> " + out_t + "\n" +
                "  return %0 : " + out_t + "\n}");
}

TEST(CpuReduction, CumsumViaReduceWindowWithPadding) {
  // jnp.cumsum along axis 0 of 4x3: window 4x1, low padding 3.
  const std::string attrs =
      "padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 4, 1>, "
      "window_strides = array<i64: 1, 1>";
  const Tensor x = Make<float>(E::kF32, {4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto r = RunProgram(ReduceWindowProgram("tensor<4x3xf32>", "tensor<4x3xf32>", "f32", attrs, "add", "0.000000e+00"),
                      {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1, 2, 3, 5, 7, 9, 12, 15, 18, 22, 26, 30}));
  // cummax of ints along axis 1.
  const std::string attrs1 =
      "padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>";
  const Tensor y = Make<int32_t>(E::kI32, {2, 3}, {3, 1, 4, -1, -5, 9});
  auto m = RunProgram(ReduceWindowProgram("tensor<2x3xi32>", "tensor<2x3xi32>", "i32", attrs1, "maximum",
                                          "-2147483648"),
                      {y});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(Values<int32_t>(m[0]), (std::vector<int32_t>{3, 3, 4, -1, -1, 9}));
}

TEST(CpuReduction, CumulativeOpsFromTheCorpusShape) {
  // cumprod along axis 1, as in tests/corpus/cumulative_ops.mlir.
  const std::string attrs =
      "base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [4, 0]]> : tensor<2x2xi64>, "
      "window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 5>, window_strides = array<i64: 1, 1>";
  const Tensor x = Make<float>(E::kF32, {2, 5}, {1, 2, 3, 4, 5, -1, 2, -1, 0.5f, 2});
  auto r = RunProgram(ReduceWindowProgram("tensor<2x5xf32>", "tensor<2x5xf32>", "f32", attrs, "multiply",
                                          "1.000000e+00"),
                      {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1, 2, 6, 24, 120, -1, -2, 2, 1, 2}));
}

TEST(CpuReduction, MaxPoolWithStridesAndPadding) {
  // 4x4 input, 3x3 window, stride 2, padding 1 on each side: 2x2 output.
  //  0  1  2  3
  //  4  5  6  7
  //  8  9 10 11
  // 12 13 14 15
  const std::string attrs =
      "padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, "
      "window_strides = array<i64: 2, 2>";
  const Tensor x = Make(E::kF32, {4, 4}, Iota(16));
  auto r = RunProgram(ReduceWindowProgram("tensor<4x4xf32>", "tensor<2x2xf32>", "f32", attrs, "maximum",
                                          "0xFF800000"),
                      {x});
  ASSERT_EQ(r.size(), 1u);
  // Windows cover rows/cols {-1,0,1} and {1,2,3}.
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{5, 7, 13, 15}));
  // The same windows summed (average pooling's numerator).
  auto s = RunProgram(ReduceWindowProgram("tensor<4x4xf32>", "tensor<2x2xf32>", "f32", attrs, "add",
                                          "0.000000e+00"),
                      {x});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(Values<float>(s[0]), (std::vector<float>{0 + 1 + 4 + 5, 1 + 2 + 3 + 5 + 6 + 7,
                                                     4 + 5 + 8 + 9 + 12 + 13,
                                                     5 + 6 + 7 + 9 + 10 + 11 + 13 + 14 + 15}));
}

TEST(CpuReduction, NegativePaddingDropsInput) {
  // Padding (-1, -1) drops the first and last element: windows of 2 over [2, 3, 4].
  const std::string attrs = "padding = dense<[[-1, -1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>";
  const Tensor x = Make<int32_t>(E::kI32, {5}, {1, 2, 3, 4, 5});
  auto r = RunProgram(ReduceWindowProgram("tensor<5xi32>", "tensor<2xi32>", "i32", attrs, "add", "0"), {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{5, 7}));
}

TEST(CpuReduction, PaddingContributesTheInitValue) {
  // Per the spec, padded positions hold the init value: with init 1 and a
  // window of 3 over [pad, 1, 2, 3, pad], the sums are 1 + (1+1+2),
  // 1 + (1+2+3), 1 + (2+3+1).
  const std::string attrs = "padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>";
  const Tensor x = Make<int32_t>(E::kI32, {3}, {1, 2, 3});
  auto r = RunProgram(ReduceWindowProgram("tensor<3xi32>", "tensor<3xi32>", "i32", attrs, "add", "1"), {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{5, 7, 7}));
}

TEST(CpuReduction, BaseAndWindowDilations) {
  // Base dilation 2 turns [1, 2, 3, 4] into [1, h, 2, h, 3, h, 4] (holes
  // hold the init value 0); windows of 2: 1, 2, 2, 3, 3, 4.
  const std::string base = "base_dilations = array<i64: 2>, window_dimensions = array<i64: 2>";
  const Tensor x = Make<float>(E::kF32, {4}, {1, 2, 3, 4});
  auto r = RunProgram(ReduceWindowProgram("tensor<4xf32>", "tensor<6xf32>", "f32", base, "add", "0.000000e+00"), {x});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1, 2, 2, 3, 3, 4}));
  // Window dilation 2: windows {x0, x2}, {x1, x3}, {x2, x4}.
  const std::string win = "window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>";
  const Tensor y = Make<float>(E::kF32, {5}, {1, 2, 3, 4, 5});
  auto w = RunProgram(ReduceWindowProgram("tensor<5xf32>", "tensor<3xf32>", "f32", win, "add", "0.000000e+00"), {y});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(Values<float>(w[0]), (std::vector<float>{4, 6, 8}));
  // The spec's example: base dilation 2, window dilation 3, stride (4, 1),
  // padding (2, 1) on rows with window 2x1, init 0.
  const std::string spec =
      "base_dilations = array<i64: 2, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>, "
      "window_dilations = array<i64: 3, 1>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>";
  const Tensor z = Make<int64_t>(E::kI64, {3, 2}, {1, 2, 3, 4, 5, 6});
  auto s = RunProgram(ReduceWindowProgram("tensor<3x2xi64>", "tensor<2x2xi64>", "i64", spec, "add", "0"), {z});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(Values<int64_t>(s[0]), (std::vector<int64_t>{0, 0, 3, 4}));
}

TEST(CpuReduction, ReduceWindowFromCorpusDilatedMatchesLoops) {
  // tests/corpus/reduce_window_dilated.mlir's op on a 12x12 input, checked
  // against a direct evaluation of the spec's definition.
  const std::string attrs =
      "base_dilations = array<i64: 2, 1>, padding = dense<[[1, 1], [0, 1]]> : tensor<2x2xi64>, "
      "window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 1, 2>";
  std::vector<float> xs(144);
  for (int i = 0; i < 144; ++i) xs[static_cast<size_t>(i)] = static_cast<float>((i * 37) % 17);
  auto r = RunProgram(ReduceWindowProgram("tensor<12x12xf32>", "tensor<23x6xf32>", "f32", attrs, "add",
                                          "0.000000e+00"),
                      {Make(E::kF32, {12, 12}, xs)});
  ASSERT_EQ(r.size(), 1u);
  // Padded, dilated input: rows 1 + 23 + 1 (value at odd padded rows
  // 1, 3, ..., 23), cols 12 + 1.
  std::vector<float> expected;
  for (int o0 = 0; o0 < 23; ++o0) {
    for (int o1 = 0; o1 < 6; ++o1) {
      float acc = 0;
      for (int k0 = 0; k0 < 3; ++k0) {
        for (int k1 = 0; k1 < 2; ++k1) {
          const int p0 = o0 + k0 - 1;  // dilated row
          const int p1 = o1 * 2 + k1 * 2;
          if (p0 >= 0 && p0 <= 22 && p0 % 2 == 0 && p1 < 12) acc += xs[static_cast<size_t>((p0 / 2) * 12 + p1)];
        }
      }
      expected.push_back(acc);
    }
  }
  EXPECT_EQ(Values<float>(r[0]), expected);
}

TEST(CpuReduction, VariadicReduceWindowArgmax) {
  // Window argmax over (values, indices) with a compare/select body, which
  // runs as a scalar program.
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<6xf32>, %iota: tensor<6xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = "stablehlo.reduce_window"(%arg0, %iota, %ninf, %zero) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
    ^bb0(%v0: tensor<f32>, %i0: tensor<i32>, %v1: tensor<f32>, %i1: tensor<i32>):
      %1 = stablehlo.compare GE, %v0, %v1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %v0, %v1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.select %1, %i0, %i1 : tensor<i1>, tensor<i32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
    }) : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
  })");
  auto r = RunProgram(text, {Make<float>(E::kF32, {6}, {1, 5, 7, 2, 4, 4}), Make<int32_t>(E::kI32, {6}, {0, 1, 2, 3, 4, 5})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{5, 7, 4}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{1, 2, 4}));
}

TEST(CpuReduction, ReduceWindowZeroSize) {
  const std::string attrs = "window_dimensions = array<i64: 1, 2>";
  auto r = RunProgram(ReduceWindowProgram("tensor<0x3xf32>", "tensor<0x2xf32>", "f32", attrs, "add", "0.000000e+00"),
                      {Make<float>(E::kF32, {0, 3}, {})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].num_elements(), 0);
  // An empty input padded to a non-empty one: every window is padding.
  const std::string pad = "padding = dense<[[2, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>";
  auto p = RunProgram(ReduceWindowProgram("tensor<0xi32>", "tensor<2xi32>", "i32", pad, "add", "3"),
                      {Make<int32_t>(E::kI32, {0}, {})});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(Values<int32_t>(p[0]), (std::vector<int32_t>{9, 9}));
}

TEST(CpuReduction, HugeWindowIsRefusedNotRun) {
  // Verified IR whose window spans 2^40 padded positions.
  const std::string attrs =
      "padding = dense<[[1099511627776, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 1099511627777>";
  const std::string text =
      ReduceWindowProgram("tensor<1xf32>", "tensor<1xf32>", "f32", attrs, "add", "0.000000e+00");
  EXPECT_EQ(testing::VerifyError(text), "<verified fine>");
  EXPECT_TRUE(testing::HasSubstr(RunError(text, {Make<float>(E::kF32, {1}, {1})}), "window"));
}

// ---------------------------------------------------------------------------
// select_and_scatter

std::string SelectAndScatterProgram(const std::string& operand_t, const std::string& source_t,
                                    const std::string& elem, const std::string& attrs, const std::string& select_dir,
                                    const std::string& init) {
  return Module("func.func @main(%operand: " + operand_t + ", %source: " + source_t + ") -> " + operand_t + " {\n" +
                "  %init = stablehlo.constant dense<" + init + "> : tensor<" + elem + ">\n" +
                "  %0 = \"stablehlo.select_and_scatter\"(%operand, %source, %init) <{" + attrs + "}> ({\n" +
                "  ^bb0(%a: tensor<" + elem + ">, %b: tensor<" + elem + ">):\n" +
                "    %1 = stablehlo.compare " + select_dir + ", %a, %b : (tensor<" + elem + ">, tensor<" + elem +
                ">) -> tensor<i1>\n" +
                "    stablehlo.return %1 : tensor<i1>\n" +
                "  }, {\n" +
                "  ^bb0(%a: tensor<" + elem + ">, %b: tensor<" + elem + ">):\n" +
                "    %1 = stablehlo.add %a, %b : tensor<" + elem + ">\n" +
                "    stablehlo.return %1 : tensor<" + elem + ">\n" +
                "  }) : (" + operand_t + ", " + source_t + ", tensor<" + elem + ">) -> " + operand_t + "\n" +
                "  return %0 : " + operand_t + "\n}");
}

TEST(CpuReduction, SelectAndScatterSpecExample) {
  const std::string attrs =
      "padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, "
      "window_strides = array<i64: 2, 1>";
  const std::string text = SelectAndScatterProgram("tensor<4x2xi64>", "tensor<2x2xi64>", "i64", attrs, "GE", "0");
  auto r = RunProgram(text, {Make<int64_t>(E::kI64, {4, 2}, {1, 5, 2, 5, 3, 6, 4, 4}),
                             Make<int64_t>(E::kI64, {2, 2}, {5, 6, 7, 8})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int64_t>(r[0]), (std::vector<int64_t>{0, 0, 0, 0, 5, 14, 7, 0}));
}

TEST(CpuReduction, MaxPoolGradientScattersToTheFirstMaximum) {
  // 2x2 windows, stride 2 over 4x4, with ties: GE keeps the earliest.
  const std::string attrs = "window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>";
  const std::string text = SelectAndScatterProgram("tensor<4x4xf32>", "tensor<2x2xf32>", "f32", attrs, "GE",
                                                   "0.000000e+00");
  const Tensor operand = Make<float>(E::kF32, {4, 4}, {1, 3, 2, 2,   //
                                                        3, 0, 2, 2,   //
                                                        -1, -5, 7, 8,  //
                                                        -2, -1, 9, 1});
  auto r = RunProgram(text, {operand, Make<float>(E::kF32, {2, 2}, {10, 20, 30, 40})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{0, 10, 20, 0,  //
                                                     0, 0, 0, 0,    //
                                                     30, 0, 0, 0,   //
                                                     0, 0, 40, 0}));
  // GT keeps the latest of equal values instead: 3 at (1, 0), the last 2
  // at (1, 3), the -1 at (3, 1).
  const std::string gt = SelectAndScatterProgram("tensor<4x4xf32>", "tensor<2x2xf32>", "f32", attrs, "GT",
                                                 "0.000000e+00");
  auto g = RunProgram(gt, {operand, Make<float>(E::kF32, {2, 2}, {10, 20, 30, 40})});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(Values<float>(g[0]), (std::vector<float>{0, 0, 0, 0,   //
                                                     10, 0, 0, 20,  //
                                                     0, 0, 0, 0,    //
                                                     0, 30, 40, 0}));
}

TEST(CpuReduction, SelectAndScatterOverlappingWindowsAndPadding) {
  // Windows of 3, stride 1, padding 1 over [1, 3, 2]: windows [p,1,3],
  // [1,3,2], [3,2,p] all select index 1; padding is never selected.
  const std::string attrs =
      "padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>";
  const std::string text = SelectAndScatterProgram("tensor<3xi32>", "tensor<3xi32>", "i32", attrs, "GE", "100");
  auto r = RunProgram(text, {Make<int32_t>(E::kI32, {3}, {1, 3, 2}), Make<int32_t>(E::kI32, {3}, {1, 2, 4})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{100, 107, 100}));
  // A window entirely in the padding scatters nothing: the input is [5],
  // padded by 3 on the left; windows of 2 with stride 2 see [p, p], [p, 5].
  const std::string pad =
      "padding = dense<[[3, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>";
  const std::string text2 = SelectAndScatterProgram("tensor<1xi32>", "tensor<2xi32>", "i32", pad, "GE", "0");
  auto p = RunProgram(text2, {Make<int32_t>(E::kI32, {1}, {5}), Make<int32_t>(E::kI32, {2}, {11, 13})});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(Values<int32_t>(p[0]), (std::vector<int32_t>{13}));
}

TEST(CpuReduction, MaxPool2dGradFromTheCorpus) {
  // tests/corpus/max_pool2d_grad.mlir on a 2x9x9x3 input, against a plain
  // evaluation of max pooling's gradient: each window of the padded input
  // (3x3, stride 2, -inf padding) sends 2 * its max to the max's first
  // position.
  const std::string text = testing::ReadFile(testing::SourceDir() + "/tests/corpus/max_pool2d_grad.mlir");
  ASSERT_FALSE(text.empty());
  if (!HaveKernels({"stablehlo.broadcast_in_dim", "stablehlo.multiply", "stablehlo.pad", "stablehlo.slice"})) {
    GTEST_SKIP() << "needs the shape and elementwise kernels";
  }
  std::vector<float> x(2 * 9 * 9 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7919) % 101) - 50.0f;
  auto r = RunProgram(text, {Make(E::kF32, {2, 9, 9, 3}, x)});
  ASSERT_EQ(r.size(), 1u);
  std::vector<float> expected(x.size(), 0.0f);
  auto at = [](int n, int h, int w, int c) { return static_cast<size_t>(((n * 9 + h) * 9 + w) * 3 + c); };
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 3; ++c) {
      for (int oh = 0; oh < 5; ++oh) {
        for (int ow = 0; ow < 5; ++ow) {
          float best = -kInf;
          int bh = -1, bw = -1;
          for (int kh = 0; kh < 3; ++kh) {
            for (int kw = 0; kw < 3; ++kw) {
              const int h = oh * 2 + kh - 1, w = ow * 2 + kw - 1;
              if (h < 0 || h >= 9 || w < 0 || w >= 9) continue;
              if (bh < 0 || x[at(n, h, w, c)] > best) {
                best = x[at(n, h, w, c)];
                bh = h;
                bw = w;
              }
            }
          }
          expected[at(n, bh, bw, c)] += 2 * best;
        }
      }
    }
  }
  EXPECT_EQ(Values<float>(r[0]), expected);
}

TEST(CpuReduction, SelectAndScatterWithAGeneralSelectRegion) {
  // "Select the larger absolute value" is not a plain compare: it runs as a
  // scalar program.
  const std::string text = Module(R"(
  func.func @main(%operand: tensor<4xi32>, %source: tensor<2xi32>) -> tensor<4xi32> {
    %init = stablehlo.constant dense<0> : tensor<i32>
    %0 = "stablehlo.select_and_scatter"(%operand, %source, %init) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %1 = stablehlo.abs %a : tensor<i32>
      %2 = stablehlo.abs %b : tensor<i32>
      %3 = stablehlo.compare GE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    }, {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %1 = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %1 : tensor<i32>
    }) : (tensor<4xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  })");
  auto r = RunProgram(text, {Make<int32_t>(E::kI32, {4}, {1, -6, 5, -2}), Make<int32_t>(E::kI32, {2}, {3, 4})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 3, 4, 0}));
}

// ---------------------------------------------------------------------------
// sort

// The sort JAX emits for a float array (as in tests/corpus/sort_1d.mlir):
// -0 and 0 compare equal, every NaN becomes the canonical NaN, then LT under
// TOTALORDER, so NaNs sort last.
std::string JaxSortProgram(int64_t n) {
  const std::string t = "tensor<" + std::to_string(n) + "xf32>";
  return Module("func.func @main(%arg0: " + t + ") -> " + t + " {\n" +
                "    %0 = \"stablehlo.sort\"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({\n" + R"(
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
)" + "    }) : (" + t + ") -> " + t + "\n" + "  return %0 : " + t + "\n}");
}

TEST(CpuReduction, SortWithJaxComparatorPlacesNaNsLast) {
  const std::string text = JaxSortProgram(9);
  const Tensor x = Make<float>(E::kF32, {9}, {3, kNaN, -1, -0.0f, 0.0f, -kInf, -kNaN, 2, kInf});
  auto r = RunProgram(text, {x});
  ASSERT_EQ(r.size(), 1u);
  const auto v = Values<float>(r[0]);
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(v[0], -kInf);
  EXPECT_EQ(v[1], -1.0f);
  // -0 and 0 tie; the stable sort keeps -0 (input index 3) first.
  EXPECT_EQ(v[2], 0.0f);
  EXPECT_TRUE(std::signbit(v[2]));
  EXPECT_EQ(v[3], 0.0f);
  EXPECT_FALSE(std::signbit(v[3]));
  EXPECT_EQ(v[4], 2.0f);
  EXPECT_EQ(v[5], 3.0f);
  EXPECT_EQ(v[6], kInf);
  EXPECT_TRUE(std::isnan(v[7]));
  EXPECT_TRUE(std::isnan(v[8]));
  // Both NaNs come out in input order: +NaN then -NaN.
  EXPECT_FALSE(std::signbit(v[7]));
  EXPECT_TRUE(std::signbit(v[8]));
}

std::string SimpleSortProgram(const std::string& t, const std::string& elem, int64_t dim, const std::string& dir) {
  return Module("func.func @main(%arg0: " + t + ") -> " + t + " {\n" +
                "    %0 = \"stablehlo.sort\"(%arg0) <{dimension = " + std::to_string(dim) + " : i64}> ({\n" +
                "    ^bb0(%x: tensor<" + elem + ">, %y: tensor<" + elem + ">):\n" +
                "      %1 = stablehlo.compare " + dir + ", %x, %y : (tensor<" + elem + ">, tensor<" + elem +
                ">) -> tensor<i1>\n" +
                "      stablehlo.return %1 : tensor<i1>\n" +
                "    }) : (" + t + ") -> " + t + "\n" +
                "  return %0 : " + t + "\n}");
}

TEST(CpuReduction, SortAscendingDescendingAndAlongDimensions) {
  const Tensor x = Make<int32_t>(E::kI32, {2, 4}, {3, -1, 7, 0, 5, 5, -9, 2});
  auto asc = RunProgram(SimpleSortProgram("tensor<2x4xi32>", "i32", 1, "LT"), {x});
  ASSERT_EQ(asc.size(), 1u);
  EXPECT_EQ(Values<int32_t>(asc[0]), (std::vector<int32_t>{-1, 0, 3, 7, -9, 2, 5, 5}));
  auto desc = RunProgram(SimpleSortProgram("tensor<2x4xi32>", "i32", -1, "GT"), {x});
  ASSERT_EQ(desc.size(), 1u);
  EXPECT_EQ(Values<int32_t>(desc[0]), (std::vector<int32_t>{7, 3, 0, -1, 5, 5, 2, -9}));
  auto cols = RunProgram(SimpleSortProgram("tensor<2x4xi32>", "i32", 0, "LT"), {x});
  ASSERT_EQ(cols.size(), 1u);
  EXPECT_EQ(Values<int32_t>(cols[0]), (std::vector<int32_t>{3, -1, -9, 0, 5, 5, 7, 2}));
  // Unsigned compare of ui8.
  const Tensor u = Make<uint8_t>(E::kU8, {4}, {200, 7, 255, 0});
  auto us = RunProgram(SimpleSortProgram("tensor<4xui8>", "ui8", 0, "LT"), {u});
  ASSERT_EQ(us.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(us[0]), (std::vector<uint8_t>{0, 7, 200, 255}));
}

TEST(CpuReduction, SortMultiOperandIsStableOnTies) {
  // Sort by key only; values of equal keys keep their input order.
  const std::string text = Module(R"(
  func.func @main(%k: tensor<7xi32>, %v: tensor<7xf32>) -> (tensor<7xi32>, tensor<7xf32>) {
    %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
      %1 = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<7xi32>, tensor<7xf32>) -> (tensor<7xi32>, tensor<7xf32>)
    return %0#0, %0#1 : tensor<7xi32>, tensor<7xf32>
  })");
  auto r = RunProgram(text, {Make<int32_t>(E::kI32, {7}, {2, 1, 2, 0, 1, 2, 0}),
                             Make<float>(E::kF32, {7}, {0, 1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 2}));
  EXPECT_EQ(Values<float>(r[1]), (std::vector<float>{3, 6, 1, 4, 0, 2, 5}));
}

TEST(CpuReduction, SortMultiOperandFromTheCorpus) {
  // tests/corpus/sort_multi_operand.mlir: lexicographic by (i32 key, f32 key
  // under JAX's float order), carrying a third operand.
  const std::string text = testing::ReadFile(testing::SourceDir() + "/tests/corpus/sort_multi_operand.mlir");
  ASSERT_FALSE(text.empty());
  auto r = RunProgram(text, {Make<int32_t>(E::kI32, {10}, {1, 0, 1, 0, 1, 0, 1, 2, 2, 0}),
                             Make<float>(E::kF32, {10}, {5, kNaN, -1, 2, -0.0f, 2, 0.0f, 1, 0, -kInf}),
                             Make<int32_t>(E::kI32, {10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})});
  ASSERT_EQ(r.size(), 3u);
  // key 0: (NaN,1) (2,3) (2,5) (-inf,9) -> -inf, 2, 2, NaN : 9, 3, 5, 1
  // key 1: (5,0) (-1,2) (-0,4) (0,6) -> -1, -0, 0, 5 : 2, 4, 6, 0
  // key 2: (1,7) (0,8) -> 0, 1 : 8, 7
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{9, 3, 5, 1, 2, 4, 6, 0, 8, 7}));
}

TEST(CpuReduction, ArgsortDescendingFromTheCorpus) {
  // tests/corpus/argsort_axis0_descending.mlir: result 0 is argsort along
  // axis 0 descending (stable among ties, by reversing), result 1 ascending
  // along axis 1.
  const std::string text = testing::ReadFile(testing::SourceDir() + "/tests/corpus/argsort_axis0_descending.mlir");
  ASSERT_FALSE(text.empty());
  if (!HaveKernels({"stablehlo.reverse", "stablehlo.iota"})) GTEST_SKIP() << "needs the shape kernels";
  std::vector<float> x(36);
  for (int i = 0; i < 36; ++i) x[static_cast<size_t>(i)] = static_cast<float>((i * 5) % 7);
  auto r = RunProgram(text, {Make(E::kF32, {4, 9}, x)});
  ASSERT_EQ(r.size(), 2u);
  const auto desc = Values<int32_t>(r[0]);
  const auto asc = Values<int32_t>(r[1]);
  for (int c = 0; c < 9; ++c) {
    for (int i = 0; i + 1 < 4; ++i) {
      const int a = desc[static_cast<size_t>(i * 9 + c)], b = desc[static_cast<size_t>((i + 1) * 9 + c)];
      const float va = x[static_cast<size_t>(a * 9 + c)], vb = x[static_cast<size_t>(b * 9 + c)];
      EXPECT_TRUE(va > vb || (va == vb && a < b)) << "column " << c;
    }
  }
  for (int row = 0; row < 4; ++row) {
    for (int j = 0; j + 1 < 9; ++j) {
      const int a = asc[static_cast<size_t>(row * 9 + j)], b = asc[static_cast<size_t>(row * 9 + j + 1)];
      const float va = x[static_cast<size_t>(row * 9 + a)], vb = x[static_cast<size_t>(row * 9 + b)];
      EXPECT_TRUE(va < vb || (va == vb && a < b)) << "row " << row;
    }
  }
}

TEST(CpuReduction, SortZeroSizeAndSingleElement) {
  auto z = RunProgram(SimpleSortProgram("tensor<3x0xf32>", "f32", 1, "LT"), {Make<float>(E::kF32, {3, 0}, {})});
  ASSERT_EQ(z.size(), 1u);
  EXPECT_EQ(z[0].num_elements(), 0);
  auto one = RunProgram(SimpleSortProgram("tensor<3x1xf32>", "f32", 1, "LT"), {Make<float>(E::kF32, {3, 1}, {3, 1, 2})});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(Values<float>(one[0]), (std::vector<float>{3, 1, 2}));
}

TEST(CpuReduction, SortWithAnInconsistentComparatorStaysInBounds) {
  // "Always true" is no strict weak order; the result is some permutation.
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<100xi32>) -> tensor<100xi32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    }) : (tensor<100xi32>) -> tensor<100xi32>
    return %0 : tensor<100xi32>
  })");
  std::vector<int32_t> x(100);
  for (int i = 0; i < 100; ++i) x[static_cast<size_t>(i)] = i;
  auto r = RunProgram(text, {Make(E::kI32, {100}, x)});
  ASSERT_EQ(r.size(), 1u);
  auto v = Values<int32_t>(r[0]);
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v, x);
}

// ---------------------------------------------------------------------------
// map

TEST(CpuReduction, MapBinaryAndGeneralBodies) {
  const std::string add = Module(R"(
  func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  })");
  auto r = RunProgram(add, {Make<float>(E::kF32, {2, 2}, {1, 2, 3, 4}), Make<float>(E::kF32, {2, 2}, {10, 20, 30, 40})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{11, 22, 33, 44}));
  // x > 0 ? x * 2 : -x, converted to i32.
  const std::string general = Module(R"(
  func.func @main(%a: tensor<4xf32>) -> tensor<4xi32> {
    %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<f32>):
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %two = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %pos = stablehlo.compare GT, %x, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %dbl = stablehlo.multiply %x, %two : tensor<f32>
      %neg = stablehlo.negate %x : tensor<f32>
      %sel = stablehlo.select %pos, %dbl, %neg : tensor<i1>, tensor<f32>
      %cvt = stablehlo.convert %sel : (tensor<f32>) -> tensor<i32>
      stablehlo.return %cvt : tensor<i32>
    }) : (tensor<4xf32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  })");
  auto g = RunProgram(general, {Make<float>(E::kF32, {4}, {1.5f, -3.25f, 0, 7})});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(Values<int32_t>(g[0]), (std::vector<int32_t>{3, 3, 0, 14}));
  // Zero-size.
  auto z = RunProgram(Module(R"(
  func.func @main(%a: tensor<0xf32>) -> tensor<0xf32> {
    %0 = "stablehlo.map"(%a, %a) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %1 = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<0xf32>, tensor<0xf32>) -> tensor<0xf32>
    return %0 : tensor<0xf32>
  })"),
                      {Make<float>(E::kF32, {0}, {})});
  ASSERT_EQ(z.size(), 1u);
  EXPECT_EQ(z[0].num_elements(), 0);
}

// ---------------------------------------------------------------------------
// Scalar programs against the interpreter: the same body, once compiled and
// once (by capturing an outer value) run op by op through the elementwise
// kernels, must agree bit for bit (NaN payloads aside).

// A map over a 1-D f32 input whose body computes `ops` (SSA lines using %x and
// the f32 scalar %k, ending in a value %r of type `result`). With `captured`,
// %k comes from outside the body.
std::string MapWithK(const std::string& ops, const std::string& result, int64_t n, bool captured) {
  const std::string in_t = "tensor<" + std::to_string(n) + "xf32>";
  const std::string out_t = "tensor<" + std::to_string(n) + "x" + result + ">";
  const std::string k = "%k = stablehlo.constant dense<3.000000e+00> : tensor<f32>\n";
  return Module("func.func @main(%arg0: " + in_t + ") -> " + out_t + " {\n" + (captured ? "  " + k : "") +
                "  %0 = \"stablehlo.map\"(%arg0) <{dimensions = array<i64: 0>}> ({\n" +
                "  ^bb0(%x: tensor<f32>):\n" + (captured ? "" : "    " + k) + ops +
                "    stablehlo.return %r : tensor<" + result + ">\n" +
                "  }) : (" + in_t + ") -> " + out_t + "\n" +
                "  return %0 : " + out_t + "\n}");
}

TEST(CpuReduction, ScalarProgramsAgreeWithTheElementwiseKernels) {
  if (!HaveKernels({"stablehlo.add", "stablehlo.multiply", "stablehlo.convert", "stablehlo.compare",
                    "stablehlo.select", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.constant",
                    "stablehlo.negate", "stablehlo.abs", "stablehlo.subtract", "stablehlo.divide", "stablehlo.not",
                    "stablehlo.xor"})) {
    GTEST_SKIP() << "needs the elementwise kernels";
  }
  const std::vector<float> specials = {0.0f,   -0.0f,  1.5f,    -2.5f,   1e10f,  -1e10f,  kNaN,    -kNaN,
                                       kInf,   -kInf,  127.9f,  255.5f,  1e-40f, 65504,   70000,   3.4e38f,
                                       -128.5f, 2.5f,   -0.75f,  0.1f,    1e-8f,  4095.9f, -40000,  3.0f};
  const auto n = static_cast<int64_t>(specials.size());
  const Tensor input = Make(E::kF32, {n}, specials);
  struct Case {
    const char* name;
    const char* result;
    const char* ops;
  };
  const Case cases[] = {
      {"f32 -> i8 saturates", "i8",
       "    %m = stablehlo.multiply %x, %k : tensor<f32>\n"
       "    %r = stablehlo.convert %m : (tensor<f32>) -> tensor<i8>\n"},
      {"f32 -> ui8", "ui8",
       "    %m = stablehlo.subtract %x, %k : tensor<f32>\n"
       "    %r = stablehlo.convert %m : (tensor<f32>) -> tensor<ui8>\n"},
      {"f32 -> bf16 rounding", "bf16",
       "    %m = stablehlo.divide %x, %k : tensor<f32>\n"
       "    %r = stablehlo.convert %m : (tensor<f32>) -> tensor<bf16>\n"},
      {"bf16 arithmetic", "bf16",
       "    %b = stablehlo.convert %x : (tensor<f32>) -> tensor<bf16>\n"
       "    %kb = stablehlo.convert %k : (tensor<f32>) -> tensor<bf16>\n"
       "    %m = stablehlo.multiply %b, %kb : tensor<bf16>\n"
       "    %r = stablehlo.add %m, %b : tensor<bf16>\n"},
      {"f16 division", "f16",
       "    %h = stablehlo.convert %x : (tensor<f32>) -> tensor<f16>\n"
       "    %kh = stablehlo.convert %k : (tensor<f32>) -> tensor<f16>\n"
       "    %r = stablehlo.divide %h, %kh : tensor<f16>\n"},
      {"f8e4m3fn conversion", "f8E4M3FN",
       "    %r = stablehlo.convert %x : (tensor<f32>) -> tensor<f8E4M3FN>\n"},
      {"TOTALORDER compare and select", "f32",
       "    %c = stablehlo.compare LT, %x, %k, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
       "    %n = stablehlo.negate %x : tensor<f32>\n"
       "    %r = stablehlo.select %c, %n, %x : tensor<i1>, tensor<f32>\n"},
      {"FLOAT compare with NaN", "i1",
       "    %c = stablehlo.compare GE, %x, %k, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
       "    %d = stablehlo.compare NE, %x, %x, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
       "    %e = stablehlo.xor %c, %d : tensor<i1>\n"
       "    %r = stablehlo.not %e : tensor<i1>\n"},
      {"maximum and minimum", "f32",
       "    %z = stablehlo.multiply %k, %x : tensor<f32>\n"
       "    %a = stablehlo.maximum %x, %z : tensor<f32>\n"
       "    %b = stablehlo.minimum %a, %k : tensor<f32>\n"
       "    %r = stablehlo.abs %b : tensor<f32>\n"},
      {"i32 wrapping and i4", "i4",
       "    %i = stablehlo.convert %x : (tensor<f32>) -> tensor<i32>\n"
       "    %ki = stablehlo.convert %k : (tensor<f32>) -> tensor<i32>\n"
       "    %big = stablehlo.constant dense<1000000007> : tensor<i32>\n"
       "    %m = stablehlo.multiply %i, %big : tensor<i32>\n"
       "    %s = stablehlo.add %m, %ki : tensor<i32>\n"
       "    %r = stablehlo.convert %s : (tensor<i32>) -> tensor<i4>\n"},
      {"u32 to f32 and i64 to f64", "f32",
       "    %u = stablehlo.convert %x : (tensor<f32>) -> tensor<ui32>\n"
       "    %uf = stablehlo.convert %u : (tensor<ui32>) -> tensor<f32>\n"
       "    %l = stablehlo.convert %x : (tensor<f32>) -> tensor<i64>\n"
       "    %lf = stablehlo.convert %l : (tensor<i64>) -> tensor<f64>\n"
       "    %kd = stablehlo.convert %k : (tensor<f32>) -> tensor<f64>\n"
       "    %d = stablehlo.divide %lf, %kd : tensor<f64>\n"
       "    %df = stablehlo.convert %d : (tensor<f64>) -> tensor<f32>\n"
       "    %r = stablehlo.add %uf, %df : tensor<f32>\n"},
      {"bool to float", "f32",
       "    %c = stablehlo.compare GT, %x, %k, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
       "    %r = stablehlo.convert %c : (tensor<i1>) -> tensor<f32>\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto compiled = RunProgram(MapWithK(c.ops, c.result, n, false), {input});
    auto interpreted = RunProgram(MapWithK(c.ops, c.result, n, true), {input});
    ASSERT_EQ(compiled.size(), 1u);
    ASSERT_EQ(interpreted.size(), 1u);
    ASSERT_EQ(compiled[0].byte_size(), interpreted[0].byte_size());
    const size_t width = static_cast<size_t>(ir::StorageBytes(compiled[0].element()));
    const bool is_float = ir::IsFloat(compiled[0].element());
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* a = compiled[0].bytes() + static_cast<size_t>(i) * width;
      const uint8_t* b = interpreted[0].bytes() + static_cast<size_t>(i) * width;
      if (std::memcmp(a, b, width) == 0) continue;
      if (is_float && width == 4) {
        float fa, fb;
        std::memcpy(&fa, a, 4);
        std::memcpy(&fb, b, 4);
        if (std::isnan(fa) && std::isnan(fb)) continue;
      }
      if (is_float && width == 2) {
        // NaN payloads aside: bf16 and f16 NaNs have an all-ones exponent.
        uint16_t ua, ub;
        std::memcpy(&ua, a, 2);
        std::memcpy(&ub, b, 2);
        const uint16_t exp = compiled[0].element() == E::kBF16 ? 0x7F80 : 0x7C00;
        if ((ua & exp) == exp && (ua & ~exp & 0x7FFF) && (ub & exp) == exp && (ub & ~exp & 0x7FFF)) continue;
      }
      ADD_FAILURE() << "input " << specials[static_cast<size_t>(i)] << " (element " << i << ") differs";
    }
  }
}

TEST(CpuReduction, ComplexSumAndProduct) {
  // (1+2i) + (3-1i) + (-2+0.5i) = 2+1.5i; (1+2i)(3-1i) = 5+5i, times
  // (-2+0.5i) = -12.5-7.5i.
  const Tensor z = Make<float>(E::kC64, {3}, {1, 2, 3, -1, -2, 0.5f});
  auto sum = RunProgram(ReduceProgram({3}, {0}, "complex<f32>", "add", "(0.000000e+00,0.000000e+00)"), {z});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(Values<float>(sum[0]), (std::vector<float>{2, 1.5f}));
  auto prod = RunProgram(ReduceProgram({3}, {0}, "complex<f32>", "multiply", "(1.000000e+00,0.000000e+00)"), {z});
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_EQ(Values<float>(prod[0]), (std::vector<float>{-12.5f, -7.5f}));
}

TEST(CpuReduction, F64AndUnsignedReductions) {
  const Tensor d = Make<double>(E::kF64, {2, 2}, {1e300, 1e300, -1.5, 0.25});
  auto max = RunProgram(ReduceProgram({2, 2}, {1}, "f64", "add", "0.000000e+00"), {d});
  ASSERT_EQ(max.size(), 1u);
  EXPECT_EQ(Values<double>(max[0]), (std::vector<double>{2e300, -1.25}));
  const Tensor u = Make<uint32_t>(E::kU32, {3}, {4000000000u, 300000000u, 7u});
  auto sum = RunProgram(ReduceProgram({3}, {0}, "ui32", "add", "0"), {u});
  ASSERT_EQ(sum.size(), 1u);
  EXPECT_EQ(Values<uint32_t>(sum[0]), std::vector<uint32_t>{4300000007u - 4294967296u});
  auto mx = RunProgram(ReduceProgram({3}, {0}, "ui32", "maximum", "0"), {u});
  ASSERT_EQ(mx.size(), 1u);
  EXPECT_EQ(Values<uint32_t>(mx[0]), std::vector<uint32_t>{4000000000u});
}

TEST(CpuReduction, UnverifiedAttributesGiveErrorsNotCrashes) {
  // Programs the verifier rejects still must not crash the kernels.
  const Tensor x = Make<float>(E::kF32, {2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(testing::HasSubstr(RunError(ReduceProgram({2, 3}, {5}, "f32", "add", "0.000000e+00"), {x}),
                                 "dimension"));
  EXPECT_TRUE(testing::HasSubstr(RunError(SimpleSortProgram("tensor<2x3xf32>", "f32", 7, "LT"), {x}), "dimension"));
  const std::string bad_window = ReduceWindowProgram("tensor<2x3xf32>", "tensor<2x3xf32>", "f32",
                                                     "window_dimensions = array<i64: 2, 2>", "add", "0.000000e+00");
  EXPECT_TRUE(testing::HasSubstr(RunError(bad_window, {x}), "result"));
  const std::string zero_stride =
      ReduceWindowProgram("tensor<2x3xf32>", "tensor<2x3xf32>", "f32",
                          "window_dimensions = array<i64: 1, 1>, window_strides = array<i64: 1, 0>", "add",
                          "0.000000e+00");
  EXPECT_NE(RunError(zero_stride, {x}), "<ran fine>");
}

// ---------------------------------------------------------------------------
// Speed: large inputs must not go through the interpreter per element.

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Processor time since `start` (less disturbed by other load than wall time).
double CpuMs(std::clock_t start) { return 1e3 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

TEST(CpuReduction, SpeedSort1e5WithJaxComparator) {
  constexpr int64_t n = 100000;
  const std::string text = JaxSortProgram(n);
  std::vector<float> x(n);
  uint32_t s = 12345;
  for (auto& v : x) {
    s = s * 1664525u + 1013904223u;
    v = static_cast<float>(s >> 8) / 65536.0f - 128.0f;
  }
  x[17] = kNaN;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  auto r = RunProgram(text, {Make(E::kF32, {n}, x)});
  const double seconds = Seconds(start);
  std::cout << "[ timing ] sort of 1e5 f32 with JAX's comparator: " << seconds * 1e3 << " ms (CPU " << CpuMs(cpu)
            << " ms)\n";
  ASSERT_EQ(r.size(), 1u);
  const auto v = Values<float>(r[0]);
  for (int64_t i = 0; i + 2 < n; ++i) ASSERT_LE(v[static_cast<size_t>(i)], v[static_cast<size_t>(i + 1)]);
  EXPECT_TRUE(std::isnan(v[n - 1]));
  EXPECT_LT(seconds, 10.0);
}

TEST(CpuReduction, SpeedReduce1e7Floats) {
  constexpr int64_t n = 10000000;
  std::vector<float> x(n);
  // Quarters: every partial sum is exact in f32.
  for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i % 4) * 0.25f;
  const Tensor input = Make(E::kF32, {n}, x);
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  auto all = RunProgram(ReduceProgram({n}, {0}, "f32", "add", "0.000000e+00"), {input});
  const double t_all = Seconds(start);
  const double cpu_all = CpuMs(cpu);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(Values<float>(all[0]), std::vector<float>{static_cast<float>(n / 4) * 1.5f});
  // Columns of a 1000x10000 matrix (the outer dimension reduced).
  const Tensor matrix = input.Reshaped(ir::Type::Tensor(E::kF32, {1000, 10000}));
  start = std::chrono::steady_clock::now();
  cpu = std::clock();
  auto cols = RunProgram(ReduceProgram({1000, 10000}, {0}, "f32", "maximum", "0xFF800000"), {matrix});
  const double t_cols = Seconds(start);
  const double cpu_cols = CpuMs(cpu);
  ASSERT_EQ(cols.size(), 1u);
  EXPECT_EQ(Values<float>(cols[0])[5], 0.25f);
  std::cout << "[ timing ] reduce of 1e7 f32: all " << t_all * 1e3 << " ms (CPU " << cpu_all << " ms), over rows "
            << t_cols * 1e3 << " ms (CPU " << cpu_cols << " ms)\n";
  EXPECT_LT(t_all + t_cols, 10.0);
}

TEST(CpuReduction, SpeedArgmax1e6) {
  // The argmax body runs as a scalar program; 1e6 steps stay well under a second.
  const std::string text = Module(R"(
  func.func @main(%arg0: tensor<1000x1000xf32>, %0: tensor<1000x1000xi32>) -> tensor<1000xi32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<1000xf32>, tensor<1000xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<1000xi32>
  })");
  std::vector<float> x(1000000);
  std::vector<int32_t> iota(1000000);
  for (int64_t i = 0; i < 1000000; ++i) {
    x[static_cast<size_t>(i)] = static_cast<float>((i * 7) % 1000);
    iota[static_cast<size_t>(i)] = static_cast<int32_t>(i % 1000);
  }
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu = std::clock();
  auto r = RunProgram(text, {Make(E::kF32, {1000, 1000}, x), Make(E::kI32, {1000, 1000}, iota)});
  const double seconds = Seconds(start);
  std::cout << "[ timing ] argmax over 1e6 f32 (scalar-program body): " << seconds * 1e3 << " ms (CPU " << CpuMs(cpu)
            << " ms)\n";
  ASSERT_EQ(r.size(), 1u);
  const auto idx = Values<int32_t>(r[0]);
  for (int64_t row = 0; row < 1000; ++row) {
    // (row*1000 + j)*7 % 1000 = (7j) % 1000 is largest (999) at 7j = 999 + 1000m: j = 857.
    ASSERT_EQ(idx[static_cast<size_t>(row)], 857) << "row " << row;
  }
  EXPECT_LT(seconds, 10.0);
}

}  // namespace
}  // namespace hlograph

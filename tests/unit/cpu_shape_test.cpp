// CPU kernels for constants, iota and the shape ops: broadcasts, reshapes,
// transposes, reverses, concatenation, padding and tuples. Expected values
// are worked out by hand or taken from the StableHLO spec's examples.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "ir/verifier.h"
#include "cpu_test_util.h"
#include "test_util.h"

namespace hlograph::cpu {
namespace {

using ir::ElementType;

using test_util::Make;
using test_util::RunOk;
using test_util::RunProgram;
using test_util::Values;

TEST(CpuShapeTest, Constants) {
  auto r = RunOk(R"(
func.func @main() -> (tensor<2x2xf32>, tensor<3xi32>, tensor<4xi1>, tensor<4xi4>, tensor<2xcomplex<f32>>, tensor<3xui4>) {
  %a = stablehlo.constant dense<[[1.5, -2.0], [0.0, 3.25]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<7> : tensor<3xi32>
  %c = stablehlo.constant dense<[true, false, false, true]> : tensor<4xi1>
  %d = stablehlo.constant dense<[-1, -8, 7, 0]> : tensor<4xi4>
  %e = stablehlo.constant dense<[(1.0, 2.0), (-3.0, 0.5)]> : tensor<2xcomplex<f32>>
  %f = stablehlo.constant dense<[15, 0, 9]> : tensor<3xui4>
  return %a, %b, %c, %d, %e, %f : tensor<2x2xf32>, tensor<3xi32>, tensor<4xi1>, tensor<4xi4>, tensor<2xcomplex<f32>>, tensor<3xui4>
})");
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1.5f, -2.0f, 0.0f, 3.25f}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{7, 7, 7}));
  EXPECT_EQ(Values<uint8_t>(r[2]), (std::vector<uint8_t>{1, 0, 0, 1}));
  // i4 is kept sign-extended in its byte.
  EXPECT_EQ(Values<int8_t>(r[3]), (std::vector<int8_t>{-1, -8, 7, 0}));
  EXPECT_EQ(Values<std::complex<float>>(r[4]),
            (std::vector<std::complex<float>>{{1.0f, 2.0f}, {-3.0f, 0.5f}}));
  EXPECT_EQ(Values<uint8_t>(r[5]), (std::vector<uint8_t>{15, 0, 9}));
}

TEST(CpuShapeTest, HexConstantNormalisesBools) {
  auto r = RunOk(R"(
func.func @main() -> tensor<3xi1> {
  %a = stablehlo.constant dense<"0x000201"> : tensor<3xi1>
  return %a : tensor<3xi1>
})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(r[0]), (std::vector<uint8_t>{0, 1, 1}));
}

TEST(CpuShapeTest, IotaOfEachElementKind) {
  auto r = RunOk(R"(
func.func @main() -> (tensor<2x3xi32>, tensor<3x2xf32>, tensor<3xbf16>, tensor<2xcomplex<f32>>, tensor<2x2x2xui8>, tensor<4xf64>) {
  %a = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %b = stablehlo.iota dim = 0 : tensor<3x2xf32>
  %c = stablehlo.iota dim = 0 : tensor<3xbf16>
  %d = stablehlo.iota dim = 0 : tensor<2xcomplex<f32>>
  %e = stablehlo.iota dim = 1 : tensor<2x2x2xui8>
  %f = stablehlo.iota dim = 0 : tensor<4xf64>
  return %a, %b, %c, %d, %e, %f : tensor<2x3xi32>, tensor<3x2xf32>, tensor<3xbf16>, tensor<2xcomplex<f32>>, tensor<2x2x2xui8>, tensor<4xf64>
})");
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(Values<float>(r[1]), (std::vector<float>{0, 0, 1, 1, 2, 2}));
  // bf16 bits of 0.0, 1.0, 2.0.
  EXPECT_EQ(Values<uint16_t>(r[2]), (std::vector<uint16_t>{0x0000, 0x3F80, 0x4000}));
  EXPECT_EQ(Values<std::complex<float>>(r[3]), (std::vector<std::complex<float>>{{0, 0}, {1, 0}}));
  EXPECT_EQ(Values<uint8_t>(r[4]), (std::vector<uint8_t>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(Values<double>(r[5]), (std::vector<double>{0, 1, 2, 3}));
}

TEST(CpuShapeTest, BroadcastInDim) {
  auto r = RunOk(R"(
func.func @main(%v: tensor<3xi32>, %col: tensor<2x1xi32>, %s: tensor<f32>, %m: tensor<2x3xi32>)
    -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<3x2xi32>, tensor<2x3xi32>) {
  %a = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  %b = stablehlo.broadcast_in_dim %col, dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x3xi32>
  %c = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
  %d = stablehlo.broadcast_in_dim %m, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %e = stablehlo.broadcast %v, sizes = [2] : (tensor<3xi32>) -> tensor<2x3xi32>
  return %a, %b, %c, %d, %e : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x2xf32>, tensor<3x2xi32>, tensor<2x3xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {3}, {1, 2, 3}), Make<int32_t>(ElementType::kI32, {2, 1}, {10, 20}),
                  Make<float>(ElementType::kF32, {}, {4.5f}),
                  Make<int32_t>(ElementType::kI32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{10, 10, 10, 20, 20, 20}));
  EXPECT_EQ(Values<float>(r[2]), (std::vector<float>{4.5f, 4.5f, 4.5f, 4.5f}));
  // dims = [1, 0] maps operand dim 0 to result dim 1: a transpose.
  EXPECT_EQ(Values<int32_t>(r[3]), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(Values<int32_t>(r[4]), (std::vector<int32_t>{1, 2, 3, 1, 2, 3}));
}

TEST(CpuShapeTest, ReshapeKeepsRowMajorOrder) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
})",
                 {Make<float>(ElementType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(CpuShapeTest, TransposeRank3) {
  // operand[i][j][k] = 100 i + 10 j + k; perm [2, 0, 1] gives
  // result[k][i][j] = operand[i][j][k].
  std::vector<int32_t> in;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) in.push_back(100 * i + 10 * j + k);
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x3x4xi32>) -> (tensor<4x2x3xi32>, tensor<3x4x2xi32>) {
  %0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  %1 = stablehlo.transpose %a, dims = [1, 2, 0] : (tensor<2x3x4xi32>) -> tensor<3x4x2xi32>
  return %0, %1 : tensor<4x2x3xi32>, tensor<3x4x2xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {2, 3, 4}, in)});
  ASSERT_EQ(r.size(), 2u);
  std::vector<int32_t> want0, want1;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want0.push_back(100 * i + 10 * j + k);
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i) want1.push_back(100 * i + 10 * j + k);
  EXPECT_EQ(Values<int32_t>(r[0]), want0);
  EXPECT_EQ(Values<int32_t>(r[1]), want1);
}

// Large enough for the tiled copy, with dims that are not multiples of the
// tile: result[k][j][i] = operand[i][j][k].
TEST(CpuShapeTest, TransposeTiledSizes) {
  const int I = 37, J = 3, K = 70;
  std::vector<int32_t> in;
  for (int i = 0; i < I; ++i)
    for (int j = 0; j < J; ++j)
      for (int k = 0; k < K; ++k) in.push_back(10000 * i + 100 * j + k);
  std::vector<uint16_t> in16;
  for (int i = 0; i < 40 * 9; ++i) in16.push_back(static_cast<uint16_t>(i));
  auto r = RunOk(R"(
func.func @main(%a: tensor<37x3x70xi32>, %b: tensor<40x9xf16>) -> (tensor<70x3x37xi32>, tensor<9x40xf16>) {
  %0 = stablehlo.transpose %a, dims = [2, 1, 0] : (tensor<37x3x70xi32>) -> tensor<70x3x37xi32>
  %1 = stablehlo.transpose %b, dims = [1, 0] : (tensor<40x9xf16>) -> tensor<9x40xf16>
  return %0, %1 : tensor<70x3x37xi32>, tensor<9x40xf16>
})",
                 {Make<int32_t>(ElementType::kI32, {I, J, K}, in), Make<uint16_t>(ElementType::kF16, {40, 9}, in16)});
  ASSERT_EQ(r.size(), 2u);
  std::vector<int32_t> want;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < J; ++j)
      for (int i = 0; i < I; ++i) want.push_back(10000 * i + 100 * j + k);
  EXPECT_EQ(Values<int32_t>(r[0]), want);
  std::vector<uint16_t> want16;
  for (int c = 0; c < 9; ++c)
    for (int row = 0; row < 40; ++row) want16.push_back(static_cast<uint16_t>(row * 9 + c));
  EXPECT_EQ(Values<uint16_t>(r[1]), want16);
}

TEST(CpuShapeTest, TransposeOfBoolsAndComplex) {
  auto r = RunOk(R"(
func.func @main() -> (tensor<3x2xi1>, tensor<2x1xcomplex<f64>>) {
  %b = stablehlo.constant dense<[[true, false, false], [true, true, false]]> : tensor<2x3xi1>
  %c = stablehlo.constant dense<[[(1.0, -1.0), (2.0, -2.0)]]> : tensor<1x2xcomplex<f64>>
  %0 = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xi1>) -> tensor<3x2xi1>
  %1 = stablehlo.transpose %c, dims = [1, 0] : (tensor<1x2xcomplex<f64>>) -> tensor<2x1xcomplex<f64>>
  return %0, %1 : tensor<3x2xi1>, tensor<2x1xcomplex<f64>>
})");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<uint8_t>(r[0]), (std::vector<uint8_t>{1, 1, 0, 1, 0, 0}));
  EXPECT_EQ(Values<std::complex<double>>(r[1]), (std::vector<std::complex<double>>{{1, -1}, {2, -2}}));
}

TEST(CpuShapeTest, Reverse) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {
  %0 = stablehlo.reverse %a, dims = [1] : tensor<2x3xi32>
  %1 = stablehlo.reverse %a, dims = [0, 1] : tensor<2x3xi32>
  %2 = stablehlo.reverse %a, dims = [] : tensor<2x3xi32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
}

TEST(CpuShapeTest, Concatenate) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x1xi32>, %e: tensor<2x0xi32>, %c: tensor<1x2xi32>)
    -> (tensor<2x3xi32>, tensor<3x2xi32>) {
  %0 = stablehlo.concatenate %a, %e, %b, dim = 1 : (tensor<2x2xi32>, tensor<2x0xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %1 = stablehlo.concatenate %c, %a, dim = 0 : (tensor<1x2xi32>, tensor<2x2xi32>) -> tensor<3x2xi32>
  return %0, %1 : tensor<2x3xi32>, tensor<3x2xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {2, 2}, {1, 2, 3, 4}), Make<int32_t>(ElementType::kI32, {2, 1}, {5, 6}),
                  Make<int32_t>(ElementType::kI32, {2, 0}, {}), Make<int32_t>(ElementType::kI32, {1, 2}, {7, 8})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{1, 2, 5, 3, 4, 6}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{7, 8, 1, 2, 3, 4}));
}

TEST(CpuShapeTest, ConcatenateI4) {
  auto r = RunOk(R"(
func.func @main() -> tensor<4xi4> {
  %a = stablehlo.constant dense<[-3, 5]> : tensor<2xi4>
  %b = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %0 = stablehlo.concatenate %b, %a, dim = 0 : (tensor<2xi4>, tensor<2xi4>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int8_t>(r[0]), (std::vector<int8_t>{-8, 7, -3, 5}));
}

// The spec's example for pad.
TEST(CpuShapeTest, PadInteriorSpecExample) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x3xi64>, %p: tensor<i64>) -> tensor<5x9xi64> {
  %0 = stablehlo.pad %a, %p, low = [0, 1], high = [2, 1], interior = [1, 2] : (tensor<2x3xi64>, tensor<i64>) -> tensor<5x9xi64>
  return %0 : tensor<5x9xi64>
})",
                 {Make<int64_t>(ElementType::kI64, {2, 3}, {1, 2, 3, 4, 5, 6}), Make<int64_t>(ElementType::kI64, {}, {0})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int64_t>(r[0]), (std::vector<int64_t>{0, 1, 0, 0, 2, 0, 0, 3, 0,  //
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                                          0, 4, 0, 0, 5, 0, 0, 6, 0,  //
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(CpuShapeTest, PadNegativeCrops) {
  // Interior-padded [1, 9, 2, 9, 3, 9, 4, 9, 5]; low -2 / high -1 crop two
  // elements on the left and one on the right; low -3 starts on padding.
  auto r = RunOk(R"(
func.func @main(%a: tensor<5xf32>, %p: tensor<f32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<2x1xf32>) {
  %0 = stablehlo.pad %a, %p, low = [-2], high = [-1], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = stablehlo.pad %a, %p, low = [-3], high = [0], interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<6xf32>
  %2 = stablehlo.pad %a, %p, low = [-1], high = [-1], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<3xf32>
  %r = stablehlo.reshape %a : (tensor<5xf32>) -> tensor<1x5xf32>
  %3 = stablehlo.pad %r, %p, low = [1, -4], high = [0, 0], interior = [0, 0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<2x1xf32>
  return %0, %1, %2, %3 : tensor<6xf32>, tensor<6xf32>, tensor<3xf32>, tensor<2x1xf32>
})",
                 {Make<float>(ElementType::kF32, {5}, {1, 2, 3, 4, 5}), Make<float>(ElementType::kF32, {}, {9})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{2, 9, 3, 9, 4, 9}));
  EXPECT_EQ(Values<float>(r[1]), (std::vector<float>{9, 3, 9, 4, 9, 5}));
  EXPECT_EQ(Values<float>(r[2]), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(Values<float>(r[3]), (std::vector<float>{9, 5}));
}

TEST(CpuShapeTest, PadBoolsAndEmptyOperand) {
  auto r = RunOk(R"(
func.func @main() -> (tensor<5xi1>, tensor<3xi32>) {
  %a = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %0 = stablehlo.pad %a, %f, low = [1], high = [1], interior = [1] : (tensor<2xi1>, tensor<i1>) -> tensor<5xi1>
  %e = stablehlo.constant dense<> : tensor<0xi32>
  %p = stablehlo.constant dense<-4> : tensor<i32>
  %1 = stablehlo.pad %e, %p, low = [2], high = [1], interior = [3] : (tensor<0xi32>, tensor<i32>) -> tensor<3xi32>
  return %0, %1 : tensor<5xi1>, tensor<3xi32>
})");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<uint8_t>(r[0]), (std::vector<uint8_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{-4, -4, -4}));
}

// Extreme but valid padding amounts: everything cropped, or an interior
// padding that never applies to a one-element dim.
TEST(CpuShapeTest, PadExtremeAmounts) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<3xi32>, %b: tensor<1xi32>, %p: tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = stablehlo.pad %a, %p, low = [-9223372036854775807], high = [9223372036854775807], interior = [0] : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %1 = stablehlo.pad %b, %p, low = [1], high = [1], interior = [9223372036854775807] : (tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {3}, {1, 2, 3}), Make<int32_t>(ElementType::kI32, {1}, {5}),
                  Make<int32_t>(ElementType::kI32, {}, {-1})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{-1, -1, -1}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{-1, 5, -1}));
}

TEST(CpuShapeTest, ZeroSizedDims) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<0x3xf32>, %s: tensor<f32>) -> (tensor<3x0xf32>, tensor<2x0x3xf32>, tensor<0x3xf32>, tensor<0xf32>, tensor<3x0xf32>, tensor<0x2xi32>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<0x3xf32>) -> tensor<3x0xf32>
  %1 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<0x3xf32>) -> tensor<2x0x3xf32>
  %2 = stablehlo.reverse %a, dims = [0, 1] : tensor<0x3xf32>
  %3 = stablehlo.reshape %a : (tensor<0x3xf32>) -> tensor<0xf32>
  %4 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x0xf32>
  %5 = stablehlo.iota dim = 1 : tensor<0x2xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x0xf32>, tensor<2x0x3xf32>, tensor<0x3xf32>, tensor<0xf32>, tensor<3x0xf32>, tensor<0x2xi32>
})",
                 {Make<float>(ElementType::kF32, {0, 3}, {}), Make<float>(ElementType::kF32, {}, {1})});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{3, 0}));
  EXPECT_EQ(r[1].shape(), (std::vector<int64_t>{2, 0, 3}));
  EXPECT_EQ(r[5].num_elements(), 0);
}

TEST(CpuShapeTest, TuplesBarriersAndDimensionSizes) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x5xf32>, %b: tensor<i32>) -> (tensor<i32>, tensor<2x5xf32>, tensor<i32>, tensor<i32>) {
  %t = stablehlo.tuple %a, %b : tuple<tensor<2x5xf32>, tensor<i32>>
  %x = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2x5xf32>, tensor<i32>>) -> tensor<i32>
  %y:2 = stablehlo.optimization_barrier %a, %x : tensor<2x5xf32>, tensor<i32>
  %d = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x5xf32>) -> tensor<i32>
  return %x, %y#0, %y#1, %d : tensor<i32>, tensor<2x5xf32>, tensor<i32>, tensor<i32>
})",
                 {Make<float>(ElementType::kF32, {2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
                  Make<int32_t>(ElementType::kI32, {}, {42})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{42}));
  EXPECT_EQ(Values<float>(r[1]), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{42}));
  EXPECT_EQ(Values<int32_t>(r[3]), (std::vector<int32_t>{5}));
}

TEST(CpuShapeTest, DynamicShapeOps) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<2x3xi32>, %v: tensor<3xi32>) -> (tensor<3xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<5xi32>) {
  %s1 = stablehlo.constant dense<[3]> : tensor<1xi64>
  %0 = "stablehlo.dynamic_iota"(%s1) <{iota_dimension = 0 : i64}> : (tensor<1xi64>) -> tensor<3xi32>
  %s2 = stablehlo.constant dense<[3, 2]> : tensor<2xi32>
  %1 = "stablehlo.dynamic_reshape"(%a, %s2) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  %s3 = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %2 = "stablehlo.dynamic_broadcast_in_dim"(%v, %s3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  %p = stablehlo.constant dense<0> : tensor<i32>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi32>
  %hi = stablehlo.constant dense<[-1]> : tensor<1xi32>
  %in = stablehlo.constant dense<[1]> : tensor<1xi32>
  %3 = "stablehlo.dynamic_pad"(%v, %p, %lo, %hi, %in) : (tensor<3xi32>, tensor<i32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<5xi32>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<5xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                  Make<int32_t>(ElementType::kI32, {3}, {7, 8, 9})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{7, 8, 9, 7, 8, 9}));
  // [0, 7, 0, 8, 0, 9]: low 1, interior 1, and high -1 drops the 9.
  EXPECT_EQ(Values<int32_t>(r[3]), (std::vector<int32_t>{0, 7, 0, 8, 0}));
}

TEST(CpuShapeTest, DynamicReshapeRejectsAShapeThatDisagrees) {
  auto r = RunProgram(R"(
func.func @main(%a: tensor<2x3xi32>) -> tensor<3x2xi32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %0 = "stablehlo.dynamic_reshape"(%a, %s) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
})",
               {Make<int32_t>(ElementType::kI32, {2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(testing::HasSubstr(r.status().message(), "output_shape [2, 3]"));
}

// A result larger than the host's memory is an error naming the op and the
// size, not an allocation the system kills the process for touching.
TEST(CpuShapeTest, ResultLargerThanHostMemoryIsAnError) {
  auto r = RunProgram(R"(
func.func @main(%arg0: tensor<f32>) -> tensor<100000x1000000x100xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<100000x1000000x100xf32>
  return %0 : tensor<100000x1000000x100xf32>
})",
                      {Make<float>(ElementType::kF32, {}, {1.5f})});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(testing::HasSubstr(r.status().message(), "stablehlo.broadcast_in_dim"));
  EXPECT_TRUE(testing::HasSubstr(r.status().message(), "needs 40000000000000 bytes for its results"));
}

}  // namespace
}  // namespace hlograph::cpu

// CPU kernels for slicing and indexed access: slice, dynamic_slice,
// dynamic_update_slice, gather, scatter and torch_index_select. Expected
// values are worked out by hand or taken from the StableHLO spec's examples.
#include <gtest/gtest.h>

#include <algorithm>
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

// 0, 1, 2, ... in a tensor of `shape`.
template <typename T>
Tensor Counting(ElementType e, std::vector<int64_t> shape, T first = 0) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<T> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<T>(first + static_cast<T>(i)));
  return Make<T>(e, std::move(shape), v);
}

// ---------------------------------------------------------------------------
// slice, dynamic_slice, dynamic_update_slice

TEST(CpuIndexingTest, SliceWithStrides) {
  // operand[r][c] = 6 r + c; rows 1 and 3, columns 0 and 3.
  auto r = RunOk(R"(
func.func @main(%a: tensor<4x6xi32>) -> (tensor<2x2xi32>, tensor<0x6xi32>, tensor<4x1xi32>) {
  %0 = stablehlo.slice %a [1:4:2, 0:6:3] : (tensor<4x6xi32>) -> tensor<2x2xi32>
  %1 = stablehlo.slice %a [4:4, 0:6] : (tensor<4x6xi32>) -> tensor<0x6xi32>
  %2 = stablehlo.slice %a [0:4, 5:6] : (tensor<4x6xi32>) -> tensor<4x1xi32>
  return %0, %1, %2 : tensor<2x2xi32>, tensor<0x6xi32>, tensor<4x1xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {4, 6})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{6, 9, 18, 21}));
  EXPECT_EQ(r[1].num_elements(), 0);
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{5, 11, 17, 23}));
}

TEST(CpuIndexingTest, RealDynamicSlice) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<4x6xi32>) -> tensor<2x2xi32> {
  %s = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %l = stablehlo.constant dense<[4, 6]> : tensor<2xi64>
  %t = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %0 = "stablehlo.real_dynamic_slice"(%a, %s, %l, %t) : (tensor<4x6xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {4, 6})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{6, 9, 18, 21}));
}

TEST(CpuIndexingTest, DynamicSliceClampsStarts) {
  // operand[r][c] = 4 r + c. Starts (-1, 3) clamp to (0, 2); (7, 1) to
  // (2, 1); an unsigned start past INT64_MAX clamps to the last start.
  auto r = RunOk(R"(
func.func @main(%a: tensor<4x4xi32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i64>, %l: tensor<i64>,
                %u: tensor<ui64>, %z: tensor<ui64>) -> (tensor<2x2xi32>, tensor<2x3xi32>, tensor<1x1xi32>, tensor<0x4xi32>) {
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [2, 2] : (tensor<4x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %1 = stablehlo.dynamic_slice %a, %k, %l, sizes = [2, 3] : (tensor<4x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  %2 = stablehlo.dynamic_slice %a, %u, %z, sizes = [1, 1] : (tensor<4x4xi32>, tensor<ui64>, tensor<ui64>) -> tensor<1x1xi32>
  %3 = stablehlo.dynamic_slice %a, %i, %j, sizes = [0, 4] : (tensor<4x4xi32>, tensor<i32>, tensor<i32>) -> tensor<0x4xi32>
  return %0, %1, %2, %3 : tensor<2x2xi32>, tensor<2x3xi32>, tensor<1x1xi32>, tensor<0x4xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {4, 4}), Make<int32_t>(ElementType::kI32, {}, {-1}),
                  Make<int32_t>(ElementType::kI32, {}, {3}), Make<int64_t>(ElementType::kI64, {}, {7}),
                  Make<int64_t>(ElementType::kI64, {}, {1}),
                  Make<uint64_t>(ElementType::kU64, {}, {0xFFFFFFFFFFFFFFF0ull}),
                  Make<uint64_t>(ElementType::kU64, {}, {0})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{2, 3, 6, 7}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{9, 10, 11, 13, 14, 15}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{12}));
  EXPECT_EQ(r[3].num_elements(), 0);
}

TEST(CpuIndexingTest, DynamicUpdateSliceClampsAndCopies) {
  auto r = RunOk(R"(
func.func @main(%a: tensor<3x4xi32>, %u: tensor<2x2xi32>, %i: tensor<i32>, %j: tensor<i32>)
    -> (tensor<3x4xi32>, tensor<3x4xi32>) {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  return %0, %a : tensor<3x4xi32>, tensor<3x4xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {3, 4}), Make<int32_t>(ElementType::kI32, {2, 2}, {-1, -2, -3, -4}),
                  Make<int32_t>(ElementType::kI32, {}, {5}), Make<int32_t>(ElementType::kI32, {}, {-7})});
  ASSERT_EQ(r.size(), 2u);
  // Starts (5, -7) clamp to (1, 0).
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 1, 2, 3, -1, -2, 6, 7, -3, -4, 10, 11}));
  // The operand itself is untouched.
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(CpuIndexingTest, DynamicUpdateSliceOfBools) {
  auto r = RunOk(R"(
func.func @main() -> tensor<4xi1> {
  %a = stablehlo.constant dense<false> : tensor<4xi1>
  %u = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %i = stablehlo.constant dense<1> : tensor<i8>
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<4xi1>, tensor<2xi1>, tensor<i8>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(r[0]), (std::vector<uint8_t>{0, 1, 1, 0}));
}

// ---------------------------------------------------------------------------
// gather

// The spec's gather example: batching dims, a clamped start ([0, 9]).
TEST(CpuIndexingTest, GatherSpecExampleWithBatchingDims) {
  auto r = RunOk(R"(
func.func @main(%operand: tensor<2x3x4x2xi64>) -> tensor<2x2x3x2x2xi64> {
  %start_indices = stablehlo.constant dense<[
      [[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
      [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>
  %result = "stablehlo.gather"(%operand, %start_indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi64>
  return %result : tensor<2x2x3x2x2xi64>
})",
                 {Counting<int64_t>(ElementType::kI64, {2, 3, 4, 2}, 1)});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int64_t>(r[0]), (std::vector<int64_t>{
                                       1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,  //
                                       33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,  //
                                       1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24,  //
                                       43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30}));
}

// x[idx] on rows, with out-of-range indices clamped into the operand.
TEST(CpuIndexingTest, GatherRowsClampsIndices) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<5x3xf32>, %idx: tensor<5x1xi32>) -> tensor<5x3xf32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, tensor<5x1xi32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
})",
                 {Counting<float>(ElementType::kF32, {5, 3}), Make<int32_t>(ElementType::kI32, {5, 1}, {4, 0, 2, 9, -1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{12, 13, 14, 0, 1, 2, 6, 7, 8, 12, 13, 14, 0, 1, 2}));
}

// x[i, j] pairs: scalar windows from 2-D indices.
TEST(CpuIndexingTest, GatherElementPairs) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<4x4xi32>, %idx: tensor<3x2xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x4xi32>, tensor<3x2xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {4, 4}), Make<int32_t>(ElementType::kI32, {3, 2}, {1, 2, 3, 0, 0, 3})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{6, 12, 3}));
}

// index_vector_dim equal to the indices' rank: each index is a scalar. The
// index map sends it to dim 1, with windows of 2 along dim 1 placed first
// in the result (offset_dims = [0]).
TEST(CpuIndexingTest, GatherImplicitIndexVectorDim) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<2x5xi32>, %idx: tensor<3xui8>) -> tensor<2x2x3xi32> {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 2>}> : (tensor<2x5xi32>, tensor<3xui8>) -> tensor<2x2x3xi32>
  return %0 : tensor<2x2x3xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {2, 5}), Make<uint8_t>(ElementType::kU8, {3}, {0, 3, 200})});
  ASSERT_EQ(r.size(), 1u);
  // result[r][w][b] = x[r][start_b + w]; starts 0, 3, and 200 clamped to 3.
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 3, 3, 1, 4, 4, 5, 8, 8, 6, 9, 9}));
}

TEST(CpuIndexingTest, GatherBoolsAndEmptyIndices) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<4xi1>, %idx: tensor<3x1xi64>, %none: tensor<0x1xi64>) -> (tensor<3xi1>, tensor<0xi1>) {
  %0 = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4xi1>, tensor<3x1xi64>) -> tensor<3xi1>
  %1 = "stablehlo.gather"(%x, %none) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4xi1>, tensor<0x1xi64>) -> tensor<0xi1>
  return %0, %1 : tensor<3xi1>, tensor<0xi1>
})",
                 {Make<uint8_t>(ElementType::kI1, {4}, {0, 1, 1, 0}), Make<int64_t>(ElementType::kI64, {3, 1}, {3, 1, 0}),
                  Make<int64_t>(ElementType::kI64, {0, 1}, {})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<uint8_t>(r[0]), (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(r[1].num_elements(), 0);
}

TEST(CpuIndexingTest, DynamicGather) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<5x3xf32>, %idx: tensor<2x1xi32>) -> tensor<2x2xf32> {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = "stablehlo.dynamic_gather"(%x, %idx, %s) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
})",
                 {Counting<float>(ElementType::kF32, {5, 3}), Make<int32_t>(ElementType::kI32, {2, 1}, {3, 1})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{9, 10, 3, 4}));
}

// ---------------------------------------------------------------------------
// scatter

// The spec's scatter example: batching dims, and the update at [0, 9]
// (dim 1 past the end) dropped.
TEST(CpuIndexingTest, ScatterSpecExampleWithBatchingDims) {
  auto r = RunOk(R"(
func.func @main(%input: tensor<2x3x4x2xi64>, %updates: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %scatter_indices = stablehlo.constant dense<[
      [[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
      [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]> : tensor<2x2x3x2xi64>
  %result = "stablehlo.scatter"(%input, %scatter_indices, %updates) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  return %result : tensor<2x3x4x2xi64>
})",
                 {Counting<int64_t>(ElementType::kI64, {2, 3, 4, 2}, 1),
                  Make<int64_t>(ElementType::kI64, {2, 2, 3, 2, 2}, std::vector<int64_t>(48, 1))});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int64_t>(r[0]), (std::vector<int64_t>{
                                       3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12, 15, 16, 17, 18,  //
                                       17, 18, 19, 20, 22, 23, 24, 25, 25, 26, 28, 29, 30, 31, 31, 32,  //
                                       35, 36, 38, 39, 38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48}));
}

// Duplicate indices accumulate, applied in order: 1 + 1e8 rounds to 1e8,
// so the float sum is exactly 0; another order would give 1.
TEST(CpuIndexingTest, ScatterAddDuplicateIndicesInOrder) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<5xi32>, %idx: tensor<4x1xi32>, %u: tensor<4xi32>, %f: tensor<2xf32>, %fi: tensor<3x1xi32>, %fu: tensor<3xf32>)
    -> (tensor<5xi32>, tensor<2xf32>) {
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<5xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<5xi32>
  %1 = "stablehlo.scatter"(%f, %fi, %fu) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<5xi32>, tensor<2xf32>
})",
                 {Make<int32_t>(ElementType::kI32, {5}, {0, 0, 0, 0, 100}),
                  Make<int32_t>(ElementType::kI32, {4, 1}, {1, 3, 1, 1}), Make<int32_t>(ElementType::kI32, {4}, {1, 2, 3, 4}),
                  Make<float>(ElementType::kF32, {2}, {0, 0}), Make<int32_t>(ElementType::kI32, {3, 1}, {1, 1, 1}),
                  Make<float>(ElementType::kF32, {3}, {1.0f, 1e8f, -1e8f})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{0, 8, 0, 2, 100}));
  EXPECT_EQ(Values<float>(r[1]), (std::vector<float>{0, 0}));
}

// Windows of 1x2 at (row, col) starts: a window that does not fit entirely
// is dropped, including (1, 3) whose first element would be in range.
TEST(CpuIndexingTest, ScatterDropsOutOfBoundsWindows) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<3x4xi32>, %idx: tensor<5x2xi32>, %u: tensor<5x2xi32>) -> tensor<3x4xi32> {
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<3x4xi32>, tensor<5x2xi32>, tensor<5x2xi32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {3, 4}, std::vector<int32_t>(12, 0)),
                  Make<int32_t>(ElementType::kI32, {5, 2}, {0, 0, 1, 3, 2, 2, -1, 0, 1, 1}),
                  Make<int32_t>(ElementType::kI32, {5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{1, 2, 0, 0, 0, 9, 10, 0, 0, 0, 5, 6}));
}

// Two inputs: the first combined by add, the second overwritten (set).
TEST(CpuIndexingTest, ScatterVariadicFastPath) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<3xf32>, %y: tensor<3xi32>, %idx: tensor<2x1xi32>, %ux: tensor<2xf32>, %uy: tensor<2xi32>)
    -> (tensor<3xf32>, tensor<3xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %idx, %ux, %uy) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s, %d : tensor<f32>, tensor<i32>
  }) : (tensor<3xf32>, tensor<3xi32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<3xf32>, tensor<3xi32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
})",
                 {Make<float>(ElementType::kF32, {3}, {1, 2, 3}), Make<int32_t>(ElementType::kI32, {3}, {10, 20, 30}),
                  Make<int32_t>(ElementType::kI32, {2, 1}, {2, 0}), Make<float>(ElementType::kF32, {2}, {0.5f, 0.25f}),
                  Make<int32_t>(ElementType::kI32, {2}, {-1, -2})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{1.25f, 2, 3.5f}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{-2, 20, -1}));
}

// Bodies that are not one recognised op run through the interpreter: here
// the results swap the two updates, and a body returns a constant.
TEST(CpuIndexingTest, ScatterGeneralBody) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<3xi32>, %y: tensor<3xi32>, %idx: tensor<2x1xi32>, %ux: tensor<2xi32>, %uy: tensor<2xi32>)
    -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %idx, %ux, %uy) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    stablehlo.return %d, %c : tensor<i32>, tensor<i32>
  }) : (tensor<3xi32>, tensor<3xi32>, tensor<2x1xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  %1 = "stablehlo.scatter"(%x, %idx, %ux) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.constant dense<7> : tensor<i32>
    stablehlo.return %c : tensor<i32>
  }) : (tensor<3xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<3xi32>
  return %0#0, %0#1, %1 : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {3}, {1, 2, 3}), Make<int32_t>(ElementType::kI32, {3}, {10, 20, 30}),
                  Make<int32_t>(ElementType::kI32, {2, 1}, {2, 0}), Make<int32_t>(ElementType::kI32, {2}, {100, 200}),
                  Make<int32_t>(ElementType::kI32, {2}, {-1, -2})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{-2, 2, -1}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{200, 20, 100}));
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{7, 2, 7}));
}

// i4 adds wrap at 4 bits; bool scatter with `or`; max/min/mul fast paths.
TEST(CpuIndexingTest, ScatterNarrowAndBoolTypes) {
  auto r = RunOk(R"(
func.func @main(%idx: tensor<2xi32>) -> (tensor<3xi4>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xbf16>) {
  %x = stablehlo.constant dense<[7, -8, 0]> : tensor<3xi4>
  %u = stablehlo.constant dense<[1, -1]> : tensor<2xi4>
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i4>, %b: tensor<i4>):
    %s = stablehlo.add %a, %b : tensor<i4>
    stablehlo.return %s : tensor<i4>
  }) : (tensor<3xi4>, tensor<2xi32>, tensor<2xi4>) -> tensor<3xi4>
  %bx = stablehlo.constant dense<[false, false, true]> : tensor<3xi1>
  %bu = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %1 = "stablehlo.scatter"(%bx, %idx, %bu) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %s = stablehlo.or %a, %b : tensor<i1>
    stablehlo.return %s : tensor<i1>
  }) : (tensor<3xi1>, tensor<2xi32>, tensor<2xi1>) -> tensor<3xi1>
  %fx = stablehlo.constant dense<[1.0, 5.0, 0.0]> : tensor<3xf32>
  %fu = stablehlo.constant dense<[3.0, 0x7FC00000]> : tensor<2xf32>
  %2 = "stablehlo.scatter"(%fx, %idx, %fu) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<3xf32>
  %ix = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %iu = stablehlo.constant dense<[-3, 2]> : tensor<2xi32>
  %3 = "stablehlo.scatter"(%ix, %idx, %iu) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.multiply %b, %a : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<3xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3xi32>
  %hx = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xbf16>
  %hu = stablehlo.constant dense<[-1.0, 0.5]> : tensor<2xbf16>
  %4 = "stablehlo.scatter"(%hx, %idx, %hu) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.minimum %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) : (tensor<3xbf16>, tensor<2xi32>, tensor<2xbf16>) -> tensor<3xbf16>
  return %0, %1, %2, %3, %4 : tensor<3xi4>, tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xbf16>
})",
                 {Make<int32_t>(ElementType::kI32, {2}, {0, 1})});
  ASSERT_EQ(r.size(), 5u);
  // 7 + 1 wraps to -8; -8 + -1 wraps to 7.
  EXPECT_EQ(Values<int8_t>(r[0]), (std::vector<int8_t>{-8, 7, 0}));
  EXPECT_EQ(Values<uint8_t>(r[1]), (std::vector<uint8_t>{1, 0, 1}));
  const std::vector<float> f = Values<float>(r[2]);
  EXPECT_EQ(f[0], 3.0f);
  EXPECT_TRUE(f[1] != f[1]);  // NaN propagates through maximum
  EXPECT_EQ(f[2], 0.0f);
  EXPECT_EQ(Values<int32_t>(r[3]), (std::vector<int32_t>{-12, 10, 6}));
  // bf16 bits of -1.0, 0.5, 3.0.
  EXPECT_EQ(Values<uint16_t>(r[4]), (std::vector<uint16_t>{0xBF80, 0x3F00, 0x4040}));
}

// Windows of whole rows (update_window_dims), as x.at[idx].add(rows) emits.
TEST(CpuIndexingTest, ScatterRowWindows) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<4x3xf32>, %idx: tensor<3x1xi32>, %u: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x3xf32>, tensor<3x1xi32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
})",
                 {Counting<float>(ElementType::kF32, {4, 3}), Make<int32_t>(ElementType::kI32, {3, 1}, {3, 0, 3}),
                  Make<float>(ElementType::kF32, {3, 3}, {1, 1, 1, 10, 10, 10, 100, 100, 100})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{10, 11, 12, 3, 4, 5, 6, 7, 8, 110, 111, 112}));
}

TEST(CpuIndexingTest, ScatterWithNoUpdates) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<3xi32>, %idx: tensor<0x1xi32>, %u: tensor<0xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.scatter"(%x, %idx, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<3xi32>, tensor<0x1xi32>, tensor<0xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
})",
                 {Make<int32_t>(ElementType::kI32, {3}, {1, 2, 3}), Make<int32_t>(ElementType::kI32, {0, 1}, {}),
                  Make<int32_t>(ElementType::kI32, {0}, {})});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{1, 2, 3}));
}

// ---------------------------------------------------------------------------
// gather and scatter against a direct transcription of the spec's formulas,
// over dimension numbers in many arrangements (batching dims, index vectors
// first, last or implicit, interleaved window dims) and indices that are
// partly out of range.

std::string Dims(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string TensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + element + ">";
}

int64_t Product(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t Linear(const std::vector<int64_t>& shape, const std::vector<int64_t>& index) {
  int64_t at = 0;
  for (size_t i = 0; i < shape.size(); ++i) at = at * shape[i] + index[i];
  return at;
}

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Deterministic indices in [-margin, bound + margin).
std::vector<int64_t> SomeIndices(int64_t count, int64_t bound, int64_t margin, uint64_t seed) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < count; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(static_cast<int64_t>((seed >> 33) % static_cast<uint64_t>(bound + 2 * margin)) - margin);
  }
  return v;
}

struct IndexingCase {
  std::vector<int64_t> operand_shape, indices_shape;
  std::vector<int64_t> window_dims, collapsed, operand_batching, indices_batching, index_map;
  int64_t index_vector_dim;
  std::vector<int64_t> slice_sizes;   // gather; scatter uses the updates' window sizes
  std::vector<int64_t> result_shape;  // gather's result, scatter's updates
};

const std::vector<IndexingCase>& Cases() {
  static const std::vector<IndexingCase> cases = {
      // Two index components, window dims interleaved with batch dims.
      {{3, 4, 5}, {2, 3, 2}, {1, 3}, {0}, {}, {}, {0, 2}, 2, {1, 2, 3}, {2, 2, 3, 3}},
      // A batching dim, the index vector last.
      {{4, 3, 5}, {3, 4, 1}, {0}, {2}, {0}, {1}, {2}, 2, {1, 2, 1}, {2, 3, 4}},
      // The index vector first, the index map reversed, nothing collapsed.
      {{6, 7}, {2, 5}, {0, 2}, {}, {}, {}, {1, 0}, 0, {2, 3}, {2, 5, 3}},
      // An implicit index vector dim.
      {{5, 2}, {2, 2}, {2}, {0}, {}, {}, {0}, 2, {1, 2}, {2, 2, 2}},
      // Two batching dims paired crosswise and an index vector in the middle.
      {{2, 3, 6, 4}, {3, 1, 2}, {1}, {2}, {0, 1}, {2, 0}, {2}, 1, {1, 1, 1, 3}, {3, 3, 2}},
  };
  return cases;
}

// result[i] = operand[full_start + full_batching + full_offset], starts
// clamped so the slice fits.
std::vector<int32_t> NaiveGather(const IndexingCase& c, const std::vector<int32_t>& operand,
                                 const std::vector<int64_t>& indices) {
  std::vector<int32_t> result;
  const int64_t irank = static_cast<int64_t>(c.indices_shape.size());
  ForEachIndex(c.result_shape, [&](const std::vector<int64_t>& ri) {
    std::vector<int64_t> batch_index, offset_index;
    for (int64_t d = 0; d < static_cast<int64_t>(ri.size()); ++d) {
      (Contains(c.window_dims, d) ? offset_index : batch_index).push_back(ri[static_cast<size_t>(d)]);
    }
    std::vector<int64_t> operand_index(c.operand_shape.size(), 0);
    for (size_t k = 0; k < c.index_map.size(); ++k) {
      std::vector<int64_t> at = batch_index;
      if (c.index_vector_dim < irank) at.insert(at.begin() + c.index_vector_dim, static_cast<int64_t>(k));
      const int64_t d = c.index_map[k];
      const int64_t hi = c.operand_shape[static_cast<size_t>(d)] - c.slice_sizes[static_cast<size_t>(d)];
      operand_index[static_cast<size_t>(d)] +=
          std::clamp<int64_t>(indices[static_cast<size_t>(Linear(c.indices_shape, at))], 0, hi);
    }
    for (size_t i = 0; i < c.operand_batching.size(); ++i) {
      const int64_t ds = c.indices_batching[i];
      operand_index[static_cast<size_t>(c.operand_batching[i])] +=
          batch_index[static_cast<size_t>(ds - (ds < c.index_vector_dim ? 0 : 1))];
    }
    size_t w = 0;
    for (int64_t d = 0; d < static_cast<int64_t>(c.operand_shape.size()); ++d) {
      if (!Contains(c.collapsed, d) && !Contains(c.operand_batching, d)) {
        operand_index[static_cast<size_t>(d)] += offset_index[w++];
      }
    }
    result.push_back(operand[static_cast<size_t>(Linear(c.operand_shape, operand_index))]);
  });
  return result;
}

// results[full_start + full_batching + full_window] += updates[i] for the
// windows that fit entirely.
std::vector<int32_t> NaiveScatterAdd(const IndexingCase& c, std::vector<int32_t> input,
                                     const std::vector<int64_t>& indices, const std::vector<int32_t>& updates) {
  const int64_t irank = static_cast<int64_t>(c.indices_shape.size());
  std::vector<int64_t> window_size(c.operand_shape.size(), 1);
  size_t w = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(c.operand_shape.size()); ++d) {
    if (!Contains(c.collapsed, d) && !Contains(c.operand_batching, d)) {
      window_size[static_cast<size_t>(d)] = c.result_shape[static_cast<size_t>(c.window_dims[w++])];
    }
  }
  ForEachIndex(c.result_shape, [&](const std::vector<int64_t>& ui) {
    std::vector<int64_t> scatter_index, window_index;
    for (int64_t d = 0; d < static_cast<int64_t>(ui.size()); ++d) {
      (Contains(c.window_dims, d) ? window_index : scatter_index).push_back(ui[static_cast<size_t>(d)]);
    }
    std::vector<int64_t> result_index(c.operand_shape.size(), 0);
    for (size_t k = 0; k < c.index_map.size(); ++k) {
      std::vector<int64_t> at = scatter_index;
      if (c.index_vector_dim < irank) at.insert(at.begin() + c.index_vector_dim, static_cast<int64_t>(k));
      const int64_t d = c.index_map[k];
      const int64_t start = indices[static_cast<size_t>(Linear(c.indices_shape, at))];
      if (start < 0 || start > c.operand_shape[static_cast<size_t>(d)] - window_size[static_cast<size_t>(d)]) return;
      result_index[static_cast<size_t>(d)] += start;
    }
    for (size_t i = 0; i < c.operand_batching.size(); ++i) {
      const int64_t ds = c.indices_batching[i];
      result_index[static_cast<size_t>(c.operand_batching[i])] +=
          scatter_index[static_cast<size_t>(ds - (ds < c.index_vector_dim ? 0 : 1))];
    }
    size_t j = 0;
    for (int64_t d = 0; d < static_cast<int64_t>(c.operand_shape.size()); ++d) {
      if (!Contains(c.collapsed, d) && !Contains(c.operand_batching, d)) {
        result_index[static_cast<size_t>(d)] += window_index[j++];
      }
    }
    input[static_cast<size_t>(Linear(c.operand_shape, result_index))] +=
        updates[static_cast<size_t>(Linear(c.result_shape, ui))];
  });
  return input;
}

int64_t LargestDim(const IndexingCase& c) { return *std::max_element(c.operand_shape.begin(), c.operand_shape.end()); }
int64_t SmallestDim(const IndexingCase& c) { return *std::min_element(c.operand_shape.begin(), c.operand_shape.end()); }

TEST(CpuIndexingTest, GatherMatchesTheSpecFormulas) {
  uint64_t seed = 1;
  for (const IndexingCase& c : Cases()) {
    const std::string text =
        "func.func @main(%x: " + TensorType(c.operand_shape, "i32") + ", %i: " + TensorType(c.indices_shape, "i64") +
        ") -> " + TensorType(c.result_shape, "i32") + " {\n  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = " +
        "#stablehlo.gather<offset_dims = " + Dims(c.window_dims) + ", collapsed_slice_dims = " + Dims(c.collapsed) +
        ", operand_batching_dims = " + Dims(c.operand_batching) + ", start_indices_batching_dims = " +
        Dims(c.indices_batching) + ", start_index_map = " + Dims(c.index_map) +
        ", index_vector_dim = " + std::to_string(c.index_vector_dim) + ">, slice_sizes = array<i64: " +
        Dims(c.slice_sizes).substr(1, Dims(c.slice_sizes).size() - 2) + ">}> : (" + TensorType(c.operand_shape, "i32") +
        ", " + TensorType(c.indices_shape, "i64") + ") -> " + TensorType(c.result_shape, "i32") +
        "\n  return %0 : " + TensorType(c.result_shape, "i32") + "\n}\n";
    SCOPED_TRACE(text);
    std::vector<int32_t> operand;
    for (int64_t i = 0; i < Product(c.operand_shape); ++i) operand.push_back(static_cast<int32_t>(1000 + i));
    const std::vector<int64_t> indices = SomeIndices(Product(c.indices_shape), LargestDim(c), 2, seed++);
    auto r = RunOk(text, {Make<int32_t>(ElementType::kI32, c.operand_shape, operand),
                          Make<int64_t>(ElementType::kI64, c.indices_shape, indices)});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(Values<int32_t>(r[0]), NaiveGather(c, operand, indices));
  }
}

TEST(CpuIndexingTest, ScatterMatchesTheSpecFormulas) {
  uint64_t seed = 100;
  for (const IndexingCase& c : Cases()) {
    const std::string in = TensorType(c.operand_shape, "i32");
    const std::string ix = TensorType(c.indices_shape, "i64");
    const std::string up = TensorType(c.result_shape, "i32");
    const std::string text =
        "func.func @main(%x: " + in + ", %i: " + ix + ", %u: " + up + ") -> " + in +
        " {\n  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<" +
        "update_window_dims = " + Dims(c.window_dims) + ", inserted_window_dims = " + Dims(c.collapsed) +
        ", input_batching_dims = " + Dims(c.operand_batching) + ", scatter_indices_batching_dims = " +
        Dims(c.indices_batching) + ", scatter_dims_to_operand_dims = " + Dims(c.index_map) +
        ", index_vector_dim = " + std::to_string(c.index_vector_dim) + ">}> ({\n" +
        "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n    %s = stablehlo.add %a, %b : tensor<i32>\n" +
        "    stablehlo.return %s : tensor<i32>\n  }) : (" + in + ", " + ix + ", " + up + ") -> " + in +
        "\n  return %0 : " + in + "\n}\n";
    SCOPED_TRACE(text);
    std::vector<int32_t> input, updates;
    for (int64_t i = 0; i < Product(c.operand_shape); ++i) input.push_back(static_cast<int32_t>(i * 1000));
    for (int64_t i = 0; i < Product(c.result_shape); ++i) updates.push_back(static_cast<int32_t>(i + 1));
    // Mostly in range, so that windows both land and get dropped.
    const std::vector<int64_t> indices = SomeIndices(Product(c.indices_shape), SmallestDim(c), 1, seed++);
    auto r = RunOk(text, {Make<int32_t>(ElementType::kI32, c.operand_shape, input),
                          Make<int64_t>(ElementType::kI64, c.indices_shape, indices),
                          Make<int32_t>(ElementType::kI32, c.result_shape, updates)});
    ASSERT_EQ(r.size(), 1u);
    const std::vector<int32_t> want = NaiveScatterAdd(c, input, indices, updates);
    EXPECT_NE(want, input);  // some windows land
    EXPECT_EQ(Values<int32_t>(r[0]), want);
  }
}

// Valid but degenerate: a collapsed dim of size 0 (nothing to read: the
// result stays zero), scatter into an empty input, a stride past the end,
// and 16-byte elements.
TEST(CpuIndexingTest, DegenerateShapes) {
  auto r = RunOk(R"(
func.func @main(%e: tensor<0x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>, %c: tensor<3xcomplex<f64>>)
    -> (tensor<2x3xf32>, tensor<0x3xf32>, tensor<1xcomplex<f64>>, tensor<2xcomplex<f64>>) {
  %0 = "stablehlo.gather"(%e, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 0, 3>}> : (tensor<0x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %1 = "stablehlo.scatter"(%e, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<0x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<0x3xf32>
  %2 = stablehlo.slice %c [1:3:100] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
  %j = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %3 = "stablehlo.gather"(%c, %j) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<3xcomplex<f64>>, tensor<2x1xi32>) -> tensor<2xcomplex<f64>>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<0x3xf32>, tensor<1xcomplex<f64>>, tensor<2xcomplex<f64>>
})",
                 {Make<float>(ElementType::kF32, {0, 3}, {}), Make<int32_t>(ElementType::kI32, {2, 1}, {0, 5}),
                  Make<float>(ElementType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6}),
                  Make<std::complex<double>>(ElementType::kC128, {3}, {{1, -1}, {2, -2}, {3, -3}})});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(r[1].num_elements(), 0);
  EXPECT_EQ(Values<std::complex<double>>(r[2]), (std::vector<std::complex<double>>{{2, -2}}));
  EXPECT_EQ(Values<std::complex<double>>(r[3]), (std::vector<std::complex<double>>{{3, -3}, {1, -1}}));
}

// ---------------------------------------------------------------------------
// torch_index_select

TEST(CpuIndexingTest, TorchIndexSelect) {
  auto r = RunOk(R"(
func.func @main(%x: tensor<3x4xi32>, %i: tensor<2xi32>, %y: tensor<2x3xi32>, %j: tensor<2x2xi64>)
    -> (tensor<2x4xi32>, tensor<3x2xi32>, tensor<2x2xi32>) {
  %0 = "stablehlo.torch_index_select"(%x, %i) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<3x4xi32>, tensor<2xi32>) -> tensor<2x4xi32>
  %1 = "stablehlo.torch_index_select"(%x, %i) {dim = 1 : i64, batch_dims = 0 : i64} : (tensor<3x4xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  %2 = "stablehlo.torch_index_select"(%y, %j) {dim = 1 : i64, batch_dims = 1 : i64} : (tensor<2x3xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  return %0, %1, %2 : tensor<2x4xi32>, tensor<3x2xi32>, tensor<2x2xi32>
})",
                 {Counting<int32_t>(ElementType::kI32, {3, 4}), Make<int32_t>(ElementType::kI32, {2}, {2, 0}),
                  Counting<int32_t>(ElementType::kI32, {2, 3}), Make<int64_t>(ElementType::kI64, {2, 2}, {2, 0, 1, 1})});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(Values<int32_t>(r[0]), (std::vector<int32_t>{8, 9, 10, 11, 0, 1, 2, 3}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{2, 0, 6, 4, 10, 8}));
  // result[b][k] = y[b][j[b][k]].
  EXPECT_EQ(Values<int32_t>(r[2]), (std::vector<int32_t>{2, 0, 4, 4}));
}

}  // namespace
}  // namespace hlograph::cpu

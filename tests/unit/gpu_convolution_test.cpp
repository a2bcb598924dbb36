// stablehlo.convolution on the GPU backend: cuDNN for the convolutions it
// computes as they are, otherwise one generated kernel with its elementwise
// producers fused in, for every attribute the spec has. The plans and the
// NVRTC compile need no GPU; the comparison with the interpreter skips
// without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/planner.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Case {
  const char* name;
  const char* text;
  int cudnn = 0;      // how many of its convolutions cuDNN runs
  bool tf32 = false;  // f32 products at DEFAULT precision may round their operands to TF32
};

// Window attributes and layouts the corpus does not reach: negative padding,
// reversal, lhs and rhs dilation with strides, feature and batch groups in
// permuted layouts, sums long enough for a warp per output, mixed types.
// The generated kernel takes those cuDNN does not.
const Case kCases[] = {
    {"negative_padding_reversal_dilations", R"(
func.func @main(%x: tensor<2x7x6x3xf32>, %w: tensor<3x2x3x4xf32>) -> tensor<2x6x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[-1, 2], [1, -1]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x6x4x4xf32>
  return %0 : tensor<2x6x4x4xf32>
})"},
    {"transposed_1d_reversed", R"(
func.func @main(%x: tensor<2x3x9xf32>, %w: tensor<4x3x4xf32>) -> tensor<2x4x10xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[-2, 3]], lhs_dilate = [3], rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9xf32>, tensor<4x3x4xf32>) -> tensor<2x4x10xf32>
  return %0 : tensor<2x4x10xf32>
})"},
    {"feature_groups_permuted_layouts", R"(
func.func @main(%x: tensor<5x4x3x4xf32>, %w: tensor<2x6x2x3xf32>) -> tensor<6x5x3x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [0, f, b, 1]x[i, o, 1, 0]->[f, 0, b, 1], window = {stride = [1, 1], pad = [[1, 1], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<5x4x3x4xf32>, tensor<2x6x2x3xf32>) -> tensor<6x5x3x3xf32>
  return %0 : tensor<6x5x3x3xf32>
})", 1},
    {"batch_groups", R"(
func.func @main(%x: tensor<4x5x5x3xf32>, %w: tensor<2x2x3x6xf32>) -> tensor<2x4x4x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x5x3xf32>, tensor<2x2x3x6xf32>) -> tensor<2x4x4x6xf32>
  return %0 : tensor<2x4x4x6xf32>
})", 1},
    {"weight_gradient_warp_per_output", R"(
func.func @main(%x: tensor<16x6x6x4xf32>, %w: tensor<16x3x3x6xf32>) -> tensor<4x4x2x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x6x6x4xf32>, tensor<16x3x3x6xf32>) -> tensor<4x4x2x6xf32>
  return %0 : tensor<4x4x2x6xf32>
})", 1, true},
    {"fused_pad_reverse_convert_bf16", R"(
func.func @main(%x: tensor<2x5x5x3xf32>, %w: tensor<3x3x3x4xbf16>) -> tensor<2x7x4x4xbf16> {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
  %c = stablehlo.convert %x : (tensor<2x5x5x3xf32>) -> tensor<2x5x5x3xbf16>
  %p = stablehlo.pad %c, %z, low = [0, 1, -1, 0], high = [0, 0, 2, 0], interior = [0, 1, 0, 0] : (tensor<2x5x5x3xbf16>, tensor<bf16>) -> tensor<2x10x6x3xbf16>
  %r = stablehlo.reverse %w, dims = [0, 1] : tensor<3x3x3x4xbf16>
  %0 = stablehlo.convolution(%p, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[-1, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x6x3xbf16>, tensor<3x3x3x4xbf16>) -> tensor<2x7x4x4xbf16>
  return %0 : tensor<2x7x4x4xbf16>
})"},
    {"int8_to_int32", R"(
func.func @main(%x: tensor<1x6x6x8xi8>, %w: tensor<3x3x8x2xi8>) -> tensor<1x4x4x2xi32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x8xi8>, tensor<3x3x8x2xi8>) -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
})"},
    {"f16_to_f32_and_f64", R"(
func.func @main(%x: tensor<2x3x8xf16>, %w: tensor<4x3x3xf16>, %y: tensor<2x3x8xf64>, %v: tensor<4x3x3xf64>) -> (tensor<2x4x6xf32>, tensor<2x4x8xf64>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x8xf16>, tensor<4x3x3xf16>) -> tensor<2x4x6xf32>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x8xf64>, tensor<4x3x3xf64>) -> tensor<2x4x8xf64>
  return %0, %1 : tensor<2x4x6xf32>, tensor<2x4x8xf64>
})", 2},
    // cuDNN from here on.
    {"cudnn_nhwc_hwio_same_bias_relu", R"(
func.func @main(%x: tensor<4x16x16x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16x16x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<4x16x16x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<16xf32>) -> tensor<4x16x16x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16x16x16xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<4x16x16x16xf32>
  %3 = stablehlo.maximum %2, %z : tensor<4x16x16x16xf32>
  return %3 : tensor<4x16x16x16xf32>
})", 1, true},
    {"cudnn_nchw_groups_stride_dilation_highest", R"(
func.func @main(%x: tensor<2x6x13x11xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<2x4x6x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [0, 0]], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x6x13x11xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x6x5xf32>
  return %0 : tensor<2x4x6x5xf32>
})", 1},
    {"cudnn_f16_nhwc_and_bf16_nchw", R"(
func.func @main(%x: tensor<2x9x9x16xf16>, %w: tensor<3x3x16x8xf16>, %y: tensor<2x8x7x7xbf16>, %v: tensor<8x8x1x1xbf16>) -> (tensor<2x9x9x8xf16>, tensor<2x8x7x7xbf16>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x16xf16>, tensor<3x3x16x8xf16>) -> tensor<2x9x9x8xf16>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x7x7xbf16>, tensor<8x8x1x1xbf16>) -> tensor<2x8x7x7xbf16>
  return %0, %1 : tensor<2x9x9x8xf16>, tensor<2x8x7x7xbf16>
})", 2},
    {"cudnn_3d_ndhwc_and_1d_nwc", R"(
func.func @main(%x: tensor<2x6x6x6x4xf32>, %w: tensor<3x3x3x4x5xf32>, %y: tensor<3x20x6xf32>, %v: tensor<5x6x7xf32>) -> (tensor<2x6x6x6x5xf32>, tensor<3x16x7xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]], rhs_dilate = [1, 1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x6x6x6x4xf32>, tensor<3x3x3x4x5xf32>) -> tensor<2x6x6x6x5xf32>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<3x20x6xf32>, tensor<5x6x7xf32>) -> tensor<3x16x7xf32>
  return %0, %1 : tensor<2x6x6x6x5xf32>, tensor<3x16x7xf32>
})", 2},
    {"cudnn_uneven_padding_stride_2", R"(
func.func @main(%x: tensor<2x8x9x5xf32>, %w: tensor<3x3x5x6xf32>) -> tensor<2x4x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [2, 3]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x8x9x5xf32>, tensor<3x3x5x6xf32>) -> tensor<2x4x6x6xf32>
  return %0 : tensor<2x4x6x6xf32>
})", 1},
    // Epilogues (convolution_epilogue.h): a folded batch norm, a residual
    // and relu with the zero first, all applied by cuDNN.
    {"epilogue_scale_shift_residual_relu", R"(
func.func @main(%x: tensor<2x8x8x16xf32>, %w: tensor<3x3x16x16xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<2x8x8x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<2x8x8x16xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [3] : (tensor<16xf32>) -> tensor<2x8x8x16xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<2x8x8x16xf32>
  %3 = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<16xf32>) -> tensor<2x8x8x16xf32>
  %4 = stablehlo.add %3, %2 : tensor<2x8x8x16xf32>
  %5 = stablehlo.add %4, %x : tensor<2x8x8x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x8x16xf32>
  %7 = stablehlo.maximum %6, %5 : tensor<2x8x8x16xf32>
  return %7 : tensor<2x8x8x16xf32>
})", 1},
    // NCHW bf16: the mean subtracted by cuDNN; the value after it is also
    // returned, so the rest (a residual computed after the convolution)
    // is a loop kernel.
    {"epilogue_nchw_bf16_stops_at_a_second_use", R"(
func.func @main(%x: tensor<2x8x6x6xbf16>, %w: tensor<8x8x3x3xbf16>, %m: tensor<8xbf16>, %r: tensor<2x8x6x6xbf16>) -> (tensor<2x8x6x6xbf16>, tensor<2x8x6x6xbf16>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x6x6xbf16>, tensor<8x8x3x3xbf16>) -> tensor<2x8x6x6xbf16>
  %1 = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<8xbf16>) -> tensor<2x8x6x6xbf16>
  %2 = stablehlo.subtract %0, %1 : tensor<2x8x6x6xbf16>
  %3 = stablehlo.exponential %r : tensor<2x8x6x6xbf16>
  %4 = stablehlo.add %2, %3 : tensor<2x8x6x6xbf16>
  return %4, %2 : tensor<2x8x6x6xbf16>, tensor<2x8x6x6xbf16>
})", 1},
    // f16 1x1 convolution: a bias shaped 1x1x1xK, relu against a splat.
    {"epilogue_f16_bias_of_unit_dims_relu", R"(
func.func @main(%x: tensor<2x5x5x8xf16>, %w: tensor<1x1x8x8xf16>, %b: tensor<1x1x1x8xf16>) -> tensor<2x5x5x8xf16> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x8xf16>, tensor<1x1x8x8xf16>) -> tensor<2x5x5x8xf16>
  %1 = stablehlo.broadcast_in_dim %b, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf16>) -> tensor<2x5x5x8xf16>
  %2 = stablehlo.add %0, %1 : tensor<2x5x5x8xf16>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<2x5x5x8xf16>
  %3 = stablehlo.maximum %2, %z : tensor<2x5x5x8xf16>
  return %3 : tensor<2x5x5x8xf16>
})", 1},
};

constexpr size_t kFirstCudnnCase = 8;  // the first with only cuDNN convolutions

// What jax.grad of a convolution emits (exported from JAX 0.11): the forward
// convolution, its filter gradient (batch and feature swapped, the stride as
// rhs dilation, batch groups for depthwise) and its input gradient (lhs
// dilation by the stride over a reversed kernel), every one through cuDNN;
// and a bf16 convolution with an f32 result (preferred_element_type).
const Case kAutodiffCases[] = {
    {"grad_same_stride2", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x8x4xf32>, %arg1: tensor<3x3x4x6xf32>) -> (tensor<2x8x8x4xf32>, tensor<3x3x4x6xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<2x4x4x6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4x6xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<2x4x4x6xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<2x4x4x6xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x4x4x6xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<2x4x4x6xf32>) -> tensor<3x3x4x6xf32>
    %6 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x4x6xf32>
    %7 = stablehlo.convolution(%4, %6) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x6xf32>, tensor<3x3x4x6xf32>) -> tensor<2x8x8x4xf32>
    return %7, %5 : tensor<2x8x8x4xf32>, tensor<3x3x4x6xf32>
  }
})", 3, true},
    {"grad_valid_stride2_remainder", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x9x8x4xf32>, %arg1: tensor<3x3x4x6xf32>) -> (tensor<2x9x8x4xf32>, tensor<3x3x4x6xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x9x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<2x4x3x6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x3x6xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<2x4x3x6xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<2x4x3x6xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x4x3x6xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, -1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x9x8x4xf32>, tensor<2x4x3x6xf32>) -> tensor<3x3x4x6xf32>
    %6 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x4x6xf32>
    %7 = stablehlo.convolution(%4, %6) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 2], [2, 3]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x3x6xf32>, tensor<3x3x4x6xf32>) -> tensor<2x9x8x4xf32>
    return %7, %5 : tensor<2x9x8x4xf32>, tensor<3x3x4x6xf32>
  }
})", 3, true},
    {"grad_depthwise", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x8x4xf32>, %arg1: tensor<3x3x1x4xf32>) -> (tensor<2x8x8x4xf32>, tensor<3x3x1x4xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x8x8x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x8x4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<2x8x8x4xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<2x8x8x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x8x8x4xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 4 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<2x8x8x4xf32>) -> tensor<3x3x1x4xf32>
    %6 = stablehlo.reshape %arg1 : (tensor<3x3x1x4xf32>) -> tensor<3x3x1x4x1xf32>
    %7 = stablehlo.transpose %6, dims = [0, 1, 3, 2, 4] : (tensor<3x3x1x4x1xf32>) -> tensor<3x3x4x1x1xf32>
    %8 = stablehlo.reshape %7 : (tensor<3x3x4x1x1xf32>) -> tensor<3x3x4x1xf32>
    %9 = stablehlo.reverse %8, dims = [0, 1] : tensor<3x3x4x1xf32>
    %10 = stablehlo.convolution(%4, %9) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x4xf32>, tensor<3x3x4x1xf32>) -> tensor<2x8x8x4xf32>
    return %10, %5 : tensor<2x8x8x4xf32>, tensor<3x3x1x4xf32>
  }
})", 3, true},
    {"grad_nchw_dilated", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x9x9xf32>, %arg1: tensor<6x4x3x3xf32>) -> (tensor<2x4x9x9xf32>, tensor<6x4x3x3xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<2x6x9x9xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x6x9x9xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<2x6x9x9xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<2x6x9x9xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x6x9x9xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1], window = {stride = [2, 2], pad = [[2, 2], [2, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x9x9xf32>, tensor<2x6x9x9xf32>) -> tensor<6x4x3x3xf32>
    %6 = stablehlo.reverse %arg1, dims = [2, 3] : tensor<6x4x3x3xf32>
    %7 = stablehlo.convolution(%4, %6) dim_numbers = [b, f, 0, 1]x[i, o, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[2, 2], [2, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x6x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<2x4x9x9xf32>
    return %7, %5 : tensor<2x4x9x9xf32>, tensor<6x4x3x3xf32>
  }
})", 3, true},
    {"grad_1d_stride2", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16x4xf32>, %arg1: tensor<3x4x5xf32>) -> (tensor<2x16x4xf32>, tensor<3x4x5xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[0, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x4xf32>, tensor<3x4x5xf32>) -> tensor<2x8x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x5xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<2x8x5xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<2x8x5xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x8x5xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, 0, b]x[i, 0, o]->[0, b, f], window = {stride = [1], pad = [[0, 1]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x4xf32>, tensor<2x8x5xf32>) -> tensor<3x4x5xf32>
    %6 = stablehlo.reverse %arg1, dims = [0] : tensor<3x4x5xf32>
    %7 = stablehlo.convolution(%4, %6) dim_numbers = [b, 0, f]x[0, o, i]->[b, 0, f], window = {stride = [1], pad = [[2, 1]], lhs_dilate = [2], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x5xf32>, tensor<3x4x5xf32>) -> tensor<2x16x4xf32>
    return %7, %5 : tensor<2x16x4xf32>, tensor<3x4x5xf32>
  }
})", 3, true},
    {"grad_3d", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x6x6x6x3xf32>, %arg1: tensor<3x3x3x3x4xf32>) -> (tensor<1x6x6x6x3xf32>, tensor<3x3x3x3x4xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [2, 2, 2], pad = [[0, 1], [0, 1], [0, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [1, 1, 1], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x6x3xf32>, tensor<3x3x3x3x4xf32>) -> tensor<1x3x3x3x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x3x3x3x4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<1x3x3x3x4xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<1x3x3x3x4xf32>
    %4 = stablehlo.add %2, %3 : tensor<1x3x3x3x4xf32>
    %5 = stablehlo.convolution(%arg0, %4) dim_numbers = [f, 0, 1, 2, b]x[i, 0, 1, 2, o]->[0, 1, 2, b, f], window = {stride = [1, 1, 1], pad = [[0, 1], [0, 1], [0, 1]], lhs_dilate = [1, 1, 1], rhs_dilate = [2, 2, 2], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x6x3xf32>, tensor<1x3x3x3x4xf32>) -> tensor<3x3x3x3x4xf32>
    %6 = stablehlo.reverse %arg1, dims = [0, 1, 2] : tensor<3x3x3x3x4xf32>
    %7 = stablehlo.convolution(%4, %6) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, o, i]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[2, 1], [2, 1], [2, 1]], lhs_dilate = [2, 2, 2], rhs_dilate = [1, 1, 1], reverse = [false, false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x3x3x3x4xf32>, tensor<3x3x3x3x4xf32>) -> tensor<1x6x6x6x3xf32>
    return %7, %5 : tensor<1x6x6x6x3xf32>, tensor<3x3x3x3x4xf32>
  }
})", 3, true},
    {"grad_bf16_projection", R"(module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x8x8xbf16>, %arg1: tensor<1x1x8x16xbf16>) -> (tensor<2x8x8x8xbf16>, tensor<1x1x8x16xbf16>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xbf16>, tensor<1x1x8x16xbf16>) -> tensor<2x4x4x16xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4x16xf32>
    %2 = stablehlo.convert %1 : (tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xbf16>
    %3 = stablehlo.multiply %0, %2 : tensor<2x4x4x16xbf16>
    %4 = stablehlo.multiply %2, %0 : tensor<2x4x4x16xbf16>
    %5 = stablehlo.add %3, %4 : tensor<2x4x4x16xbf16>
    %6 = stablehlo.convolution(%arg0, %5) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, -1], [0, -1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xbf16>, tensor<2x4x4x16xbf16>) -> tensor<1x1x8x16xbf16>
    %7 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<1x1x8x16xbf16>
    %8 = stablehlo.convolution(%5, %7) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x16xbf16>, tensor<1x1x8x16xbf16>) -> tensor<2x8x8x8xbf16>
    return %8, %6 : tensor<2x8x8x8xbf16>, tensor<1x1x8x16xbf16>
  }
})", 3, true},
    {"fwd_bf16_to_f32", R"(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x8x8xbf16>, %arg1: tensor<3x3x8x16xbf16>) -> (tensor<2x8x8x16xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x8xbf16>, tensor<3x3x8x16xbf16>) -> tensor<2x8x8x16xf32>
    return %0 : tensor<2x8x8x16xf32>
  }
})", 1, true},
    // lax.conv_transpose (a kernel not reversed): backward data over a reversed copy.
    {"conv_transpose_stride2", R"(
func.func @main(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x2xf32>) -> tensor<1x16x16x2xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x16x16x2xf32>
  return %0 : tensor<1x16x16x2xf32>
})", 1, true},
};

std::vector<const ConvolutionStep*> CudnnSteps(const GpuProgram& program) {
  std::vector<const ConvolutionStep*> steps;
  ForEachStep(program.main, [&](const Step& s, int) {
    if (const auto* c = std::get_if<ConvolutionStep>(&s.action)) steps.push_back(c);
  });
  return steps;
}

StatusOr<GpuProgram> PlanText(const std::string& text, std::vector<std::unique_ptr<ir::Module>>& modules) {
  modules = testing::ParseOrDie(text);
  if (modules.empty()) return Status::Error("no module");
  return PlanProgram(*modules[0]);
}

TEST(GpuConvolution, ProducersFuseIntoOneKernel) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[5].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  ASSERT_EQ(program->fusions.size(), 1u) << program->ToString();
  const Fusion& f = program->fusions[0];
  EXPECT_EQ(f.kind, FusionKind::kConvolution);
  EXPECT_EQ(f.ops.size(), 5u);  // constant, convert, pad, reverse, convolution
  EXPECT_EQ(f.inputs.size(), 2u);
}

TEST(GpuConvolution, WarpPerOutputWhenTheSumsAreLong) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  const testing::ScopedEnv no_cudnn("HLOGRAPH_GPU_CUDNN", "0");
  auto program = PlanText(kCases[4].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  auto k = EmitKernel(program->fusions[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->strategy, "convolution (warp per output)");
  EXPECT_TRUE(testing::HasSubstr(k->code, "__shfl_down_sync"));
}

TEST(GpuConvolution, CudnnTakesWhatItComputesAsIs) {
  std::vector<Case> all(std::begin(kCases), std::end(kCases));
  all.insert(all.end(), std::begin(kAutodiffCases), std::end(kAutodiffCases));
  for (const Case& c : all) {
    std::vector<std::unique_ptr<ir::Module>> modules;
    auto program = PlanText(c.text, modules);
    ASSERT_TRUE(program.ok()) << c.name << ": " << program.status().message();
    EXPECT_EQ(CudnnSteps(*program).size(), static_cast<size_t>(c.cudnn)) << c.name << "\n" << program->ToString();
  }
}

TEST(GpuConvolution, CudnnConfigOfJaxLayout) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 1u);
  const ConvConfig& c = steps[0]->config;
  EXPECT_EQ(c.kind, ConvKind::kForward);
  EXPECT_TRUE(c.allow_tf32);
  EXPECT_EQ(c.x.dims, (std::vector<int64_t>{4, 8, 16, 16}));
  EXPECT_EQ(c.x.strides, (std::vector<int64_t>{2048, 1, 128, 8}));
  // The HWIO [3, 3, 8, 16] filter is read through a KRSC copy: cuDNN's
  // NHWC engines read filters packed so, whatever strides they are given.
  EXPECT_EQ(c.w.dims, (std::vector<int64_t>{16, 8, 3, 3}));
  EXPECT_EQ(c.w.strides, (std::vector<int64_t>{72, 1, 24, 8}));
  ASSERT_EQ(program->fusions[0].kind, FusionKind::kTranspose);
  EXPECT_EQ(program->fusions[0].permutation, (std::vector<int64_t>{3, 0, 1, 2}));
  EXPECT_EQ(c.pre_padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.post_padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.ToString(),
            "cudnn conv forward f32 x 4x8x16x16 NHWC w 16x8x3x3 KRSC -> y 4x16x16x16 NHWC pad [1,1] stride [1,1] "
            "dilation [1,1] tf32 then add(channels) relu");
  // The bias and relu after it are cuDNN's: the filter's transpose is the only kernel.
  EXPECT_EQ(program->fusions.size(), 1u) << program->ToString();
  ASSERT_EQ(steps[0]->epilogue_operands.size(), 1u);
  EXPECT_EQ(steps[0]->epilogue_operands[0], program->parameters[2]);
}

// What each epilogue case's convolution applies, and the kernels left.
TEST(GpuConvolution, EpiloguesTakeTheOpsCudnnApplies) {
  struct Want {
    const char* name;
    const char* epilogue;  // the end of the config's description
    size_t kernels;
  };
  const Want wants[] = {
      {"epilogue_scale_shift_residual_relu", "then multiply(channels) add(channels) add(tensor) relu", 1},
      {"epilogue_nchw_bf16_stops_at_a_second_use", "then subtract(channels)", 1},
      {"epilogue_f16_bias_of_unit_dims_relu", "then add(channels) relu", 1},
  };
  for (const Want& want : wants) {
    const Case* c = std::find_if(std::begin(kCases), std::end(kCases),
                                 [&](const Case& k) { return std::string(k.name) == want.name; });
    ASSERT_NE(c, std::end(kCases)) << want.name;
    std::vector<std::unique_ptr<ir::Module>> modules;
    auto program = PlanText(c->text, modules);
    ASSERT_TRUE(program.ok()) << want.name << ": " << program.status().message();
    const auto steps = CudnnSteps(*program);
    ASSERT_EQ(steps.size(), 1u) << want.name;
    EXPECT_TRUE(testing::HasSuffix(steps[0]->config.ToString(), want.epilogue)) << steps[0]->config.ToString();
    EXPECT_EQ(program->fusions.size(), want.kernels) << want.name << "\n" << program->ToString();
  }
  // Turned off, or refused by cuDNN (a program of its own: refusals last
  // for the process): the ops are kernels again.
  std::vector<std::unique_ptr<ir::Module>> modules;
  const char* text = R"(
func.func @main(%x: tensor<3x6x6x8xf32>, %w: tensor<3x3x8x8xf32>, %b: tensor<8xf32>) -> tensor<3x6x6x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x6x6x8xf32>, tensor<3x3x8x8xf32>) -> tensor<3x6x6x8xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<8xf32>) -> tensor<3x6x6x8xf32>
  %2 = stablehlo.add %0, %1 : tensor<3x6x6x8xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x6x6x8xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<3x6x6x8xf32>
  return %4 : tensor<3x6x6x8xf32>
})";
  {
    const testing::ScopedEnv off("HLOGRAPH_GPU_CONV_EPILOGUE", "0");
    auto program = PlanText(text, modules);
    ASSERT_TRUE(program.ok()) << program.status().message();
    EXPECT_TRUE(CudnnSteps(*program)[0]->config.epilogue.empty());
  }
  auto program = PlanText(text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  ConvConfig refused = CudnnSteps(*program)[0]->config;
  RefuseConvolution(refused, "no engine (0 proposed)");
  auto again = PlanText(text, modules);
  ASSERT_TRUE(again.ok()) << again.status().message();
  const auto steps = CudnnSteps(*again);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_TRUE(testing::HasSuffix(steps[0]->config.ToString(), "tf32 then add(channels)")) << steps[0]->config.ToString();
  EXPECT_EQ(again->fusions.size(), 2u) << again->ToString();  // the filter's transpose, then relu
}

TEST(GpuConvolution, OneDimensionalGetsAUnitHeight) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase + 3].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 2u);
  const ConvConfig& c = steps[1]->config;  // [b, 0, f] 3x20x6 by [0, i, o] 5x6x7
  EXPECT_EQ(c.x.dims, (std::vector<int64_t>{3, 6, 1, 20}));
  EXPECT_EQ(c.x.strides, (std::vector<int64_t>{120, 1, 120, 6}));
  EXPECT_EQ(c.w.dims, (std::vector<int64_t>{7, 6, 1, 5}));
  EXPECT_EQ(c.y.dims, (std::vector<int64_t>{3, 7, 1, 16}));
  EXPECT_EQ(c.pre_padding, (std::vector<int64_t>{0, 0}));
  EXPECT_FALSE(c.allow_tf32);
  EXPECT_EQ(steps[0]->config.spatial_rank(), 3);
}

TEST(GpuConvolution, UnevenPaddingIsPreAndPost) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase + 4].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 1u);
  const ConvConfig& c = steps[0]->config;
  EXPECT_EQ(c.pre_padding, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(c.post_padding, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(testing::HasSubstr(c.ToString(), "pad [0,2]-[1,3]")) << c.ToString();
}

// The gradient of a stride-2 'SAME' convolution: forward, backward filter
// (x as it is, dy as the window, the stride as cuDNN's stride; dw written
// KRSC, then transposed to HWIO) and backward data (dy, and the filter read
// before its reversal: the KRSC copy the forward convolution reads).
TEST(GpuConvolution, AutodiffMapsToCudnnDirections) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kAutodiffCases[0].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 3u) << program->ToString();
  EXPECT_EQ(steps[0]->config.kind, ConvKind::kForward);
  const ConvConfig& wgrad = steps[1]->config;
  EXPECT_EQ(wgrad.kind, ConvKind::kBackwardFilter);
  EXPECT_EQ(wgrad.x.dims, (std::vector<int64_t>{2, 4, 8, 8}));
  EXPECT_EQ(wgrad.y.dims, (std::vector<int64_t>{2, 6, 4, 4}));
  EXPECT_EQ(wgrad.w.dims, (std::vector<int64_t>{6, 4, 3, 3}));
  EXPECT_EQ(wgrad.strides, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(wgrad.post_padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(wgrad.w.Layout("KCRS"), "KRSC");
  const auto transposes_back = std::count_if(program->fusions.begin(), program->fusions.end(), [](const Fusion& f) {
    return f.kind == FusionKind::kTranspose && f.permutation == std::vector<int64_t>{1, 2, 3, 0};
  });
  EXPECT_EQ(transposes_back, 1);
  const ConvConfig& dgrad = steps[2]->config;
  EXPECT_EQ(dgrad.kind, ConvKind::kBackwardData);
  EXPECT_EQ(dgrad.strides, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(dgrad.pre_padding, (std::vector<int64_t>{0, 0}));  // the forward convolution's own
  EXPECT_EQ(dgrad.post_padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(steps[2]->rhs, steps[0]->rhs);  // one copy of the filter, not of its reversal
  EXPECT_EQ(program->buffers[static_cast<size_t>(steps[0]->rhs)].kind, BufferKind::kTemp);
}

// 'VALID' with stride 2 over 8 columns leaves the last one unread: the
// filter gradient's negative high padding is what cuDNN's size rule rounds
// off, and the input gradient of that column is zero.
TEST(GpuConvolution, NegativeHighPaddingIsRoundedOff) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kAutodiffCases[1].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 3u) << program->ToString();
  EXPECT_EQ(steps[1]->config.x.dims, (std::vector<int64_t>{2, 4, 9, 8}));
  EXPECT_EQ(steps[1]->config.x.strides, (std::vector<int64_t>{288, 1, 32, 4}));
  EXPECT_EQ(steps[1]->config.post_padding, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(steps[2]->config.x.dims, (std::vector<int64_t>{2, 4, 9, 8}));
}

TEST(GpuConvolution, DepthwiseGradientIsGrouped) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kAutodiffCases[2].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 3u) << program->ToString();
  for (const ConvolutionStep* s : steps) EXPECT_EQ(s->config.groups(), 4) << s->config.ToString();
  EXPECT_EQ(steps[1]->config.kind, ConvKind::kBackwardFilter);  // batch_group_count = 4
}

TEST(GpuConvolution, WidenedResultKeepsItsType) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kAutodiffCases[7].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0]->config.x.type, ir::ElementType::kBF16);
  EXPECT_EQ(steps[0]->config.y.type, ir::ElementType::kF32);
  EXPECT_TRUE(testing::HasSubstr(steps[0]->config.ToString(), "NHWC f32 pad")) << steps[0]->config.ToString();
}

// A convolution cuDNN turned down on this GPU is planned again as a
// generated kernel, and explain says why.
TEST(GpuConvolution, RefusedConvolutionIsGenerated) {
  static const char* kText = R"(
func.func @main(%x: tensor<3x7x7x5xf32>, %w: tensor<2x2x5x3xf32>) -> tensor<3x6x6x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x7x7x5xf32>, tensor<2x2x5x3xf32>) -> tensor<3x6x6x3xf32>
  return %0 : tensor<3x6x6x3xf32>
})";
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto first = PlanText(kText, modules);
  ASSERT_TRUE(first.ok()) << first.status().message();
  const auto steps = CudnnSteps(*first);
  ASSERT_EQ(steps.size(), 1u);
  RefuseConvolution(steps[0]->config, "no engine (3 proposed)");
  auto again = PlanText(kText, modules);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(CudnnSteps(*again).empty());
  EXPECT_TRUE(testing::HasSubstr(again->ToString(), "(not cuDNN: cuDNN on this GPU: no engine (3 proposed))"))
      << again->ToString();
}

TEST(GpuConvolution, ExplainSaysWhyNotCudnn) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[0].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_TRUE(testing::HasSubstr(program->ToString(), "(not cuDNN: lhs dilation with window strides)"))
      << program->ToString();
}

TEST(GpuConvolution, EnvironmentTurnsCudnnOff) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = [&] {
    const testing::ScopedEnv no_cudnn("HLOGRAPH_GPU_CUDNN", "0");
    return PlanText(kCases[kFirstCudnnCase].text, modules);
  }();
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_TRUE(CudnnSteps(*program).empty());
  ASSERT_EQ(program->fusions.size(), 2u);  // the convolution, then bias and relu
  EXPECT_EQ(program->fusions[0].kind, FusionKind::kConvolution);
}

TEST(GpuConvolution, EveryCaseCompiles) {
  for (const Case& c : kCases) {
    std::vector<std::unique_ptr<ir::Module>> modules;
    auto program = PlanText(c.text, modules);
    ASSERT_TRUE(program.ok()) << c.name << ": " << program.status().message();
    for (const Fusion& f : program->fusions) {
      auto k = EmitKernel(f);
      ASSERT_TRUE(k.ok()) << c.name << ": " << k.status().message();
      auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
      EXPECT_TRUE(cubin.ok()) << c.name << ": " << cubin.status().message() << "\n" << k->code;
    }
  }
}

// Integers exactly; floats within a normwise bound (the summation order
// differs from the interpreter's GEMM; TF32 rounds f32 operands to 10 bits).
std::string Compare(const cpu::Tensor& want, const cpu::Tensor& got, bool tf32) {
  if (want.type() != got.type()) return "type " + got.type().ToString();
  std::string problem;
  cpu::DispatchElementType(want.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* w = want.data<T>();
    const T* g = got.data<T>();
    if constexpr (cpu::kIsFloat<T>) {
      const double rtol = sizeof(T) == 2 ? 2e-2 : tf32 ? 5e-3 : 1e-5;
      double scale = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) scale = std::max(scale, std::fabs(double(cpu::Load(w[i]))));
      for (int64_t i = 0; i < want.num_elements() && problem.empty(); ++i) {
        const double x = double(cpu::Load(w[i])), y = double(cpu::Load(g[i]));
        if (!(std::fabs(x - y) <= 1e-6 + rtol * scale)) {
          problem = "element " + std::to_string(i) + ": cpu " + std::to_string(x) + ", gpu " + std::to_string(y);
        }
      }
    } else if constexpr (!cpu::kIsComplex<T>) {
      if (std::memcmp(w, g, want.byte_size()) != 0) problem = "integer results differ";
    }
  });
  return problem;
}

TEST(GpuConvolution, EveryCaseMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  std::vector<Case> all(std::begin(kCases), std::end(kCases));
  all.insert(all.end(), std::begin(kAutodiffCases), std::end(kAutodiffCases));
  for (const Case& c : all) {
    std::vector<std::unique_ptr<ir::Module>> modules = testing::ParseOrDie(c.text);
    ASSERT_FALSE(modules.empty());
    const ir::Operation* entry = modules[0]->EntryFunction();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 7);
    ASSERT_TRUE(args.ok()) << c.name;
    auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
    ASSERT_TRUE(want.ok()) << c.name << ": " << want.status().message();
    auto exe = GpuExecutable::Compile(*modules[0]);
    ASSERT_TRUE(exe.ok()) << c.name << ": " << exe.status().message();
    auto got = (*exe)->Run(*args);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ((*exe)->stats().convolution_calls, static_cast<int64_t>(CudnnSteps((*exe)->program()).size()))
        << c.name;
    ASSERT_EQ(got->size(), want->size());
    for (size_t i = 0; i < want->size(); ++i) {
      const std::string problem = Compare((*want)[i], (*got)[i], c.tf32);
      EXPECT_TRUE(problem.empty()) << c.name << " result " << i << ": " << problem;
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

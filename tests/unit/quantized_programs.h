// Programs on quantized tensors for the lowering's tests (per tensor and per
// axis, each expressed type, narrow and wide storage, elementwise ops,
// integer and hybrid products, convolutions, bodies on quantized scalars)
// and random arguments for them: quantized ones over their whole storage
// range, floats with ties, huge values, infinities and NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/random_tensor.h"
#include "backends/cpu/tensor.h"
#include "ir/float_bits.h"

namespace hlograph::testing {

struct QuantizedProgram {
  const char* name;
  std::string text;
  bool on_gpu = true;  // false: element types the GPU backend does not take (i4)
  // Summed in another order on the GPU, so not compared with the
  // interpreter there (requantized partial sums round differently).
  bool order_dependent = false;
};

inline const std::string kQ8 = "!quant.uniform<i8:f32, 5.000000e-01:-3>";
inline const std::string kQ8b = "!quant.uniform<i8:f32, 2.500000e-01:4>";
inline const std::string kQ8c = "!quant.uniform<i8:f32, 3.000000e-01:-1>";
inline const std::string kW8 =  // per axis along dim 1 of an 8x16 weight, zero points 0 (as dot_general wants)
    "!quant.uniform<i8:f32:1, {5.000000e-01,2.500000e-01,1.250000e-01,6.250000e-02,5.000000e-01,2.500000e-01,"
    "1.250000e-01,6.250000e-02,5.000000e-01,2.500000e-01,1.250000e-01,6.250000e-02,5.000000e-01,2.500000e-01,"
    "1.250000e-01,6.250000e-02}>";
// The product of 0.5 (the lhs's scale) and kW8's scales: requantizing to it is exact.
inline const std::string kAcc16 =
    "!quant.uniform<i32:f32:1, {2.500000e-01,1.250000e-01,6.250000e-02,3.125000e-02,2.500000e-01,1.250000e-01,"
    "6.250000e-02,3.125000e-02,2.500000e-01,1.250000e-01,6.250000e-02,3.125000e-02,2.500000e-01,1.250000e-01,"
    "6.250000e-02,3.125000e-02}>";

inline std::vector<QuantizedProgram> QuantizedPrograms() {
  std::vector<QuantizedProgram> p;
  p.push_back({"quantize_per_tensor", R"(
func.func @main(%x: tensor<64xf32>) -> tensor<64x)" + kQ8 + R"(> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x)" + kQ8 + R"(>
  return %q : tensor<64x)" + kQ8 + R"(>
})"});
  p.push_back({"quantize_per_axis", R"(
func.func @main(%x: tensor<16x4xf32>) -> tensor<16x4x!quant.uniform<i8:f32:1, {5.000000e-01:-3,1.000000e-01:7,3.000000e+00,2.500000e-01:-128}>> {
  %q = stablehlo.uniform_quantize %x : (tensor<16x4xf32>) -> tensor<16x4x!quant.uniform<i8:f32:1, {5.000000e-01:-3,1.000000e-01:7,3.000000e+00,2.500000e-01:-128}>>
  return %q : tensor<16x4x!quant.uniform<i8:f32:1, {5.000000e-01:-3,1.000000e-01:7,3.000000e+00,2.500000e-01:-128}>>
})"});
  p.push_back({"quantize_bf16", R"(
func.func @main(%x: tensor<64xbf16>) -> tensor<64x!quant.uniform<i8:bf16, 1.000000e-01:5>> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xbf16>) -> tensor<64x!quant.uniform<i8:bf16, 1.000000e-01:5>>
  return %q : tensor<64x!quant.uniform<i8:bf16, 1.000000e-01:5>>
})"});
  p.push_back({"quantize_f16_unsigned", R"(
func.func @main(%x: tensor<64xf16>) -> tensor<64x!quant.uniform<u8:f16, 3.000000e-02:128>> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xf16>) -> tensor<64x!quant.uniform<u8:f16, 3.000000e-02:128>>
  return %q : tensor<64x!quant.uniform<u8:f16, 3.000000e-02:128>>
})"});
  p.push_back({"quantize_narrow_range_and_i16", R"(
func.func @main(%x: tensor<64xf32>) -> (tensor<64x!quant.uniform<i8<-127:127>:f32, 5.000000e-02:2>>, tensor<64x!quant.uniform<i16:f32, 1.000000e-03:-7>>) {
  %a = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x!quant.uniform<i8<-127:127>:f32, 5.000000e-02:2>>
  %b = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x!quant.uniform<i16:f32, 1.000000e-03:-7>>
  return %a, %b : tensor<64x!quant.uniform<i8<-127:127>:f32, 5.000000e-02:2>>, tensor<64x!quant.uniform<i16:f32, 1.000000e-03:-7>>
})"});
  // 2^31 - 1 rounds to 2^31 in f32: clamped once more as an integer.
  p.push_back({"quantize_i32_range_beyond_f32", R"(
func.func @main(%x: tensor<64xf32>) -> tensor<64x!quant.uniform<i32:f32, 1.000000e-09:5>> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x!quant.uniform<i32:f32, 1.000000e-09:5>>
  return %q : tensor<64x!quant.uniform<i32:f32, 1.000000e-09:5>>
})"});
  p.push_back({"quantize_i4", R"(
func.func @main(%x: tensor<32xf32>) -> tensor<32x!quant.uniform<i4:f32, 2.500000e-01:-1>> {
  %q = stablehlo.uniform_quantize %x : (tensor<32xf32>) -> tensor<32x!quant.uniform<i4:f32, 2.500000e-01:-1>>
  return %q : tensor<32x!quant.uniform<i4:f32, 2.500000e-01:-1>>
})", false});
  p.push_back({"dequantize_per_tensor_and_per_axis", R"(
func.func @main(%a: tensor<64x)" + kQ8 + R"(>, %b: tensor<3x5x!quant.uniform<i8:bf16:0, {1.000000e-01:3,2.000000e+00,7.000000e-03:-100}>>, %c: tensor<64x!quant.uniform<u8:f16, 3.000000e-02:128>>) -> (tensor<64xf32>, tensor<3x5xbf16>, tensor<64xf16>) {
  %x = stablehlo.uniform_dequantize %a : (tensor<64x)" + kQ8 + R"(>) -> tensor<64xf32>
  %y = stablehlo.uniform_dequantize %b : (tensor<3x5x!quant.uniform<i8:bf16:0, {1.000000e-01:3,2.000000e+00,7.000000e-03:-100}>>) -> tensor<3x5xbf16>
  %z = stablehlo.uniform_dequantize %c : (tensor<64x!quant.uniform<u8:f16, 3.000000e-02:128>>) -> tensor<64xf16>
  return %x, %y, %z : tensor<64xf32>, tensor<3x5xbf16>, tensor<64xf16>
})"});
  p.push_back({"requantize_per_axis_to_per_tensor", R"(
func.func @main(%a: tensor<16x4x!quant.uniform<i8:f32:1, {5.000000e-01:-3,1.000000e-01:7,3.000000e+00,2.500000e-01:-128}>>) -> tensor<16x4x)" + kQ8c + R"(> {
  %q = stablehlo.uniform_quantize %a : (tensor<16x4x!quant.uniform<i8:f32:1, {5.000000e-01:-3,1.000000e-01:7,3.000000e+00,2.500000e-01:-128}>>) -> tensor<16x4x)" + kQ8c + R"(>
  return %q : tensor<16x4x)" + kQ8c + R"(>
})"});
  p.push_back({"elementwise", R"(
func.func @main(%a: tensor<64x)" + kQ8 + R"(>, %b: tensor<64x)" + kQ8b + R"(>, %x: tensor<64xf32>) -> (tensor<64x)" + kQ8c + R"(>, tensor<64x)" + kQ8 + R"(>, tensor<64x)" + kQ8c + R"(>, tensor<64xi1>, tensor<64x)" + kQ8b + R"(>, tensor<64xf32>) {
  %s = stablehlo.add %a, %b : (tensor<64x)" + kQ8 + R"(>, tensor<64x)" + kQ8b + R"(>) -> tensor<64x)" + kQ8c + R"(>
  %m = stablehlo.multiply %a, %b : (tensor<64x)" + kQ8 + R"(>, tensor<64x)" + kQ8b + R"(>) -> tensor<64x)" + kQ8 + R"(>
  %x1 = stablehlo.maximum %s, %a : (tensor<64x)" + kQ8c + R"(>, tensor<64x)" + kQ8 + R"(>) -> tensor<64x)" + kQ8c + R"(>
  %n = stablehlo.negate %x1 : (tensor<64x)" + kQ8c + R"(>) -> tensor<64x)" + kQ8c + R"(>
  %t = stablehlo.tanh %m : (tensor<64x)" + kQ8 + R"(>) -> tensor<64x)" + kQ8b + R"(>
  %d = stablehlo.divide %n, %b : (tensor<64x)" + kQ8c + R"(>, tensor<64x)" + kQ8b + R"(>) -> tensor<64x)" + kQ8c + R"(>
  %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<64x)" + kQ8 + R"(>, tensor<64x)" + kQ8b + R"(>) -> tensor<64xi1>
  %sel = stablehlo.select %gt, %b, %t : tensor<64xi1>, tensor<64x)" + kQ8b + R"(>
  %f = stablehlo.uniform_dequantize %sel : (tensor<64x)" + kQ8b + R"(>) -> tensor<64xf32>
  %g = stablehlo.add %f, %x : tensor<64xf32>
  return %d, %m, %n, %gt, %sel, %g : tensor<64x)" + kQ8c + R"(>, tensor<64x)" + kQ8 + R"(>, tensor<64x)" + kQ8c + R"(>, tensor<64xi1>, tensor<64x)" + kQ8b + R"(>, tensor<64xf32>
})"});
  p.push_back({"moves_then_adds", R"(
func.func @main(%a: tensor<4x6x)" + kQ8 + R"(>, %pad: tensor<)" + kQ8 + R"(>) -> tensor<6x10x)" + kQ8 + R"(> {
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6x)" + kQ8 + R"(>) -> tensor<6x4x)" + kQ8 + R"(>
  %r = stablehlo.reverse %t, dims = [1] : tensor<6x4x)" + kQ8 + R"(>
  %c = stablehlo.concatenate %t, %r, dim = 1 : (tensor<6x4x)" + kQ8 + R"(>, tensor<6x4x)" + kQ8 + R"(>) -> tensor<6x8x)" + kQ8 + R"(>
  %p = stablehlo.pad %c, %pad, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<6x8x)" + kQ8 + R"(>, tensor<)" + kQ8 + R"(>) -> tensor<6x10x)" + kQ8 + R"(>
  %s = stablehlo.add %p, %p : tensor<6x10x)" + kQ8 + R"(>
  return %s : tensor<6x10x)" + kQ8 + R"(>
})"});
  // i8 x i8 -> i32 at scale(lhs) * scale(rhs): exact integer sums, each
  // column's scale its own; k and n multiples of 16 (cuBLASLt's int8 GEMM).
  p.push_back({"dot_int8_exact", R"(
func.func @main(%l: tensor<32x8x)" + kQ8 + R"(>, %r: tensor<8x16x)" + kW8 + R"(>) -> tensor<32x16x)" + kAcc16 + R"(> {
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<32x8x)" + kQ8 + R"(>, tensor<8x16x)" + kW8 + R"(>) -> tensor<32x16x)" + kAcc16 + R"(>
  return %d : tensor<32x16x)" + kAcc16 + R"(>
})"});
  p.push_back({"dot_int8_gemm_layout", R"(
func.func @main(%l: tensor<32x64x!quant.uniform<i8:f32, 5.000000e-01:7>>, %r: tensor<16x64x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<32x16x!quant.uniform<i32:f32, 1.250000e-01>> {
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [1] : (tensor<32x64x!quant.uniform<i8:f32, 5.000000e-01:7>>, tensor<16x64x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<32x16x!quant.uniform<i32:f32, 1.250000e-01>>
  return %d : tensor<32x16x!quant.uniform<i32:f32, 1.250000e-01>>
})"});
  p.push_back({"dot_requantized", R"(
func.func @main(%l: tensor<32x8x)" + kQ8 + R"(>, %r: tensor<8x16x)" + kW8 + R"(>) -> (tensor<32x16x)" + kQ8c + R"(>, tensor<32x16x!quant.uniform<i8:f32:1, {1.000000e-01:1,2.000000e-01:-2,3.000000e-01,4.000000e-01,5.000000e-01,6.000000e-01,7.000000e-01,8.000000e-01,9.000000e-01,1.000000e+00,1.100000e+00,1.200000e+00,1.300000e+00,1.400000e+00,1.500000e+00,1.600000e+00:5}>>) {
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<32x8x)" + kQ8 + R"(>, tensor<8x16x)" + kW8 + R"(>) -> tensor<32x16x)" + kQ8c + R"(>
  %e = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<32x8x)" + kQ8 + R"(>, tensor<8x16x)" + kW8 + R"(>) -> tensor<32x16x!quant.uniform<i8:f32:1, {1.000000e-01:1,2.000000e-01:-2,3.000000e-01,4.000000e-01,5.000000e-01,6.000000e-01,7.000000e-01,8.000000e-01,9.000000e-01,1.000000e+00,1.100000e+00,1.200000e+00,1.300000e+00,1.400000e+00,1.500000e+00,1.600000e+00:5}>>
  return %d, %e : tensor<32x16x)" + kQ8c + R"(>, tensor<32x16x!quant.uniform<i8:f32:1, {1.000000e-01:1,2.000000e-01:-2,3.000000e-01,4.000000e-01,5.000000e-01,6.000000e-01,7.000000e-01,8.000000e-01,9.000000e-01,1.000000e+00,1.100000e+00,1.200000e+00,1.300000e+00,1.400000e+00,1.500000e+00,1.600000e+00:5}>>
})"});
  // Batch dims, the rhs's in another place than the lhs's.
  p.push_back({"dot_batched", R"(
func.func @main(%l: tensor<2x8x16x)" + kQ8 + R"(>, %r: tensor<16x2x4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<2x8x4x)" + kQ8c + R"(> {
  %d = stablehlo.dot_general %l, %r, batching_dims = [0] x [1], contracting_dims = [2] x [0] : (tensor<2x8x16x)" + kQ8 + R"(>, tensor<16x2x4x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<2x8x4x)" + kQ8c + R"(>
  return %d : tensor<2x8x4x)" + kQ8c + R"(>
})"});
  // i16 sums outgrow i32: accumulated in i64.
  p.push_back({"dot_int16", R"(
func.func @main(%l: tensor<4x8x!quant.uniform<i16:f32, 1.000000e-03:-300>>, %r: tensor<8x4x!quant.uniform<i16:f32, 2.000000e-03>>) -> tensor<4x4x!quant.uniform<i32:f32, 1.000000e-03:3>> {
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<4x8x!quant.uniform<i16:f32, 1.000000e-03:-300>>, tensor<8x4x!quant.uniform<i16:f32, 2.000000e-03>>) -> tensor<4x4x!quant.uniform<i32:f32, 1.000000e-03:3>>
  return %d : tensor<4x4x!quant.uniform<i32:f32, 1.000000e-03:3>>
})"});
  p.push_back({"dot_hybrid", R"(
func.func @main(%l: tensor<4x8xf32>, %r: tensor<8x16x)" + kW8 + R"(>) -> tensor<4x16xf32> {
  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x8xf32>, tensor<8x16x)" + kW8 + R"(>) -> tensor<4x16xf32>
  return %d : tensor<4x16xf32>
})"});
  p.push_back({"convolution", R"(
func.func @main(%x: tensor<1x6x6x4x!quant.uniform<i8:f32, 5.000000e-01:2>>, %k: tensor<3x3x4x8x!quant.uniform<i8:f32:3, {2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01}>>) -> (tensor<1x6x6x8x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02}>>, tensor<1x3x3x8x)" + kQ8c + R"(>) {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x4x!quant.uniform<i8:f32, 5.000000e-01:2>>, tensor<3x3x4x8x!quant.uniform<i8:f32:3, {2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<1x6x6x8x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02}>>
  %s = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x4x!quant.uniform<i8:f32, 5.000000e-01:2>>, tensor<3x3x4x8x!quant.uniform<i8:f32:3, {2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01,2.500000e-01,1.250000e-01}>>) -> tensor<1x3x3x8x)" + kQ8c + R"(>
  return %c, %s : tensor<1x6x6x8x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02,1.250000e-01,6.250000e-02}>>, tensor<1x3x3x8x)" + kQ8c + R"(>
})"});
  p.push_back({"reduce_maximum", R"(
func.func @main(%a: tensor<8x16x)" + kQ8 + R"(>, %init: tensor<)" + kQ8 + R"(>) -> tensor<8x)" + kQ8 + R"(> {
  %r = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16x)" + kQ8 + R"(>, tensor<)" + kQ8 + R"(>) -> tensor<8x)" + kQ8 + R"(>
  return %r : tensor<8x)" + kQ8 + R"(>
})"});
  p.push_back({"reduce_add", R"(
func.func @main(%a: tensor<8x16x)" + kQ8 + R"(>, %init: tensor<)" + kQ8 + R"(>) -> tensor<8x)" + kQ8 + R"(> {
  %r = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<8x16x)" + kQ8 + R"(>, tensor<)" + kQ8 + R"(>) -> tensor<8x)" + kQ8 + R"(>
  return %r : tensor<8x)" + kQ8 + R"(>
})", true, true});
  p.push_back({"sort_by_quantized_key", R"(
func.func @main(%k: tensor<32x)" + kQ8 + R"(>, %v: tensor<32xf32>) -> (tensor<32x)" + kQ8 + R"(>, tensor<32xf32>) {
  %s:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<)" + kQ8 + R"(>, %b: tensor<)" + kQ8 + R"(>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<)" + kQ8 + R"(>, tensor<)" + kQ8 + R"(>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<32x)" + kQ8 + R"(>, tensor<32xf32>) -> (tensor<32x)" + kQ8 + R"(>, tensor<32xf32>)
  return %s#0, %s#1 : tensor<32x)" + kQ8 + R"(>, tensor<32xf32>
})"});
  p.push_back({"while_carrying_quantized", R"(
func.func @main(%a: tensor<16x)" + kQ8 + R"(>, %b: tensor<16x)" + kQ8 + R"(>) -> tensor<16x)" + kQ8 + R"(> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %x = %a) : tensor<i32>, tensor<16x)" + kQ8 + R"(>
   cond {
    %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %y = stablehlo.multiply %x, %b : tensor<16x)" + kQ8 + R"(>
    %z = stablehlo.add %y, %b : tensor<16x)" + kQ8 + R"(>
    stablehlo.return %n, %z : tensor<i32>, tensor<16x)" + kQ8 + R"(>
  }
  return %r#1 : tensor<16x)" + kQ8 + R"(>
})"});
  p.push_back({"constant_and_bitcast", R"(
func.func @main(%a: tensor<4xi8>) -> (tensor<4x)" + kQ8 + R"(>, tensor<4xi8>) {
  %c = stablehlo.constant dense<[1, -2, 3, 127]> : tensor<4x)" + kQ8 + R"(>
  %q = stablehlo.bitcast_convert %a : (tensor<4xi8>) -> tensor<4x)" + kQ8 + R"(>
  %s = stablehlo.add %q, %c : tensor<4x)" + kQ8 + R"(>
  %i = stablehlo.bitcast_convert %s : (tensor<4x)" + kQ8 + R"(>) -> tensor<4xi8>
  return %s, %i : tensor<4x)" + kQ8 + R"(>, tensor<4xi8>
})"});
  return p;
}

// A random tensor of `type` for these tests: quantized tensors hold
// storage integers over their whole range; floats mix values near the
// scales' multiples (ties), wide values, signed zeros, infinities and NaN.
inline cpu::Tensor QuantizedTestTensor(const ir::Type& type, std::mt19937_64& rng) {
  if (const ir::QuantParams* q = type.quant()) {
    cpu::Tensor t(type);
    std::uniform_int_distribution<int64_t> stored(q->storage_min, q->storage_max);
    cpu::DispatchElementType(t.element(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) {
        T* data = t.mutable_data<T>();
        for (int64_t i = 0; i < t.num_elements(); ++i) data[i] = static_cast<T>(stored(rng));
      }
    });
    return t;
  }
  auto random = cpu::RandomTensor(type, rng);
  cpu::Tensor t = random.ok() ? std::move(*random) : cpu::Tensor(type);
  if (!ir::IsFloat(type.element())) return t;
  std::uniform_int_distribution<int> kind(0, 15);
  std::uniform_real_distribution<double> wide(-100.0, 100.0);
  std::uniform_int_distribution<int> sixteenths(-1600, 1600);
  const int bytes = ir::StorageBytes(type.element());
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    double v = 0;
    const int k = kind(rng);
    if (k < 6) {
      v = sixteenths(rng) / 16.0;  // halfway between multiples of the scales 0.25 and 0.5 too
    } else if (k < 11) {
      v = wide(rng);
    } else if (k < 14) {
      continue;  // RandomTensor's value in [-1, 1)
    } else {
      static const double kSpecial[] = {std::numeric_limits<double>::quiet_NaN(),
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(),
                                        -0.0,
                                        1e30,
                                        -3e9,
                                        65000.0};
      v = kSpecial[std::uniform_int_distribution<size_t>(0, std::size(kSpecial) - 1)(rng)];
    }
    const uint64_t bits = ir::DoubleToFloatBits(v, type.element());
    std::memcpy(t.mutable_bytes() + i * bytes, &bits, static_cast<size_t>(bytes));
  }
  return t;
}

inline std::vector<cpu::Tensor> QuantizedTestArgs(const std::vector<ir::Type>& types, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<cpu::Tensor> args;
  for (const ir::Type& t : types) args.push_back(QuantizedTestTensor(t, rng));
  return args;
}

}  // namespace hlograph::testing

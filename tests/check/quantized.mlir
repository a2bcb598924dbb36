// Quantized tensors (!quant.uniform): uniform_quantize / uniform_dequantize,
// ops on quantized operands (dequantize -> op -> quantize), integer
// accumulation in dot_general and convolution, hybrid ops, and shape ops on
// the stored integers. Expected values follow the StableHLO spec's
// quantize(x) = round_nearest_even(clamp(x / scale + zero_point)) and
// dequantize(q) = (q - zero_point) * scale, worked out by hand.

// x / 0.5 - 3 = [-5, -2.5, -1.5, -0.5, 197, -203]: ties to even, clamped.
func.func @quantize_per_tensor() {
  %x = stablehlo.constant dense<[-1.0, 0.25, 0.75, 1.25, 100.0, -100.0]> : tensor<6xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 5.000000e-01:-3>>
  %s = stablehlo.bitcast_convert %q : (tensor<6x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<6xi8>
  check.expect_eq_const %s, dense<[-5, -2, -2, 0, 127, -128]> : tensor<6xi8>
  return
}

// A narrowed storage range clamps at -127.
func.func @quantize_storage_range() {
  %x = stablehlo.constant dense<[-100.0, 100.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<-127:127>:f32, 5.000000e-01:-3>>
  %s = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8<-127:127>:f32, 5.000000e-01:-3>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[-127, 127]> : tensor<2xi8>
  return
}

// Unsigned storage: x / 0.25 + 10 = [-10, 10, 50, 410] clamped to [0, 255].
func.func @quantize_unsigned() {
  %x = stablehlo.constant dense<[-5.0, 0.0, 10.0, 100.0]> : tensor<4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 2.500000e-01:10>>
  %s = stablehlo.bitcast_convert %q : (tensor<4x!quant.uniform<u8:f32, 2.500000e-01:10>>) -> tensor<4xui8>
  check.expect_eq_const %s, dense<[0, 10, 50, 255]> : tensor<4xui8>
  return
}

// i4 storage: clamp to [-8, 7] before rounding.
func.func @quantize_i4() {
  %x = stablehlo.constant dense<[7.6, -9.0, 2.5]> : tensor<3xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i4:f32, 1.000000e+00>>
  %s = stablehlo.bitcast_convert %q : (tensor<3x!quant.uniform<i4:f32, 1.000000e+00>>) -> tensor<3xi4>
  check.expect_eq_const %s, dense<[7, -8, 2]> : tensor<3xi4>
  return
}

// Per axis (dimension 1): column j uses scale j and zero point j.
func.func @dequantize_per_axis() {
  %s = stablehlo.constant dense<[[3, 4, -1], [1, 0, 5]]> : tensor<2x3xi8>
  %q = stablehlo.bitcast_convert %s : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01,2.000000e+00:-2}>>
  %x = stablehlo.uniform_dequantize %q : (tensor<2x3x!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01,2.000000e+00:-2}>>) -> tensor<2x3xf32>
  check.expect_eq_const %x, dense<[[1.0, 1.0, 2.0], [0.0, 0.0, 14.0]]> : tensor<2x3xf32>
  return
}

// Requantization: [2.5, -3.5, 50] + 2 = [4.5, -1.5, 52] -> [4, -2, 52].
func.func @requantize() {
  %s = stablehlo.constant dense<[5, -7, 100]> : tensor<3xi8>
  %q = stablehlo.bitcast_convert %s : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
  %r = stablehlo.uniform_quantize %q : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<3x!quant.uniform<i8:f32, 1.000000e+00:2>>
  %t = stablehlo.bitcast_convert %r : (tensor<3x!quant.uniform<i8:f32, 1.000000e+00:2>>) -> tensor<3xi8>
  check.expect_eq_const %t, dense<[4, -2, 52]> : tensor<3xi8>
  return
}

// [0.5, 1, 1.5] + [0, 1, -1] = [0.5, 2, 0.5]; / 0.5 - 1 = [0, 3, 0].
func.func @add() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi8>
  %b = stablehlo.constant dense<[4, 8, 0]> : tensor<3xi8>
  %qa = stablehlo.bitcast_convert %a : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
  %qb = stablehlo.bitcast_convert %b : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 2.500000e-01:4>>
  %sum = stablehlo.add %qa, %qb : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<3x!quant.uniform<i8:f32, 2.500000e-01:4>>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-1>>
  %s = stablehlo.bitcast_convert %sum : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<3xi8>
  check.expect_eq_const %s, dense<[0, 3, 0]> : tensor<3xi8>
  return
}

// abs([-2, 3]) = [2, 3]; / 0.25 - 10 = [-2, 2].
func.func @abs() {
  %a = stablehlo.constant dense<[-4, 6]> : tensor<2xi8>
  %q = stablehlo.bitcast_convert %a : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
  %r = stablehlo.abs %q : (tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<2x!quant.uniform<i8:f32, 2.500000e-01:-10>>
  %s = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 2.500000e-01:-10>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[-2, 2]> : tensor<2xi8>
  return
}

// Compared as values: [0.5, 1.0] > [0.25, 1.0].
func.func @compare() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %b = stablehlo.constant dense<[1, 4]> : tensor<2xi8>
  %qa = stablehlo.bitcast_convert %a : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
  %qb = stablehlo.bitcast_convert %b : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 2.500000e-01>>
  %gt = stablehlo.compare GT, %qa, %qb, FLOAT : (tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<2x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[true, false]> : tensor<2xi1>
  return
}

// Integer accumulation: (lhs - 1) @ rhs = [[2, -4], [13, -6]] exactly, in an
// i32 result whose per-column scales are scale(lhs) * scale(rhs).
func.func @dot_general_per_axis() {
  %l = stablehlo.constant dense<[[3, 1, -1], [2, 5, 0]]> : tensor<2x3xi8>
  %r = stablehlo.constant dense<[[1, 2], [3, -1], [0, 4]]> : tensor<3x2xi8>
  %ql = stablehlo.bitcast_convert %l : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %qr = stablehlo.bitcast_convert %r : (tensor<3x2xi8>) -> tensor<3x2x!quant.uniform<i8:f32:1, {2.500000e-01,5.000000e-01}>>
  %d = stablehlo.dot_general %ql, %qr, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<3x2x!quant.uniform<i8:f32:1, {2.500000e-01,5.000000e-01}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {1.250000e-01,2.500000e-01}>>
  %s = stablehlo.bitcast_convert %d : (tensor<2x2x!quant.uniform<i32:f32:1, {1.250000e-01,2.500000e-01}>>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[2, -4], [13, -6]]> : tensor<2x2xi32>
  %x = stablehlo.uniform_dequantize %d : (tensor<2x2x!quant.uniform<i32:f32:1, {1.250000e-01,2.500000e-01}>>) -> tensor<2x2xf32>
  check.expect_eq_const %x, dense<[[0.25, -1.0], [1.625, -1.5]]> : tensor<2x2xf32>
  return
}

// The same sums requantized to scale 0.5: [[0.5, -1], [3.25, -1.5]] -> [[0, -1], [3, -2]].
func.func @dot_general_requantized() {
  %l = stablehlo.constant dense<[[3, 1, -1], [2, 5, 0]]> : tensor<2x3xi8>
  %r = stablehlo.constant dense<[[1, 2], [3, -1], [0, 4]]> : tensor<3x2xi8>
  %ql = stablehlo.bitcast_convert %l : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %qr = stablehlo.bitcast_convert %r : (tensor<3x2xi8>) -> tensor<3x2x!quant.uniform<i8:f32, 2.500000e-01>>
  %d = stablehlo.dot_general %ql, %qr, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<3x2x!quant.uniform<i8:f32, 2.500000e-01>>) -> tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>
  %s = stablehlo.bitcast_convert %d : (tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<2x2xi8>
  check.expect_eq_const %s, dense<[[0, -1], [3, -2]]> : tensor<2x2xi8>
  return
}

// Hybrid: float activations times dequantized weights [1, 0, -1].
func.func @dot_general_hybrid() {
  %l = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %r = stablehlo.constant dense<[[2], [0], [-2]]> : tensor<3x1xi8>
  %qr = stablehlo.bitcast_convert %r : (tensor<3x1xi8>) -> tensor<3x1x!quant.uniform<i8:f32, 5.000000e-01>>
  %d = stablehlo.dot_general %l, %qr, contracting_dims = [1] x [0] : (tensor<1x3xf32>, tensor<3x1x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<1x1xf32>
  check.expect_eq_const %d, dense<[[-2.0]]> : tensor<1x1xf32>
  return
}

// 1-D convolution: (lhs - 1) = [0, 1, 2, 3] with kernel [2, 1] = [1, 4, 7].
func.func @convolution() {
  %l = stablehlo.constant dense<[[[1], [2], [3], [4]]]> : tensor<1x4x1xi8>
  %k = stablehlo.constant dense<[[[2]], [[1]]]> : tensor<2x1x1xi8>
  %ql = stablehlo.bitcast_convert %l : (tensor<1x4x1xi8>) -> tensor<1x4x1x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %qk = stablehlo.bitcast_convert %k : (tensor<2x1x1xi8>) -> tensor<2x1x1x!quant.uniform<i8:f32, 5.000000e-01>>
  %c = stablehlo.convolution(%ql, %qk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<2x1x1x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<1x3x1x!quant.uniform<i32:f32, 2.500000e-01>>
  %s = stablehlo.bitcast_convert %c : (tensor<1x3x1x!quant.uniform<i32:f32, 2.500000e-01>>) -> tensor<1x3x1xi32>
  check.expect_eq_const %s, dense<[[[1], [4], [7]]]> : tensor<1x3x1xi32>
  return
}

// Shape ops move the stored integers.
func.func @shape_ops() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %q = stablehlo.bitcast_convert %a : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<3x2x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %r = stablehlo.reshape %t : (tensor<3x2x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<6x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %s = stablehlo.slice %r [1:5] : (tensor<6x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %c = stablehlo.concatenate %s, %s, dim = 0 : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<4x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<8x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %b = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<8x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<2x8x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %i = stablehlo.bitcast_convert %b : (tensor<2x8x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<2x8xi8>
  check.expect_eq_const %i, dense<[[4, 2, 5, 3, 4, 2, 5, 3], [4, 2, 5, 3, 4, 2, 5, 3]]> : tensor<2x8xi8>
  return
}

// bf16 expressed type: 1 / bf16(0.1) and 3 / bf16(0.1) round to 10 and 30 in bf16.
func.func @quantize_bf16() {
  %x = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %q = stablehlo.uniform_quantize %x : (tensor<2xbf16>) -> tensor<2x!quant.uniform<i8:bf16, 1.000000e-01>>
  %s = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:bf16, 1.000000e-01>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[10, 30]> : tensor<2xi8>
  return
}

// reduce applies its body to the quantized values (the spec's reduce): each
// add or maximum dequantizes, computes and quantizes again. With zero point
// 10 the stored integers summed directly would give (70 - 10) * 0.5 = 30
// for the first row, not 1 + 2 + 3 + 4 = 10.
func.func @reduce_runs_its_body_on_quantized_scalars() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.5, -3.0]]> : tensor<2x4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 0.5:10>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zq = stablehlo.uniform_quantize %z : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:10>>
  %r = stablehlo.reduce(%q init: %zq) across dimensions = [1] : (tensor<2x4x!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
   reducer(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>) {
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }
  %d = stablehlo.uniform_dequantize %r : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2xf32>
  check.expect_almost_eq_const %d, dense<[10.0, -1.0]> : tensor<2xf32>
  %lo = stablehlo.constant dense<-10.0> : tensor<f32>
  %loq = stablehlo.uniform_quantize %lo : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:10>>
  %m = stablehlo.reduce(%q init: %loq) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4x!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
  %md = stablehlo.uniform_dequantize %m : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2xf32>
  check.expect_almost_eq_const %md, dense<[4.0, 2.5]> : tensor<2xf32>
  return
}

// sort compares quantized keys through its comparator (dequantized:
// stored - (-20) times 0.5), carrying an index operand along; stable.
func.func @sort_compares_quantized_keys() {
  %x = stablehlo.constant dense<[2.0, -1.5, 3.0, 0.5, -4.0]> : tensor<5xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8:f32, 0.5:-20>>
  %i = stablehlo.iota dim = 0 : tensor<5xi32>
  %s:2 = "stablehlo.sort"(%q, %i) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:-20>>, %b: tensor<!quant.uniform<i8:f32, 0.5:-20>>, %c: tensor<i32>, %d: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<!quant.uniform<i8:f32, 0.5:-20>>, tensor<!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<5x!quant.uniform<i8:f32, 0.5:-20>>, tensor<5xi32>) -> (tensor<5x!quant.uniform<i8:f32, 0.5:-20>>, tensor<5xi32>)
  %d = stablehlo.uniform_dequantize %s#0 : (tensor<5x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<5xf32>
  check.expect_almost_eq_const %d, dense<[3.0, 2.0, 0.5, -1.5, -4.0]> : tensor<5xf32>
  check.expect_eq_const %s#1, dense<[2, 0, 3, 1, 4]> : tensor<5xi32>
  return
}

// map applies its computation to the quantized values. In
// !quant.uniform<i8:f32, 0.5:10> (q = x / 0.5 + 10, x = (q - 10) * 0.5)
// a = [1.5, -2, 10, 3] and b = [1.5, 2.5, 10, -0.5] are stored as
// [13, 6, 30, 16] and [13, 15, 30, 9]. The body's multiply requantizes
// a * b = [2.25, -5, 100, -1.5]: / 0.5 + 10 = [14.5, 0, 210, 7], rounded to
// even and clamped to [-128, 127]: [14, 0, 127, 7] = [2, -5, 58.5, -1.5].
// Its add into !quant.uniform<i8:f32, 1.0:-5> requantizes a + b =
// [3, 0.5, 20, 2.5]: / 1 - 5 = [-2, -4.5, 15, -2.5] -> [-2, -4, 15, -2]
// (ties to even) = [3, 1, 20, 3].
func.func @map_runs_its_computation_on_quantized_scalars() {
  %x = stablehlo.constant dense<[1.5, -2.0, 10.0, 3.0]> : tensor<4xf32>
  %y = stablehlo.constant dense<[1.5, 2.5, 10.0, -0.5]> : tensor<4xf32>
  %a = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %b = stablehlo.uniform_quantize %y : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %m = "stablehlo.map"(%a, %b) ({
  ^bb0(%p: tensor<!quant.uniform<i8:f32, 0.5:10>>, %q: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %r = stablehlo.multiply %p, %q : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %r : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {dimensions = array<i64: 0>} : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>, tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %ms = stablehlo.bitcast_convert %m : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xi8>
  check.expect_eq_const %ms, dense<[14, 0, 127, 7]> : tensor<4xi8>
  %md = stablehlo.uniform_dequantize %m : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xf32>
  check.expect_almost_eq_const %md, dense<[2.0, -5.0, 58.5, -1.5]> : tensor<4xf32>
  %s = "stablehlo.map"(%a, %b) ({
  ^bb0(%p: tensor<!quant.uniform<i8:f32, 0.5:10>>, %q: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %r = stablehlo.add %p, %q : (tensor<!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<!quant.uniform<i8:f32, 1.0:-5>>
    stablehlo.return %r : tensor<!quant.uniform<i8:f32, 1.0:-5>>
  }) {dimensions = array<i64: 0>} : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>, tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4x!quant.uniform<i8:f32, 1.0:-5>>
  %ss = stablehlo.bitcast_convert %s : (tensor<4x!quant.uniform<i8:f32, 1.0:-5>>) -> tensor<4xi8>
  check.expect_eq_const %ss, dense<[-2, -4, 15, -2]> : tensor<4xi8>
  %sd = stablehlo.uniform_dequantize %s : (tensor<4x!quant.uniform<i8:f32, 1.0:-5>>) -> tensor<4xf32>
  check.expect_almost_eq_const %sd, dense<[3.0, 1.0, 20.0, 3.0]> : tensor<4xf32>
  return
}

// reduce_window pads with the init value and applies its body to the
// quantized values. x = [1, 2.5, -1, 30, 20, 15] in
// !quant.uniform<i8:f32, 0.5:10> is stored as [12, 15, 8, 70, 50, 40].
// Windows of 3, stride 2, padding [1, 1] with init 0 (stored 10):
// [0, 1, 2.5] = 3.5, [2.5, -1, 30] = 31.5, [30, 20, 15] = 65, which
// requantizes to 65 / 0.5 + 10 = 140, clamped to 127 = 58.5 (the partial
// sums are non-negative, so any order of the adds clamps the same). Stored:
// [17, 73, 127]; adding the stored integers instead would give nonsense.
// max with base dilation 2 (holes hold the init -1, stored 8) and windows
// of 2: [1, h] = 1, [h, -3] = -1, [-3, h] = -1, [h, 2.5] = 2.5.
func.func @reduce_window_runs_its_body_on_quantized_scalars() {
  %x = stablehlo.constant dense<[1.0, 2.5, -1.0, 30.0, 20.0, 15.0]> : tensor<6xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 0.5:10>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zq = stablehlo.uniform_quantize %z : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:10>>
  %r = "stablehlo.reduce_window"(%q, %zq) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>} : (tensor<6x!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<3x!quant.uniform<i8:f32, 0.5:10>>
  %rs = stablehlo.bitcast_convert %r : (tensor<3x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<3xi8>
  check.expect_eq_const %rs, dense<[17, 73, 127]> : tensor<3xi8>
  %rd = stablehlo.uniform_dequantize %r : (tensor<3x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<3xf32>
  check.expect_almost_eq_const %rd, dense<[3.5, 31.5, 58.5]> : tensor<3xf32>
  %y = stablehlo.constant dense<[1.0, -3.0, 2.5]> : tensor<3xf32>
  %yq = stablehlo.uniform_quantize %y : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:10>>
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %loq = stablehlo.uniform_quantize %lo : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:10>>
  %m = "stablehlo.reduce_window"(%yq, %loq) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %s = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>, base_dilations = array<i64: 2>} : (tensor<3x!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %md = stablehlo.uniform_dequantize %m : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xf32>
  check.expect_almost_eq_const %md, dense<[1.0, -1.0, -1.0, 2.5]> : tensor<4xf32>
  return
}

// scatter applies update_computation to the quantized values. The input
// [1, 2, 1.5, 50] in !quant.uniform<i8:f32, 0.5:10> is stored as
// [12, 14, 13, 110].
// add of [1.5, 0.5, 10] (stored [13, 11, 30]) at [1, 2, 3]:
// [1, 3.5, 2, 60], and 60 / 0.5 + 10 = 130 clamps to 127 = 58.5. Stored:
// [12, 17, 14, 127] (the stored integers added would give 14 + 13 = 27).
// multiply by [1.5, 0.5, -1] at [1, 2, 1]: element 1 is 2 * 1.5 * -1 = -3
// (exact in either order: stored -3 / 0.5 + 10 = 4); element 2 is
// 1.5 * 0.5 = 0.75, 0.75 / 0.5 + 10 = 11.5 rounds to even 12 = 1.
func.func @scatter_runs_its_body_on_quantized_scalars() {
  %x = stablehlo.constant dense<[1.0, 2.0, 1.5, 50.0]> : tensor<4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %u = stablehlo.constant dense<[1.5, 0.5, 10.0]> : tensor<3xf32>
  %uq = stablehlo.uniform_quantize %u : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:10>>
  %i = stablehlo.constant dense<[[1], [2], [3]]> : tensor<3x1xi32>
  %s = "stablehlo.scatter"(%q, %i, %uq) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %r = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %r : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>, tensor<3x1xi32>, tensor<3x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %ss = stablehlo.bitcast_convert %s : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xi8>
  check.expect_eq_const %ss, dense<[12, 17, 14, 127]> : tensor<4xi8>
  %sd = stablehlo.uniform_dequantize %s : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xf32>
  check.expect_almost_eq_const %sd, dense<[1.0, 3.5, 2.0, 58.5]> : tensor<4xf32>
  %v = stablehlo.constant dense<[1.5, 0.5, -1.0]> : tensor<3xf32>
  %vq = stablehlo.uniform_quantize %v : (tensor<3xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:10>>
  %j = stablehlo.constant dense<[[1], [2], [1]]> : tensor<3x1xi32>
  %m = "stablehlo.scatter"(%q, %j, %vq) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %r = stablehlo.multiply %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %r : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>, tensor<3x1xi32>, tensor<3x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
  %ms = stablehlo.bitcast_convert %m : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xi8>
  check.expect_eq_const %ms, dense<[12, 4, 12, 110]> : tensor<4xi8>
  %md = stablehlo.uniform_dequantize %m : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<4xf32>
  check.expect_almost_eq_const %md, dense<[1.0, -3.0, 1.0, 50.0]> : tensor<4xf32>
  return
}

// select_and_scatter selects with its select body and adds with its
// scatter body, both on the quantized values (!quant.uniform<i8:f32,
// 0.5:10>). Windows of 2, stride 1 over [1, 3, 2, -1, 4, 0.5] pick the
// greater (GE): [1, 3] -> 1, [3, 2] -> 1, [2, -1] -> 2, [-1, 4] -> 4,
// [4, 0.5] -> 4. Sources [20, 25, 1.5, 30, 40] (stored [50, 60, 13, 70, 90])
// added to the init 0 (stored 10): element 1 = 45 (stored 100), element
// 2 = 1.5 (13), element 4 = 70, requantized 70 / 0.5 + 10 = 150 -> 127 =
// 58.5 (the addends are positive, so either order clamps the same); the
// rest keep the init.
func.func @select_and_scatter_runs_its_bodies_on_quantized_scalars() {
  %x = stablehlo.constant dense<[1.0, 3.0, 2.0, -1.0, 4.0, 0.5]> : tensor<6xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 0.5:10>>
  %src = stablehlo.constant dense<[20.0, 25.0, 1.5, 30.0, 40.0]> : tensor<5xf32>
  %srcq = stablehlo.uniform_quantize %src : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8:f32, 0.5:10>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zq = stablehlo.uniform_quantize %z : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:10>>
  %r = "stablehlo.select_and_scatter"(%q, %srcq, %zq) ({
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
    %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
    stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<6x!quant.uniform<i8:f32, 0.5:10>>, tensor<5x!quant.uniform<i8:f32, 0.5:10>>, tensor<!quant.uniform<i8:f32, 0.5:10>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:10>>
  %rs = stablehlo.bitcast_convert %r : (tensor<6x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<6xi8>
  check.expect_eq_const %rs, dense<[10, 100, 13, 10, 127, 10]> : tensor<6xi8>
  %rd = stablehlo.uniform_dequantize %r : (tensor<6x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<6xf32>
  check.expect_almost_eq_const %rd, dense<[0.0, 45.0, 1.5, 0.0, 58.5, 0.0]> : tensor<6xf32>
  return
}

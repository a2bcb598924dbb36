// Miscellaneous op edge cases: clamp, select, NaN compares, map, tuples,
// optimization_barrier, iota, rng_bit_generator, edge values of atan2, pow,
// expm1 and log1p, integer pow, and the chlo special functions JAX emits.
// Expected values come from XLA:CPU running the same StableHLO (rng values
// also match jax.lax.rng_bit_generator on XLA:CPU).
func.func @main() {
  // clamp with scalar min/max broadcast against a vector operand; NaN passes
  // through; with min > max every non-NaN element becomes max (clamp is
  // min(max(x, min), max)), while NaN still propagates.
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %hi = stablehlo.constant dense<2.0> : tensor<f32>
  %x = stablehlo.constant dense<[-5.0, 0.5, 7.0, 0xFF800000, -0.0, 0x7FC00000]> : tensor<6xf32>
  %c = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  check.expect_almost_eq_const %c, dense<[-1.0, 0.5, 2.0, -1.0, -0.0, 0x7FC00000]> : tensor<6xf32>
  %d = stablehlo.clamp %hi, %x, %lo : (tensor<f32>, tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  check.expect_almost_eq_const %d, dense<[-1.0, -1.0, -1.0, -1.0, -1.0, 0x7FC00000]> : tensor<6xf32>
  // Integer clamp with per-element bounds (one of them inverted).
  %ilo = stablehlo.constant dense<[0, 10, -3]> : tensor<3xi32>
  %ix = stablehlo.constant dense<[-7, 5, 100]> : tensor<3xi32>
  %ihi = stablehlo.constant dense<[5, 1, 3]> : tensor<3xi32>
  %ic = stablehlo.clamp %ilo, %ix, %ihi : tensor<3xi32>
  check.expect_eq_const %ic, dense<[0, 1, 3]> : tensor<3xi32>
  return
}

// -----

func.func @main() {
  // select with an elementwise predicate of the full shape and with a scalar
  // predicate; the chosen values' bits (-0.0, NaN payloads) pass unchanged.
  %p = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %a = stablehlo.constant dense<[[-0.0, 1.0], [2.0, 0x7FC00001]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[0.0, -1.0], [-2.0, 0x7F800000]]> : tensor<2x2xf32>
  %s = stablehlo.select %p, %a, %b : tensor<2x2xi1>, tensor<2x2xf32>
  check.expect_eq_const %s, dense<[[-0.0, -1.0], [-2.0, 0x7FC00001]]> : tensor<2x2xf32>
  %q = stablehlo.constant dense<false> : tensor<i1>
  %t = stablehlo.select %q, %a, %b : tensor<i1>, tensor<2x2xf32>
  check.expect_eq_const %t, dense<[[0.0, -1.0], [-2.0, 0x7F800000]]> : tensor<2x2xf32>
  return
}

// -----

func.func @main() {
  // FLOAT compares with NaN: every direction is false except NE; -0 == +0.
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, 0x7FC00000, -0.0, 1.0, 0xFF800000]> : tensor<6xf32>
  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0x7FC00000, 0.0, 1.0, 0x7F800000]> : tensor<6xf32>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %eq, dense<[false, false, false, true, true, false]> : tensor<6xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %ne, dense<[true, true, true, false, false, true]> : tensor<6xi1>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %lt, dense<[false, false, false, false, false, true]> : tensor<6xi1>
  %le = stablehlo.compare LE, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %le, dense<[false, false, false, true, true, true]> : tensor<6xi1>
  %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %gt, dense<[false, false, false, false, false, false]> : tensor<6xi1>
  %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %ge, dense<[false, false, false, true, true, false]> : tensor<6xi1>
  return
}

// -----

func.func @main() {
  // TOTALORDER compares (as in JAX's sort comparator): -NaN < -inf < -1 <
  // -0 < +0 < 1 < +inf < +NaN, and NaN == NaN with the same bits.
  %a = stablehlo.constant dense<[0x7FC00000, 0xFFC00000, -0.0, 0x7FC00000, 0x7F800000, 1.0]> : tensor<6xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0xFF800000, 0.0, 0x7F800000, 0x7FC00000, 0xFFC00000]> : tensor<6xf32>
  %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %eq, dense<[true, false, false, false, false, false]> : tensor<6xi1>
  %ne = stablehlo.compare NE, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %ne, dense<[false, true, true, true, true, true]> : tensor<6xi1>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %lt, dense<[false, true, true, false, true, false]> : tensor<6xi1>
  %le = stablehlo.compare LE, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %le, dense<[true, true, true, false, true, false]> : tensor<6xi1>
  %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %gt, dense<[false, false, false, true, false, true]> : tensor<6xi1>
  %ge = stablehlo.compare GE, %a, %b, TOTALORDER : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %ge, dense<[true, false, false, true, false, true]> : tensor<6xi1>
  return
}

// -----

func.func @main() {
  // map applies its scalar body to each element: a * b + 1 over a 2x2 pair,
  // and a body mixing an i32 and an f32 operand into an f32 result.
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, -4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[5.0, 0.5], [-1.0, 0.25]]> : tensor<2x2xf32>
  %m = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %p = stablehlo.multiply %x, %y : tensor<f32>
    %s = stablehlo.add %p, %one : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %m, dense<[[6.0, 2.0], [-2.0, 0.0]]> : tensor<2x2xf32>
  %i = stablehlo.constant dense<[3, -2, 0]> : tensor<3xi32>
  %f = stablehlo.constant dense<[0.5, 1.5, 2.0]> : tensor<3xf32>
  %n = "stablehlo.map"(%i, %f) ({
  ^bb0(%x: tensor<i32>, %y: tensor<f32>):
    %xf = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
    %d = stablehlo.subtract %xf, %y : tensor<f32>
    stablehlo.return %d : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %n, dense<[2.5, -3.5, -2.0]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // tuple / get_tuple_element, including a nested tuple, hand back the
  // original values.
  %a = stablehlo.constant dense<1.5> : tensor<f32>
  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %t = stablehlo.tuple %a, %b : tuple<tensor<f32>, tensor<3xi32>>
  %u = stablehlo.tuple %t, %a : tuple<tuple<tensor<f32>, tensor<3xi32>>, tensor<f32>>
  %inner = stablehlo.get_tuple_element %u[0] : (tuple<tuple<tensor<f32>, tensor<3xi32>>, tensor<f32>>) -> tuple<tensor<f32>, tensor<3xi32>>
  %x = stablehlo.get_tuple_element %inner[1] : (tuple<tensor<f32>, tensor<3xi32>>) -> tensor<3xi32>
  %y = stablehlo.get_tuple_element %u[1] : (tuple<tuple<tensor<f32>, tensor<3xi32>>, tensor<f32>>) -> tensor<f32>
  %z = stablehlo.add %x, %x : tensor<3xi32>
  check.expect_eq_const %z, dense<[2, 4, 6]> : tensor<3xi32>
  check.expect_eq_const %y, dense<1.5> : tensor<f32>
  return
}

// -----

func.func @main() {
  // optimization_barrier is the identity on its operands (a -0.0 and a NaN
  // payload included), as in JAX's lax.optimization_barrier((a, a * 2)).
  %a = stablehlo.constant dense<[-0.0, 0x7FC00123, 3.0]> : tensor<3xf32>
  %two = stablehlo.constant dense<2.0> : tensor<3xf32>
  %b = stablehlo.multiply %a, %two : tensor<3xf32>
  %r:2 = stablehlo.optimization_barrier %a, %b : tensor<3xf32>, tensor<3xf32>
  check.expect_eq %r#0, %a : tensor<3xf32>
  %c = stablehlo.constant dense<[-0.0, 6.0]> : tensor<2xf32>
  %r1 = stablehlo.slice %r#1 [0:3:2] : (tensor<3xf32>) -> tensor<2xf32>
  check.expect_eq_const %r1, dense<[-0.0, 6.0]> : tensor<2xf32>
  return
}

// -----

func.func @main() {
  // iota along a non-leading dimension: dim 1 of 2x3 counts along rows,
  // dim 2 of a 2x2x3 f32 counts along the last axis; bf16 iota along dim 0.
  %a = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %a, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %b = stablehlo.iota dim = 2 : tensor<2x2x3xf32>
  check.expect_eq_const %b, dense<[[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]], [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]]> : tensor<2x2x3xf32>
  %c = stablehlo.iota dim = 0 : tensor<3x2xbf16>
  check.expect_eq_const %c, dense<[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]> : tensor<3x2xbf16>
  %d = stablehlo.iota dim = 1 : tensor<1x4xui8>
  check.expect_eq_const %d, dense<[[0, 1, 2, 3]]> : tensor<1x4xui8>
  return
}

// -----

func.func @main() {
  // rng_bit_generator THREE_FRY with state [42, 7] (the key
  // [42, 0, 7, 0] : u32 that jax.lax.rng_bit_generator bitcasts to u64):
  // the counter word advances by one per 128 output bits. Values are bit-exact
  // against jax.lax.rng_bit_generator(key, shape, dtype, RNG_THREE_FRY) on XLA:CPU.
  %s = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  %st, %v = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %st, dense<[42, 10]> : tensor<2xui64>
  check.expect_eq_const %v, dense<[[2642642533, 356970675, 4222757798], [3437982737, 1736384518, 1010817143]]> : tensor<2x3xui32>
  %st64, %v64 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  check.expect_eq_const %st64, dense<[42, 10]> : tensor<2xui64>
  check.expect_eq_const %v64, dense<[14766023422270211685, 7457714718447694003, 4341426575643913126]> : tensor<3xui64>
  return
}

// -----

func.func @main() {
  // rng_bit_generator PHILOX with the same [42, 7] state: u32 and u64 outputs
  // and the advanced state, bit-exact against jax.lax.rng_bit_generator(...,
  // algorithm=RNG_PHILOX) on XLA:CPU.
  %s = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  %st, %v = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  check.expect_eq_const %st, dense<[42, 9]> : tensor<2xui64>
  check.expect_eq_const %v, dense<[[1436477672, 1015822685, 1056814300], [3113490754, 1193696974, 489625878]]> : tensor<2x3xui32>
  %st64, %v64 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  check.expect_eq_const %st64, dense<[42, 9]> : tensor<2xui64>
  check.expect_eq_const %v64, dense<[4362925212046387432, 13372340965885195484, 2102927134478982862]> : tensor<3xui64>
  // A three-word PHILOX state (the form XLA also accepts).
  %s3 = stablehlo.constant dense<[42, 7, 1]> : tensor<3xui64>
  %st3, %v3 = stablehlo.rng_bit_generator %s3, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  check.expect_eq_const %st3, dense<[42, 8, 1]> : tensor<3xui64>
  check.expect_eq_const %v3, dense<[1282983007, 1384235854, 440510523, 2933001973]> : tensor<4xui32>
  return
}

// -----

func.func @main() {
  // atan2 edge values (C99 Annex F): atan2(+-0, +0) = +-0, atan2(+-0, -0) =
  // +-pi, atan2(+-inf, +inf) = +-pi/4, atan2(+-inf, -inf) = +-3pi/4,
  // atan2(1, -inf) = pi, atan2(-1, +inf) = -0, atan2(1, 0) = pi/2, NaN -> NaN.
  %y = stablehlo.constant dense<[0.0, -0.0, 0.0, -0.0, 0x7F800000, 0xFF800000, 0x7F800000, 1.0, -1.0, 1.0]> : tensor<10xf32>
  %x = stablehlo.constant dense<[0.0, 0.0, -0.0, -0.0, 0x7F800000, 0x7F800000, 0xFF800000, 0xFF800000, 0x7F800000, 0.0]> : tensor<10xf32>
  %r = stablehlo.atan2 %y, %x : tensor<10xf32>
  %r_xla = stablehlo.constant dense<[0.0, -0.0, 3.1415927, -3.1415927, 0.7853982, -0.7853982, 2.3561945, 3.1415927, -0.0, 1.5707964]> : tensor<10xf32>
  check.expect_close %r, %r_xla, max_ulp_difference = 1 : tensor<10xf32>
  %ny = stablehlo.constant dense<[0x7FC00000, 1.0]> : tensor<2xf32>
  %nx = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %n = stablehlo.atan2 %ny, %nx : tensor<2xf32>
  check.expect_almost_eq_const %n, dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>
  return
}

// -----

func.func @main() {
  // pow edge values: x^(+-0) = 1 even for NaN, 1^y = 1 even for NaN,
  // (-1)^(+-inf) = 1, 0^-1 = inf, (-0)^-1 = -inf, (-0)^-2 = inf,
  // (-0)^3 = -0, (-inf)^3 = -inf, (-inf)^-3 = -0, 0.5^inf = 0, 2^-inf = 0.
  %x = stablehlo.constant dense<[0x7FC00000, 1.0, -1.0, 0.0, -0.0, -0.0, -0.0, 0xFF800000, 0xFF800000, 0.5, 2.0, 2.0]> : tensor<12xf32>
  %y = stablehlo.constant dense<[0.0, 0x7FC00000, 0xFF800000, -1.0, -1.0, -2.0, 3.0, 3.0, -3.0, 0x7F800000, 0xFF800000, 10.0]> : tensor<12xf32>
  %p = stablehlo.power %x, %y : tensor<12xf32>
  check.expect_eq_const %p, dense<[1.0, 1.0, 1.0, 0x7F800000, 0xFF800000, 0x7F800000, -0.0, 0xFF800000, -0.0, 0.0, 0.0, 1024.0]> : tensor<12xf32>
  // Negative base with a non-integer exponent is NaN; 2^NaN is NaN;
  // (-0.5)^inf = 0.
  %a = stablehlo.constant dense<[-8.0, 2.0, -0.5]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0.333333343, 0x7FC00000, 0x7F800000]> : tensor<3xf32>
  %q = stablehlo.power %a, %b : tensor<3xf32>
  check.expect_almost_eq_const %q, dense<[0xFFC00000, 0x7FC00000, 0.0]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // expm1: -0 -> -0, +inf -> inf, -inf -> -1, NaN -> NaN, and tiny
  // arguments keep full relative precision (expm1(1e-10) = 1e-10).
  %x = stablehlo.constant dense<[-0.0, 0.0, 0x7F800000, 0xFF800000, 1.0e-10, -1.0e-07, 1.0, -100.0]> : tensor<8xf32>
  %e = stablehlo.exponential_minus_one %x : tensor<8xf32>
  %e_xla = stablehlo.constant dense<[-0.0, 0.0, 0x7F800000, -1.0, 1.0e-10, -9.9999994e-08, 1.7182817, -1.0]> : tensor<8xf32>
  check.expect_close %e, %e_xla, max_ulp_difference = 1 : tensor<8xf32>
  // log1p: -0 -> -0, -1 -> -inf, < -1 -> NaN, inf -> inf, tiny x -> x.
  %y = stablehlo.constant dense<[-0.0, 0.0, -1.0, 0x7F800000, 1.0e-10, -1.0e-07, 1.0, 1.0e+30]> : tensor<8xf32>
  %l = stablehlo.log_plus_one %y : tensor<8xf32>
  %l_xla = stablehlo.constant dense<[-0.0, 0.0, 0xFF800000, 0x7F800000, 1.0e-10, -1.0000001e-07, 0.6931472, 69.07755]> : tensor<8xf32>
  check.expect_close %l, %l_xla, max_ulp_difference = 1 : tensor<8xf32>
  %z = stablehlo.constant dense<[-2.0, 0xFF800000, 0x7FC00000]> : tensor<3xf32>
  %ln = stablehlo.log_plus_one %z : tensor<3xf32>
  check.expect_almost_eq_const %ln, dense<[0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF]> : tensor<3xf32>
  %en = stablehlo.exponential_minus_one %z : tensor<3xf32>
  check.expect_almost_eq_const %en, dense<[-0.86466473, -1.0, 0x7FC00000]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // Integer power: a negative exponent gives 0 unless |base| == 1
  // ((-1)^-3 = -1, (-1)^-2 = 1, 1^-5 = 1); 0^0 = 1; results wrap modulo 2^32
  // (3^21 = 10460353203 -> 1870418611, (-2)^31 = INT_MIN, 2^32 -> 0).
  %a = stablehlo.constant dense<[2, 1, -1, -1, 0, 0, 3, -2, 2, 7, -3]> : tensor<11xi32>
  %b = stablehlo.constant dense<[-1, -5, -3, -2, 0, 5, 21, 31, 32, 2, 3]> : tensor<11xi32>
  %p = stablehlo.power %a, %b : tensor<11xi32>
  check.expect_eq_const %p, dense<[0, 1, -1, 1, 1, 0, 1870418611, -2147483648, 0, 49, -27]> : tensor<11xi32>
  %u = stablehlo.constant dense<[3, 255, 2]> : tensor<3xui8>
  %v = stablehlo.constant dense<[5, 2, 8]> : tensor<3xui8>
  %q = stablehlo.power %u, %v : tensor<3xui8>
  check.expect_eq_const %q, dense<[243, 1, 0]> : tensor<3xui8>
  return
}

// -----

func.func @main() {
  // chlo.lgamma: lgamma(1) = lgamma(2) = 0, poles at 0 and negative
  // integers give +inf, lgamma(0.5) = log(sqrt(pi)), lgamma(-2.5) = log|Gamma(-2.5)|,
  // lgamma(+-inf) = +inf.
  %x = stablehlo.constant dense<[1.0, 2.0, 0.0, -1.0, -2.0, 0.5, -2.5, 0x7F800000, 0xFF800000, 10.0]> : tensor<10xf32>
  %l = chlo.lgamma %x : tensor<10xf32> -> tensor<10xf32>
  check.expect_almost_eq_const %l, dense<[4.7683716e-07, 0.0, 0x7F800000, 0x7F800000, 0x7F800000, 0.5723648, -0.056243896, 0x7F800000, 0x7F800000, 12.80183]> : tensor<10xf32>
  // chlo.digamma: digamma(1) = -EulerGamma, digamma(2) = 1 - EulerGamma,
  // digamma(0.5) = -EulerGamma - 2 log 2; XLA gives -inf at 0 and NaN at the
  // negative integers and at -inf; digamma(-2.5) = 1.1031566 is finite.
  %d = chlo.digamma %x : tensor<10xf32> -> tensor<10xf32>
  check.expect_almost_eq_const %d, dense<[-0.5772154, 0.42278463, 0xFF800000, 0x7FC00000, 0x7FC00000, -1.96351, 1.1031562, 0x7F800000, 0x7FC00000, 2.2517526]> : tensor<10xf32>
  return
}

// -----

func.func @main() {
  // chlo.erf_inv: erf_inv(+-1) = +-inf, |x| > 1 is NaN, erf_inv(0) = 0,
  // erf_inv(0.5) = 0.4769363.
  %x = stablehlo.constant dense<[1.0, -1.0, 0.0, -0.0, 0.5, -0.9, 1.5, 0x7FC00000]> : tensor<8xf32>
  %e = chlo.erf_inv %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const %e, dense<[0x7F800000, 0xFF800000, 0.0, -0.0, 0.47693628, -1.163087, 0x7FFFFFFF, 0x7FC00000]> : tensor<8xf32>
  // chlo.bessel_i1e (exp(-|x|) I1(x)) is odd: i1e(0) = 0, i1e(1) = 0.2079104,
  // i1e(-1) = -0.2079104, and it decays to 0 at +-inf.
  %y = stablehlo.constant dense<[0.0, 1.0, -1.0, 10.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<7xf32>
  %i = chlo.bessel_i1e %y : tensor<7xf32> -> tensor<7xf32>
  check.expect_almost_eq_const %i, dense<[0.0, 0.20791042, -0.20791042, 0.121262684, 0.0, -0.0, 0x7FC00000]> : tensor<7xf32>
  return
}

// -----

func.func @main() {
  // chlo.polygamma(n, x): n = 0 is digamma, polygamma(1, 1) = pi^2/6,
  // polygamma(1, 0.5) = pi^2/2, polygamma(2, 1) = -2 zeta(3); a non-integer
  // order gives NaN.
  %n = stablehlo.constant dense<[0.0, 1.0, 1.0, 2.0, 1.5, 1.0]> : tensor<6xf32>
  %x = stablehlo.constant dense<[1.0, 1.0, 0.5, 1.0, 1.0, 3.0]> : tensor<6xf32>
  %p = chlo.polygamma %n, %x : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  check.expect_almost_eq_const %p, dense<[-0.5772154, 1.644934, 4.934802, -2.4041145, 0x7FC00000, 0.39493403]> : tensor<6xf32>
  // chlo.zeta(s, q) (Hurwitz): zeta(2, 1) = pi^2/6, zeta(2, 2) = pi^2/6 - 1,
  // zeta(4, 1) = pi^4/90, zeta(1, q) = inf (pole), s < 1 is NaN.
  %s = stablehlo.constant dense<[2.0, 2.0, 4.0, 1.0, 0.5, 3.0]> : tensor<6xf32>
  %q = stablehlo.constant dense<[1.0, 2.0, 1.0, 1.0, 1.0, 0.5]> : tensor<6xf32>
  %z = chlo.zeta %s, %q : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  check.expect_almost_eq_const %z, dense<[1.644934, 0.64493406, 1.0823234, 0x7F800000, 0x7FC00000, 8.414397]> : tensor<6xf32>
  return
}

// -----

func.func @main() {
  // rng_bit_generator with u8 and u16 outputs (state [42, 7]): each element
  // is the low bits of one generated 32-bit word (THREE_FRY's first word
  // 0x9D838665 gives u16 0x8665 = 34405 and u8 0x65 = 101), and the state
  // advances as for u32. Bit-exact against jax.lax.rng_bit_generator(key,
  // (5,), dtype=uint8/uint16, algorithm=...) on XLA:CPU.
  %s = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  %st8, %v8 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui8>)
  check.expect_eq_const %st8, dense<[42, 10]> : tensor<2xui64>
  check.expect_eq_const %v8, dense<[101, 17, 179, 6, 166]> : tensor<5xui8>
  %st16, %v16 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui16>)
  check.expect_eq_const %v16, dense<[34405, 29713, 61619, 8198, 11174]> : tensor<5xui16>
  %pst8, %pv8 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui8>)
  check.expect_eq_const %pst8, dense<[42, 9]> : tensor<2xui64>
  check.expect_eq_const %pv8, dense<[232, 93, 220, 66, 206]> : tensor<5xui8>
  %pst16, %pv16 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui16>)
  check.expect_eq_const %pv16, dense<[59624, 14685, 46300, 6466, 24270]> : tensor<5xui16>
  return
}

// Conversion edge cases: convert (float <-> int, narrowing float rounding,
// signed <-> unsigned, bool, complex), bitcast_convert, reduce_precision and
// f8 formats. Expected values come from XLA:CPU running the same StableHLO.
func.func @main() {
  // f32 -> i32 truncates toward zero (-0.5 -> 0, -1.5 -> -1), NaN (either
  // sign) -> 0, and out-of-range values (including +-inf) saturate to
  // INT_MIN/INT_MAX. 2147483520 is the largest f32 below 2^31 and converts exactly.
  %x = stablehlo.constant dense<[0x7FC00000, 0xFFC00000, 0x7F800000, 0xFF800000, 3.0e+09, -3.0e+09, -0.5, 0.5, -1.5, 2147483520.0, 2147483648.0, -2147483648.0]> : tensor<12xf32>
  %i = stablehlo.convert %x : (tensor<12xf32>) -> tensor<12xi32>
  check.expect_eq_const %i, dense<[0, 0, 2147483647, -2147483648, 2147483647, -2147483648, 0, 0, -1, 2147483520, 2147483647, -2147483648]> : tensor<12xi32>
  return
}

// -----

func.func @main() {
  // Saturation into narrow and unsigned types: f32 -> i8 clamps to
  // [-128, 127]; f32 -> ui32 maps negatives to 0; f64 -> i64 saturates at
  // +-2^63 and NaN -> 0.
  %x = stablehlo.constant dense<[300.0, -300.0, 127.9, -128.9, 0x7FC00000]> : tensor<5xf32>
  %i8 = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xi8>
  check.expect_eq_const %i8, dense<[127, -128, 127, -128, 0]> : tensor<5xi8>
  %y = stablehlo.constant dense<[-1.0, -0.9, 4294967040.0, 5.0e+09, 0x7F800000]> : tensor<5xf32>
  %u32 = stablehlo.convert %y : (tensor<5xf32>) -> tensor<5xui32>
  check.expect_eq_const %u32, dense<[0, 0, 4294967040, 4294967295, 4294967295]> : tensor<5xui32>
  %z = stablehlo.constant dense<[9.3e+18, -9.3e+18, 9.2233720368547748e+18, 0x7FF8000000000000, -0.99]> : tensor<5xf64>
  %i64 = stablehlo.convert %z : (tensor<5xf64>) -> tensor<5xi64>
  check.expect_eq_const %i64, dense<[9223372036854775807, -9223372036854775808, 9223372036854774784, 0, 0]> : tensor<5xi64>
  return
}

// -----

func.func @main() {
  // Integer -> float rounds to nearest, ties to even: 2^24 + 1 -> 2^24,
  // 2^24 + 3 -> 2^24 + 4, 2^24 + 5 -> 2^24 + 4, INT64_MAX -> 2^63,
  // 2^53 + 1 in f64 -> 2^53; INT32_MAX -> 2^31; UINT64_MAX -> 2^64.
  %a = stablehlo.constant dense<[16777217, 16777219, 16777221, 9223372036854775807, -9223372036854775808, 9007199254740993]> : tensor<6xi64>
  %f = stablehlo.convert %a : (tensor<6xi64>) -> tensor<6xf32>
  check.expect_eq_const %f, dense<[16777216.0, 16777220.0, 16777220.0, 9.223372e+18, -9.223372e+18, 9007199254740992.0]> : tensor<6xf32>
  %d = stablehlo.convert %a : (tensor<6xi64>) -> tensor<6xf64>
  check.expect_eq_const %d, dense<[16777217.0, 16777219.0, 16777221.0, 9.223372036854776e+18, -9.223372036854776e+18, 9007199254740992.0]> : tensor<6xf64>
  %b = stablehlo.constant dense<[2147483647, -2147483647, 33554435]> : tensor<3xi32>
  %g = stablehlo.convert %b : (tensor<3xi32>) -> tensor<3xf32>
  check.expect_eq_const %g, dense<[2147483648.0, -2147483648.0, 33554436.0]> : tensor<3xf32>
  %c = stablehlo.constant dense<[18446744073709551615, 9223372036854775809]> : tensor<2xui64>
  %h = stablehlo.convert %c : (tensor<2xui64>) -> tensor<2xf32>
  check.expect_eq_const %h, dense<[1.8446744e+19, 9.223372e+18]> : tensor<2xf32>
  // i32 -> f16: 65519 rounds down to 65504 (max f16), 65520 and above overflow to inf.
  %e = stablehlo.constant dense<[2049, 65519, 65520, 100000, -100000]> : tensor<5xi32>
  %k = stablehlo.convert %e : (tensor<5xi32>) -> tensor<5xf16>
  check.expect_eq_const %k, dense<[2048.0, 65504.0, 0x7C00, 0x7C00, 0xFC00]> : tensor<5xf16>
  return
}

// -----

func.func @main() {
  // f32 -> bf16 rounds to nearest even: 1 + 2^-8 is a tie -> 1.0,
  // 1 + 3*2^-8 is a tie -> 1 + 2^-6, 1 + 2^-8 + 2^-20 is above the tie ->
  // 1 + 2^-7. f32 max (above bf16 max + half ulp) overflows to inf;
  // 3.3961e38 is just below that halfway point and rounds to bf16 max.
  %x = stablehlo.constant dense<[1.00390625, 1.01171875, 1.00390720, 3.40282347e+38, -3.40282347e+38, 3.3961e+38, -0.0, 0x7F800000]> : tensor<8xf32>
  %b = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xbf16>
  check.expect_eq_const %b, dense<[1.0, 1.015625, 1.0078125, 0x7F80, 0xFF80, 3.3895313892515355e+38, -0.0, 0x7F80]> : tensor<8xbf16>
  // f64 -> bf16 on XLA:CPU goes through f32 (double rounding): 1 + 2^-8 +
  // 2^-30 first becomes the f32 value 1 + 2^-8, an exact bf16 tie, which
  // rounds to even 1.0 (one direct rounding would give 1 + 2^-7). 1e300
  // overflows to inf and -1e-300 underflows to -0. In f16 the first value is
  // exactly representable after rounding (1 + 2^-8). i64 -> bf16 rounds to
  // nearest even: 257 -> 256, 2^24 + 1 -> 2^24.
  %d = stablehlo.constant dense<[1.0039062509313226, 1.0e+300, -1.0e-300]> : tensor<3xf64>
  %db = stablehlo.convert %d : (tensor<3xf64>) -> tensor<3xbf16>
  check.expect_eq_const %db, dense<[1.0, 0x7F80, -0.0]> : tensor<3xbf16>
  %dh = stablehlo.convert %d : (tensor<3xf64>) -> tensor<3xf16>
  check.expect_eq_const %dh, dense<[1.00390625, 0x7C00, -0.0]> : tensor<3xf16>
  %i = stablehlo.constant dense<[257, 16777217, -9223372036854775807]> : tensor<3xi64>
  %ib = stablehlo.convert %i : (tensor<3xi64>) -> tensor<3xbf16>
  check.expect_eq_const %ib, dense<[256.0, 16777216.0, -9.223372036854776e+18]> : tensor<3xbf16>
  // NaN stays NaN (payload not compared).
  %n = stablehlo.constant dense<[0x7FC00000, 0xFFC00000]> : tensor<2xf32>
  %nb = stablehlo.convert %n : (tensor<2xf32>) -> tensor<2xbf16>
  check.expect_almost_eq_const %nb, dense<[0x7FC0, 0xFFC0]> : tensor<2xbf16>
  return
}

// -----

func.func @main() {
  // f32 -> f16 at the bottom of the range: 2^-25 is half the smallest f16
  // denormal (a tie -> 0), 3*2^-25 ties to the even denormal 2*2^-24,
  // 1e-5 is the denormal 168*2^-24 (0x00A8), 6.1e-5 is just below the smallest
  // normal 2^-14 and rounds to the largest denormal 1023*2^-24, 6.103e-5
  // rounds up to 2^-14, and -1e-9 underflows to -0.
  %x = stablehlo.constant dense<[2.98023224e-08, 8.94069672e-08, 1.0e-05, 6.1e-05, 6.103e-05, -1.0e-09, 65519.0, 65520.0]> : tensor<8xf32>
  %h = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xf16>
  check.expect_eq_const %h, dense<[0.0, 1.1920928955078125e-07, 1.0013580322265625e-05, 6.097555160522461e-05, 6.103515625e-05, -0.0, 65504.0, 0x7C00]> : tensor<8xf16>
  // f64 -> f32: 1e39 overflows to inf, 1e-50 underflows to 0, and
  // 1 + 2^-24 (a tie) rounds to 1.0.
  %d = stablehlo.constant dense<[1.0e+39, -1.0e+39, 1.0e-50, 1.0000000596046448]> : tensor<4xf64>
  %f = stablehlo.convert %d : (tensor<4xf64>) -> tensor<4xf32>
  check.expect_eq_const %f, dense<[0x7F800000, 0xFF800000, 0.0, 1.0]> : tensor<4xf32>
  return
}

// -----

func.func @main() {
  // Signed <-> unsigned and narrowing integer converts keep the low bits
  // (two's complement): ui32 0xFFFFFFFF -> -1, i32 -1 -> 4294967295,
  // ui8 200 -> -56, i32 300 -> 44 (ui8); widening sign-extends from a signed
  // source (i32 -1 -> ui64 max) and zero-extends from an unsigned one.
  %u = stablehlo.constant dense<[4294967295, 2147483648, 7]> : tensor<3xui32>
  %s = stablehlo.convert %u : (tensor<3xui32>) -> tensor<3xi32>
  check.expect_eq_const %s, dense<[-1, -2147483648, 7]> : tensor<3xi32>
  %u64 = stablehlo.convert %u : (tensor<3xui32>) -> tensor<3xi64>
  check.expect_eq_const %u64, dense<[4294967295, 2147483648, 7]> : tensor<3xi64>
  %i = stablehlo.constant dense<[-1, 300, -129, 65536]> : tensor<4xi32>
  %iu = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xui32>
  check.expect_eq_const %iu, dense<[4294967295, 300, 4294967167, 65536]> : tensor<4xui32>
  %iu8 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xui8>
  check.expect_eq_const %iu8, dense<[255, 44, 127, 0]> : tensor<4xui8>
  %i8 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xi8>
  check.expect_eq_const %i8, dense<[-1, 44, 127, 0]> : tensor<4xi8>
  %iu64 = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xui64>
  check.expect_eq_const %iu64, dense<[18446744073709551615, 300, 18446744073709551487, 65536]> : tensor<4xui64>
  %b = stablehlo.constant dense<[200, 128, 127]> : tensor<3xui8>
  %bs = stablehlo.convert %b : (tensor<3xui8>) -> tensor<3xi8>
  check.expect_eq_const %bs, dense<[-56, -128, 127]> : tensor<3xi8>
  return
}

// -----

func.func @main() {
  // Bool converts: true -> 1 / 1.0, false -> 0; to i1 any nonzero is true,
  // including NaN and -inf, while -0.0 compares equal to zero and is false.
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %pi = stablehlo.convert %p : (tensor<2xi1>) -> tensor<2xi32>
  check.expect_eq_const %pi, dense<[1, 0]> : tensor<2xi32>
  %pf = stablehlo.convert %p : (tensor<2xi1>) -> tensor<2xf32>
  check.expect_eq_const %pf, dense<[1.0, 0.0]> : tensor<2xf32>
  %pu = stablehlo.convert %p : (tensor<2xi1>) -> tensor<2xui8>
  check.expect_eq_const %pu, dense<[1, 0]> : tensor<2xui8>
  %x = stablehlo.constant dense<[0.0, -0.0, 0x7FC00000, 0.5, 0xFF800000, 1.0e-30]> : tensor<6xf32>
  %xb = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %xb, dense<[false, false, true, true, true, true]> : tensor<6xi1>
  %n = stablehlo.constant dense<[0, 2, -1, 256]> : tensor<4xi32>
  %nb = stablehlo.convert %n : (tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const %nb, dense<[false, true, true, true]> : tensor<4xi1>
  return
}

// -----

func.func @main() {
  // complex -> real convert keeps the real part (XLA's rule; JAX's astype
  // emits stablehlo.real, which agrees); real -> complex has imaginary part 0;
  // complex<f64> -> complex<f32> rounds both parts.
  %c = stablehlo.constant dense<[(1.5,-2.0), (-0.0,3.0), (0x7FF8000000000000,1.0)]> : tensor<3xcomplex<f64>>
  %r = stablehlo.convert %c : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
  check.expect_almost_eq_const %r, dense<[1.5, -0.0, 0x7FF8000000000000]> : tensor<3xf64>
  %re = stablehlo.real %c : (tensor<3xcomplex<f64>>) -> tensor<3xf64>
  check.expect_almost_eq_const %re, dense<[1.5, -0.0, 0x7FF8000000000000]> : tensor<3xf64>
  %ri = stablehlo.convert %c : (tensor<3xcomplex<f64>>) -> tensor<3xi32>
  check.expect_eq_const %ri, dense<[1, 0, 0]> : tensor<3xi32>
  %d = stablehlo.constant dense<[(1.0000000596046448,1.0e+39)]> : tensor<1xcomplex<f64>>
  %e = stablehlo.convert %d : (tensor<1xcomplex<f64>>) -> tensor<1xcomplex<f32>>
  check.expect_eq_const %e, dense<[(1.0,0x7F800000)]> : tensor<1xcomplex<f32>>
  %x = stablehlo.constant dense<[2.5, -0.0]> : tensor<2xf32>
  %xc = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %xc, dense<[(2.5,0.0), (-0.0,0.0)]> : tensor<2xcomplex<f32>>
  return
}

// -----

func.func @main() {
  // bitcast_convert between same-width types reinterprets the bits:
  // 1.0 = 0x3F800000, -0.0 = 0x80000000, inf = 0x7F800000, 0x7FC00000 NaN.
  %x = stablehlo.constant dense<[1.0, -0.0, 0x7F800000, 0x7FC00000, -2.5]> : tensor<5xf32>
  %i = stablehlo.bitcast_convert %x : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %i, dense<[1065353216, -2147483648, 2139095040, 2143289344, -1071644672]> : tensor<5xi32>
  %u = stablehlo.bitcast_convert %x : (tensor<5xf32>) -> tensor<5xui32>
  check.expect_eq_const %u, dense<[1065353216, 2147483648, 2139095040, 2143289344, 3223322624]> : tensor<5xui32>
  %j = stablehlo.constant dense<[1, -1, 8388608]> : tensor<3xi32>
  %f = stablehlo.bitcast_convert %j : (tensor<3xi32>) -> tensor<3xf32>
  check.expect_eq_const %f, dense<[1.0e-45, 0xFFFFFFFF, 1.1754944e-38]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // bitcast_convert to a narrower type adds a trailing dimension, lowest
  // bits first (little endian): 1.0f = 0x3F800000 -> bf16 [0x0000, 0x3F80]
  // = [0.0, 1.0]; as i16 [0, 16256]. 0x3FC00001 -> i16 [1, 16320].
  %x = stablehlo.constant dense<[1.0, 1.50000012, -2.0]> : tensor<3xf32>
  %b = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x2xbf16>
  check.expect_eq_const %b, dense<[[0.0, 1.0], [9.183549615799121e-41, 1.5], [0.0, -2.0]]> : tensor<3x2xbf16>
  %h = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x2xi16>
  check.expect_eq_const %h, dense<[[0, 16256], [1, 16320], [0, -16384]]> : tensor<3x2xi16>
  // And back: the trailing dimension of 4 x i8 folds into one i32,
  // [1, 2, 3, 4] -> 0x04030201 = 67305985; [-1, -1, -1, 127] -> 0x7FFFFFFF.
  %c = stablehlo.constant dense<[[1, 2, 3, 4], [-1, -1, -1, 127]]> : tensor<2x4xi8>
  %w = stablehlo.bitcast_convert %c : (tensor<2x4xi8>) -> tensor<2xi32>
  check.expect_eq_const %w, dense<[67305985, 2147483647]> : tensor<2xi32>
  %bb = stablehlo.bitcast_convert %b : (tensor<3x2xbf16>) -> tensor<3xf32>
  check.expect_eq %bb, %x : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // reduce_precision to e5m2 (f8E5M2's range in an f32): 2 mantissa bits,
  // ties to even (1.125 -> 1.0, 1.375 -> 1.5), the max finite is 57344;
  // 61000 rounds down to it and 62000 overflows to inf; inf stays inf.
  %x = stablehlo.constant dense<[1.1, 1.125, 1.375, -1.875, 61000.0, 62000.0, 0x7F800000, -3.0e+10]> : tensor<8xf32>
  %r = stablehlo.reduce_precision %x, format = e5m2 : tensor<8xf32>
  check.expect_eq_const %r, dense<[1.0, 1.0, 1.5, -2.0, 57344.0, 0x7F800000, 0x7F800000, 0xFF800000]> : tensor<8xf32>
  // NaN stays NaN.
  %n = stablehlo.constant dense<[0x7FC00000, 0xFFC00000, 0x7F800001]> : tensor<3xf32>
  %rn = stablehlo.reduce_precision %n, format = e5m2 : tensor<3xf32>
  check.expect_almost_eq_const %rn, dense<[0x7FC00000, 0xFFC00000, 0x7F800001]> : tensor<3xf32>
  // e8m7 is bf16 rounding kept in f32; e5m8 on f16 keeps the range and
  // rounds to 8 mantissa bits (1 + 2^-10 -> 1.0, 1 + 3*2^-10 -> 1 + 2^-8,
  // 65504 rounds up past the max -> inf); e8m23 on f64 rounds to f32's
  // precision and range (0.1 -> 0.10000000149011612, 1e300 -> inf).
  %y = stablehlo.constant dense<[1.00390625, 1.01171875, 3.14159274]> : tensor<3xf32>
  %r7 = stablehlo.reduce_precision %y, format = e8m7 : tensor<3xf32>
  check.expect_eq_const %r7, dense<[1.0, 1.015625, 3.140625]> : tensor<3xf32>
  %h = stablehlo.constant dense<[1.0009765625, 1.0029296875, 65504.0]> : tensor<3xf16>
  %rh = stablehlo.reduce_precision %h, format = e5m8 : tensor<3xf16>
  check.expect_eq_const %rh, dense<[1.0, 1.00390625, 0x7C00]> : tensor<3xf16>
  %z = stablehlo.constant dense<[0.1, 1.0e+300]> : tensor<2xf64>
  %rz = stablehlo.reduce_precision %z, format = e8m23 : tensor<2xf64>
  check.expect_eq_const %rz, dense<[0.10000000149011612, 0x7FF0000000000000]> : tensor<2xf64>
  return
}

// -----

func.func @main() {
  // reduce_precision with a small exponent: e2m1 (bias 1, exponent 3 kept
  // for inf/NaN) has normals 1.0, 1.5, 2.0, 3.0. XLA rounds the mantissa
  // first (0.9 -> 1.0; 1.25 is a tie -> 1.0), then flushes results below
  // the smallest normal 1.0 to a signed zero (0.5, 0.75, -0.25; no denormals),
  // and 3.5 (a tie between 3.0 and 4.0) and beyond overflow to inf.
  %x = stablehlo.constant dense<[0.5, 0.75, 0.9, 1.25, 3.0, 3.4, 3.5, -10.0, -0.25]> : tensor<9xf32>
  %r = stablehlo.reduce_precision %x, format = e2m1 : tensor<9xf32>
  check.expect_eq_const %r, dense<[0.0, 0.0, 1.0, 1.0, 3.0, 3.0, 0x7F800000, 0xFF800000, -0.0]> : tensor<9xf32>
  return
}

// -----

func.func @main() {
  // f32 -> f8E4M3FN (no infinities, max 448 = 1.75 * 2^8, the next step up
  // 480 is the NaN encoding): 460 and the tie 464 round to 448 (even), but
  // XLA's convert does not saturate, so 500 (nearest 480), inf and NaN all
  // become NaN (0x7F). 0.001 rounds to the smallest denormal 2^-9 and 3.3 to 3.25.
  %x = stablehlo.constant dense<[1.0, 448.0, 460.0, 464.0, 0.001, -0.0625, 3.3]> : tensor<7xf32>
  %f = stablehlo.convert %x : (tensor<7xf32>) -> tensor<7xf8E4M3FN>
  check.expect_eq_const %f, dense<[1.0, 448.0, 448.0, 448.0, 0.001953125, -0.0625, 3.25]> : tensor<7xf8E4M3FN>
  %y = stablehlo.constant dense<[500.0, 0x7F800000, 0x7FC00000]> : tensor<3xf32>
  %g = stablehlo.convert %y : (tensor<3xf32>) -> tensor<3xf8E4M3FN>
  check.expect_almost_eq_const %g, dense<[0x7F, 0x7F, 0x7F]> : tensor<3xf8E4M3FN>
  // bf16 -> f8E4M3FN directly: 2^-10 is half the smallest denormal (a tie
  // -> 0), 1.5*2^-10 rounds up to 2^-9, -464 ties to -448.
  %hb = stablehlo.constant dense<[0.0009765625, 0.00146484375, 240.0, -464.0]> : tensor<4xbf16>
  %hf = stablehlo.convert %hb : (tensor<4xbf16>) -> tensor<4xf8E4M3FN>
  check.expect_eq_const %hf, dense<[0.0, 0.001953125, 240.0, -448.0]> : tensor<4xf8E4M3FN>
  %back = stablehlo.convert %f : (tensor<7xf8E4M3FN>) -> tensor<7xf32>
  check.expect_eq_const %back, dense<[1.0, 448.0, 448.0, 448.0, 0.001953125, -0.0625, 3.25]> : tensor<7xf32>
  return
}

// -----

func.func @main() {
  // f32 -> f8E5M2 (IEEE-like, max 57344, has inf): 61440 is the tie between
  // 57344 and 65536 (inf) and rounds to even (inf), 61439 rounds down; 1e5 ->
  // inf; 1.125 -> 1.0 (tie to even); 2^-16 is the smallest denormal.
  %x = stablehlo.constant dense<[57344.0, 61439.0, 61440.0, 1.0e+05, 1.125, -1.625, 0x7F800000, 1.52587891e-05]> : tensor<8xf32>
  %f = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xf8E5M2>
  check.expect_eq_const %f, dense<[57344.0, 57344.0, 0x7C, 0x7C, 1.0, -1.5, 0x7C, 1.52587890625e-05]> : tensor<8xf8E5M2>
  %back = stablehlo.convert %f : (tensor<8xf8E5M2>) -> tensor<8xf32>
  check.expect_eq_const %back, dense<[57344.0, 57344.0, 0x7F800000, 0x7F800000, 1.0, -1.5, 0x7F800000, 1.5258789e-05]> : tensor<8xf32>
  return
}

// Float edge cases: NaN propagation, signed zeros, infinities, conversions.
func.func @main() {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %mx = stablehlo.maximum %nan, %one : tensor<f32>
  check.expect_almost_eq_const %mx, dense<0x7FC00000> : tensor<f32>
  %mn = stablehlo.minimum %one, %nan : tensor<f32>
  check.expect_almost_eq_const %mn, dense<0x7FC00000> : tensor<f32>
  return
}

// -----

func.func @main() {
  // Float to int: truncation toward zero, saturation, NaN to 0.
  %x = stablehlo.constant dense<[2.7, -2.7, 3.0e+10, -3.0e+10, 0x7FC00000, 0x7F800000]> : tensor<6xf32>
  %i = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xi32>
  check.expect_eq_const %i, dense<[2, -2, 2147483647, -2147483648, 0, 2147483647]> : tensor<6xi32>
  %u = stablehlo.convert %x : (tensor<6xf32>) -> tensor<6xui8>
  check.expect_eq_const %u, dense<[2, 0, 255, 0, 0, 255]> : tensor<6xui8>
  return
}

// -----

func.func @main() {
  // Round to nearest even when narrowing: 1 + 2^-11 is a tie in f16.
  %x = stablehlo.constant dense<[1.00048828125, 1.00146484375, 65520.0, 5.9604644775390625E-8]> : tensor<4xf32>
  %h = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
  check.expect_eq_const %h, dense<[0x3C00, 0x3C02, 0x7C00, 0x0001]> : tensor<4xf16>
  return
}

// -----

func.func @main() {
  %x = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.5]> : tensor<6xf32>
  %f = stablehlo.is_finite %x : (tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %f, dense<[true, true, false, false, false, true]> : tensor<6xi1>
  %y = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 1.5]> : tensor<5xf32>
  %s = stablehlo.sign %y : tensor<5xf32>
  check.expect_eq_const %s, dense<[0.0, -0.0, 1.0, -1.0, 1.0]> : tensor<5xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %sn = stablehlo.sign %nan : tensor<f32>
  check.expect_almost_eq_const %sn, dense<0x7FC00000> : tensor<f32>
  return
}

// -----

func.func @main() {
  // TOTALORDER: -NaN < -inf < -0 < +0 < +inf < +NaN.
  %a = stablehlo.constant dense<[-0.0, 0x7FC00000, 0xFF800000, 0xFFC00000]> : tensor<4xf32>
  %b = stablehlo.constant dense<[0.0, 0x7F800000, 0xFFC00000, 0xFF800000]> : tensor<4xf32>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[true, false, false, true]> : tensor<4xi1>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[true, false, false, false]> : tensor<4xi1>
  return
}

// -----

func.func @main() {
  // remainder follows fmod: the sign of the dividend.
  %a = stablehlo.constant dense<[5.5, -5.5, 5.5, 1.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[2.0, 2.0, -2.0, 0.0]> : tensor<4xf32>
  %r = stablehlo.remainder %a, %b : tensor<4xf32>
  check.expect_almost_eq_const %r, dense<[1.5, -1.5, 1.5, 0x7FC00000]> : tensor<4xf32>
  return
}

// -----

// Complex power overflowing: XLA computes exp(b log a) as |.| (cos, sin),
// so an infinite magnitude times sin(0) is NaN (values from XLA:CPU; the
// NaN's sign is not specified, so any NaN matches).
func.func @main() {
  %a = stablehlo.constant dense<[(1.0e30, 0.0), (1.0e20, 1.0)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<[(3.0, 0.0), (2.5, 0.0)]> : tensor<2xcomplex<f32>>
  %c = stablehlo.power %a, %b : tensor<2xcomplex<f32>>
  check.expect_almost_eq_const %c, dense<[(0x7F800000, 0x7FC00000), (0x7F800000, 0x7F800000)]> : tensor<2xcomplex<f32>>
  return
}

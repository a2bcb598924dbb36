// Must fail: NaN never matches a number, whatever the tolerance.
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>
  return
}

// The check ops themselves: NaN equals NaN, tolerances, ulp distances.
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.00001, 0x7FC00000]> : tensor<2xf32>
  check.expect_almost_eq %a, %b : tensor<2xf32>
  check.expect_almost_eq %a, %b, tolerance = 1.000000e-03 : tensor<2xf32>
  %c = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  check.expect_eq %a, %c : tensor<2xf32>
  // 1.0 and the next float up are one ulp apart.
  %d = stablehlo.constant dense<[1.00000012, 0x7FC00000]> : tensor<2xf32>
  check.expect_close %a, %d, max_ulp_difference = 1 : tensor<2xf32>
  return
}

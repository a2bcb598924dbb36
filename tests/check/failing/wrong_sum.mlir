// Must fail: proves that `hlograph check` reports a wrong value.
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %s, dense<[2, 5]> : tensor<2xi32>
  return
}

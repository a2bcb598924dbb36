// Must fail: quantization rounds ties to even (2.5 -> 2), not away from zero.
func.func @main() {
  %x = stablehlo.constant dense<[2.5]> : tensor<1xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<1xf32>) -> tensor<1x!quant.uniform<i8:f32, 1.000000e+00>>
  %s = stablehlo.bitcast_convert %q : (tensor<1x!quant.uniform<i8:f32, 1.000000e+00>>) -> tensor<1xi8>
  check.expect_eq_const %s, dense<[3]> : tensor<1xi8>
  return
}

// Quantized element types: per tensor and per axis, u8 and ui8 storage, a
// narrowed storage range, i4 storage, bf16 expressed type, a scale with no
// short decimal, and a hybrid dot_general.
func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2x!quant.uniform<i8:f32:1, {0.25,0.5}>>) -> (tensor<2x3x!quant.uniform<u8:f32, 0.5:3>>, tensor<2x3x!quant.uniform<ui8:f32, 0.5:3>>, tensor<2x2xf32>, tensor<2x3x!quant.uniform<i8<-127:127>:bf16, 0.1>>, tensor<2x3x!quant.uniform<i4:f32, 0.0039132908278820561:-3>>) {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<u8:f32, 0.5:3>>
  %1 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<ui8:f32, 0.5:3>>
  %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25,0.5}>>) -> tensor<2x2xf32>
  %3 = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  %4 = stablehlo.uniform_quantize %3 : (tensor<2x3xbf16>) -> tensor<2x3x!quant.uniform<i8<-127:127>:bf16, 0.1>>
  %5 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i4:f32, 0.0039132908278820561:-3>>
  return %0, %1, %2, %4, %5 : tensor<2x3x!quant.uniform<u8:f32, 0.5:3>>, tensor<2x3x!quant.uniform<ui8:f32, 0.5:3>>, tensor<2x2xf32>, tensor<2x3x!quant.uniform<i8<-127:127>:bf16, 0.1>>, tensor<2x3x!quant.uniform<i4:f32, 0.0039132908278820561:-3>>
}

module @jit_f16_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf16>, %arg1: tensor<16xf16>) -> (tensor<16xf16> {jax.result_info = "result[0]"}, tensor<f16> {jax.result_info = "result[1]"}, tensor<16xf16> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.tanh %arg0 : tensor<16xf16>
    %1 = stablehlo.multiply %0, %arg1 : tensor<16xf16>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<16xf16>
    %3 = stablehlo.subtract %1, %2 : tensor<16xf16>
    %4 = stablehlo.convert %arg0 : (tensor<16xf16>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %6 = stablehlo.divide %5, %cst_1 : tensor<f32>
    %7 = stablehlo.convert %6 : (tensor<f32>) -> tensor<f16>
    %8 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<16xf16>, tensor<16xf16>) -> tensor<16xi1>
    %9 = stablehlo.convert %8 : (tensor<16xi1>) -> tensor<16xf16>
    return %3, %7, %9 : tensor<16xf16>, tensor<f16>, tensor<16xf16>
  }
}

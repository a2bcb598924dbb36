module @jit_bf16_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xbf16>, %arg1: tensor<8x4xbf16>) -> (tensor<4x4xbf16> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<8xbf16> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xbf16>, tensor<8x4xbf16>) -> tensor<4x4xbf16>
    %1 = stablehlo.exponential %0 : tensor<4x4xbf16>
    %2 = stablehlo.abs %0 : tensor<4x4xbf16>
    %3 = stablehlo.sqrt %2 : tensor<4x4xbf16>
    %4 = stablehlo.add %1, %3 : tensor<4x4xbf16>
    %5 = stablehlo.convert %0 : (tensor<4x4xbf16>) -> tensor<4x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %7 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<8xbf16>
    return %4, %6, %7 : tensor<4x4xbf16>, tensor<f32>, tensor<8xbf16>
  }
}

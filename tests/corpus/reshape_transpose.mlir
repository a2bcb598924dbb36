module @jit_reshape_transpose attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xf32>) -> (tensor<4x6xf32> {jax.result_info = "result[0]"}, tensor<4x2x3xf32> {jax.result_info = "result[1]"}, tensor<24xf32> {jax.result_info = "result[2]"}, tensor<1x2x3x1x4xf32> {jax.result_info = "result[3]"}, tensor<2x4xf32> {jax.result_info = "result[4]"}, tensor<3x4x2xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %2 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<24xf32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2, 4] : (tensor<2x3x4xf32>) -> tensor<1x2x3x1x4xf32>
    %5 = stablehlo.slice %arg0 [0:2, 0:1, 0:4] : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
    %6 = stablehlo.reshape %5 : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
    %7 = stablehlo.transpose %arg0, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
    return %1, %2, %3, %4, %6, %7 : tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<1x2x3x1x4xf32>, tensor<2x4xf32>, tensor<3x4x2xf32>
  }
}

module @jit_broadcasting attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x1xf32>, %arg1: tensor<4xf32>, %arg2: tensor<f32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<3x1xf32> {jax.result_info = "result[1]"}, tensor<2x3x4xf32> {jax.result_info = "result[2]"}, tensor<3x4xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<3x4xf32>
    %3 = stablehlo.add %1, %2 : tensor<3x4xf32>
    %4 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<3x1xf32>
    %6 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<3x1xf32>) -> tensor<3xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<3x4xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<3x4xf32>
    return %3, %5, %6, %12 : tensor<3x4xf32>, tensor<3x1xf32>, tensor<2x3x4xf32>, tensor<3x4xf32>
  }
}

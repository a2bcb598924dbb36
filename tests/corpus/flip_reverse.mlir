module @jit_flip_reverse attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xf32>) -> (tensor<3x4x5xf32> {jax.result_info = "result[0]"}, tensor<3x4x5xf32> {jax.result_info = "result[1]"}, tensor<5x4xf32> {jax.result_info = "result[2]"}) {
    %0 = call @_flip(%arg0) : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
    %1 = stablehlo.reverse %arg0, dims = [0] : tensor<3x4x5xf32>
    %2 = stablehlo.slice %arg0 [0:1, 0:4, 0:5] : (tensor<3x4x5xf32>) -> tensor<1x4x5xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x4x5xf32>) -> tensor<4x5xf32>
    %4 = call @rot90(%3) : (tensor<4x5xf32>) -> tensor<5x4xf32>
    return %0, %1, %4 : tensor<3x4x5xf32>, tensor<3x4x5xf32>, tensor<5x4xf32>
  }
  func.func private @_flip(%arg0: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 2] : tensor<3x4x5xf32>
    return %0 : tensor<3x4x5xf32>
  }
  func.func private @rot90(%arg0: tensor<4x5xf32>) -> tensor<5x4xf32> {
    %0 = call @_flip_0(%arg0) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
    return %1 : tensor<5x4xf32>
  }
  func.func private @_flip_0(%arg0: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<4x5xf32>
    return %0 : tensor<4x5xf32>
  }
}

module @jit_pad_negative_interior attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xf32>) -> (tensor<8x18xf32> {jax.result_info = "result[0]"}, tensor<7x8xf32> {jax.result_info = "result[1]"}, tensor<7x8xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [1, -1], high = [-2, 3], interior = [1, 2] : (tensor<5x6xf32>, tensor<f32>) -> tensor<8x18xf32>
    %1 = call @_pad(%arg0) : (tensor<5x6xf32>) -> tensor<7x8xf32>
    %2 = call @_pad_1(%arg0) : (tensor<5x6xf32>) -> tensor<7x8xf32>
    return %0, %1, %2 : tensor<8x18xf32>, tensor<7x8xf32>, tensor<7x8xf32>
  }
  func.func private @_pad(%arg0: tensor<5x6xf32>) -> tensor<7x8xf32> {
    %0 = stablehlo.slice %arg0 [1:3, 0:6] : (tensor<5x6xf32>) -> tensor<2x6xf32>
    %1 = call @_flip(%0) : (tensor<2x6xf32>) -> tensor<2x6xf32>
    %2 = stablehlo.concatenate %1, %arg0, dim = 0 : (tensor<2x6xf32>, tensor<5x6xf32>) -> tensor<7x6xf32>
    %3 = stablehlo.slice %2 [0:7, 1:2] : (tensor<7x6xf32>) -> tensor<7x1xf32>
    %4 = call @_flip_0(%3) : (tensor<7x1xf32>) -> tensor<7x1xf32>
    %5 = stablehlo.concatenate %4, %2, dim = 1 : (tensor<7x1xf32>, tensor<7x6xf32>) -> tensor<7x7xf32>
    %6 = stablehlo.slice %5 [0:7, 5:6] : (tensor<7x7xf32>) -> tensor<7x1xf32>
    %7 = call @_flip_0(%6) : (tensor<7x1xf32>) -> tensor<7x1xf32>
    %8 = stablehlo.concatenate %5, %7, dim = 1 : (tensor<7x7xf32>, tensor<7x1xf32>) -> tensor<7x8xf32>
    return %8 : tensor<7x8xf32>
  }
  func.func private @_flip(%arg0: tensor<2x6xf32>) -> tensor<2x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<2x6xf32>
    return %0 : tensor<2x6xf32>
  }
  func.func private @_flip_0(%arg0: tensor<7x1xf32>) -> tensor<7x1xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<7x1xf32>
    return %0 : tensor<7x1xf32>
  }
  func.func private @_pad_1(%arg0: tensor<5x6xf32>) -> tensor<7x8xf32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:6] : (tensor<5x6xf32>) -> tensor<1x6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 2] : (tensor<1x6xf32>) -> tensor<1x1x6xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x1x6xf32>) -> tensor<1x6xf32>
    %3 = stablehlo.slice %arg0 [4:5, 0:6] : (tensor<5x6xf32>) -> tensor<1x6xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x6xf32>) -> tensor<1x1x6xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x1x6xf32>) -> tensor<1x6xf32>
    %6 = stablehlo.concatenate %2, %arg0, %5, dim = 0 : (tensor<1x6xf32>, tensor<5x6xf32>, tensor<1x6xf32>) -> tensor<7x6xf32>
    %7 = stablehlo.slice %6 [0:7, 0:1] : (tensor<7x6xf32>) -> tensor<7x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<7x1xf32>) -> tensor<7x1x1xf32>
    %9 = stablehlo.reshape %8 : (tensor<7x1x1xf32>) -> tensor<7x1xf32>
    %10 = stablehlo.slice %6 [0:7, 5:6] : (tensor<7x6xf32>) -> tensor<7x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<7x1xf32>) -> tensor<7x1x1xf32>
    %12 = stablehlo.reshape %11 : (tensor<7x1x1xf32>) -> tensor<7x1xf32>
    %13 = stablehlo.concatenate %9, %6, %12, dim = 1 : (tensor<7x1xf32>, tensor<7x6xf32>, tensor<7x1xf32>) -> tensor<7x8xf32>
    return %13 : tensor<7x8xf32>
  }
}

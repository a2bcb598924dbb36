module @jit_einsum_batch_dims attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3x5x6xf32>, %arg1: tensor<4x6x7xf32>, %arg2: tensor<4x3x7xf32>) -> (tensor<4x3x5x7xf32> {jax.result_info = "result[0]"}, tensor<4x5x6x7xf32> {jax.result_info = "result[1]"}, tensor<4x3xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x3x5x6xf32>, tensor<4x6x7xf32>) -> tensor<4x3x5x7xf32>
    %1 = stablehlo.dot_general %arg0, %arg2, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x3x5x6xf32>, tensor<4x3x7xf32>) -> tensor<4x5x6x7xf32>
    %2 = stablehlo.slice %arg0 [0:4, 0:3, 0:5, 0:5] : (tensor<4x3x5x6xf32>) -> tensor<4x3x5x5xf32>
    %3 = stablehlo.iota dim = 0 : tensor<5x5xui32>
    %4 = stablehlo.iota dim = 1 : tensor<5x5xui32>
    %5 = stablehlo.compare EQ, %3, %4, UNSIGNED : (tensor<5x5xui32>, tensor<5x5xui32>) -> tensor<5x5xi1>
    %6 = stablehlo.broadcast_in_dim %5, dims = [2, 3] : (tensor<5x5xi1>) -> tensor<4x3x5x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3x5x5xf32>
    %8 = stablehlo.select %6, %2, %7 : tensor<4x3x5x5xi1>, tensor<4x3x5x5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_0) applies stablehlo.add across dimensions = [2, 3] : (tensor<4x3x5x5xf32>, tensor<f32>) -> tensor<4x3xf32>
    %10 = stablehlo.dot_general %arg1, %arg1, batching_dims = [0] x [0], contracting_dims = [1, 2] x [1, 2], precision = [DEFAULT, DEFAULT] : (tensor<4x6x7xf32>, tensor<4x6x7xf32>) -> tensor<4xf32>
    return %0, %1, %9, %10 : tensor<4x3x5x7xf32>, tensor<4x5x6x7xf32>, tensor<4x3xf32>, tensor<4xf32>
  }
}

module @jit_concatenate_stack attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<6xf32>) -> (tensor<8x3xf32> {jax.result_info = "result[0]"}, tensor<6x2xf32> {jax.result_info = "result[1]"}, tensor<12xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, %arg0, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.multiply %arg2, %1 : tensor<6xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %5 = stablehlo.concatenate %3, %4, dim = 1 : (tensor<6x1xf32>, tensor<6x1xf32>) -> tensor<6x2xf32>
    %6 = call @atleast_1d(%arg2) : (tensor<6xf32>) -> tensor<6xf32>
    %7 = call @atleast_1d(%arg2) : (tensor<6xf32>) -> tensor<6xf32>
    %8 = stablehlo.concatenate %6, %7, dim = 0 : (tensor<6xf32>, tensor<6xf32>) -> tensor<12xf32>
    return %0, %5, %8 : tensor<8x3xf32>, tensor<6x2xf32>, tensor<12xf32>
  }
  func.func private @atleast_1d(%arg0: tensor<6xf32>) -> tensor<6xf32> {
    return %arg0 : tensor<6xf32>
  }
}

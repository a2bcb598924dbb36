module @jit_zero_size_arrays attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<0x4xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2x0xi32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<0x3xf32> {jax.result_info = "result[2]"}, tensor<2xi32> {jax.result_info = "result[3]"}, tensor<2x0xf32> {jax.result_info = "result[4]"}, tensor<0xf32> {jax.result_info = "result[5]"}, tensor<3x0xf32> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
    %3 = stablehlo.dot_general %arg0, %2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<0x4xf32>, tensor<4x3xf32>) -> tensor<0x3xf32>
    %c = stablehlo.constant dense<-2147483648> : tensor<i32>
    %4 = stablehlo.reduce(%arg2 init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<2x0xi32>, tensor<i32>) -> tensor<2xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %6 = stablehlo.maximum %5, %4 : tensor<2xi32>
    %7 = stablehlo.convert %arg2 : (tensor<2x0xi32>) -> tensor<2x0xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<0xf32>
    %9 = stablehlo.slice %arg1 [0:3, 4:4] : (tensor<3x4xf32>) -> tensor<3x0xf32>
    return %0, %1, %3, %6, %7, %8, %9 : tensor<3x4xf32>, tensor<4xf32>, tensor<0x3xf32>, tensor<2xi32>, tensor<2x0xf32>, tensor<0xf32>, tensor<3x0xf32>
  }
}

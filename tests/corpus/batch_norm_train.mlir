module @jit_batch_norm_train attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6x5x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> (tensor<4x6x5x8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x6x5x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<1.200000e+02> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x6x5x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x6x5x8xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<4x6x5x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x6x5x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_2 = stablehlo.constant dense<1.200000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %9 = stablehlo.divide %7, %8 : tensor<8xf32>
    %10 = stablehlo.broadcast_in_dim %2, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x6x5x8xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<4x6x5x8xf32>
    %13 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x6x5x8xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<4x6x5x8xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %17 = stablehlo.add %9, %16 : tensor<8xf32>
    %18 = stablehlo.sqrt %17 : tensor<8xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x6x5x8xf32>
    %21 = stablehlo.divide %15, %20 : tensor<4x6x5x8xf32>
    %22 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x6x5x8xf32>
    %24 = stablehlo.add %21, %23 : tensor<4x6x5x8xf32>
    return %24, %2, %9 : tensor<4x6x5x8xf32>, tensor<8xf32>, tensor<8xf32>
  }
}

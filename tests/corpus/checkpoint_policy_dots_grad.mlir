module @jit_checkpoint_policy_dots_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<4x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.reduce_precision %0, format = e8m23 : tensor<4x8xf32>
    %2 = stablehlo.sine %1 : tensor<4x8xf32>
    %3 = stablehlo.dot_general %2, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %4 = stablehlo.reduce_precision %3, format = e8m23 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %6:4 = stablehlo.optimization_barrier %4, %arg1, %2, %5 : tensor<4x8xf32>, tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    %7 = stablehlo.cosine %6#0 : tensor<4x8xf32>
    %8 = stablehlo.multiply %6#3, %7 : tensor<4x8xf32>
    %9 = stablehlo.dot_general %8, %6#2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %11 = stablehlo.dot_general %8, %6#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %12:3 = stablehlo.optimization_barrier %1, %arg2, %11 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    %13 = stablehlo.cosine %12#0 : tensor<4x8xf32>
    %14 = stablehlo.multiply %12#2, %13 : tensor<4x8xf32>
    %15 = stablehlo.dot_general %14, %12#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %16 = stablehlo.transpose %15, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %16, %10 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}

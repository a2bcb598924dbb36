module @jit_checkpoint_mlp_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<4x8xf32>) -> (tensor<8x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}, tensor<8x8xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.sine %0 : tensor<4x8xf32>
    %2 = stablehlo.dot_general %1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.sine %2 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %5:3 = stablehlo.optimization_barrier %arg2, %3, %4 : tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    %6 = stablehlo.dot_general %5#1, %5#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %7 = stablehlo.cosine %6 : tensor<4x8xf32>
    %8 = stablehlo.multiply %5#2, %7 : tensor<4x8xf32>
    %9 = stablehlo.dot_general %8, %5#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %11 = stablehlo.dot_general %8, %5#0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %12:3 = stablehlo.optimization_barrier %arg1, %1, %11 : tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    %13 = stablehlo.dot_general %12#1, %12#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %14 = stablehlo.cosine %13 : tensor<4x8xf32>
    %15 = stablehlo.multiply %12#2, %14 : tensor<4x8xf32>
    %16 = stablehlo.dot_general %15, %12#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %17 = stablehlo.transpose %16, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %18 = stablehlo.dot_general %15, %12#0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %19:3 = stablehlo.optimization_barrier %arg0, %arg3, %18 : tensor<8x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
    %20 = stablehlo.dot_general %19#1, %19#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %21 = stablehlo.cosine %20 : tensor<4x8xf32>
    %22 = stablehlo.multiply %19#2, %21 : tensor<4x8xf32>
    %23 = stablehlo.dot_general %22, %19#1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %24 = stablehlo.transpose %23, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %24, %17, %10 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }
}

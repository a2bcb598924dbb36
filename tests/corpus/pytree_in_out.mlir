module @jit_pytree_in_out attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<2x2xf32>, %arg2: tensor<4xi32>) -> (tensor<2x2xf32> {jax.result_info = "result['nested'][0]"}, tensor<4xi32> {jax.result_info = "result['nested'][1][0]"}, tensor<4xf32> {jax.result_info = "result['nested'][1][1]"}, tensor<f32> {jax.result_info = "result['sum']"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %3 = stablehlo.multiply %arg2, %2 : tensor<4xi32>
    %4 = stablehlo.convert %arg2 : (tensor<4xi32>) -> tensor<4xf32>
    return %1, %3, %4, %0 : tensor<2x2xf32>, tensor<4xi32>, tensor<4xf32>, tensor<f32>
  }
}

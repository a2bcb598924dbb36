module @jit_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c) : tensor<4xf32>, tensor<i32>
    cond {
      %4 = stablehlo.compare LT, %iterArg_1, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %cst_2 = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
      %4 = func.call @step(%iterArg, %cst_2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      stablehlo.return %4, %5 : tensor<4xf32>, tensor<i32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %1 = stablehlo.reduce(%0#0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.multiply %0#0, %2 : tensor<4xf32>
    return %3 : tensor<4xf32>
  }
  func.func private @step(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.divide %0, %2 : tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}

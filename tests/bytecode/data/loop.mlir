// Source of the artifacts beside it (make_test_data.py): a loop, constants of
// several element types, a reduce and a call, enough to cover the container,
// VHLO's types and attributes, nested and isolated regions and value names.
module @jit_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<4xf32>, tensor<i32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_0, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
      %1 = func.call @step(%iterArg, %cst) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %c_1 : tensor<i32>
      stablehlo.return %1, %2 : tensor<4xf32>, tensor<i32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %b = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %r = stablehlo.reduce(%0#0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %s = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %t = stablehlo.multiply %0#0, %s : tensor<4xf32>
    return %t : tensor<4xf32>
  }
  func.func private @step(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.divide %0, %2 : tensor<4xf32>
    return %3 : tensor<4xf32>
  }
}

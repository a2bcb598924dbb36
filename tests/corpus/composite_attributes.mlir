module @jit_composite_attributes attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %0:2 = stablehlo.composite "hlograph.scaled_add" %arg0, %arg1 {composite_attributes = {axes = [0, 1], label = "demo", mask = dense<[true, false, true]> : tensor<3xi1>, scale = 5.000000e-01 : f64}, decomposition = @hlograph.scaled_add, version = 2 : i32} : (tensor<5xf32>, tensor<5xf32>) -> (tensor<5xf32>, tensor<f32>)
    return %0#0, %0#1 : tensor<5xf32>, tensor<f32>
  }
  func.func private @hlograph.scaled_add(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>) -> (tensor<5xf32>, tensor<f32>) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<5xf32>
    %2 = stablehlo.add %1, %arg1 : tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    return %2, %3 : tensor<5xf32>, tensor<f32>
  }
}

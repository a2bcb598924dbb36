module @jit_variadic_reduce attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<5x4xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %cst_0) across dimensions = [0] : (tensor<5x4xf32>, tensor<5x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
     reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
      %1 = stablehlo.maximum %arg2, %arg4 : tensor<f32>
      %2 = stablehlo.add %arg3, %arg5 : tensor<f32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
    }
    return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
  }
}

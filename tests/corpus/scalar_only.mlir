module @jit_scalar_only attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<i1>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}, tensor<i1> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<f32>
    %2 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %3 = stablehlo.divide %arg0, %2 : tensor<f32>
    %4 = call @_where(%arg2, %1, %3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %5 = stablehlo.abs %4 : tensor<f32>
    %6 = stablehlo.sqrt %5 : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.add %arg1, %c : tensor<i32>
    %8 = stablehlo.not %arg2 : tensor<i1>
    return %4, %6, %7, %8 : tensor<f32>, tensor<f32>, tensor<i32>, tensor<i1>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
}

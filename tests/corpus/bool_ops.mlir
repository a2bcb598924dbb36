module @jit_bool_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xi1>, %arg1: tensor<10xi1>, %arg2: tensor<10xf32>) -> (tensor<10xi1> {jax.result_info = "result[0]"}, tensor<i1> {jax.result_info = "result[1]"}, tensor<i1> {jax.result_info = "result[2]"}, tensor<10xf32> {jax.result_info = "result[3]"}, tensor<10xi32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.not %arg1 : tensor<10xi1>
    %1 = stablehlo.and %arg0, %0 : tensor<10xi1>
    %2 = stablehlo.xor %arg0, %arg1 : tensor<10xi1>
    %3 = stablehlo.or %1, %2 : tensor<10xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %4 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<10xi1>, tensor<i1>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.reduce(%arg1 init: %c_0) applies stablehlo.and across dimensions = [0] : (tensor<10xi1>, tensor<i1>) -> tensor<i1>
    %6 = stablehlo.negate %arg2 : tensor<10xf32>
    %7 = call @_where(%arg0, %arg2, %6) : (tensor<10xi1>, tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %8 = stablehlo.convert %arg0 : (tensor<10xi1>) -> tensor<10xi32>
    %9 = stablehlo.convert %arg1 : (tensor<10xi1>) -> tensor<10xi32>
    %10 = stablehlo.add %8, %9 : tensor<10xi32>
    return %3, %4, %5, %7, %10 : tensor<10xi1>, tensor<i1>, tensor<i1>, tensor<10xf32>, tensor<10xi32>
  }
  func.func private @_where(%arg0: tensor<10xi1>, %arg1: tensor<10xf32>, %arg2: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<10xi1>, tensor<10xf32>
    return %0 : tensor<10xf32>
  }
}

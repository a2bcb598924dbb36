module @jit_int64_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xi64>, %arg1: tensor<5xi64>) -> (tensor<5xi64> {jax.result_info = "result[0]"}, tensor<5xi64> {jax.result_info = "result[1]"}, tensor<5xf64> {jax.result_info = "result[2]"}, tensor<i64> {jax.result_info = "result[3]"}, tensor<5xi32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<5xi64>
    %1 = call @floor_divide(%arg0, %arg1) : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
    %2 = stablehlo.convert %arg0 : (tensor<5xi64>) -> tensor<5xf64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<5xi64>, tensor<i64>) -> tensor<i64>
    %4 = stablehlo.convert %arg0 : (tensor<5xi64>) -> tensor<5xi32>
    return %0, %1, %2, %3, %4 : tensor<5xi64>, tensor<5xi64>, tensor<5xf64>, tensor<i64>, tensor<5xi32>
  }
  func.func private @floor_divide(%arg0: tensor<5xi64>, %arg1: tensor<5xi64>) -> tensor<5xi64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<5xi64>
    %1 = stablehlo.sign %arg0 : tensor<5xi64>
    %2 = stablehlo.sign %arg1 : tensor<5xi64>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %7 = stablehlo.and %3, %6 : tensor<5xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %9 = stablehlo.subtract %0, %8 : tensor<5xi64>
    %10 = call @_where(%7, %9, %0) : (tensor<5xi1>, tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
    return %10 : tensor<5xi64>
  }
  func.func private @_where(%arg0: tensor<5xi1>, %arg1: tensor<5xi64>, %arg2: tensor<5xi64>) -> tensor<5xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5xi1>, tensor<5xi64>
    return %0 : tensor<5xi64>
  }
}

module @jit_uint32_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xui32>, %arg1: tensor<8xui32>) -> (tensor<8xui32> {jax.result_info = "result[0]"}, tensor<8xui32> {jax.result_info = "result[1]"}, tensor<8xui32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<8xi1> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.shift_right_logical %arg0, %arg1 : tensor<8xui32>
    %c = stablehlo.constant dense<32> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %2 = stablehlo.subtract %1, %arg1 : tensor<8xui32>
    %3 = stablehlo.shift_left %arg0, %2 : tensor<8xui32>
    %4 = stablehlo.or %0, %3 : tensor<8xui32>
    %c_0 = stablehlo.constant dense<7> : tensor<ui32>
    %5 = call @floor_divide(%arg0, %c_0) : (tensor<8xui32>, tensor<ui32>) -> tensor<8xui32>
    %c_1 = stablehlo.constant dense<7> : tensor<ui32>
    %6 = call @remainder(%arg0, %c_1) : (tensor<8xui32>, tensor<ui32>) -> tensor<8xui32>
    %7 = stablehlo.convert %arg0 : (tensor<8xui32>) -> tensor<8xf32>
    %c_2 = stablehlo.constant dense<2147483648> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %9 = stablehlo.compare GT, %arg0, %8, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    return %4, %5, %6, %7, %9 : tensor<8xui32>, tensor<8xui32>, tensor<8xui32>, tensor<8xf32>, tensor<8xi1>
  }
  func.func private @floor_divide(%arg0: tensor<8xui32>, %arg1: tensor<ui32>) -> tensor<8xui32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %1 = stablehlo.divide %arg0, %0 : tensor<8xui32>
    return %1 : tensor<8xui32>
  }
  func.func private @remainder(%arg0: tensor<8xui32>, %arg1: tensor<ui32>) -> tensor<8xui32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.compare EQ, %arg1, %c, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<8xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<ui32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %5 = stablehlo.compare NE, %3, %4, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %7 = stablehlo.compare LT, %3, %6, UNSIGNED : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui32>
    %8 = stablehlo.compare LT, %1, %c_3, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i1>) -> tensor<8xi1>
    %10 = stablehlo.compare NE, %7, %9, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    %11 = stablehlo.and %10, %5 : tensor<8xi1>
    %12 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<8xui32>
    %13 = stablehlo.add %3, %12 : tensor<8xui32>
    %14 = stablehlo.select %11, %13, %3 : tensor<8xi1>, tensor<8xui32>
    return %14 : tensor<8xui32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<ui32>, %arg2: tensor<ui32>) -> tensor<ui32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<ui32>
    return %0 : tensor<ui32>
  }
}

module @jit_while_loop_mixed_carry attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x2xf32>, %arg1: tensor<i32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<2xf32> {jax.result_info = "result[1]"}, tensor<i1> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<true> : tensor<i1>
    %1:5 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %arg0, %iterArg_2 = %c, %iterArg_3 = %0, %iterArg_4 = %c_0) : tensor<i32>, tensor<6x2xf32>, tensor<i32>, tensor<2xf32>, tensor<i1>
    cond {
      %2 = stablehlo.compare LT, %iterArg_2, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_2, %c_5 : tensor<i32>
      %c_6 = stablehlo.constant dense<6> : tensor<i32>
      %3 = func.call @remainder(%iterArg_2, %c_6) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %c_7 = stablehlo.constant dense<0> : tensor<i32>
      %4 = stablehlo.compare LT, %3, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_8 = stablehlo.constant dense<6> : tensor<i32>
      %5 = stablehlo.add %3, %c_8 : tensor<i32>
      %6 = stablehlo.select %4, %5, %3 : tensor<i1>, tensor<i32>
      %c_9 = stablehlo.constant dense<0> : tensor<i32>
      %c_10 = stablehlo.constant dense<0> : tensor<i32>
      %7 = stablehlo.compare LT, %c_9, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_11 = stablehlo.constant dense<0> : tensor<i32>
      %c_12 = stablehlo.constant dense<2> : tensor<i32>
      %8 = stablehlo.add %c_11, %c_12 : tensor<i32>
      %c_13 = stablehlo.constant dense<0> : tensor<i32>
      %9 = stablehlo.select %7, %8, %c_13 : tensor<i1>, tensor<i32>
      %10 = stablehlo.dynamic_slice %iterArg_1, %6, %9, sizes = [1, 2] : (tensor<6x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
      %11 = stablehlo.reshape %10 : (tensor<1x2xf32>) -> tensor<2xf32>
      %12 = stablehlo.add %iterArg_3, %11 : tensor<2xf32>
      %13 = stablehlo.not %iterArg_4 : tensor<i1>
      stablehlo.return %iterArg, %iterArg_1, %2, %12, %13 : tensor<i32>, tensor<6x2xf32>, tensor<i32>, tensor<2xf32>, tensor<i1>
    }
    return %1#2, %1#3, %1#4 : tensor<i32>, tensor<2xf32>, tensor<i1>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare NE, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = stablehlo.and %7, %4 : tensor<i1>
    %9 = stablehlo.add %3, %2 : tensor<i32>
    %10 = stablehlo.select %8, %9, %3 : tensor<i1>, tensor<i32>
    return %10 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}

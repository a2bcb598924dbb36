module @jit_while_loop_newton_sqrt attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg0, %iterArg_1 = %cst, %iterArg_2 = %c) : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>
    cond {
      %1 = stablehlo.subtract %iterArg_0, %iterArg_1 : tensor<f32>
      %2 = stablehlo.abs %1 : tensor<f32>
      %cst_3 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
      %3 = stablehlo.compare GT, %2, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_4 = stablehlo.constant dense<100> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_2, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_5 = stablehlo.constant dense<false> : tensor<i1>
      %5 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i1>) -> tensor<i1>
      %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = stablehlo.convert %6 : tensor<i1>
      %8 = stablehlo.and %3, %7 : tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %1 = stablehlo.divide %iterArg, %iterArg_0 : tensor<f32>
      %2 = stablehlo.add %iterArg_0, %1 : tensor<f32>
      %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %3 = stablehlo.multiply %cst_3, %2 : tensor<f32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg_2, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %3, %iterArg_0, %4 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>
    }
    return %0#1, %0#2, %0#3 : tensor<f32>, tensor<f32>, tensor<i32>
  }
}

module @jit_while_data_dependent attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>) -> (tensor<8x256xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %0:5 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg2, %iterArg_1 = %c, %iterArg_2 = %arg0, %iterArg_3 = %cst) : tensor<256x256xf32>, tensor<256xf32>, tensor<i32>, tensor<8x256xf32>, tensor<f32>
    cond {
      %c_4 = stablehlo.constant dense<200> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %cst_5 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
      %2 = stablehlo.compare GE, %iterArg_3, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.and %1, %2 : tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %1 = stablehlo.dot_general %iterArg_2, %iterArg, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
      %2 = stablehlo.broadcast_in_dim %iterArg_0, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
      %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
      %4 = stablehlo.add %1, %3 : tensor<8x256xf32>
      %5 = stablehlo.tanh %4 : tensor<8x256xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      %7 = stablehlo.subtract %5, %iterArg_2 : tensor<8x256xf32>
      %8 = stablehlo.abs %7 : tensor<8x256xf32>
      %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %9 = stablehlo.reduce(%8 init: %cst_5) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %iterArg, %iterArg_0, %6, %5, %9 : tensor<256x256xf32>, tensor<256xf32>, tensor<i32>, tensor<8x256xf32>, tensor<f32>
    }
    return %0#3, %0#2 : tensor<8x256xf32>, tensor<i32>
  }
}

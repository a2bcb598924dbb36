module @jit_fori_tanh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>) -> (tensor<8x256xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg2, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<256x256xf32>, tensor<256xf32>, tensor<i32>, tensor<8x256xf32>
    cond {
      %c_3 = stablehlo.constant dense<200> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.dot_general %iterArg_2, %iterArg, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
      %2 = stablehlo.broadcast_in_dim %iterArg_0, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
      %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
      %4 = stablehlo.add %1, %3 : tensor<8x256xf32>
      %5 = stablehlo.tanh %4 : tensor<8x256xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %6, %5 : tensor<256x256xf32>, tensor<256xf32>, tensor<i32>, tensor<8x256xf32>
    }
    return %0#3 : tensor<8x256xf32>
  }
}

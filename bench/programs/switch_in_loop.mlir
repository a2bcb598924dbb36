module @jit_switch_in_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256x256xf32>) -> (tensor<8x256xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:7 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %arg2, %iterArg_2 = %arg3, %iterArg_3 = %arg4, %iterArg_4 = %c_0, %iterArg_5 = %c, %iterArg_6 = %arg0) : tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<i32>, tensor<i32>, tensor<8x256xf32>
    cond {
      %c_7 = stablehlo.constant dense<64> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_4, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_5, %c_7 : tensor<i32>
      %c_8 = stablehlo.constant dense<3> : tensor<i32>
      %2 = func.call @remainder(%iterArg_5, %c_8) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %3 = stablehlo.convert %2 : tensor<i32>
      %c_9 = stablehlo.constant dense<0> : tensor<i32>
      %c_10 = stablehlo.constant dense<2> : tensor<i32>
      %4 = stablehlo.clamp %c_9, %3, %c_10 : tensor<i32>
      %5 = "stablehlo.case"(%4) ({
        %7 = stablehlo.dot_general %iterArg_6, %iterArg, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
        %8 = stablehlo.broadcast_in_dim %iterArg_1, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
        %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
        %10 = stablehlo.add %7, %9 : tensor<8x256xf32>
        %11 = stablehlo.tanh %10 : tensor<8x256xf32>
        stablehlo.return %11 : tensor<8x256xf32>
      }, {
        %7 = stablehlo.dot_general %iterArg_6, %iterArg_2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
        %8 = func.call @relu(%7) : (tensor<8x256xf32>) -> tensor<8x256xf32>
        %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
        %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
        %10 = stablehlo.multiply %9, %8 : tensor<8x256xf32>
        %11 = stablehlo.add %iterArg_6, %10 : tensor<8x256xf32>
        %cst_12 = stablehlo.constant dense<8.000000e-01> : tensor<f32>
        %12 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
        %13 = stablehlo.multiply %11, %12 : tensor<8x256xf32>
        stablehlo.return %13 : tensor<8x256xf32>
      }, {
        %7 = stablehlo.dot_general %iterArg_6, %iterArg_3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
        %8 = stablehlo.negate %7 : tensor<8x256xf32>
        %9 = stablehlo.exponential %8 : tensor<8x256xf32>
        %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
        %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
        %11 = stablehlo.add %10, %9 : tensor<8x256xf32>
        %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
        %12 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
        %13 = stablehlo.divide %12, %11 : tensor<8x256xf32>
        %14 = stablehlo.multiply %iterArg_6, %13 : tensor<8x256xf32>
        stablehlo.return %14 : tensor<8x256xf32>
      }) : (tensor<i32>) -> tensor<8x256xf32>
      %c_11 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_4, %c_11 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %iterArg_3, %6, %1, %5 : tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<i32>, tensor<i32>, tensor<8x256xf32>
    }
    return %0#6 : tensor<8x256xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @relu(%arg0: tensor<8x256xf32>) -> tensor<8x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x256xf32>
    return %1 : tensor<8x256xf32>
  }
}

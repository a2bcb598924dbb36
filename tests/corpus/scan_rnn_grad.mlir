module @jit_scan_rnn_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x3x5xf32>, %arg1: tensor<5x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<5x8xf32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12x3x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<12x3x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<12x3x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:8 = stablehlo.while(%iterArg = %arg0, %iterArg_9 = %arg1, %iterArg_10 = %arg2, %iterArg_11 = %c, %iterArg_12 = %0, %iterArg_13 = %1, %iterArg_14 = %2, %iterArg_15 = %3) : tensor<12x3x5xf32>, tensor<5x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<3x8xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>
    cond {
      %c_16 = stablehlo.constant dense<12> : tensor<i32>
      %13 = stablehlo.compare LT, %iterArg_11, %c_16, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    } do {
      %13 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_11) : (tensor<12x3x5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %14 = stablehlo.dot_general %13, %iterArg_9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5x8xf32>) -> tensor<3x8xf32>
      %15 = stablehlo.dot_general %iterArg_12, %iterArg_10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
      %16 = stablehlo.add %14, %15 : tensor<3x8xf32>
      %17 = stablehlo.tanh %16 : tensor<3x8xf32>
      %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %18 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
      %19 = stablehlo.add %18, %17 : tensor<3x8xf32>
      %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %20 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
      %21 = stablehlo.subtract %20, %17 : tensor<3x8xf32>
      %22 = stablehlo.multiply %19, %21 : tensor<3x8xf32>
      %23 = func.call @dynamic_update_index_in_dim(%iterArg_13, %17, %iterArg_11) : (tensor<12x3x8xf32>, tensor<3x8xf32>, tensor<i32>) -> tensor<12x3x8xf32>
      %24 = func.call @dynamic_update_index_in_dim(%iterArg_14, %iterArg_12, %iterArg_11) : (tensor<12x3x8xf32>, tensor<3x8xf32>, tensor<i32>) -> tensor<12x3x8xf32>
      %25 = func.call @dynamic_update_index_in_dim(%iterArg_15, %22, %iterArg_11) : (tensor<12x3x8xf32>, tensor<3x8xf32>, tensor<i32>) -> tensor<12x3x8xf32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %26 = stablehlo.add %iterArg_11, %c_18 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_9, %iterArg_10, %26, %17, %23, %24, %25 : tensor<12x3x5xf32>, tensor<5x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<3x8xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>
    }
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12x3x8xf32>
    %6 = stablehlo.multiply %5, %4#5 : tensor<12x3x8xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12x3x8xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<12x3x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<5x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %12:9 = stablehlo.while(%iterArg = %8, %iterArg_9 = %arg0, %iterArg_10 = %4#6, %iterArg_11 = %4#7, %iterArg_12 = %arg2, %iterArg_13 = %c_8, %iterArg_14 = %10, %iterArg_15 = %11, %iterArg_16 = %9) : tensor<12x3x8xf32>, tensor<12x3x5xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<5x8xf32>, tensor<8x8xf32>, tensor<3x8xf32>
    cond {
      %c_17 = stablehlo.constant dense<12> : tensor<i32>
      %13 = stablehlo.compare LT, %iterArg_13, %c_17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    } do {
      %c_17 = stablehlo.constant dense<12> : tensor<i32>
      %13 = stablehlo.subtract %c_17, %iterArg_13 : tensor<i32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %14 = stablehlo.subtract %13, %c_18 : tensor<i32>
      %15 = func.call @dynamic_index_in_dim_0(%iterArg, %14) : (tensor<12x3x8xf32>, tensor<i32>) -> tensor<3x8xf32>
      %16 = func.call @dynamic_index_in_dim(%iterArg_9, %14) : (tensor<12x3x5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %17 = func.call @dynamic_index_in_dim_0(%iterArg_10, %14) : (tensor<12x3x8xf32>, tensor<i32>) -> tensor<3x8xf32>
      %18 = func.call @dynamic_index_in_dim_0(%iterArg_11, %14) : (tensor<12x3x8xf32>, tensor<i32>) -> tensor<3x8xf32>
      %19 = stablehlo.add %iterArg_16, %15 : tensor<3x8xf32>
      %20 = stablehlo.multiply %19, %18 : tensor<3x8xf32>
      %21 = stablehlo.dot_general %20, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<8x8xf32>
      %22 = stablehlo.transpose %21, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %23 = stablehlo.add %iterArg_15, %22 : tensor<8x8xf32>
      %24 = stablehlo.dot_general %20, %iterArg_12, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
      %25 = stablehlo.dot_general %20, %16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x8xf32>, tensor<3x5xf32>) -> tensor<8x5xf32>
      %26 = stablehlo.transpose %25, dims = [1, 0] : (tensor<8x5xf32>) -> tensor<5x8xf32>
      %27 = stablehlo.add %iterArg_14, %26 : tensor<5x8xf32>
      %c_19 = stablehlo.constant dense<1> : tensor<i32>
      %28 = stablehlo.add %iterArg_13, %c_19 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %28, %27, %23, %24 : tensor<12x3x8xf32>, tensor<12x3x5xf32>, tensor<12x3x8xf32>, tensor<12x3x8xf32>, tensor<8x8xf32>, tensor<i32>, tensor<5x8xf32>, tensor<8x8xf32>, tensor<3x8xf32>
    }
    return %12#6, %12#7 : tensor<5x8xf32>, tensor<8x8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<12x3x5xf32>, %arg1: tensor<i32>) -> tensor<3x5xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 5] : (tensor<12x3x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x5xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x5xf32>) -> tensor<3x5xf32>
    return %1 : tensor<3x5xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<12x3x8xf32>, %arg1: tensor<3x8xf32>, %arg2: tensor<i32>) -> tensor<12x3x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x8xf32>) -> tensor<1x3x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<12x3x8xf32>, tensor<1x3x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x3x8xf32>
    return %1 : tensor<12x3x8xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<12x3x8xf32>, %arg1: tensor<i32>) -> tensor<3x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 8] : (tensor<12x3x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x8xf32>) -> tensor<3x8xf32>
    return %1 : tensor<3x8xf32>
  }
}

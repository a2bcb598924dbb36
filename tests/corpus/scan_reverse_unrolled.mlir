module @jit_scan_reverse_unrolled attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9x3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<9x3xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.slice %arg0 [0:1, 0:3] : (tensor<9x3xf32>) -> tensor<1x3xf32>
    %2 = stablehlo.slice %arg0 [1:9, 0:3] : (tensor<9x3xf32>) -> tensor<8x3xf32>
    %3 = stablehlo.reshape %2 : (tensor<8x3xf32>) -> tensor<4x2x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x2x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5:4 = stablehlo.while(%iterArg = %3, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %4) : tensor<4x2x3xf32>, tensor<i32>, tensor<3xf32>, tensor<4x2x3xf32>
    cond {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %13 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %13 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %13 = stablehlo.subtract %c_4, %iterArg_1 : tensor<i32>
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %14 = stablehlo.subtract %13, %c_5 : tensor<i32>
      %15 = func.call @dynamic_index_in_dim(%iterArg, %14) : (tensor<4x2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
      %16 = stablehlo.slice %15 [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
      %17 = stablehlo.reshape %16 : (tensor<1x3xf32>) -> tensor<3xf32>
      %18 = stablehlo.add %iterArg_2, %17 : tensor<3xf32>
      %19 = stablehlo.multiply %iterArg_2, %17 : tensor<3xf32>
      %20 = stablehlo.slice %15 [0:1, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
      %21 = stablehlo.reshape %20 : (tensor<1x3xf32>) -> tensor<3xf32>
      %22 = stablehlo.add %18, %21 : tensor<3xf32>
      %23 = stablehlo.multiply %18, %21 : tensor<3xf32>
      %24 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
      %25 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
      %26 = stablehlo.concatenate %24, %25, dim = 0 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
      %27 = func.call @dynamic_update_index_in_dim(%iterArg_3, %26, %14) : (tensor<4x2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x2x3xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %28 = stablehlo.add %iterArg_1, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %28, %22, %27 : tensor<4x2x3xf32>, tensor<i32>, tensor<3xf32>, tensor<4x2x3xf32>
    }
    %6 = stablehlo.reshape %5#3 : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
    %7 = stablehlo.slice %1 [0:1, 0:3] : (tensor<1x3xf32>) -> tensor<1x3xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x3xf32>) -> tensor<3xf32>
    %9 = stablehlo.add %5#2, %8 : tensor<3xf32>
    %10 = stablehlo.multiply %5#2, %8 : tensor<3xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %12 = stablehlo.concatenate %11, %6, dim = 0 : (tensor<1x3xf32>, tensor<8x3xf32>) -> tensor<9x3xf32>
    return %9, %12 : tensor<3xf32>, tensor<9x3xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x2x3xf32>, %arg1: tensor<i32>) -> tensor<2x3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 2, 3] : (tensor<4x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>) -> tensor<4x2x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<4x2x3xf32>, tensor<1x2x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x2x3xf32>
    return %1 : tensor<4x2x3xf32>
  }
}

module @jit_cond_inside_scan attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8x2xf32>) -> (tensor<2xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1, %iterArg_2 = %c, %iterArg_3 = %0, %iterArg_4 = %1) : tensor<8xf32>, tensor<8x2xf32>, tensor<i32>, tensor<2xf32>, tensor<8xf32>
    cond {
      %c_5 = stablehlo.constant dense<8> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_2) : (tensor<8xf32>, tensor<i32>) -> tensor<f32>
      %4 = func.call @dynamic_index_in_dim_0(%iterArg_1, %iterArg_2) : (tensor<8x2xf32>, tensor<i32>) -> tensor<2xf32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare GT, %3, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.convert %5 : (tensor<i1>) -> tensor<i32>
      %7 = "stablehlo.case"(%6) ({
        %11 = stablehlo.multiply %iterArg_3, %4 : tensor<2xf32>
        stablehlo.return %11 : tensor<2xf32>
      }, {
        %11 = stablehlo.add %iterArg_3, %4 : tensor<2xf32>
        stablehlo.return %11 : tensor<2xf32>
      }) : (tensor<i32>) -> tensor<2xf32>
      %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.reduce(%7 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
      %9 = func.call @dynamic_update_index_in_dim(%iterArg_4, %8, %iterArg_2) : (tensor<8xf32>, tensor<f32>, tensor<i32>) -> tensor<8xf32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %10 = stablehlo.add %iterArg_2, %c_7 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %10, %7, %9 : tensor<8xf32>, tensor<8x2xf32>, tensor<i32>, tensor<2xf32>, tensor<8xf32>
    }
    return %2#3, %2#4 : tensor<2xf32>, tensor<8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> tensor<f32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<8xf32>, tensor<i32>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<8x2xf32>, %arg1: tensor<i32>) -> tensor<2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 2] : (tensor<8x2xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<8xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<8xf32>, tensor<1xf32>, tensor<i32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}

module @jit_nested_loops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %1) : tensor<5x3xf32>, tensor<i32>, tensor<3xf32>, tensor<5xf32>
    cond {
      %c_4 = stablehlo.constant dense<5> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<5x3xf32>, tensor<i32>) -> tensor<3xf32>
      %c_4 = stablehlo.constant dense<0> : tensor<i32>
      %c_5 = stablehlo.constant dense<0> : tensor<i32>
      %4:4 = stablehlo.while(%iterArg_8 = %3, %iterArg_9 = %c_5, %iterArg_10 = %c_4, %iterArg_11 = %iterArg_2) : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>
      cond {
        %c_12 = stablehlo.constant dense<3> : tensor<i32>
        %9 = stablehlo.compare LT, %iterArg_9, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %9 : tensor<i1>
      } do {
        %c_12 = stablehlo.constant dense<1> : tensor<i32>
        %9 = stablehlo.add %iterArg_10, %c_12 : tensor<i32>
        %10 = stablehlo.convert %iterArg_10 : (tensor<i32>) -> tensor<f32>
        %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %12 = stablehlo.multiply %iterArg_8, %11 : tensor<3xf32>
        %13 = stablehlo.add %iterArg_11, %12 : tensor<3xf32>
        %c_13 = stablehlo.constant dense<1> : tensor<i32>
        %14 = stablehlo.add %iterArg_9, %c_13 : tensor<i32>
        stablehlo.return %iterArg_8, %14, %9, %13 : tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<3xf32>
      }
      %5 = stablehlo.while(%iterArg_8 = %4#3) : tensor<3xf32>
      cond {
        %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
        %9 = stablehlo.reduce(%iterArg_8 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
        %cst_10 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
        %10 = stablehlo.compare GT, %9, %cst_10, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %10 : tensor<i1>
      } do {
        %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
        %9 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %10 = stablehlo.multiply %iterArg_8, %9 : tensor<3xf32>
        stablehlo.return %10 : tensor<3xf32>
      }
      %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %6 = stablehlo.reduce(%4#3 init: %cst_6) applies stablehlo.maximum across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      %7 = func.call @dynamic_update_index_in_dim(%iterArg_3, %6, %iterArg_1) : (tensor<5xf32>, tensor<f32>, tensor<i32>) -> tensor<5xf32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_1, %c_7 : tensor<i32>
      stablehlo.return %iterArg, %8, %5, %7 : tensor<5x3xf32>, tensor<i32>, tensor<3xf32>, tensor<5xf32>
    }
    return %2#2, %2#3 : tensor<3xf32>, tensor<5xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 3] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<5xf32>, tensor<1xf32>, tensor<i32>) -> tensor<5xf32>
    return %1 : tensor<5xf32>
  }
}

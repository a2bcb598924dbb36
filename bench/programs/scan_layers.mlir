module @jit_scan_layers attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512xf32>, %arg1: tensor<32x512x512xf32>, %arg2: tensor<32x512xf32>) -> (tensor<8x512xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg2, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<32x512x512xf32>, tensor<32x512xf32>, tensor<i32>, tensor<8x512xf32>
    cond {
      %c_3 = stablehlo.constant dense<32> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<32x512x512xf32>, tensor<i32>) -> tensor<512x512xf32>
      %2 = func.call @dynamic_index_in_dim_0(%iterArg_0, %iterArg_1) : (tensor<32x512xf32>, tensor<i32>) -> tensor<512xf32>
      %3 = stablehlo.dot_general %iterArg_2, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
      %4 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
      %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
      %6 = stablehlo.add %3, %5 : tensor<8x512xf32>
      %7 = stablehlo.multiply %6, %6 : tensor<8x512xf32>
      %8 = stablehlo.multiply %7, %6 : tensor<8x512xf32>
      %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
      %10 = stablehlo.multiply %9, %8 : tensor<8x512xf32>
      %11 = stablehlo.add %6, %10 : tensor<8x512xf32>
      %cst_3 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
      %13 = stablehlo.multiply %12, %11 : tensor<8x512xf32>
      %14 = stablehlo.tanh %13 : tensor<8x512xf32>
      %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
      %16 = stablehlo.add %15, %14 : tensor<8x512xf32>
      %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
      %18 = stablehlo.multiply %17, %16 : tensor<8x512xf32>
      %19 = stablehlo.multiply %6, %18 : tensor<8x512xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %20 = stablehlo.add %iterArg_1, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %20, %19 : tensor<32x512x512xf32>, tensor<32x512xf32>, tensor<i32>, tensor<8x512xf32>
    }
    return %0#3 : tensor<8x512xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<32x512x512xf32>, %arg1: tensor<i32>) -> tensor<512x512xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 512, 512] : (tensor<32x512x512xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x512x512xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x512x512xf32>) -> tensor<512x512xf32>
    return %1 : tensor<512x512xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<32x512xf32>, %arg1: tensor<i32>) -> tensor<512xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 512] : (tensor<32x512xf32>, tensor<i32>, tensor<i32>) -> tensor<1x512xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %1 : tensor<512xf32>
  }
}

module @jit_scan_stacked_weights_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x96xbf16>, %arg1: tensor<5x96x96xbf16>, %arg2: tensor<5x96xbf16>) -> (tensor<4x96xbf16> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg2, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<5x96x96xbf16>, tensor<5x96xbf16>, tensor<i32>, tensor<4x96xbf16>
    cond {
      %c_3 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<5x96x96xbf16>, tensor<i32>) -> tensor<96x96xbf16>
      %2 = func.call @dynamic_index_in_dim_0(%iterArg_0, %iterArg_1) : (tensor<5x96xbf16>, tensor<i32>) -> tensor<96xbf16>
      %3 = stablehlo.dot_general %iterArg_2, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x96xbf16>, tensor<96x96xbf16>) -> tensor<4x96xbf16>
      %4 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<96xbf16>) -> tensor<1x96xbf16>
      %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x96xbf16>) -> tensor<4x96xbf16>
      %6 = stablehlo.add %3, %5 : tensor<4x96xbf16>
      %7 = stablehlo.tanh %6 : tensor<4x96xbf16>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %8, %7 : tensor<5x96x96xbf16>, tensor<5x96xbf16>, tensor<i32>, tensor<4x96xbf16>
    }
    return %0#3 : tensor<4x96xbf16>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x96x96xbf16>, %arg1: tensor<i32>) -> tensor<96x96xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 96, 96] : (tensor<5x96x96xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x96x96xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x96x96xbf16>) -> tensor<96x96xbf16>
    return %1 : tensor<96x96xbf16>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<5x96xbf16>, %arg1: tensor<i32>) -> tensor<96xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 96] : (tensor<5x96xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x96xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x96xbf16>) -> tensor<96xbf16>
    return %1 : tensor<96xbf16>
  }
}

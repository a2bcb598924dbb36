module @jit_convolve_1d_numpy attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<5xf32>) -> (tensor<64xf32> {jax.result_info = "result"}) {
    %0 = call @convolve(%arg0, %arg1) : (tensor<64xf32>, tensor<5xf32>) -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
  func.func private @convolve(%arg0: tensor<64xf32>, %arg1: tensor<5xf32>) -> tensor<64xf32> {
    %0 = call @_conv(%arg0, %arg1) : (tensor<64xf32>, tensor<5xf32>) -> tensor<64xf32>
    return %0 : tensor<64xf32>
  }
  func.func private @_conv(%arg0: tensor<64xf32>, %arg1: tensor<5xf32>) -> tensor<64xf32> {
    %0 = call @_flip(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [2] : (tensor<5xf32>) -> tensor<1x1x5xf32>
    %3 = stablehlo.convolution(%1, %2) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x64xf32>, tensor<1x1x5xf32>) -> tensor<1x1x64xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x1x64xf32>) -> tensor<64xf32>
    return %4 : tensor<64xf32>
  }
  func.func private @_flip(%arg0: tensor<5xf32>) -> tensor<5xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<5xf32>
    return %0 : tensor<5xf32>
  }
}

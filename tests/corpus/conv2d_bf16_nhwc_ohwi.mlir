module @jit_conv2d_bf16_nhwc_ohwi attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6x6x2xbf16>, %arg1: tensor<2x2x2x4xbf16>) -> (tensor<4x5x5x4xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg1, dims = [3, 0, 1, 2] : (tensor<2x2x2x4xbf16>) -> tensor<4x2x2x2xbf16>
    %1 = stablehlo.convolution(%arg0, %0) dim_numbers = [b, 0, 1, f]x[o, 0, 1, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<4x6x6x2xbf16>, tensor<4x2x2x2xbf16>) -> tensor<4x5x5x4xbf16>
    return %1 : tensor<4x5x5x4xbf16>
  }
}

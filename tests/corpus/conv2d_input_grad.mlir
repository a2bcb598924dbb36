module @jit_conv2d_input_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x9x9x3xf32>, %arg1: tensor<3x3x3x5xf32>) -> (tensor<2x9x9x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x9x9x3xf32>, tensor<3x3x3x5xf32>) -> tensor<2x5x5x5xf32>
    %1 = stablehlo.cosine %0 : tensor<2x5x5x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5x5xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<2x5x5x5xf32>
    %4 = stablehlo.reverse %arg1, dims = [0, 1] : tensor<3x3x3x5xf32>
    %5 = stablehlo.convolution(%3, %4) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x5x5x5xf32>, tensor<3x3x3x5xf32>) -> tensor<2x9x9x3xf32>
    return %5 : tensor<2x9x9x3xf32>
  }
}

module @jit_rms_norm_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64xbf16>, %arg1: tensor<64xf32>) -> (tensor<8x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<8x64xbf16>) -> tensor<8x64xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<8x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<8x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<8x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<8x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x64xf32>
    %10 = stablehlo.multiply %0, %9 : tensor<8x64xf32>
    %11 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<8x64xf32>
    %14 = stablehlo.convert %13 : (tensor<8x64xf32>) -> tensor<8x64xbf16>
    return %14 : tensor<8x64xbf16>
  }
}

module @jit_convert_chain attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf16> {jax.result_info = "result[0]"}, tensor<8xui8> {jax.result_info = "result[1]"}, tensor<8xi1> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<8xf32> {jax.result_info = "result[4]"}, tensor<8xf8E5M2> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xbf16>
    %1 = stablehlo.convert %0 : (tensor<8xbf16>) -> tensor<8xf16>
    %2 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xi32>
    %3 = stablehlo.convert %2 : (tensor<8xi32>) -> tensor<8xui8>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.compare NE, %arg0, %4, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %6 = stablehlo.convert %5 : tensor<8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.compare GT, %arg0, %7, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %9 = stablehlo.convert %8 : (tensor<8xi1>) -> tensor<8xf32>
    %10 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
    %11 = stablehlo.convert %10 : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
    %12 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xf8E5M2>
    return %1, %3, %6, %9, %11, %12 : tensor<8xf16>, tensor<8xui8>, tensor<8xi1>, tensor<8xf32>, tensor<8xf32>, tensor<8xf8E5M2>
  }
}

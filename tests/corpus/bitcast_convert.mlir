module @jit_bitcast_convert attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<3xi32>) -> (tensor<6xi32> {jax.result_info = "result[0]"}, tensor<6x4xui8> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}, tensor<3xui32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<6xf32>) -> tensor<6xi32>
    %1 = stablehlo.bitcast_convert %arg0 : (tensor<6xf32>) -> tensor<6x4xui8>
    %2 = stablehlo.bitcast_convert %arg1 : (tensor<3xi32>) -> tensor<3xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<3x2xf32>
    %4 = stablehlo.convert %3 : (tensor<3x2xf32>) -> tensor<3x2xf16>
    %5 = stablehlo.bitcast_convert %4 : (tensor<3x2xf16>) -> tensor<3xui32>
    return %0, %1, %2, %5 : tensor<6xi32>, tensor<6x4xui8>, tensor<3xf32>, tensor<3xui32>
  }
}

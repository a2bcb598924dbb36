module @jit_int8_uint8_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xi8>, %arg1: tensor<12xui8>) -> (tensor<12xi8> {jax.result_info = "result[0]"}, tensor<12xui8> {jax.result_info = "result[1]"}, tensor<12xui8> {jax.result_info = "result[2]"}, tensor<12xi8> {jax.result_info = "result[3]"}, tensor<i32> {jax.result_info = "result[4]"}, tensor<12xi8> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<12xi8>
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<12xui8>
    %2 = stablehlo.convert %arg0 : (tensor<12xi8>) -> tensor<12xui8>
    %3 = stablehlo.xor %2, %arg1 : tensor<12xui8>
    %c = stablehlo.constant dense<3> : tensor<i8>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i8>) -> tensor<12xi8>
    %5 = stablehlo.maximum %arg0, %4 : tensor<12xi8>
    %6 = stablehlo.convert %arg1 : (tensor<12xui8>) -> tensor<12xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.reduce(%6 init: %c_0) applies stablehlo.add across dimensions = [0] : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %8 = call @floor_divide(%arg1, %c_1) : (tensor<12xui8>, tensor<i32>) -> tensor<12xui8>
    %9 = stablehlo.convert %8 : (tensor<12xui8>) -> tensor<12xi8>
    return %0, %1, %3, %5, %7, %9 : tensor<12xi8>, tensor<12xui8>, tensor<12xui8>, tensor<12xi8>, tensor<i32>, tensor<12xi8>
  }
  func.func private @floor_divide(%arg0: tensor<12xui8>, %arg1: tensor<i32>) -> tensor<12xui8> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui8>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui8>) -> tensor<12xui8>
    %2 = stablehlo.divide %arg0, %1 : tensor<12xui8>
    return %2 : tensor<12xui8>
  }
}

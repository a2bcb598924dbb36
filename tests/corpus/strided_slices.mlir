module @jit_strided_slices attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x12xf32>) -> (tensor<5x4xf32> {jax.result_info = "result[0]"}, tensor<3x6xf32> {jax.result_info = "result[1]"}, tensor<3x4xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.slice %arg0 [0:10:2, 1:12:3] : (tensor<10x12xf32>) -> tensor<5x4xf32>
    %1 = stablehlo.slice %arg0 [1:9:3, 1:12:2] : (tensor<10x12xf32>) -> tensor<3x6xf32>
    %2 = stablehlo.reverse %1, dims = [1] : tensor<3x6xf32>
    %3 = stablehlo.slice %arg0 [7:10, 0:4] : (tensor<10x12xf32>) -> tensor<3x4xf32>
    return %0, %2, %3 : tensor<5x4xf32>, tensor<3x6xf32>, tensor<3x4xf32>
  }
}

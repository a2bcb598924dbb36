module @jit_roll_tile_repeat attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<6x4xf32> {jax.result_info = "result[1]"}, tensor<6x4xf32> {jax.result_info = "result[2]"}, tensor<3x4xf32> {jax.result_info = "result[3]"}) {
    %0 = call @_roll_static(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<3x4xf32>) -> tensor<1x3x1x4xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x3x1x4xf32>) -> tensor<2x3x1x4xf32>
    %3 = stablehlo.reshape %2 : (tensor<2x3x1x4xf32>) -> tensor<6x4xf32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<3x4xf32>) -> tensor<3x2x4xf32>
    %5 = stablehlo.reshape %4 : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
    %6 = call @triu(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0, %3, %5, %6 : tensor<3x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<3x4xf32>
  }
  func.func private @_roll_static(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = stablehlo.slice %arg0 [0:3, 2:4] : (tensor<3x4xf32>) -> tensor<3x2xf32>
    %1 = stablehlo.slice %arg0 [0:3, 0:2] : (tensor<3x4xf32>) -> tensor<3x2xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x4xf32>
    return %2 : tensor<3x4xf32>
  }
  func.func private @triu(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<3x4xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %2 = stablehlo.add %0, %1 : tensor<3x4xi32>
    %3 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<3x4xi1>, tensor<3x4xf32>
    return %6 : tensor<3x4xf32>
  }
}

module @jit_reductions_multi_axis attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5x6xf32>, %arg1: tensor<4x5xi32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}, tensor<4x6xf32> {jax.result_info = "result[3]"}, tensor<1x1x6xf32> {jax.result_info = "result[4]"}, tensor<4x5xf32> {jax.result_info = "result[5]"}, tensor<5xi1> {jax.result_info = "result[6]"}, tensor<i1> {jax.result_info = "result[7]"}, tensor<4xi32> {jax.result_info = "result[8]"}, tensor<i32> {jax.result_info = "result[9]"}, tensor<5xf32> {jax.result_info = "result[10]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.minimum across dimensions = [0, 1, 2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%arg0 init: %cst_2) applies stablehlo.multiply across dimensions = [1] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x6xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<6xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [2] : (tensor<6xf32>) -> tensor<1x1x6xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x1x6xf32>
    %7 = stablehlo.divide %5, %6 : tensor<1x1x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = call @_std(%arg0, %c) : (tensor<4x5x6xf32>, tensor<i32>) -> tensor<4x5xf32>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %10 = stablehlo.compare GT, %arg1, %9, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %c_6 = stablehlo.constant dense<false> : tensor<i1>
    %11 = stablehlo.reduce(%10 init: %c_6) applies stablehlo.or across dimensions = [0] : (tensor<4x5xi1>, tensor<i1>) -> tensor<5xi1>
    %c_7 = stablehlo.constant dense<-8> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %13 = stablehlo.compare GT, %arg1, %12, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %c_8 = stablehlo.constant dense<true> : tensor<i1>
    %14 = stablehlo.reduce(%13 init: %c_8) applies stablehlo.and across dimensions = [0, 1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<i1>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.reduce(%arg1 init: %c_9) applies stablehlo.add across dimensions = [1] : (tensor<4x5xi32>, tensor<i32>) -> tensor<4xi32>
    %c_10 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %16 = stablehlo.reduce(%arg1 init: %c_10) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x5xi32>, tensor<i32>) -> tensor<i32>
    %17 = stablehlo.slice %arg0 [0:1, 0:5, 0:6] : (tensor<4x5x6xf32>) -> tensor<1x5x6xf32>
    %18 = stablehlo.reshape %17 : (tensor<1x5x6xf32>) -> tensor<5x6xf32>
    %19 = call @norm(%18) : (tensor<5x6xf32>) -> tensor<5xf32>
    return %0, %1, %2, %3, %7, %8, %11, %14, %15, %16, %19 : tensor<5xf32>, tensor<4xf32>, tensor<f32>, tensor<4x6xf32>, tensor<1x1x6xf32>, tensor<4x5xf32>, tensor<5xi1>, tensor<i1>, tensor<4xi32>, tensor<i32>, tensor<5xf32>
  }
  func.func private @_std(%arg0: tensor<4x5x6xf32>, %arg1: tensor<i32>) -> tensor<4x5xf32> {
    %0 = call @_var(%arg0, %arg1) : (tensor<4x5x6xf32>, tensor<i32>) -> tensor<4x5xf32>
    %1 = stablehlo.sqrt %0 : tensor<4x5xf32>
    return %1 : tensor<4x5xf32>
  }
  func.func private @_var(%arg0: tensor<4x5x6xf32>, %arg1: tensor<i32>) -> tensor<4x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x5xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x5xf32>) -> tensor<4x5x1xf32>
    %cst_0 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x5x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x5x1xf32>) -> tensor<4x5x6xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x5x6xf32>
    %6 = chlo.square %5 : tensor<4x5x6xf32> -> tensor<4x5x6xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x5xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %11 = stablehlo.divide %9, %10 : tensor<4x5xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %13 = call @_where(%12, %11, %cst_4) : (tensor<i1>, tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
    return %13 : tensor<4x5xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<4x5xf32>, %arg2: tensor<f32>) -> tensor<4x5xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x5xf32>
    return %2 : tensor<4x5xf32>
  }
  func.func private @norm(%arg0: tensor<5x6xf32>) -> tensor<5xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<5x6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<5x6xf32>, tensor<f32>) -> tensor<5xf32>
    %2 = stablehlo.sqrt %1 : tensor<5xf32>
    return %2 : tensor<5xf32>
  }
}

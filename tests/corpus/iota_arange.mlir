module @jit_iota_arange attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<10xi32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<3x4xi32> {jax.result_info = "result[2]"}, tensor<7xf32> {jax.result_info = "result[3]"}, tensor<3x4xf32> {jax.result_info = "result[4]"}, tensor<4x4xi8> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<10xi32>
    %1 = stablehlo.iota dim = 0 : tensor<6xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<6xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %5 = stablehlo.add %4, %3 : tensor<6xf32>
    %6 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %7 = call @_linspace(%c, %c_1) : (tensor<i32>, tensor<i32>) -> tensor<7xf32>
    %8 = stablehlo.iota dim = 0 : tensor<3x4xi32>
    %9 = stablehlo.iota dim = 1 : tensor<3x4xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %11 = stablehlo.add %8, %10 : tensor<3x4xi32>
    %12 = stablehlo.compare EQ, %11, %9, SIGNED : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
    %13 = stablehlo.convert %12 : (tensor<3x4xi1>) -> tensor<3x4xf32>
    %14 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %16 = stablehlo.add %14, %15 : tensor<4x4xi32>
    %17 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %18 = stablehlo.compare GE, %16, %17, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %19 = stablehlo.convert %18 : (tensor<4x4xi1>) -> tensor<4x4xi8>
    return %0, %5, %6, %7, %13, %19 : tensor<10xi32>, tensor<6xf32>, tensor<3x4xi32>, tensor<7xf32>, tensor<3x4xf32>, tensor<4x4xi8>
  }
  func.func private @_linspace(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<7xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %2 = stablehlo.iota dim = 0 : tensor<6xf32>
    %cst = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.divide %2, %3 : tensor<6xf32>
    %5 = stablehlo.reshape %0 : (tensor<f32>) -> tensor<1xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %7 = stablehlo.subtract %6, %4 : tensor<6xf32>
    %8 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<1xf32>) -> tensor<6xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<6xf32>
    %10 = stablehlo.reshape %1 : (tensor<f32>) -> tensor<1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<1xf32>) -> tensor<6xf32>
    %12 = stablehlo.multiply %11, %4 : tensor<6xf32>
    %13 = stablehlo.add %9, %12 : tensor<6xf32>
    %14 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<6xf32>, tensor<1xf32>) -> tensor<7xf32>
    return %15 : tensor<7xf32>
  }
}

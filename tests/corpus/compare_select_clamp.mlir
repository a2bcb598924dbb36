module @jit_compare_select_clamp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>, %arg1: tensor<10xf32>, %arg2: tensor<10xi32>) -> (tensor<10xi1> {jax.result_info = "result[0]"}, tensor<10xi1> {jax.result_info = "result[1]"}, tensor<10xi1> {jax.result_info = "result[2]"}, tensor<10xi1> {jax.result_info = "result[3]"}, tensor<10xi1> {jax.result_info = "result[4]"}, tensor<10xi1> {jax.result_info = "result[5]"}, tensor<10xf32> {jax.result_info = "result[6]"}, tensor<10xf32> {jax.result_info = "result[7]"}, tensor<10xi32> {jax.result_info = "result[8]"}, tensor<10xf32> {jax.result_info = "result[9]"}, tensor<10xi1> {jax.result_info = "result[10]"}, tensor<10xi1> {jax.result_info = "result[11]"}) {
    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %1 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %2 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %3 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %5 = stablehlo.compare LE, %arg2, %4, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_0 = stablehlo.constant dense<-2> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %7 = stablehlo.compare GT, %arg2, %6, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %8 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %9 = call @_where(%8, %arg0, %arg1) : (tensor<10xi1>, tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %cst = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %12 = stablehlo.clamp %10, %arg0, %11 : tensor<10xf32>
    %c_2 = stablehlo.constant dense<-2> : tensor<i32>
    %c_3 = stablehlo.constant dense<3> : tensor<i32>
    %13 = call @clip(%arg2, %c_2, %c_3) : (tensor<10xi32>, tensor<i32>, tensor<i32>) -> tensor<10xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<2> : tensor<i32>
    %14 = call @clip(%arg2, %c_4, %c_5) : (tensor<10xi32>, tensor<i32>, tensor<i32>) -> tensor<10xi32>
    %15 = stablehlo.multiply %arg0, %arg1 : tensor<10xf32>
    %c_6 = stablehlo.constant dense<1> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %17 = stablehlo.compare LT, %14, %16, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %c_7 = stablehlo.constant dense<2> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %19 = stablehlo.compare LT, %14, %18, SIGNED : (tensor<10xi32>, tensor<10xi32>) -> tensor<10xi1>
    %20 = stablehlo.select %19, %arg1, %15 : tensor<10xi1>, tensor<10xf32>
    %21 = stablehlo.select %17, %arg0, %20 : tensor<10xi1>, tensor<10xf32>
    %22 = stablehlo.divide %arg0, %arg1 : tensor<10xf32>
    %23 = stablehlo.compare NE, %22, %22, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %24 = stablehlo.compare EQ, %arg0, %arg0, FLOAT : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    return %0, %1, %2, %3, %5, %7, %9, %12, %13, %21, %23, %24 : tensor<10xi1>, tensor<10xi1>, tensor<10xi1>, tensor<10xi1>, tensor<10xi1>, tensor<10xi1>, tensor<10xf32>, tensor<10xf32>, tensor<10xi32>, tensor<10xf32>, tensor<10xi1>, tensor<10xi1>
  }
  func.func private @_where(%arg0: tensor<10xi1>, %arg1: tensor<10xf32>, %arg2: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<10xi1>, tensor<10xf32>
    return %0 : tensor<10xf32>
  }
  func.func private @clip(%arg0: tensor<10xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<10xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<10xi32>
    %3 = stablehlo.convert %arg2 : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i32>) -> tensor<10xi32>
    %5 = stablehlo.minimum %4, %2 : tensor<10xi32>
    return %5 : tensor<10xi32>
  }
}

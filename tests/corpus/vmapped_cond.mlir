module @jit_vmapped_cond attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %2 = stablehlo.convert %1 : (tensor<6xi1>) -> tensor<6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %5 = stablehlo.select %4, %arg1, %arg1 : tensor<6xi1>, tensor<6xf32>
    %6 = stablehlo.cosine %5 : tensor<6xf32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %8 = stablehlo.compare EQ, %2, %7, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %9 = stablehlo.select %8, %arg1, %arg1 : tensor<6xi1>, tensor<6xf32>
    %10 = stablehlo.sine %9 : tensor<6xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %12 = stablehlo.compare LT, %2, %11, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %13 = stablehlo.select %12, %6, %10 : tensor<6xi1>, tensor<6xf32>
    return %13 : tensor<6xf32>
  }
}

module @jit_dynamic_scalar_index attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7x5xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<7xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<5> : tensor<i32>
    %4 = stablehlo.add %c_3, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_5 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [1, 5] : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x5xf32>) -> tensor<5xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<7> : tensor<i32>
    %9 = stablehlo.add %arg1, %c_7 : tensor<i32>
    %10 = stablehlo.select %8, %9, %arg1 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.compare LT, %arg2, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_9 = stablehlo.constant dense<5> : tensor<i32>
    %12 = stablehlo.add %arg2, %c_9 : tensor<i32>
    %13 = stablehlo.select %11, %12, %arg2 : tensor<i1>, tensor<i32>
    %14 = stablehlo.dynamic_slice %arg0, %10, %13, sizes = [1, 1] : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<1x1xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x1xf32>) -> tensor<f32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.compare LT, %c_10, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %c_13 = stablehlo.constant dense<7> : tensor<i32>
    %17 = stablehlo.add %c_12, %c_13 : tensor<i32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.select %16, %17, %c_14 : tensor<i1>, tensor<i32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.compare LT, %arg2, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_16 = stablehlo.constant dense<5> : tensor<i32>
    %20 = stablehlo.add %arg2, %c_16 : tensor<i32>
    %21 = stablehlo.select %19, %20, %arg2 : tensor<i1>, tensor<i32>
    %22 = stablehlo.dynamic_slice %arg0, %18, %21, sizes = [7, 1] : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<7x1xf32>
    %23 = stablehlo.reshape %22 : (tensor<7x1xf32>) -> tensor<7xf32>
    return %7, %15, %23 : tensor<5xf32>, tensor<f32>, tensor<7xf32>
  }
}

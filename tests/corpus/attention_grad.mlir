module @jit_attention_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x4x16xf32>, %arg1: tensor<2x8x4x16xf32>, %arg2: tensor<2x8x4x16xf32>) -> (tensor<2x8x4x16xf32> {jax.result_info = "result[0]"}, tensor<2x8x4x16xf32> {jax.result_info = "result[1]"}, tensor<2x8x4x16xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>) -> tensor<2x4x8x8xf32>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<2x4x8x8xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %4 = call @tril(%3) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %5:2 = call @_where(%4, %2, %cst_0) : (tensor<8x8xi1>, tensor<2x4x8x8xf32>, tensor<f32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>)
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5#0 init: %cst_1) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %8 = stablehlo.maximum %7, %6 : tensor<2x4x8xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %11 = stablehlo.subtract %5#0, %10 : tensor<2x4x8x8xf32>
    %12 = stablehlo.exponential %11 : tensor<2x4x8x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_3) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %16 = stablehlo.divide %12, %15 : tensor<2x4x8x8xf32>
    %17 = stablehlo.multiply %14, %14 : tensor<2x4x8x1xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4x8x1xf32>
    %19 = stablehlo.divide %18, %17 : tensor<2x4x8x1xf32>
    %20 = stablehlo.dot_general %arg2, %16, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x16xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x16x8xf32>
    %21 = stablehlo.transpose %20, dims = [0, 3, 1, 2] : (tensor<2x4x16x8xf32>) -> tensor<2x8x4x16xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x8x4x16xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<2x8x4x16xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x8x4x16xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<2x8x4x16xf32>
    %26 = stablehlo.transpose %25, dims = [0, 2, 3, 1] : (tensor<2x8x4x16xf32>) -> tensor<2x4x16x8xf32>
    %27 = stablehlo.dot_general %26, %arg2, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x8x4x16xf32>) -> tensor<2x4x8x8xf32>
    %28 = stablehlo.dot_general %26, %16, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x16x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x16x8xf32>
    %29 = stablehlo.transpose %28, dims = [0, 3, 1, 2] : (tensor<2x4x16x8xf32>) -> tensor<2x8x4x16xf32>
    %30 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %31 = stablehlo.multiply %27, %30 : tensor<2x4x8x8xf32>
    %32 = stablehlo.multiply %31, %12 : tensor<2x4x8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.reduce(%32 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %34 = stablehlo.reshape %33 : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %35 = stablehlo.negate %34 : tensor<2x4x8x1xf32>
    %36 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %37 = stablehlo.divide %27, %36 : tensor<2x4x8x8xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%35 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x1xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
    %40 = stablehlo.add %37, %39 : tensor<2x4x8x8xf32>
    %41 = stablehlo.multiply %40, %12 : tensor<2x4x8x8xf32>
    %42 = call @_where_0(%5#1, %41) : (tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %cst_9 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %44 = stablehlo.divide %42, %43 : tensor<2x4x8x8xf32>
    %45 = stablehlo.dot_general %44, %arg0, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
    %46 = stablehlo.transpose %45, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
    %47 = stablehlo.dot_general %44, %arg1, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x16xf32>) -> tensor<2x4x8x16xf32>
    %48 = stablehlo.transpose %47, dims = [0, 2, 1, 3] : (tensor<2x4x8x16xf32>) -> tensor<2x8x4x16xf32>
    return %48, %46, %29 : tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>, tensor<2x8x4x16xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi32>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x4x8x8xf32>, %arg2: tensor<f32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x4x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>
    return %3, %1 : tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>
  }
  func.func private @_where_0(%arg0: tensor<2x4x8x8xi1>, %arg1: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>
    return %1 : tensor<2x4x8x8xf32>
  }
}

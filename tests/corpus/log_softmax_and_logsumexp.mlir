module @jit_log_softmax_and_logsumexp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x7x11xf32>) -> (tensor<3x7x11xf32> {jax.result_info = "result[0]"}, tensor<7xf32> {jax.result_info = "result[1]"}) {
    %0 = call @log_softmax(%arg0) : (tensor<3x7x11xf32>) -> tensor<3x7x11xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<3x7x11xf32>, tensor<f32>) -> tensor<7xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<7xf32>
    %4 = stablehlo.is_finite %3 : (tensor<7xf32>) -> tensor<7xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %6 = stablehlo.select %4, %3, %5 : tensor<7xi1>, tensor<7xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [1] : (tensor<7xf32>) -> tensor<1x7x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x7x1xf32>) -> tensor<3x7x11xf32>
    %9 = stablehlo.subtract %arg0, %8 : tensor<3x7x11xf32>
    %10 = stablehlo.exponential %9 : tensor<3x7x11xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [0, 2] : (tensor<3x7x11xf32>, tensor<f32>) -> tensor<7xf32>
    %12 = stablehlo.abs %11 : tensor<7xf32>
    %13 = stablehlo.log %12 : tensor<7xf32>
    %14 = stablehlo.add %13, %6 : tensor<7xf32>
    return %0, %14 : tensor<3x7x11xf32>, tensor<7xf32>
  }
  func.func private @log_softmax(%arg0: tensor<3x7x11xf32>) -> tensor<3x7x11xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<3x7x11xf32>, tensor<f32>) -> tensor<3x11xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x11xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<3x11xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 2] : (tensor<3x11xf32>) -> tensor<3x1x11xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<3x1x11xf32>) -> tensor<3x7x11xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<3x7x11xf32>
    %6 = stablehlo.exponential %5 : tensor<3x7x11xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<3x7x11xf32>, tensor<f32>) -> tensor<3x11xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 2] : (tensor<3x11xf32>) -> tensor<3x1x11xf32>
    %9 = stablehlo.log %8 : tensor<3x1x11xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<3x1x11xf32>) -> tensor<3x7x11xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<3x7x11xf32>
    return %11 : tensor<3x7x11xf32>
  }
}

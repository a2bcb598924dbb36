module @jit_dot_product_attention_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x96x2x32xbf16>, %arg1: tensor<2x96x2x32xbf16>, %arg2: tensor<2x96x2x32xbf16>) -> (tensor<2x96x2x32xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x96x2x32xbf16>) -> tensor<2x96x2x1x32xbf16>
    %1 = stablehlo.dot_general %0, %arg1, batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x96x2x1x32xbf16>, tensor<2x96x2x32xbf16>) -> tensor<2x2x96x1x96xf32>
    %cst = stablehlo.constant dense<0.176776692> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x96x1x96xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<2x2x96x1x96xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.maximum across dimensions = [4] : (tensor<2x2x96x1x96xf32>, tensor<f32>) -> tensor<2x2x96x1xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x96x1xf32>
    %6 = stablehlo.maximum %5, %4 : tensor<2x2x96x1xf32>
    %7 = stablehlo.transpose %6, dims = [3, 0, 1, 2] : (tensor<2x2x96x1xf32>) -> tensor<1x2x2x96xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x2x2x96xf32>) -> tensor<1x2x2x96x1xf32>
    %9 = stablehlo.transpose %3, dims = [3, 0, 1, 2, 4] : (tensor<2x2x96x1x96xf32>) -> tensor<1x2x2x96x96xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x96x1xf32>) -> tensor<1x2x2x96x96xf32>
    %11 = stablehlo.subtract %9, %10 : tensor<1x2x2x96x96xf32>
    %12 = stablehlo.exponential %11 : tensor<1x2x2x96x96xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_2) applies stablehlo.add across dimensions = [4] : (tensor<1x2x2x96x96xf32>, tensor<f32>) -> tensor<1x2x2x96xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3] : (tensor<1x2x2x96xf32>) -> tensor<1x2x2x96x1xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1, 2, 3, 4] : (tensor<1x2x2x96x1xf32>) -> tensor<1x2x2x96x96xf32>
    %16 = stablehlo.divide %12, %15 : tensor<1x2x2x96x96xf32>
    %17 = stablehlo.convert %16 : (tensor<1x2x2x96x96xf32>) -> tensor<1x2x2x96x96xbf16>
    %18 = stablehlo.dot_general %arg2, %17, batching_dims = [0, 2] x [1, 2], contracting_dims = [1] x [4], precision = [DEFAULT, DEFAULT] : (tensor<2x96x2x32xbf16>, tensor<1x2x2x96x96xbf16>) -> tensor<2x2x32x1x96xbf16>
    %19 = stablehlo.transpose %18, dims = [3, 0, 4, 1, 2] : (tensor<2x2x32x1x96xbf16>) -> tensor<1x2x96x2x32xbf16>
    %20 = stablehlo.transpose %19, dims = [1, 2, 3, 0, 4] : (tensor<1x2x96x2x32xbf16>) -> tensor<2x96x2x1x32xbf16>
    %21 = stablehlo.reshape %20 : (tensor<2x96x2x1x32xbf16>) -> tensor<2x96x2x32xbf16>
    return %21 : tensor<2x96x2x32xbf16>
  }
}

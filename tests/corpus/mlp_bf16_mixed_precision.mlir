module @jit_mlp_bf16_mixed_precision attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xbf16>, %arg1: tensor<16x32xbf16>, %arg2: tensor<4xbf16>, %arg3: tensor<32x4xbf16>, %arg4: tensor<8x16xbf16>) -> (tensor<8x4xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xf32>
    %1 = stablehlo.convert %arg0 : (tensor<32xbf16>) -> tensor<32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %4 = stablehlo.add %0, %3 : tensor<8x32xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<8x32xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<8x32xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.multiply %7, %6 : tensor<8x32xf32>
    %9 = stablehlo.add %4, %8 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<8x32xf32>
    %12 = stablehlo.tanh %11 : tensor<8x32xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %14 = stablehlo.add %13, %12 : tensor<8x32xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<8x32xf32>
    %17 = stablehlo.multiply %4, %16 : tensor<8x32xf32>
    %18 = stablehlo.convert %17 : (tensor<8x32xf32>) -> tensor<8x32xbf16>
    %19 = stablehlo.dot_general %18, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xbf16>, tensor<32x4xbf16>) -> tensor<8x4xf32>
    %20 = stablehlo.convert %arg2 : (tensor<4xbf16>) -> tensor<4xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<8x4xf32>
    %23 = stablehlo.add %19, %22 : tensor<8x4xf32>
    %24 = stablehlo.multiply %23, %23 : tensor<8x4xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<8x4xf32>
    %cst_3 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %27 = stablehlo.multiply %26, %25 : tensor<8x4xf32>
    %28 = stablehlo.add %23, %27 : tensor<8x4xf32>
    %cst_4 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %30 = stablehlo.multiply %29, %28 : tensor<8x4xf32>
    %31 = stablehlo.tanh %30 : tensor<8x4xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %33 = stablehlo.add %32, %31 : tensor<8x4xf32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %35 = stablehlo.multiply %34, %33 : tensor<8x4xf32>
    %36 = stablehlo.multiply %23, %35 : tensor<8x4xf32>
    %37 = stablehlo.convert %36 : (tensor<8x4xf32>) -> tensor<8x4xbf16>
    return %37 : tensor<8x4xbf16>
  }
}

module @jit_complex64_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xcomplex<f32>>, %arg1: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}, tensor<4xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<4xf32> {jax.result_info = "result[4]"}, tensor<4xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<4xcomplex<f32>> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %1 = stablehlo.abs %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %2 = call @angle(%0) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %3 = stablehlo.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %4 = stablehlo.imag %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %5 = stablehlo.negate %4 : tensor<4xf32>
    %6 = stablehlo.complex %3, %5 : tensor<4xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
    %8 = stablehlo.multiply %6, %7 : tensor<4xcomplex<f32>>
    %9 = stablehlo.real %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %10 = stablehlo.imag %0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %11 = stablehlo.add %9, %10 : tensor<4xf32>
    %12 = stablehlo.exponential %arg1 : tensor<4xcomplex<f32>>
    %13 = stablehlo.real %arg1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %14 = stablehlo.imag %arg1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %16 = stablehlo.multiply %15, %14 : tensor<4xf32>
    %17 = stablehlo.complex %13, %16 : tensor<4xcomplex<f32>>
    return %0, %1, %2, %8, %11, %12, %17 : tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  }
  func.func private @angle(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xf32> {
    %0 = stablehlo.real %arg0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %1 = stablehlo.imag %arg0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %2 = stablehlo.atan2 %1, %0 : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}

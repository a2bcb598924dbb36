module @jit_complex128_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<3x3xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<3xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<3x3xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.real %arg0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xf64>
    %1 = stablehlo.imag %arg0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xf64>
    %2 = stablehlo.negate %1 : tensor<3x3xf64>
    %3 = stablehlo.complex %0, %2 : tensor<3x3xcomplex<f64>>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
    %5 = stablehlo.dot_general %arg0, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
    %6 = stablehlo.sqrt %arg0 : tensor<3x3xcomplex<f64>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %7 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<3xcomplex<f64>>
    %8 = stablehlo.abs %arg0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xf64>
    %9 = stablehlo.convert %8 : (tensor<3x3xf64>) -> tensor<3x3xf32>
    return %5, %6, %7, %9 : tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<3x3xf32>
  }
}

module @jit_fft2_real_input attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>) -> (tensor<8x8xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<8x8xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xcomplex<f32>>
    %1 = stablehlo.convert %arg0 : (tensor<8x8xf32>) -> tensor<8x8xcomplex<f32>>
    %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
    %3 = call @fft_0(%2) : (tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
    return %0, %4 : tensor<8x8xcomplex<f32>>, tensor<8x8xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<8x8xf32>) -> tensor<8x8xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<8x8xf32>) -> tensor<8x8xcomplex<f32>>
    %1 = stablehlo.fft %0, type = FFT, length = [8, 8] : (tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
    return %1 : tensor<8x8xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<8x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
    return %0 : tensor<8x8xcomplex<f32>>
  }
}

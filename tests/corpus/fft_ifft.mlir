module @jit_fft_ifft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xcomplex<f32>>) -> (tensor<4x16xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<4x16xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = call @fft(%arg0) : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x16xcomplex<f32>>) -> tensor<16x4xcomplex<f32>>
    %2 = call @fft_0(%1) : (tensor<16x4xcomplex<f32>>) -> tensor<16x4xcomplex<f32>>
    %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<16x4xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
    return %0, %3 : tensor<4x16xcomplex<f32>>, tensor<4x16xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [16] : (tensor<4x16xcomplex<f32>>) -> tensor<4x16xcomplex<f32>>
    return %0 : tensor<4x16xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<16x4xcomplex<f32>>) -> tensor<16x4xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [4] : (tensor<16x4xcomplex<f32>>) -> tensor<16x4xcomplex<f32>>
    return %0 : tensor<16x4xcomplex<f32>>
  }
}

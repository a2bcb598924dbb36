module @jit_splat_and_special_constants attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32>) -> (tensor<2xf32> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<2xf32> {jax.result_info = "result[2]"}, tensor<2xi1> {jax.result_info = "result[3]"}, tensor<bf16> {jax.result_info = "result[4]"}, tensor<2xcomplex<f32>> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<[0xFF800000, 0x7FC00000]> : tensor<2xf32>
    %cst_0 = stablehlo.constant dense<[9.999940e-41, 3.400000e+38]> : tensor<2xf32>
    %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %cst_1 = stablehlo.constant dense<[(1.000000e+00,2.000000e+00), (-0.000000e+00,-3.000000e+00)]> : tensor<2xcomplex<f32>>
    %0 = stablehlo.add %arg0, %cst : tensor<2xf32>
    %cst_2 = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %cst_3 = stablehlo.constant dense<2.500000e+00> : tensor<bf16>
    return %0, %1, %cst_0, %c, %cst_3, %cst_1 : tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xi1>, tensor<bf16>, tensor<2xcomplex<f32>>
  }
}

module @jit_f64_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf64>, %arg1: tensor<6x6xf64>) -> (tensor<6xf64> {jax.result_info = "result[0]"}, tensor<6xf64> {jax.result_info = "result[1]"}, tensor<6xf64> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xf64>, tensor<6xf64>) -> tensor<6xf64>
    %1 = stablehlo.abs %arg0 : tensor<6xf64>
    %cst = stablehlo.constant dense<1.000000e-300> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %3 = stablehlo.add %1, %2 : tensor<6xf64>
    %4 = stablehlo.log %3 : tensor<6xf64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %5 = stablehlo.divide %cst_0, %cst_1 : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %7 = stablehlo.add %6, %arg0 : tensor<6xf64>
    return %0, %4, %7 : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
  }
}

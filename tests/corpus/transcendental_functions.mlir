module @jit_transcendental_functions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12xf32>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<12xf32> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xf32> {jax.result_info = "result[5]"}, tensor<12xf32> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}, tensor<12xf32> {jax.result_info = "result[8]"}, tensor<12xf32> {jax.result_info = "result[9]"}, tensor<12xf32> {jax.result_info = "result[10]"}, tensor<12xf32> {jax.result_info = "result[11]"}, tensor<12xf32> {jax.result_info = "result[12]"}, tensor<12xi1> {jax.result_info = "result[13]"}, tensor<12xf32> {jax.result_info = "result[14]"}, tensor<12xf32> {jax.result_info = "result[15]"}, tensor<12xf32> {jax.result_info = "result[16]"}, tensor<12xf32> {jax.result_info = "result[17]"}, tensor<12xf32> {jax.result_info = "result[18]"}, tensor<12xf32> {jax.result_info = "result[19]"}, tensor<12xf32> {jax.result_info = "result[20]"}, tensor<12xf32> {jax.result_info = "result[21]"}, tensor<12xf32> {jax.result_info = "result[22]"}) {
    %0 = stablehlo.tan %arg0 : tensor<12xf32>
    %1 = chlo.sinh %arg0 : tensor<12xf32> -> tensor<12xf32>
    %2 = chlo.cosh %arg0 : tensor<12xf32> -> tensor<12xf32>
    %3 = chlo.asinh %arg0 : tensor<12xf32> -> tensor<12xf32>
    %4 = stablehlo.atan2 %arg0, %arg1 : tensor<12xf32>
    %5 = stablehlo.negate %arg0 : tensor<12xf32>
    %6 = stablehlo.exponential %5 : tensor<12xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %8 = stablehlo.add %7, %6 : tensor<12xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %10 = stablehlo.divide %9, %8 : tensor<12xf32>
    %11 = stablehlo.negate %arg0 : tensor<12xf32>
    %12 = stablehlo.exponential %11 : tensor<12xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %14 = stablehlo.add %13, %12 : tensor<12xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %16 = stablehlo.divide %15, %14 : tensor<12xf32>
    %17 = stablehlo.exponential_minus_one %arg0 : tensor<12xf32>
    %18 = stablehlo.log_plus_one %arg1 : tensor<12xf32>
    %19 = stablehlo.cbrt %arg0 : tensor<12xf32>
    %20 = call @round(%arg0) : (tensor<12xf32>) -> tensor<12xf32>
    %21 = stablehlo.round_nearest_afz %arg0 : tensor<12xf32>
    %22 = stablehlo.sign %arg0 : tensor<12xf32>
    %23 = stablehlo.subtract %arg0, %arg0 : tensor<12xf32>
    %24 = stablehlo.divide %arg0, %23 : tensor<12xf32>
    %25 = stablehlo.is_finite %24 : (tensor<12xf32>) -> tensor<12xi1>
    %26 = chlo.next_after %arg0, %arg1 : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
    %27 = stablehlo.tanh %arg0 : tensor<12xf32>
    %28 = chlo.acos %27 : tensor<12xf32> -> tensor<12xf32>
    %29 = stablehlo.floor %arg0 : tensor<12xf32>
    %30 = stablehlo.ceil %arg0 : tensor<12xf32>
    %31 = stablehlo.rsqrt %arg1 : tensor<12xf32>
    %32 = stablehlo.multiply %arg0, %arg0 : tensor<12xf32>
    %33 = stablehlo.multiply %32, %arg0 : tensor<12xf32>
    %34 = stablehlo.power %arg1, %arg0 : tensor<12xf32>
    %cst_3 = stablehlo.constant dense<0.693147182> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %36 = stablehlo.multiply %35, %arg0 : tensor<12xf32>
    %37 = stablehlo.exponential %36 : tensor<12xf32>
    %38 = stablehlo.log %arg1 : tensor<12xf32>
    %cst_4 = stablehlo.constant dense<0.434294492> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %40 = stablehlo.multiply %38, %39 : tensor<12xf32>
    return %0, %1, %2, %3, %4, %10, %16, %17, %18, %19, %20, %21, %22, %25, %26, %28, %29, %30, %31, %33, %34, %37, %40 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
  }
  func.func private @round(%arg0: tensor<12xf32>) -> tensor<12xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<12xf32>
    return %0 : tensor<12xf32>
  }
}

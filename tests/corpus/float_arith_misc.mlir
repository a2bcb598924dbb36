module @jit_float_arith_misc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> (tensor<3x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<3x5xf32> {jax.result_info = "result[2]"}, tensor<3x5xf32> {jax.result_info = "result[3]"}, tensor<3x5xf32> {jax.result_info = "result[4]"}, tensor<3x5xf32> {jax.result_info = "result[5]"}, tensor<3x5xf32> {jax.result_info = "result[6]"}, tensor<3x5xf32> {jax.result_info = "result[7]"}, tensor<3x5xf32> {jax.result_info = "result[8]"}, tensor<3x5xf32> {jax.result_info = "result[9]"}, tensor<3x5xf32> {jax.result_info = "result[10]"}, tensor<3x5xf32> {jax.result_info = "result[11]"}) {
    %0 = call @remainder(%arg0, %arg1) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %1 = call @fmod(%arg0, %arg1) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<3x5xf32>
    %3 = stablehlo.multiply %arg0, %arg0 : tensor<3x5xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<3x5xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<3x5xf32>
    %6 = call @hypot(%arg0, %arg1) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %7 = stablehlo.maximum %arg0, %arg1 : tensor<3x5xf32>
    %8 = stablehlo.minimum %arg0, %arg1 : tensor<3x5xf32>
    %9 = call @copysign(%arg0, %arg1) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %10 = stablehlo.maximum %arg0, %arg1 : tensor<3x5xf32>
    %11 = stablehlo.subtract %arg0, %arg1 : tensor<3x5xf32>
    %12 = stablehlo.compare NE, %11, %11, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %13 = stablehlo.add %arg0, %arg1 : tensor<3x5xf32>
    %14 = stablehlo.abs %11 : tensor<3x5xf32>
    %15 = stablehlo.negate %14 : tensor<3x5xf32>
    %16 = stablehlo.exponential %15 : tensor<3x5xf32>
    %17 = stablehlo.log_plus_one %16 : tensor<3x5xf32>
    %18 = stablehlo.add %10, %17 : tensor<3x5xf32>
    %19 = stablehlo.select %12, %13, %18 : tensor<3x5xi1>, tensor<3x5xf32>
    %20 = stablehlo.divide %arg0, %arg1 : tensor<3x5xf32>
    %21 = call @nan_to_num(%20) : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %22 = chlo.square %arg0 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %24 = stablehlo.divide %23, %arg1 : tensor<3x5xf32>
    return %0, %1, %2, %5, %6, %7, %8, %9, %19, %21, %22, %24 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
  }
  func.func private @remainder(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<3x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<3x5xi1>, tensor<3x5xi1>) -> tensor<3x5xi1>
    %8 = stablehlo.and %7, %2 : tensor<3x5xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<3x5xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<3x5xi1>, tensor<3x5xf32>
    return %10 : tensor<3x5xf32>
  }
  func.func private @fmod(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<3x5xf32>
    return %0 : tensor<3x5xf32>
  }
  func.func private @hypot(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.abs %arg0 : tensor<3x5xf32>
    %1 = stablehlo.abs %arg1 : tensor<3x5xf32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %5 = stablehlo.compare EQ, %1, %4, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %6 = stablehlo.or %3, %5 : tensor<3x5xi1>
    %7 = stablehlo.maximum %0, %1 : tensor<3x5xf32>
    %8 = stablehlo.minimum %0, %1 : tensor<3x5xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %10 = stablehlo.compare EQ, %7, %9, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %12 = stablehlo.compare EQ, %7, %11, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %14 = call @_where(%12, %13, %7) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %15 = stablehlo.divide %8, %14 : tensor<3x5xf32>
    %16 = chlo.square %15 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %18 = stablehlo.add %17, %16 : tensor<3x5xf32>
    %19 = stablehlo.sqrt %18 : tensor<3x5xf32>
    %20 = stablehlo.multiply %7, %19 : tensor<3x5xf32>
    %21 = call @_where(%10, %7, %20) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %cst_5 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %22 = call @_where_0(%6, %cst_5, %21) : (tensor<3x5xi1>, tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    return %22 : tensor<3x5xf32>
  }
  func.func private @_where(%arg0: tensor<3x5xi1>, %arg1: tensor<3x5xf32>, %arg2: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x5xi1>, tensor<3x5xf32>
    return %0 : tensor<3x5xf32>
  }
  func.func private @_where_0(%arg0: tensor<3x5xi1>, %arg1: tensor<f32>, %arg2: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<3x5xi1>, tensor<3x5xf32>
    return %1 : tensor<3x5xf32>
  }
  func.func private @copysign(%arg0: tensor<3x5xf32>, %arg1: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = call @signbit(%arg1) : (tensor<3x5xf32>) -> tensor<3x5xi1>
    %1 = stablehlo.abs %arg0 : tensor<3x5xf32>
    %2 = stablehlo.negate %1 : tensor<3x5xf32>
    %3 = stablehlo.abs %arg0 : tensor<3x5xf32>
    %4 = call @_where(%0, %2, %3) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    return %4 : tensor<3x5xf32>
  }
  func.func private @signbit(%arg0: tensor<3x5xf32>) -> tensor<3x5xi1> {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %c = stablehlo.constant dense<31> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
    %2 = stablehlo.shift_right_arithmetic %0, %1 : tensor<3x5xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
    %4 = stablehlo.compare NE, %2, %3, SIGNED : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi1>
    %5 = stablehlo.convert %4 : tensor<3x5xi1>
    return %5 : tensor<3x5xi1>
  }
  func.func private @nan_to_num(%arg0: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = call @_where_0(%0, %cst, %arg0) : (tensor<3x5xi1>, tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3 = stablehlo.compare EQ, %1, %2, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_1 = stablehlo.constant dense<3.40282347E+38> : tensor<f32>
    %4 = call @_where_0(%3, %cst_1, %1) : (tensor<3x5xi1>, tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %6 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %7 = call @_where_0(%6, %cst_3, %4) : (tensor<3x5xi1>, tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    return %7 : tensor<3x5xf32>
  }
}

module @jit_random_raw_prng_key attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xui32>) -> (tensor<4xui8> {jax.result_info = "result[0]"}, tensor<2xui32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1xui32>) -> tensor<ui32>
    %2 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.iota dim = 0 : tensor<4xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<4xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<4xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<4xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<4xui64>
    %9 = stablehlo.convert %6 : (tensor<4xui64>) -> tensor<4xui32>
    %10 = stablehlo.convert %8 : (tensor<4xui64>) -> tensor<4xui32>
    %11:2 = call @threefry2x32(%1, %3, %10, %9) : (tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>)
    %12 = stablehlo.xor %11#0, %11#1 : tensor<4xui32>
    %13 = stablehlo.convert %12 : (tensor<4xui32>) -> tensor<4xui8>
    %14 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %15 = stablehlo.reshape %14 : (tensor<1xui32>) -> tensor<ui32>
    %16 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %17 = stablehlo.reshape %16 : (tensor<1xui32>) -> tensor<ui32>
    %18 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c_1 = stablehlo.constant dense<1> : tensor<ui64>
    %19 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %20 = stablehlo.multiply %19, %18 : tensor<2xui64>
    %c_2 = stablehlo.constant dense<32> : tensor<ui64>
    %21 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %22 = stablehlo.shift_right_logical %20, %21 : tensor<2xui64>
    %23 = stablehlo.convert %20 : (tensor<2xui64>) -> tensor<2xui32>
    %24 = stablehlo.convert %22 : (tensor<2xui64>) -> tensor<2xui32>
    %25:2 = call @threefry2x32_0(%15, %17, %24, %23) : (tensor<ui32>, tensor<ui32>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
    %26 = stablehlo.xor %25#0, %25#1 : tensor<2xui32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %27 = call @_gamma(%arg0, %cst) : (tensor<2xui32>, tensor<f32>) -> tensor<3xf32>
    return %13, %26, %27 : tensor<4xui8>, tensor<2xui32>, tensor<3xf32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<4xui32>, %arg3: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<4xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<4xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %8 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %9 = stablehlo.reshape %8 : (tensor<1xui32>) -> tensor<ui32>
      %10 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %11 = stablehlo.reshape %10 : (tensor<1xui32>) -> tensor<ui32>
      %12 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %13 = stablehlo.reshape %12 : (tensor<1xui32>) -> tensor<ui32>
      %14 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %15 = stablehlo.reshape %14 : (tensor<1xui32>) -> tensor<ui32>
      %16 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<4xui32>
      %17 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %18 = stablehlo.shift_left %iterArg_6, %17 : tensor<4xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %19 = stablehlo.subtract %c_13, %9 : tensor<ui32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %21 = stablehlo.shift_right_logical %iterArg_6, %20 : tensor<4xui32>
      %22 = stablehlo.or %18, %21 : tensor<4xui32>
      %23 = stablehlo.xor %16, %22 : tensor<4xui32>
      %24 = stablehlo.add %16, %23 : tensor<4xui32>
      %25 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %26 = stablehlo.shift_left %23, %25 : tensor<4xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %27 = stablehlo.subtract %c_14, %11 : tensor<ui32>
      %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %29 = stablehlo.shift_right_logical %23, %28 : tensor<4xui32>
      %30 = stablehlo.or %26, %29 : tensor<4xui32>
      %31 = stablehlo.xor %24, %30 : tensor<4xui32>
      %32 = stablehlo.add %24, %31 : tensor<4xui32>
      %33 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %34 = stablehlo.shift_left %31, %33 : tensor<4xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %35 = stablehlo.subtract %c_15, %13 : tensor<ui32>
      %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %37 = stablehlo.shift_right_logical %31, %36 : tensor<4xui32>
      %38 = stablehlo.or %34, %37 : tensor<4xui32>
      %39 = stablehlo.xor %32, %38 : tensor<4xui32>
      %40 = stablehlo.add %32, %39 : tensor<4xui32>
      %41 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %42 = stablehlo.shift_left %39, %41 : tensor<4xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %43 = stablehlo.subtract %c_16, %15 : tensor<ui32>
      %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %45 = stablehlo.shift_right_logical %39, %44 : tensor<4xui32>
      %46 = stablehlo.or %42, %45 : tensor<4xui32>
      %47 = stablehlo.xor %40, %46 : tensor<4xui32>
      %48 = stablehlo.broadcast_in_dim %iterArg_7, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %49 = stablehlo.add %40, %48 : tensor<4xui32>
      %50 = stablehlo.broadcast_in_dim %iterArg_8, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %51 = stablehlo.add %47, %50 : tensor<4xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %52 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %53 = stablehlo.convert %52 : (tensor<i32>) -> tensor<ui32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %55 = stablehlo.add %51, %54 : tensor<4xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %56 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %56, %7, %49, %55, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<4xui32>, tensor<4xui32>
  }
  func.func private @threefry2x32_0(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %8 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %9 = stablehlo.reshape %8 : (tensor<1xui32>) -> tensor<ui32>
      %10 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %11 = stablehlo.reshape %10 : (tensor<1xui32>) -> tensor<ui32>
      %12 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %13 = stablehlo.reshape %12 : (tensor<1xui32>) -> tensor<ui32>
      %14 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %15 = stablehlo.reshape %14 : (tensor<1xui32>) -> tensor<ui32>
      %16 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<2xui32>
      %17 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %18 = stablehlo.shift_left %iterArg_6, %17 : tensor<2xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %19 = stablehlo.subtract %c_13, %9 : tensor<ui32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %21 = stablehlo.shift_right_logical %iterArg_6, %20 : tensor<2xui32>
      %22 = stablehlo.or %18, %21 : tensor<2xui32>
      %23 = stablehlo.xor %16, %22 : tensor<2xui32>
      %24 = stablehlo.add %16, %23 : tensor<2xui32>
      %25 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %26 = stablehlo.shift_left %23, %25 : tensor<2xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %27 = stablehlo.subtract %c_14, %11 : tensor<ui32>
      %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %29 = stablehlo.shift_right_logical %23, %28 : tensor<2xui32>
      %30 = stablehlo.or %26, %29 : tensor<2xui32>
      %31 = stablehlo.xor %24, %30 : tensor<2xui32>
      %32 = stablehlo.add %24, %31 : tensor<2xui32>
      %33 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %34 = stablehlo.shift_left %31, %33 : tensor<2xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %35 = stablehlo.subtract %c_15, %13 : tensor<ui32>
      %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %37 = stablehlo.shift_right_logical %31, %36 : tensor<2xui32>
      %38 = stablehlo.or %34, %37 : tensor<2xui32>
      %39 = stablehlo.xor %32, %38 : tensor<2xui32>
      %40 = stablehlo.add %32, %39 : tensor<2xui32>
      %41 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %42 = stablehlo.shift_left %39, %41 : tensor<2xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %43 = stablehlo.subtract %c_16, %15 : tensor<ui32>
      %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %45 = stablehlo.shift_right_logical %39, %44 : tensor<2xui32>
      %46 = stablehlo.or %42, %45 : tensor<2xui32>
      %47 = stablehlo.xor %40, %46 : tensor<2xui32>
      %48 = stablehlo.broadcast_in_dim %iterArg_7, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %49 = stablehlo.add %40, %48 : tensor<2xui32>
      %50 = stablehlo.broadcast_in_dim %iterArg_8, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %51 = stablehlo.add %47, %50 : tensor<2xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %52 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %53 = stablehlo.convert %52 : (tensor<i32>) -> tensor<ui32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<ui32>) -> tensor<2xui32>
      %55 = stablehlo.add %51, %54 : tensor<2xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %56 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %56, %7, %49, %55, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @_gamma(%arg0: tensor<2xui32>, %arg1: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<2xui32>) -> tensor<1x2xui32>
    %3 = call @_threefry_split(%2) : (tensor<1x2xui32>) -> tensor<1x3x2xui32>
    %4 = stablehlo.reshape %3 : (tensor<1x3x2xui32>) -> tensor<3x2xui32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %6 = stablehlo.compare GE, %1, %5, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %8 = stablehlo.add %1, %7 : tensor<3xf32>
    %9 = stablehlo.select %6, %1, %8 : tensor<3xi1>, tensor<3xf32>
    %cst_1 = stablehlo.constant dense<0.333333343> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %11 = stablehlo.subtract %9, %10 : tensor<3xf32>
    %12 = stablehlo.sqrt %11 : tensor<3xf32>
    %cst_2 = stablehlo.constant dense<0.333333343> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %14 = stablehlo.divide %13, %12 : tensor<3xf32>
    %15 = call @_threefry_split_2(%4) : (tensor<3x2xui32>) -> tensor<3x2x2xui32>
    %16 = stablehlo.slice %15 [0:3, 0:1, 0:2] : (tensor<3x2x2xui32>) -> tensor<3x1x2xui32>
    %17 = stablehlo.reshape %16 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
    %18 = stablehlo.slice %15 [0:3, 1:2, 0:2] : (tensor<3x2x2xui32>) -> tensor<3x1x2xui32>
    %19 = stablehlo.reshape %18 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %23:6 = stablehlo.while(%iterArg = %11, %iterArg_11 = %14, %iterArg_12 = %17, %iterArg_13 = %20, %iterArg_14 = %21, %iterArg_15 = %22) : tensor<3xf32>, tensor<3xf32>, tensor<3x2xui32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    cond {
      %34 = stablehlo.multiply %iterArg_13, %iterArg_13 : tensor<3xf32>
      %cst_16 = stablehlo.constant dense<3.310000e-02> : tensor<f32>
      %35 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %36 = stablehlo.multiply %35, %34 : tensor<3xf32>
      %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %38 = stablehlo.subtract %37, %36 : tensor<3xf32>
      %39 = stablehlo.compare GE, %iterArg_15, %38, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %40 = stablehlo.log %iterArg_15 : tensor<3xf32>
      %cst_18 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %41 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %42 = stablehlo.multiply %iterArg_13, %41 : tensor<3xf32>
      %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %43 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %44 = stablehlo.subtract %43, %iterArg_14 : tensor<3xf32>
      %45 = stablehlo.log %iterArg_14 : tensor<3xf32>
      %46 = stablehlo.add %44, %45 : tensor<3xf32>
      %47 = stablehlo.multiply %iterArg, %46 : tensor<3xf32>
      %48 = stablehlo.add %42, %47 : tensor<3xf32>
      %49 = stablehlo.compare GE, %40, %48, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %50 = stablehlo.and %39, %49 : tensor<3xi1>
      %c = stablehlo.constant dense<false> : tensor<i1>
      %51 = stablehlo.reduce(%50 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<3xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %51 : tensor<i1>
    } do {
      %34 = func.call @_threefry_split_4(%iterArg_12) : (tensor<3x2xui32>) -> tensor<3x3x2xui32>
      %35 = stablehlo.slice %34 [0:3, 0:1, 0:2] : (tensor<3x3x2xui32>) -> tensor<3x1x2xui32>
      %36 = stablehlo.reshape %35 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
      %37 = stablehlo.slice %34 [0:3, 1:2, 0:2] : (tensor<3x3x2xui32>) -> tensor<3x1x2xui32>
      %38 = stablehlo.reshape %37 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
      %39 = stablehlo.slice %34 [0:3, 2:3, 0:2] : (tensor<3x3x2xui32>) -> tensor<3x1x2xui32>
      %40 = stablehlo.reshape %39 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %41 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %cst_17 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
      %42 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %43:4 = stablehlo.while(%iterArg_24 = %iterArg_11, %iterArg_25 = %38, %iterArg_26 = %41, %iterArg_27 = %42) : tensor<3xf32>, tensor<3x2xui32>, tensor<3xf32>, tensor<3xf32>
      cond {
        %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
        %73 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %74 = stablehlo.compare LE, %iterArg_27, %73, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
        %c = stablehlo.constant dense<false> : tensor<i1>
        %75 = stablehlo.reduce(%74 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<3xi1>, tensor<i1>) -> tensor<i1>
        stablehlo.return %75 : tensor<i1>
      } do {
        %73 = func.call @_threefry_split_2(%iterArg_25) : (tensor<3x2xui32>) -> tensor<3x2x2xui32>
        %74 = stablehlo.slice %73 [0:3, 0:1, 0:2] : (tensor<3x2x2xui32>) -> tensor<3x1x2xui32>
        %75 = stablehlo.reshape %74 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
        %76 = stablehlo.slice %73 [0:3, 1:2, 0:2] : (tensor<3x2x2xui32>) -> tensor<3x1x2xui32>
        %77 = stablehlo.reshape %76 : (tensor<3x1x2xui32>) -> tensor<3x2xui32>
        %78 = func.call @_normal(%77) : (tensor<3x2xui32>) -> tensor<3xf32>
        %79 = stablehlo.multiply %78, %iterArg_24 : tensor<3xf32>
        %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
        %80 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %81 = stablehlo.add %80, %79 : tensor<3xf32>
        %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
        %82 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<3xf32>
        %83 = stablehlo.compare LE, %iterArg_27, %82, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
        %84 = stablehlo.broadcast_in_dim %83, dims = [0] : (tensor<3xi1>) -> tensor<3x2xi1>
        %85 = stablehlo.select %84, %75, %iterArg_25 : tensor<3x2xi1>, tensor<3x2xui32>
        %86 = stablehlo.broadcast_in_dim %83, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
        %87 = stablehlo.select %86, %78, %iterArg_26 : tensor<3xi1>, tensor<3xf32>
        %88 = stablehlo.broadcast_in_dim %83, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
        %89 = stablehlo.select %88, %81, %iterArg_27 : tensor<3xi1>, tensor<3xf32>
        stablehlo.return %iterArg_24, %85, %87, %89 : tensor<3xf32>, tensor<3x2xui32>, tensor<3xf32>, tensor<3xf32>
      }
      %44 = stablehlo.multiply %43#2, %43#2 : tensor<3xf32>
      %45 = stablehlo.multiply %43#3, %43#3 : tensor<3xf32>
      %46 = stablehlo.multiply %45, %43#3 : tensor<3xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %47 = func.call @_uniform_7(%40, %cst_18, %cst_19) : (tensor<3x2xui32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
      %48 = stablehlo.multiply %iterArg_13, %iterArg_13 : tensor<3xf32>
      %cst_20 = stablehlo.constant dense<3.310000e-02> : tensor<f32>
      %49 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %50 = stablehlo.multiply %49, %48 : tensor<3xf32>
      %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %51 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %52 = stablehlo.subtract %51, %50 : tensor<3xf32>
      %53 = stablehlo.compare GE, %iterArg_15, %52, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %54 = stablehlo.log %iterArg_15 : tensor<3xf32>
      %cst_22 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %55 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %56 = stablehlo.multiply %iterArg_13, %55 : tensor<3xf32>
      %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %57 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %58 = stablehlo.subtract %57, %iterArg_14 : tensor<3xf32>
      %59 = stablehlo.log %iterArg_14 : tensor<3xf32>
      %60 = stablehlo.add %58, %59 : tensor<3xf32>
      %61 = stablehlo.multiply %iterArg, %60 : tensor<3xf32>
      %62 = stablehlo.add %56, %61 : tensor<3xf32>
      %63 = stablehlo.compare GE, %54, %62, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      %64 = stablehlo.and %53, %63 : tensor<3xi1>
      %65 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<3xi1>) -> tensor<3x2xi1>
      %66 = stablehlo.select %65, %36, %iterArg_12 : tensor<3x2xi1>, tensor<3x2xui32>
      %67 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
      %68 = stablehlo.select %67, %44, %iterArg_13 : tensor<3xi1>, tensor<3xf32>
      %69 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
      %70 = stablehlo.select %69, %46, %iterArg_14 : tensor<3xi1>, tensor<3xf32>
      %71 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<3xi1>) -> tensor<3xi1>
      %72 = stablehlo.select %71, %47, %iterArg_15 : tensor<3xi1>, tensor<3xf32>
      stablehlo.return %iterArg, %iterArg_11, %66, %68, %70, %72 : tensor<3xf32>, tensor<3xf32>, tensor<3x2xui32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = call @_uniform_7(%19, %cst_6, %cst_7) : (tensor<3x2xui32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %26 = stablehlo.subtract %25, %24 : tensor<3xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %28 = stablehlo.divide %27, %1 : tensor<3xf32>
    %29 = stablehlo.power %26, %28 : tensor<3xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %31 = stablehlo.select %6, %30, %29 : tensor<3xi1>, tensor<3xf32>
    %32 = stablehlo.multiply %11, %23#4 : tensor<3xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<3xf32>
    return %33 : tensor<3xf32>
  }
  func.func private @_threefry_split(%arg0: tensor<1x2xui32>) -> tensor<1x3x2xui32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:1] : (tensor<1x2xui32>) -> tensor<1x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1x1xui32>) -> tensor<1xui32>
    %2 = stablehlo.slice %arg0 [0:1, 1:2] : (tensor<1x2xui32>) -> tensor<1x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1x1xui32>) -> tensor<1xui32>
    %4 = stablehlo.iota dim = 0 : tensor<3xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<3xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<3xui64>
    %9 = stablehlo.convert %6 : (tensor<3xui64>) -> tensor<3xui32>
    %10 = stablehlo.convert %8 : (tensor<3xui64>) -> tensor<3xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<1xui32>) -> tensor<1x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xui32>) -> tensor<1x1xui32>
    %15:2 = call @threefry2x32_1(%13, %14, %11, %12) : (tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x3xui32>, tensor<1x3xui32>) -> (tensor<1x3xui32>, tensor<1x3xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<1x3x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<1x3x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<1x3x1xui32>, tensor<1x3x1xui32>) -> tensor<1x3x2xui32>
    return %18 : tensor<1x3x2xui32>
  }
  func.func private @threefry2x32_1(%arg0: tensor<1x1xui32>, %arg1: tensor<1x1xui32>, %arg2: tensor<1x3xui32>, %arg3: tensor<1x3xui32>) -> (tensor<1x3xui32>, tensor<1x3xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<1x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<1x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<1x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x3xui32>
    %4 = stablehlo.add %arg2, %3 : tensor<1x3xui32>
    %5 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x3xui32>
    %6 = stablehlo.add %arg3, %5 : tensor<1x3xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %4, %iterArg_6 = %6, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<1x3xui32>, tensor<1x3xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %9 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %10 = stablehlo.reshape %9 : (tensor<1xui32>) -> tensor<ui32>
      %11 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
      %13 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %14 = stablehlo.reshape %13 : (tensor<1xui32>) -> tensor<ui32>
      %15 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %16 = stablehlo.reshape %15 : (tensor<1xui32>) -> tensor<ui32>
      %17 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<1x3xui32>
      %18 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %19 = stablehlo.shift_left %iterArg_6, %18 : tensor<1x3xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %20 = stablehlo.subtract %c_13, %10 : tensor<ui32>
      %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %22 = stablehlo.shift_right_logical %iterArg_6, %21 : tensor<1x3xui32>
      %23 = stablehlo.or %19, %22 : tensor<1x3xui32>
      %24 = stablehlo.xor %17, %23 : tensor<1x3xui32>
      %25 = stablehlo.add %17, %24 : tensor<1x3xui32>
      %26 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %27 = stablehlo.shift_left %24, %26 : tensor<1x3xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %28 = stablehlo.subtract %c_14, %12 : tensor<ui32>
      %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %30 = stablehlo.shift_right_logical %24, %29 : tensor<1x3xui32>
      %31 = stablehlo.or %27, %30 : tensor<1x3xui32>
      %32 = stablehlo.xor %25, %31 : tensor<1x3xui32>
      %33 = stablehlo.add %25, %32 : tensor<1x3xui32>
      %34 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %35 = stablehlo.shift_left %32, %34 : tensor<1x3xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %36 = stablehlo.subtract %c_15, %14 : tensor<ui32>
      %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %38 = stablehlo.shift_right_logical %32, %37 : tensor<1x3xui32>
      %39 = stablehlo.or %35, %38 : tensor<1x3xui32>
      %40 = stablehlo.xor %33, %39 : tensor<1x3xui32>
      %41 = stablehlo.add %33, %40 : tensor<1x3xui32>
      %42 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %43 = stablehlo.shift_left %40, %42 : tensor<1x3xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %44 = stablehlo.subtract %c_16, %16 : tensor<ui32>
      %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %46 = stablehlo.shift_right_logical %40, %45 : tensor<1x3xui32>
      %47 = stablehlo.or %43, %46 : tensor<1x3xui32>
      %48 = stablehlo.xor %41, %47 : tensor<1x3xui32>
      %49 = stablehlo.broadcast_in_dim %iterArg_7, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x3xui32>
      %50 = stablehlo.add %41, %49 : tensor<1x3xui32>
      %51 = stablehlo.broadcast_in_dim %iterArg_8, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x3xui32>
      %52 = stablehlo.add %48, %51 : tensor<1x3xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %53 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %54 = stablehlo.convert %53 : (tensor<i32>) -> tensor<ui32>
      %55 = stablehlo.broadcast_in_dim %54, dims = [] : (tensor<ui32>) -> tensor<1x3xui32>
      %56 = stablehlo.add %52, %55 : tensor<1x3xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %57 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %57, %8, %50, %56, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<1x3xui32>, tensor<1x3xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %7#2, %7#3 : tensor<1x3xui32>, tensor<1x3xui32>
  }
  func.func private @_threefry_split_2(%arg0: tensor<3x2xui32>) -> tensor<3x2x2xui32> {
    %0 = stablehlo.slice %arg0 [0:3, 0:1] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<3x1xui32>) -> tensor<3xui32>
    %2 = stablehlo.slice %arg0 [0:3, 1:2] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<3x1xui32>) -> tensor<3xui32>
    %4 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<2xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<2xui64>
    %9 = stablehlo.convert %6 : (tensor<2xui64>) -> tensor<2xui32>
    %10 = stablehlo.convert %8 : (tensor<2xui64>) -> tensor<2xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<2xui32>) -> tensor<1x2xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<2xui32>) -> tensor<1x2xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xui32>) -> tensor<3x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<3xui32>) -> tensor<3x1xui32>
    %15:2 = call @threefry2x32_3(%13, %14, %11, %12) : (tensor<3x1xui32>, tensor<3x1xui32>, tensor<1x2xui32>, tensor<1x2xui32>) -> (tensor<3x2xui32>, tensor<3x2xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<3x2xui32>) -> tensor<3x2x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<3x2xui32>) -> tensor<3x2x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<3x2x1xui32>, tensor<3x2x1xui32>) -> tensor<3x2x2xui32>
    return %18 : tensor<3x2x2xui32>
  }
  func.func private @threefry2x32_3(%arg0: tensor<3x1xui32>, %arg1: tensor<3x1xui32>, %arg2: tensor<1x2xui32>, %arg3: tensor<1x2xui32>) -> (tensor<3x2xui32>, tensor<3x2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<3x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<3x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x2xui32>) -> tensor<3x2xui32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x2xui32>
    %5 = stablehlo.add %3, %4 : tensor<3x2xui32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x2xui32>) -> tensor<3x2xui32>
    %7 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x2xui32>
    %8 = stablehlo.add %6, %7 : tensor<3x2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %5, %iterArg_6 = %8, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<3x2xui32>, tensor<3x2xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %10 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %10 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %11 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
      %13 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %14 = stablehlo.reshape %13 : (tensor<1xui32>) -> tensor<ui32>
      %15 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %16 = stablehlo.reshape %15 : (tensor<1xui32>) -> tensor<ui32>
      %17 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %18 = stablehlo.reshape %17 : (tensor<1xui32>) -> tensor<ui32>
      %19 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<3x2xui32>
      %20 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %21 = stablehlo.shift_left %iterArg_6, %20 : tensor<3x2xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %22 = stablehlo.subtract %c_13, %12 : tensor<ui32>
      %23 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %24 = stablehlo.shift_right_logical %iterArg_6, %23 : tensor<3x2xui32>
      %25 = stablehlo.or %21, %24 : tensor<3x2xui32>
      %26 = stablehlo.xor %19, %25 : tensor<3x2xui32>
      %27 = stablehlo.add %19, %26 : tensor<3x2xui32>
      %28 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %29 = stablehlo.shift_left %26, %28 : tensor<3x2xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %30 = stablehlo.subtract %c_14, %14 : tensor<ui32>
      %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %32 = stablehlo.shift_right_logical %26, %31 : tensor<3x2xui32>
      %33 = stablehlo.or %29, %32 : tensor<3x2xui32>
      %34 = stablehlo.xor %27, %33 : tensor<3x2xui32>
      %35 = stablehlo.add %27, %34 : tensor<3x2xui32>
      %36 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %37 = stablehlo.shift_left %34, %36 : tensor<3x2xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %38 = stablehlo.subtract %c_15, %16 : tensor<ui32>
      %39 = stablehlo.broadcast_in_dim %38, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %40 = stablehlo.shift_right_logical %34, %39 : tensor<3x2xui32>
      %41 = stablehlo.or %37, %40 : tensor<3x2xui32>
      %42 = stablehlo.xor %35, %41 : tensor<3x2xui32>
      %43 = stablehlo.add %35, %42 : tensor<3x2xui32>
      %44 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %45 = stablehlo.shift_left %42, %44 : tensor<3x2xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %46 = stablehlo.subtract %c_16, %18 : tensor<ui32>
      %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %48 = stablehlo.shift_right_logical %42, %47 : tensor<3x2xui32>
      %49 = stablehlo.or %45, %48 : tensor<3x2xui32>
      %50 = stablehlo.xor %43, %49 : tensor<3x2xui32>
      %51 = stablehlo.broadcast_in_dim %iterArg_7, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x2xui32>
      %52 = stablehlo.add %43, %51 : tensor<3x2xui32>
      %53 = stablehlo.broadcast_in_dim %iterArg_8, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x2xui32>
      %54 = stablehlo.add %50, %53 : tensor<3x2xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %55 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %56 = stablehlo.convert %55 : (tensor<i32>) -> tensor<ui32>
      %57 = stablehlo.broadcast_in_dim %56, dims = [] : (tensor<ui32>) -> tensor<3x2xui32>
      %58 = stablehlo.add %54, %57 : tensor<3x2xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %59 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %59, %10, %52, %58, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<3x2xui32>, tensor<3x2xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %9#2, %9#3 : tensor<3x2xui32>, tensor<3x2xui32>
  }
  func.func private @_threefry_split_4(%arg0: tensor<3x2xui32>) -> tensor<3x3x2xui32> {
    %0 = stablehlo.slice %arg0 [0:3, 0:1] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<3x1xui32>) -> tensor<3xui32>
    %2 = stablehlo.slice %arg0 [0:3, 1:2] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<3x1xui32>) -> tensor<3xui32>
    %4 = stablehlo.iota dim = 0 : tensor<3xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<3xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<3xui64>
    %9 = stablehlo.convert %6 : (tensor<3xui64>) -> tensor<3xui32>
    %10 = stablehlo.convert %8 : (tensor<3xui64>) -> tensor<3xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xui32>) -> tensor<3x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<3xui32>) -> tensor<3x1xui32>
    %15:2 = call @threefry2x32_5(%13, %14, %11, %12) : (tensor<3x1xui32>, tensor<3x1xui32>, tensor<1x3xui32>, tensor<1x3xui32>) -> (tensor<3x3xui32>, tensor<3x3xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<3x3xui32>) -> tensor<3x3x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<3x3xui32>) -> tensor<3x3x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<3x3x1xui32>, tensor<3x3x1xui32>) -> tensor<3x3x2xui32>
    return %18 : tensor<3x3x2xui32>
  }
  func.func private @threefry2x32_5(%arg0: tensor<3x1xui32>, %arg1: tensor<3x1xui32>, %arg2: tensor<1x3xui32>, %arg3: tensor<1x3xui32>) -> (tensor<3x3xui32>, tensor<3x3xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<3x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<3x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<3x3xui32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x3xui32>
    %5 = stablehlo.add %3, %4 : tensor<3x3xui32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<3x3xui32>
    %7 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x3xui32>
    %8 = stablehlo.add %6, %7 : tensor<3x3xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %5, %iterArg_6 = %8, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<3x3xui32>, tensor<3x3xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %10 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %10 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %11 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
      %13 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %14 = stablehlo.reshape %13 : (tensor<1xui32>) -> tensor<ui32>
      %15 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %16 = stablehlo.reshape %15 : (tensor<1xui32>) -> tensor<ui32>
      %17 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %18 = stablehlo.reshape %17 : (tensor<1xui32>) -> tensor<ui32>
      %19 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<3x3xui32>
      %20 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %21 = stablehlo.shift_left %iterArg_6, %20 : tensor<3x3xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %22 = stablehlo.subtract %c_13, %12 : tensor<ui32>
      %23 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %24 = stablehlo.shift_right_logical %iterArg_6, %23 : tensor<3x3xui32>
      %25 = stablehlo.or %21, %24 : tensor<3x3xui32>
      %26 = stablehlo.xor %19, %25 : tensor<3x3xui32>
      %27 = stablehlo.add %19, %26 : tensor<3x3xui32>
      %28 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %29 = stablehlo.shift_left %26, %28 : tensor<3x3xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %30 = stablehlo.subtract %c_14, %14 : tensor<ui32>
      %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %32 = stablehlo.shift_right_logical %26, %31 : tensor<3x3xui32>
      %33 = stablehlo.or %29, %32 : tensor<3x3xui32>
      %34 = stablehlo.xor %27, %33 : tensor<3x3xui32>
      %35 = stablehlo.add %27, %34 : tensor<3x3xui32>
      %36 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %37 = stablehlo.shift_left %34, %36 : tensor<3x3xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %38 = stablehlo.subtract %c_15, %16 : tensor<ui32>
      %39 = stablehlo.broadcast_in_dim %38, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %40 = stablehlo.shift_right_logical %34, %39 : tensor<3x3xui32>
      %41 = stablehlo.or %37, %40 : tensor<3x3xui32>
      %42 = stablehlo.xor %35, %41 : tensor<3x3xui32>
      %43 = stablehlo.add %35, %42 : tensor<3x3xui32>
      %44 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %45 = stablehlo.shift_left %42, %44 : tensor<3x3xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %46 = stablehlo.subtract %c_16, %18 : tensor<ui32>
      %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %48 = stablehlo.shift_right_logical %42, %47 : tensor<3x3xui32>
      %49 = stablehlo.or %45, %48 : tensor<3x3xui32>
      %50 = stablehlo.xor %43, %49 : tensor<3x3xui32>
      %51 = stablehlo.broadcast_in_dim %iterArg_7, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x3xui32>
      %52 = stablehlo.add %43, %51 : tensor<3x3xui32>
      %53 = stablehlo.broadcast_in_dim %iterArg_8, dims = [0, 1] : (tensor<3x1xui32>) -> tensor<3x3xui32>
      %54 = stablehlo.add %50, %53 : tensor<3x3xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %55 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %56 = stablehlo.convert %55 : (tensor<i32>) -> tensor<ui32>
      %57 = stablehlo.broadcast_in_dim %56, dims = [] : (tensor<ui32>) -> tensor<3x3xui32>
      %58 = stablehlo.add %54, %57 : tensor<3x3xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %59 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %59, %10, %52, %58, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<3x3xui32>, tensor<3x3xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<3x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %9#2, %9#3 : tensor<3x3xui32>, tensor<3x3xui32>
  }
  func.func private @_normal(%arg0: tensor<3x2xui32>) -> tensor<3xf32> {
    %0 = call @_normal_real(%arg0) : (tensor<3x2xui32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func private @_normal_real(%arg0: tensor<3x2xui32>) -> tensor<3xf32> {
    %cst = stablehlo.constant dense<-0.99999994> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<3x2xui32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
    %1 = chlo.erf_inv %0 : tensor<3xf32> -> tensor<3xf32>
    %cst_1 = stablehlo.constant dense<1.41421354> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.multiply %2, %1 : tensor<3xf32>
    return %3 : tensor<3xf32>
  }
  func.func private @_uniform(%arg0: tensor<3x2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.slice %arg0 [0:3, 0:1] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<3x1xui32>) -> tensor<3xui32>
    %2 = stablehlo.slice %arg0 [0:3, 1:2] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<3x1xui32>) -> tensor<3xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %4:2 = call @threefry2x32_6(%1, %3, %c, %c_0) : (tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>) -> (tensor<3xui32>, tensor<3xui32>)
    %5 = stablehlo.xor %4#0, %4#1 : tensor<3xui32>
    %c_1 = stablehlo.constant dense<9> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %7 = stablehlo.shift_right_logical %5, %6 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %9 = stablehlo.or %7, %8 : tensor<3xui32>
    %10 = stablehlo.bitcast_convert %9 : (tensor<3xui32>) -> tensor<3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %12 = stablehlo.subtract %10, %11 : tensor<3xf32>
    %13 = stablehlo.subtract %arg2, %arg1 : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %15 = stablehlo.multiply %12, %14 : tensor<3xf32>
    %16 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %17 = stablehlo.add %15, %16 : tensor<3xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %19 = stablehlo.maximum %18, %17 : tensor<3xf32>
    return %19 : tensor<3xf32>
  }
  func.func private @threefry2x32_6(%arg0: tensor<3xui32>, %arg1: tensor<3xui32>, %arg2: tensor<ui32>, %arg3: tensor<ui32>) -> (tensor<3xui32>, tensor<3xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<3xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %2 = stablehlo.xor %0, %1 : tensor<3xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %4 = stablehlo.add %3, %arg0 : tensor<3xui32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %6 = stablehlo.add %5, %arg1 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %4, %iterArg_6 = %6, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %9 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %10 = stablehlo.reshape %9 : (tensor<1xui32>) -> tensor<ui32>
      %11 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
      %13 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %14 = stablehlo.reshape %13 : (tensor<1xui32>) -> tensor<ui32>
      %15 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %16 = stablehlo.reshape %15 : (tensor<1xui32>) -> tensor<ui32>
      %17 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<3xui32>
      %18 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %19 = stablehlo.shift_left %iterArg_6, %18 : tensor<3xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %20 = stablehlo.subtract %c_13, %10 : tensor<ui32>
      %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %22 = stablehlo.shift_right_logical %iterArg_6, %21 : tensor<3xui32>
      %23 = stablehlo.or %19, %22 : tensor<3xui32>
      %24 = stablehlo.xor %17, %23 : tensor<3xui32>
      %25 = stablehlo.add %17, %24 : tensor<3xui32>
      %26 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %27 = stablehlo.shift_left %24, %26 : tensor<3xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %28 = stablehlo.subtract %c_14, %12 : tensor<ui32>
      %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %30 = stablehlo.shift_right_logical %24, %29 : tensor<3xui32>
      %31 = stablehlo.or %27, %30 : tensor<3xui32>
      %32 = stablehlo.xor %25, %31 : tensor<3xui32>
      %33 = stablehlo.add %25, %32 : tensor<3xui32>
      %34 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %35 = stablehlo.shift_left %32, %34 : tensor<3xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %36 = stablehlo.subtract %c_15, %14 : tensor<ui32>
      %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %38 = stablehlo.shift_right_logical %32, %37 : tensor<3xui32>
      %39 = stablehlo.or %35, %38 : tensor<3xui32>
      %40 = stablehlo.xor %33, %39 : tensor<3xui32>
      %41 = stablehlo.add %33, %40 : tensor<3xui32>
      %42 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %43 = stablehlo.shift_left %40, %42 : tensor<3xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %44 = stablehlo.subtract %c_16, %16 : tensor<ui32>
      %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %46 = stablehlo.shift_right_logical %40, %45 : tensor<3xui32>
      %47 = stablehlo.or %43, %46 : tensor<3xui32>
      %48 = stablehlo.xor %41, %47 : tensor<3xui32>
      %49 = stablehlo.add %41, %iterArg_7 : tensor<3xui32>
      %50 = stablehlo.add %48, %iterArg_8 : tensor<3xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %51 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %52 = stablehlo.convert %51 : (tensor<i32>) -> tensor<ui32>
      %53 = stablehlo.broadcast_in_dim %52, dims = [] : (tensor<ui32>) -> tensor<3xui32>
      %54 = stablehlo.add %50, %53 : tensor<3xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %55 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %55, %8, %49, %54, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %7#2, %7#3 : tensor<3xui32>, tensor<3xui32>
  }
  func.func private @_uniform_7(%arg0: tensor<3x2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.slice %arg0 [0:3, 0:1] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<3x1xui32>) -> tensor<3xui32>
    %4 = stablehlo.slice %arg0 [0:3, 1:2] : (tensor<3x2xui32>) -> tensor<3x1xui32>
    %5 = stablehlo.reshape %4 : (tensor<3x1xui32>) -> tensor<3xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %6:2 = call @threefry2x32_6(%3, %5, %c, %c_0) : (tensor<3xui32>, tensor<3xui32>, tensor<ui32>, tensor<ui32>) -> (tensor<3xui32>, tensor<3xui32>)
    %7 = stablehlo.xor %6#0, %6#1 : tensor<3xui32>
    %c_1 = stablehlo.constant dense<9> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %9 = stablehlo.shift_right_logical %7, %8 : tensor<3xui32>
    %c_2 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<3xui32>
    %11 = stablehlo.or %9, %10 : tensor<3xui32>
    %12 = stablehlo.bitcast_convert %11 : (tensor<3xui32>) -> tensor<3xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %14 = stablehlo.subtract %12, %13 : tensor<3xf32>
    %15 = stablehlo.subtract %1, %0 : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %17 = stablehlo.multiply %14, %16 : tensor<3xf32>
    %18 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %19 = stablehlo.add %17, %18 : tensor<3xf32>
    %20 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %21 = stablehlo.maximum %20, %19 : tensor<3xf32>
    return %21 : tensor<3xf32>
  }
}

module @jit_decode_step_kv_cache attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<50x64xf32>, %arg1: tensor<3x64xf32>, %arg2: tensor<3x64x256xf32>, %arg3: tensor<3x256x64xf32>, %arg4: tensor<3x64x64xf32>, %arg5: tensor<64x50xf32>, %arg6: tensor<3x64x192xf32>, %arg7: tensor<3x40x4x16xf32>, %arg8: tensor<3x40x4x16xf32>, %arg9: tensor<i32>, %arg10: tensor<i32>) -> (tensor<50xf32> {jax.result_info = "result[0]"}, tensor<3x40x4x16xf32> {jax.result_info = "result[1]"}, tensor<3x40x4x16xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg9, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<50> : tensor<i32>
    %1 = stablehlo.add %arg9, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg9 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<64> : tensor<i32>
    %4 = stablehlo.add %c_3, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_5 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [1, 64] : (tensor<50x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x64xf32>) -> tensor<64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x40x4x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x40x4x16xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %10:12 = stablehlo.while(%iterArg = %arg6, %iterArg_8 = %arg4, %iterArg_9 = %arg2, %iterArg_10 = %arg3, %iterArg_11 = %arg1, %iterArg_12 = %arg7, %iterArg_13 = %arg8, %iterArg_14 = %arg10, %iterArg_15 = %c_7, %iterArg_16 = %7, %iterArg_17 = %8, %iterArg_18 = %9) : tensor<3x64x192xf32>, tensor<3x64x64xf32>, tensor<3x64x256xf32>, tensor<3x256x64xf32>, tensor<3x64xf32>, tensor<3x40x4x16xf32>, tensor<3x40x4x16xf32>, tensor<i32>, tensor<i32>, tensor<64xf32>, tensor<3x40x4x16xf32>, tensor<3x40x4x16xf32>
    cond {
      %c_19 = stablehlo.constant dense<3> : tensor<i32>
      %12 = stablehlo.compare LT, %iterArg_15, %c_19, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    } do {
      %12 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_15) : (tensor<3x64x192xf32>, tensor<i32>) -> tensor<64x192xf32>
      %13 = func.call @dynamic_index_in_dim_0(%iterArg_8, %iterArg_15) : (tensor<3x64x64xf32>, tensor<i32>) -> tensor<64x64xf32>
      %14 = func.call @dynamic_index_in_dim_1(%iterArg_9, %iterArg_15) : (tensor<3x64x256xf32>, tensor<i32>) -> tensor<64x256xf32>
      %15 = func.call @dynamic_index_in_dim_2(%iterArg_10, %iterArg_15) : (tensor<3x256x64xf32>, tensor<i32>) -> tensor<256x64xf32>
      %16 = func.call @dynamic_index_in_dim_3(%iterArg_11, %iterArg_15) : (tensor<3x64xf32>, tensor<i32>) -> tensor<64xf32>
      %17 = func.call @dynamic_index_in_dim_4(%iterArg_12, %iterArg_15) : (tensor<3x40x4x16xf32>, tensor<i32>) -> tensor<40x4x16xf32>
      %18 = func.call @dynamic_index_in_dim_4(%iterArg_13, %iterArg_15) : (tensor<3x40x4x16xf32>, tensor<i32>) -> tensor<40x4x16xf32>
      %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %19 = stablehlo.reduce(%iterArg_16 init: %cst_19) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_20 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
      %21 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %22 = stablehlo.divide %20, %21 : tensor<1xf32>
      %23 = stablehlo.broadcast_in_dim %22, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %24 = stablehlo.subtract %iterArg_16, %23 : tensor<64xf32>
      %25 = stablehlo.broadcast_in_dim %22, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %26 = stablehlo.subtract %iterArg_16, %25 : tensor<64xf32>
      %27 = stablehlo.multiply %26, %26 : tensor<64xf32>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %28 = stablehlo.reduce(%27 init: %cst_21) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
      %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_22 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
      %30 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %31 = stablehlo.divide %29, %30 : tensor<1xf32>
      %cst_23 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %32 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %33 = stablehlo.add %31, %32 : tensor<1xf32>
      %34 = stablehlo.rsqrt %33 : tensor<1xf32>
      %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %36 = stablehlo.multiply %24, %35 : tensor<64xf32>
      %37 = stablehlo.multiply %36, %16 : tensor<64xf32>
      %38 = stablehlo.dot_general %37, %12, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64xf32>, tensor<64x192xf32>) -> tensor<192xf32>
      %39 = stablehlo.slice %38 [0:64] : (tensor<192xf32>) -> tensor<64xf32>
      %40 = stablehlo.slice %38 [64:128] : (tensor<192xf32>) -> tensor<64xf32>
      %41 = stablehlo.slice %38 [128:192] : (tensor<192xf32>) -> tensor<64xf32>
      %42 = stablehlo.reshape %40 : (tensor<64xf32>) -> tensor<1x4x16xf32>
      %c_24 = stablehlo.constant dense<0> : tensor<i32>
      %43 = stablehlo.compare LT, %iterArg_14, %c_24, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_25 = stablehlo.constant dense<40> : tensor<i32>
      %44 = stablehlo.add %iterArg_14, %c_25 : tensor<i32>
      %45 = stablehlo.select %43, %44, %iterArg_14 : tensor<i1>, tensor<i32>
      %c_26 = stablehlo.constant dense<0> : tensor<i32>
      %c_27 = stablehlo.constant dense<0> : tensor<i32>
      %46 = stablehlo.dynamic_update_slice %17, %42, %45, %c_26, %c_27 : (tensor<40x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<40x4x16xf32>
      %47 = stablehlo.reshape %41 : (tensor<64xf32>) -> tensor<1x4x16xf32>
      %c_28 = stablehlo.constant dense<0> : tensor<i32>
      %48 = stablehlo.compare LT, %iterArg_14, %c_28, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_29 = stablehlo.constant dense<40> : tensor<i32>
      %49 = stablehlo.add %iterArg_14, %c_29 : tensor<i32>
      %50 = stablehlo.select %48, %49, %iterArg_14 : tensor<i1>, tensor<i32>
      %c_30 = stablehlo.constant dense<0> : tensor<i32>
      %c_31 = stablehlo.constant dense<0> : tensor<i32>
      %51 = stablehlo.dynamic_update_slice %18, %47, %50, %c_30, %c_31 : (tensor<40x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<40x4x16xf32>
      %52 = stablehlo.reshape %39 : (tensor<64xf32>) -> tensor<4x16xf32>
      %53 = stablehlo.dot_general %52, %46, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<40x4x16xf32>) -> tensor<4x40xf32>
      %cst_32 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %54 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x40xf32>
      %55 = stablehlo.divide %53, %54 : tensor<4x40xf32>
      %56 = stablehlo.iota dim = 0 : tensor<40xi32>
      %57 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<40xi32>) -> tensor<1x40xi32>
      %58 = stablehlo.broadcast_in_dim %iterArg_14, dims = [] : (tensor<i32>) -> tensor<1x40xi32>
      %59 = stablehlo.compare LE, %57, %58, SIGNED : (tensor<1x40xi32>, tensor<1x40xi32>) -> tensor<1x40xi1>
      %cst_33 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
      %60 = func.call @_where(%59, %55, %cst_33) : (tensor<1x40xi1>, tensor<4x40xf32>, tensor<f32>) -> tensor<4x40xf32>
      %cst_34 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %61 = stablehlo.reduce(%60 init: %cst_34) applies stablehlo.maximum across dimensions = [1] : (tensor<4x40xf32>, tensor<f32>) -> tensor<4xf32>
      %cst_35 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %62 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %63 = stablehlo.maximum %62, %61 : tensor<4xf32>
      %64 = stablehlo.broadcast_in_dim %63, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
      %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x40xf32>
      %66 = stablehlo.subtract %60, %65 : tensor<4x40xf32>
      %67 = stablehlo.exponential %66 : tensor<4x40xf32>
      %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %68 = stablehlo.reduce(%67 init: %cst_36) applies stablehlo.add across dimensions = [1] : (tensor<4x40xf32>, tensor<f32>) -> tensor<4xf32>
      %69 = stablehlo.broadcast_in_dim %68, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
      %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x40xf32>
      %71 = stablehlo.divide %67, %70 : tensor<4x40xf32>
      %72 = stablehlo.dot_general %71, %51, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x40xf32>, tensor<40x4x16xf32>) -> tensor<4x16xf32>
      %73 = stablehlo.reshape %72 : (tensor<4x16xf32>) -> tensor<64xf32>
      %74 = stablehlo.dot_general %73, %13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64xf32>, tensor<64x64xf32>) -> tensor<64xf32>
      %75 = stablehlo.add %iterArg_16, %74 : tensor<64xf32>
      %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %76 = stablehlo.reduce(%75 init: %cst_37) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
      %77 = stablehlo.broadcast_in_dim %76, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_38 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
      %78 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %79 = stablehlo.divide %77, %78 : tensor<1xf32>
      %80 = stablehlo.broadcast_in_dim %79, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %81 = stablehlo.subtract %75, %80 : tensor<64xf32>
      %82 = stablehlo.broadcast_in_dim %79, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %83 = stablehlo.subtract %75, %82 : tensor<64xf32>
      %84 = stablehlo.multiply %83, %83 : tensor<64xf32>
      %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %85 = stablehlo.reduce(%84 init: %cst_39) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
      %86 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_40 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
      %87 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %88 = stablehlo.divide %86, %87 : tensor<1xf32>
      %cst_41 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %89 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %90 = stablehlo.add %88, %89 : tensor<1xf32>
      %91 = stablehlo.rsqrt %90 : tensor<1xf32>
      %92 = stablehlo.broadcast_in_dim %91, dims = [0] : (tensor<1xf32>) -> tensor<64xf32>
      %93 = stablehlo.multiply %81, %92 : tensor<64xf32>
      %94 = stablehlo.multiply %93, %16 : tensor<64xf32>
      %95 = stablehlo.dot_general %94, %14, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64xf32>, tensor<64x256xf32>) -> tensor<256xf32>
      %96 = stablehlo.multiply %95, %95 : tensor<256xf32>
      %97 = stablehlo.multiply %96, %95 : tensor<256xf32>
      %cst_42 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %98 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<256xf32>
      %99 = stablehlo.multiply %98, %97 : tensor<256xf32>
      %100 = stablehlo.add %95, %99 : tensor<256xf32>
      %cst_43 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %101 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<256xf32>
      %102 = stablehlo.multiply %101, %100 : tensor<256xf32>
      %103 = stablehlo.tanh %102 : tensor<256xf32>
      %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %104 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<256xf32>
      %105 = stablehlo.add %104, %103 : tensor<256xf32>
      %cst_45 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %106 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<256xf32>
      %107 = stablehlo.multiply %106, %105 : tensor<256xf32>
      %108 = stablehlo.multiply %95, %107 : tensor<256xf32>
      %109 = stablehlo.dot_general %108, %15, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256xf32>, tensor<256x64xf32>) -> tensor<64xf32>
      %110 = stablehlo.add %75, %109 : tensor<64xf32>
      %111 = func.call @dynamic_update_index_in_dim(%iterArg_17, %46, %iterArg_15) : (tensor<3x40x4x16xf32>, tensor<40x4x16xf32>, tensor<i32>) -> tensor<3x40x4x16xf32>
      %112 = func.call @dynamic_update_index_in_dim(%iterArg_18, %51, %iterArg_15) : (tensor<3x40x4x16xf32>, tensor<40x4x16xf32>, tensor<i32>) -> tensor<3x40x4x16xf32>
      %c_46 = stablehlo.constant dense<1> : tensor<i32>
      %113 = stablehlo.add %iterArg_15, %c_46 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %113, %110, %111, %112 : tensor<3x64x192xf32>, tensor<3x64x64xf32>, tensor<3x64x256xf32>, tensor<3x256x64xf32>, tensor<3x64xf32>, tensor<3x40x4x16xf32>, tensor<3x40x4x16xf32>, tensor<i32>, tensor<i32>, tensor<64xf32>, tensor<3x40x4x16xf32>, tensor<3x40x4x16xf32>
    }
    %11 = stablehlo.dot_general %10#9, %arg5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64xf32>, tensor<64x50xf32>) -> tensor<50xf32>
    return %11, %10#10, %10#11 : tensor<50xf32>, tensor<3x40x4x16xf32>, tensor<3x40x4x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3x64x192xf32>, %arg1: tensor<i32>) -> tensor<64x192xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 192] : (tensor<3x64x192xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x192xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x192xf32>) -> tensor<64x192xf32>
    return %1 : tensor<64x192xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<3x64x64xf32>, %arg1: tensor<i32>) -> tensor<64x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 64] : (tensor<3x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    return %1 : tensor<64x64xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<3x64x256xf32>, %arg1: tensor<i32>) -> tensor<64x256xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 64, 256] : (tensor<3x64x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x256xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64x256xf32>) -> tensor<64x256xf32>
    return %1 : tensor<64x256xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<3x256x64xf32>, %arg1: tensor<i32>) -> tensor<256x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 256, 64] : (tensor<3x256x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x256x64xf32>) -> tensor<256x64xf32>
    return %1 : tensor<256x64xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<3x64xf32>, %arg1: tensor<i32>) -> tensor<64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 64] : (tensor<3x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x64xf32>) -> tensor<64xf32>
    return %1 : tensor<64xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<3x40x4x16xf32>, %arg1: tensor<i32>) -> tensor<40x4x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 40, 4, 16] : (tensor<3x40x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x40x4x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x40x4x16xf32>) -> tensor<40x4x16xf32>
    return %1 : tensor<40x4x16xf32>
  }
  func.func private @_where(%arg0: tensor<1x40xi1>, %arg1: tensor<4x40xf32>, %arg2: tensor<f32>) -> tensor<4x40xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x40xi1>) -> tensor<4x40xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x40xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x40xi1>, tensor<4x40xf32>
    return %3 : tensor<4x40xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<3x40x4x16xf32>, %arg1: tensor<40x4x16xf32>, %arg2: tensor<i32>) -> tensor<3x40x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<40x4x16xf32>) -> tensor<1x40x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<3x40x4x16xf32>, tensor<1x40x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x40x4x16xf32>
    return %1 : tensor<3x40x4x16xf32>
  }
}

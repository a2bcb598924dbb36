module @jit_gpt_decode attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8192x768xf32>, %arg1: tensor<12x768xf32>, %arg2: tensor<12x768xf32>, %arg3: tensor<12x768x3072xf32>, %arg4: tensor<12x3072x768xf32>, %arg5: tensor<12x768x768xf32>, %arg6: tensor<768x8192xf32>, %arg7: tensor<12x768x2304xf32>, %arg8: tensor<12x1024x12x64xf32>, %arg9: tensor<12x1024x12x64xf32>, %arg10: tensor<i32>, %arg11: tensor<i32>) -> (tensor<8192xf32> {jax.result_info = "result[0]"}, tensor<12x1024x12x64xf32> {jax.result_info = "result[1]"}, tensor<12x1024x12x64xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg10, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<8192> : tensor<i32>
    %1 = stablehlo.add %arg10, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg10 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<768> : tensor<i32>
    %4 = stablehlo.add %c_3, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_5 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [1, 768] : (tensor<8192x768xf32>, tensor<i32>, tensor<i32>) -> tensor<1x768xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x768xf32>) -> tensor<768xf32>
    %8 = stablehlo.iota dim = 0 : tensor<1024xi32>
    %9 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<i32>) -> tensor<1024xi32>
    %10 = stablehlo.compare LE, %8, %9, SIGNED : (tensor<1024xi32>, tensor<1024xi32>) -> tensor<1024xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x1024x12x64xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<12x1024x12x64xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %13:14 = stablehlo.while(%iterArg = %arg7, %iterArg_8 = %arg5, %iterArg_9 = %arg3, %iterArg_10 = %arg4, %iterArg_11 = %arg1, %iterArg_12 = %arg2, %iterArg_13 = %arg8, %iterArg_14 = %arg9, %iterArg_15 = %arg11, %iterArg_16 = %10, %iterArg_17 = %c_7, %iterArg_18 = %7, %iterArg_19 = %11, %iterArg_20 = %12) : tensor<12x768x2304xf32>, tensor<12x768x768xf32>, tensor<12x768x3072xf32>, tensor<12x3072x768xf32>, tensor<12x768xf32>, tensor<12x768xf32>, tensor<12x1024x12x64xf32>, tensor<12x1024x12x64xf32>, tensor<i32>, tensor<1024xi1>, tensor<i32>, tensor<768xf32>, tensor<12x1024x12x64xf32>, tensor<12x1024x12x64xf32>
    cond {
      %c_21 = stablehlo.constant dense<12> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg_17, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %15 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_17) : (tensor<12x768x2304xf32>, tensor<i32>) -> tensor<768x2304xf32>
      %16 = func.call @dynamic_index_in_dim_0(%iterArg_8, %iterArg_17) : (tensor<12x768x768xf32>, tensor<i32>) -> tensor<768x768xf32>
      %17 = func.call @dynamic_index_in_dim_1(%iterArg_9, %iterArg_17) : (tensor<12x768x3072xf32>, tensor<i32>) -> tensor<768x3072xf32>
      %18 = func.call @dynamic_index_in_dim_2(%iterArg_10, %iterArg_17) : (tensor<12x3072x768xf32>, tensor<i32>) -> tensor<3072x768xf32>
      %19 = func.call @dynamic_index_in_dim_3(%iterArg_11, %iterArg_17) : (tensor<12x768xf32>, tensor<i32>) -> tensor<768xf32>
      %20 = func.call @dynamic_index_in_dim_3(%iterArg_12, %iterArg_17) : (tensor<12x768xf32>, tensor<i32>) -> tensor<768xf32>
      %21 = func.call @dynamic_index_in_dim_4(%iterArg_13, %iterArg_17) : (tensor<12x1024x12x64xf32>, tensor<i32>) -> tensor<1024x12x64xf32>
      %22 = func.call @dynamic_index_in_dim_4(%iterArg_14, %iterArg_17) : (tensor<12x1024x12x64xf32>, tensor<i32>) -> tensor<1024x12x64xf32>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %23 = stablehlo.reduce(%iterArg_18 init: %cst_21) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %24 = stablehlo.broadcast_in_dim %23, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_22 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %25 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %26 = stablehlo.divide %24, %25 : tensor<1xf32>
      %27 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %28 = stablehlo.subtract %iterArg_18, %27 : tensor<768xf32>
      %29 = stablehlo.multiply %28, %28 : tensor<768xf32>
      %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %30 = stablehlo.reduce(%29 init: %cst_23) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_24 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %32 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %33 = stablehlo.divide %31, %32 : tensor<1xf32>
      %34 = stablehlo.broadcast_in_dim %26, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %35 = stablehlo.subtract %iterArg_18, %34 : tensor<768xf32>
      %cst_25 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %37 = stablehlo.add %33, %36 : tensor<1xf32>
      %38 = stablehlo.rsqrt %37 : tensor<1xf32>
      %39 = stablehlo.broadcast_in_dim %38, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %40 = stablehlo.multiply %35, %39 : tensor<768xf32>
      %41 = stablehlo.multiply %40, %19 : tensor<768xf32>
      %42 = stablehlo.dot_general %41, %15, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xf32>, tensor<768x2304xf32>) -> tensor<2304xf32>
      %43 = stablehlo.slice %42 [0:768] : (tensor<2304xf32>) -> tensor<768xf32>
      %44 = stablehlo.slice %42 [768:1536] : (tensor<2304xf32>) -> tensor<768xf32>
      %45 = stablehlo.slice %42 [1536:2304] : (tensor<2304xf32>) -> tensor<768xf32>
      %46 = stablehlo.reshape %43 : (tensor<768xf32>) -> tensor<12x64xf32>
      %47 = stablehlo.reshape %44 : (tensor<768xf32>) -> tensor<1x12x64xf32>
      %c_26 = stablehlo.constant dense<0> : tensor<i32>
      %48 = stablehlo.compare LT, %iterArg_15, %c_26, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_27 = stablehlo.constant dense<1024> : tensor<i32>
      %49 = stablehlo.add %iterArg_15, %c_27 : tensor<i32>
      %50 = stablehlo.select %48, %49, %iterArg_15 : tensor<i1>, tensor<i32>
      %c_28 = stablehlo.constant dense<0> : tensor<i32>
      %c_29 = stablehlo.constant dense<0> : tensor<i32>
      %51 = stablehlo.dynamic_update_slice %21, %47, %50, %c_28, %c_29 : (tensor<1024x12x64xf32>, tensor<1x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1024x12x64xf32>
      %52 = stablehlo.reshape %45 : (tensor<768xf32>) -> tensor<1x12x64xf32>
      %c_30 = stablehlo.constant dense<0> : tensor<i32>
      %53 = stablehlo.compare LT, %iterArg_15, %c_30, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_31 = stablehlo.constant dense<1024> : tensor<i32>
      %54 = stablehlo.add %iterArg_15, %c_31 : tensor<i32>
      %55 = stablehlo.select %53, %54, %iterArg_15 : tensor<i1>, tensor<i32>
      %c_32 = stablehlo.constant dense<0> : tensor<i32>
      %c_33 = stablehlo.constant dense<0> : tensor<i32>
      %56 = stablehlo.dynamic_update_slice %22, %52, %55, %c_32, %c_33 : (tensor<1024x12x64xf32>, tensor<1x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1024x12x64xf32>
      %57 = stablehlo.dot_general %46, %51, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x64xf32>, tensor<1024x12x64xf32>) -> tensor<12x1024xf32>
      %cst_34 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
      %58 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<12x1024xf32>
      %59 = stablehlo.divide %57, %58 : tensor<12x1024xf32>
      %60 = stablehlo.broadcast_in_dim %iterArg_16, dims = [1] : (tensor<1024xi1>) -> tensor<1x1024xi1>
      %cst_35 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
      %61 = func.call @_where(%60, %59, %cst_35) : (tensor<1x1024xi1>, tensor<12x1024xf32>, tensor<f32>) -> tensor<12x1024xf32>
      %cst_36 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %62 = stablehlo.reduce(%61 init: %cst_36) applies stablehlo.maximum across dimensions = [1] : (tensor<12x1024xf32>, tensor<f32>) -> tensor<12xf32>
      %cst_37 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %63 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %64 = stablehlo.maximum %63, %62 : tensor<12xf32>
      %65 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
      %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x1024xf32>
      %67 = stablehlo.subtract %61, %66 : tensor<12x1024xf32>
      %68 = stablehlo.exponential %67 : tensor<12x1024xf32>
      %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %69 = stablehlo.reduce(%68 init: %cst_38) applies stablehlo.add across dimensions = [1] : (tensor<12x1024xf32>, tensor<f32>) -> tensor<12xf32>
      %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
      %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x1024xf32>
      %72 = stablehlo.divide %68, %71 : tensor<12x1024xf32>
      %73 = stablehlo.dot_general %72, %56, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x1024xf32>, tensor<1024x12x64xf32>) -> tensor<12x64xf32>
      %74 = stablehlo.reshape %73 : (tensor<12x64xf32>) -> tensor<768xf32>
      %75 = stablehlo.dot_general %74, %16, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xf32>, tensor<768x768xf32>) -> tensor<768xf32>
      %76 = stablehlo.add %iterArg_18, %75 : tensor<768xf32>
      %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %77 = stablehlo.reduce(%76 init: %cst_39) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %78 = stablehlo.broadcast_in_dim %77, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_40 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %79 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %80 = stablehlo.divide %78, %79 : tensor<1xf32>
      %81 = stablehlo.broadcast_in_dim %80, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %82 = stablehlo.subtract %76, %81 : tensor<768xf32>
      %83 = stablehlo.multiply %82, %82 : tensor<768xf32>
      %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %84 = stablehlo.reduce(%83 init: %cst_41) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %85 = stablehlo.broadcast_in_dim %84, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_42 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %86 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %87 = stablehlo.divide %85, %86 : tensor<1xf32>
      %88 = stablehlo.broadcast_in_dim %80, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %89 = stablehlo.subtract %76, %88 : tensor<768xf32>
      %cst_43 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %90 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %91 = stablehlo.add %87, %90 : tensor<1xf32>
      %92 = stablehlo.rsqrt %91 : tensor<1xf32>
      %93 = stablehlo.broadcast_in_dim %92, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %94 = stablehlo.multiply %89, %93 : tensor<768xf32>
      %95 = stablehlo.multiply %94, %20 : tensor<768xf32>
      %96 = stablehlo.dot_general %95, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xf32>, tensor<768x3072xf32>) -> tensor<3072xf32>
      %97 = stablehlo.multiply %96, %96 : tensor<3072xf32>
      %98 = stablehlo.multiply %97, %96 : tensor<3072xf32>
      %cst_44 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %99 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %100 = stablehlo.multiply %99, %98 : tensor<3072xf32>
      %101 = stablehlo.add %96, %100 : tensor<3072xf32>
      %cst_45 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %102 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %103 = stablehlo.multiply %102, %101 : tensor<3072xf32>
      %104 = stablehlo.tanh %103 : tensor<3072xf32>
      %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %105 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %106 = stablehlo.add %105, %104 : tensor<3072xf32>
      %cst_47 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %107 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %108 = stablehlo.multiply %107, %106 : tensor<3072xf32>
      %109 = stablehlo.multiply %96, %108 : tensor<3072xf32>
      %110 = stablehlo.dot_general %109, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3072xf32>, tensor<3072x768xf32>) -> tensor<768xf32>
      %111 = stablehlo.add %76, %110 : tensor<768xf32>
      %112 = func.call @dynamic_update_index_in_dim(%iterArg_19, %51, %iterArg_17) : (tensor<12x1024x12x64xf32>, tensor<1024x12x64xf32>, tensor<i32>) -> tensor<12x1024x12x64xf32>
      %113 = func.call @dynamic_update_index_in_dim(%iterArg_20, %56, %iterArg_17) : (tensor<12x1024x12x64xf32>, tensor<1024x12x64xf32>, tensor<i32>) -> tensor<12x1024x12x64xf32>
      %c_48 = stablehlo.constant dense<1> : tensor<i32>
      %114 = stablehlo.add %iterArg_17, %c_48 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %114, %111, %112, %113 : tensor<12x768x2304xf32>, tensor<12x768x768xf32>, tensor<12x768x3072xf32>, tensor<12x3072x768xf32>, tensor<12x768xf32>, tensor<12x768xf32>, tensor<12x1024x12x64xf32>, tensor<12x1024x12x64xf32>, tensor<i32>, tensor<1024xi1>, tensor<i32>, tensor<768xf32>, tensor<12x1024x12x64xf32>, tensor<12x1024x12x64xf32>
    }
    %14 = stablehlo.dot_general %13#11, %arg6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xf32>, tensor<768x8192xf32>) -> tensor<8192xf32>
    return %14, %13#12, %13#13 : tensor<8192xf32>, tensor<12x1024x12x64xf32>, tensor<12x1024x12x64xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<12x768x2304xf32>, %arg1: tensor<i32>) -> tensor<768x2304xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 2304] : (tensor<12x768x2304xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x2304xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x768x2304xf32>) -> tensor<768x2304xf32>
    return %1 : tensor<768x2304xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<12x768x768xf32>, %arg1: tensor<i32>) -> tensor<768x768xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 768] : (tensor<12x768x768xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x768xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x768x768xf32>) -> tensor<768x768xf32>
    return %1 : tensor<768x768xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<12x768x3072xf32>, %arg1: tensor<i32>) -> tensor<768x3072xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 3072] : (tensor<12x768x3072xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x3072xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x768x3072xf32>) -> tensor<768x3072xf32>
    return %1 : tensor<768x3072xf32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<12x3072x768xf32>, %arg1: tensor<i32>) -> tensor<3072x768xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3072, 768] : (tensor<12x3072x768xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3072x768xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3072x768xf32>) -> tensor<3072x768xf32>
    return %1 : tensor<3072x768xf32>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<12x768xf32>, %arg1: tensor<i32>) -> tensor<768xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 768] : (tensor<12x768xf32>, tensor<i32>, tensor<i32>) -> tensor<1x768xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x768xf32>) -> tensor<768xf32>
    return %1 : tensor<768xf32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<12x1024x12x64xf32>, %arg1: tensor<i32>) -> tensor<1024x12x64xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 1024, 12, 64] : (tensor<12x1024x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1024x12x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1024x12x64xf32>) -> tensor<1024x12x64xf32>
    return %1 : tensor<1024x12x64xf32>
  }
  func.func private @_where(%arg0: tensor<1x1024xi1>, %arg1: tensor<12x1024xf32>, %arg2: tensor<f32>) -> tensor<12x1024xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x1024xi1>) -> tensor<12x1024xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12x1024xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<12x1024xi1>, tensor<12x1024xf32>
    return %3 : tensor<12x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<12x1024x12x64xf32>, %arg1: tensor<1024x12x64xf32>, %arg2: tensor<i32>) -> tensor<12x1024x12x64xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1024x12x64xf32>) -> tensor<1x1024x12x64xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<12x1024x12x64xf32>, tensor<1x1024x12x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x1024x12x64xf32>
    return %1 : tensor<12x1024x12x64xf32>
  }
}

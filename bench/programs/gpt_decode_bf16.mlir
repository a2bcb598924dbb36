module @jit_gpt_decode_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8192x768xbf16>, %arg1: tensor<12x768xbf16>, %arg2: tensor<12x768xbf16>, %arg3: tensor<12x768x3072xbf16>, %arg4: tensor<12x3072x768xbf16>, %arg5: tensor<12x768x768xbf16>, %arg6: tensor<768x8192xbf16>, %arg7: tensor<12x768x2304xbf16>, %arg8: tensor<12x1024x12x64xbf16>, %arg9: tensor<12x1024x12x64xbf16>, %arg10: tensor<i32>, %arg11: tensor<i32>) -> (tensor<8192xf32> {jax.result_info = "result[0]"}, tensor<12x1024x12x64xbf16> {jax.result_info = "result[1]"}, tensor<12x1024x12x64xbf16> {jax.result_info = "result[2]"}) {
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
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [1, 768] : (tensor<8192x768xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x768xbf16>
    %7 = stablehlo.reshape %6 : (tensor<1x768xbf16>) -> tensor<768xbf16>
    %8 = stablehlo.convert %7 : (tensor<768xbf16>) -> tensor<768xf32>
    %9 = stablehlo.iota dim = 0 : tensor<1024xi32>
    %10 = stablehlo.broadcast_in_dim %arg11, dims = [] : (tensor<i32>) -> tensor<1024xi32>
    %11 = stablehlo.compare LE, %9, %10, SIGNED : (tensor<1024xi32>, tensor<1024xi32>) -> tensor<1024xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<12x1024x12x64xbf16>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %13 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<12x1024x12x64xbf16>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %14:14 = stablehlo.while(%iterArg = %arg7, %iterArg_8 = %arg5, %iterArg_9 = %arg3, %iterArg_10 = %arg4, %iterArg_11 = %arg1, %iterArg_12 = %arg2, %iterArg_13 = %arg8, %iterArg_14 = %arg9, %iterArg_15 = %arg11, %iterArg_16 = %11, %iterArg_17 = %c_7, %iterArg_18 = %8, %iterArg_19 = %12, %iterArg_20 = %13) : tensor<12x768x2304xbf16>, tensor<12x768x768xbf16>, tensor<12x768x3072xbf16>, tensor<12x3072x768xbf16>, tensor<12x768xbf16>, tensor<12x768xbf16>, tensor<12x1024x12x64xbf16>, tensor<12x1024x12x64xbf16>, tensor<i32>, tensor<1024xi1>, tensor<i32>, tensor<768xf32>, tensor<12x1024x12x64xbf16>, tensor<12x1024x12x64xbf16>
    cond {
      %c_21 = stablehlo.constant dense<12> : tensor<i32>
      %17 = stablehlo.compare LT, %iterArg_17, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %17 : tensor<i1>
    } do {
      %17 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_17) : (tensor<12x768x2304xbf16>, tensor<i32>) -> tensor<768x2304xbf16>
      %18 = func.call @dynamic_index_in_dim_0(%iterArg_8, %iterArg_17) : (tensor<12x768x768xbf16>, tensor<i32>) -> tensor<768x768xbf16>
      %19 = func.call @dynamic_index_in_dim_1(%iterArg_9, %iterArg_17) : (tensor<12x768x3072xbf16>, tensor<i32>) -> tensor<768x3072xbf16>
      %20 = func.call @dynamic_index_in_dim_2(%iterArg_10, %iterArg_17) : (tensor<12x3072x768xbf16>, tensor<i32>) -> tensor<3072x768xbf16>
      %21 = func.call @dynamic_index_in_dim_3(%iterArg_11, %iterArg_17) : (tensor<12x768xbf16>, tensor<i32>) -> tensor<768xbf16>
      %22 = func.call @dynamic_index_in_dim_3(%iterArg_12, %iterArg_17) : (tensor<12x768xbf16>, tensor<i32>) -> tensor<768xbf16>
      %23 = func.call @dynamic_index_in_dim_4(%iterArg_13, %iterArg_17) : (tensor<12x1024x12x64xbf16>, tensor<i32>) -> tensor<1024x12x64xbf16>
      %24 = func.call @dynamic_index_in_dim_4(%iterArg_14, %iterArg_17) : (tensor<12x1024x12x64xbf16>, tensor<i32>) -> tensor<1024x12x64xbf16>
      %25 = stablehlo.convert %21 : (tensor<768xbf16>) -> tensor<768xf32>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %26 = stablehlo.reduce(%iterArg_18 init: %cst_21) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_22 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %28 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %29 = stablehlo.divide %27, %28 : tensor<1xf32>
      %30 = stablehlo.broadcast_in_dim %29, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %31 = stablehlo.subtract %iterArg_18, %30 : tensor<768xf32>
      %32 = stablehlo.multiply %31, %31 : tensor<768xf32>
      %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %33 = stablehlo.reduce(%32 init: %cst_23) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_24 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %35 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %36 = stablehlo.divide %34, %35 : tensor<1xf32>
      %37 = stablehlo.broadcast_in_dim %29, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %38 = stablehlo.subtract %iterArg_18, %37 : tensor<768xf32>
      %cst_25 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %39 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %40 = stablehlo.add %36, %39 : tensor<1xf32>
      %41 = stablehlo.rsqrt %40 : tensor<1xf32>
      %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %43 = stablehlo.multiply %38, %42 : tensor<768xf32>
      %44 = stablehlo.multiply %43, %25 : tensor<768xf32>
      %45 = stablehlo.convert %44 : (tensor<768xf32>) -> tensor<768xbf16>
      %46 = stablehlo.dot_general %45, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xbf16>, tensor<768x2304xbf16>) -> tensor<2304xf32>
      %47 = stablehlo.slice %46 [0:768] : (tensor<2304xf32>) -> tensor<768xf32>
      %48 = stablehlo.slice %46 [768:1536] : (tensor<2304xf32>) -> tensor<768xf32>
      %49 = stablehlo.slice %46 [1536:2304] : (tensor<2304xf32>) -> tensor<768xf32>
      %50 = stablehlo.convert %47 : (tensor<768xf32>) -> tensor<768xbf16>
      %51 = stablehlo.reshape %50 : (tensor<768xbf16>) -> tensor<12x64xbf16>
      %52 = stablehlo.convert %48 : (tensor<768xf32>) -> tensor<768xbf16>
      %53 = stablehlo.reshape %52 : (tensor<768xbf16>) -> tensor<1x12x64xbf16>
      %c_26 = stablehlo.constant dense<0> : tensor<i32>
      %54 = stablehlo.compare LT, %iterArg_15, %c_26, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_27 = stablehlo.constant dense<1024> : tensor<i32>
      %55 = stablehlo.add %iterArg_15, %c_27 : tensor<i32>
      %56 = stablehlo.select %54, %55, %iterArg_15 : tensor<i1>, tensor<i32>
      %c_28 = stablehlo.constant dense<0> : tensor<i32>
      %c_29 = stablehlo.constant dense<0> : tensor<i32>
      %57 = stablehlo.dynamic_update_slice %23, %53, %56, %c_28, %c_29 : (tensor<1024x12x64xbf16>, tensor<1x12x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1024x12x64xbf16>
      %58 = stablehlo.convert %49 : (tensor<768xf32>) -> tensor<768xbf16>
      %59 = stablehlo.reshape %58 : (tensor<768xbf16>) -> tensor<1x12x64xbf16>
      %c_30 = stablehlo.constant dense<0> : tensor<i32>
      %60 = stablehlo.compare LT, %iterArg_15, %c_30, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_31 = stablehlo.constant dense<1024> : tensor<i32>
      %61 = stablehlo.add %iterArg_15, %c_31 : tensor<i32>
      %62 = stablehlo.select %60, %61, %iterArg_15 : tensor<i1>, tensor<i32>
      %c_32 = stablehlo.constant dense<0> : tensor<i32>
      %c_33 = stablehlo.constant dense<0> : tensor<i32>
      %63 = stablehlo.dynamic_update_slice %24, %59, %62, %c_32, %c_33 : (tensor<1024x12x64xbf16>, tensor<1x12x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1024x12x64xbf16>
      %64 = stablehlo.dot_general %51, %57, batching_dims = [0] x [1], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x64xbf16>, tensor<1024x12x64xbf16>) -> tensor<12x1024xf32>
      %cst_34 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
      %65 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<12x1024xf32>
      %66 = stablehlo.divide %64, %65 : tensor<12x1024xf32>
      %67 = stablehlo.broadcast_in_dim %iterArg_16, dims = [1] : (tensor<1024xi1>) -> tensor<1x1024xi1>
      %cst_35 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
      %68 = func.call @_where(%67, %66, %cst_35) : (tensor<1x1024xi1>, tensor<12x1024xf32>, tensor<f32>) -> tensor<12x1024xf32>
      %cst_36 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %69 = stablehlo.reduce(%68 init: %cst_36) applies stablehlo.maximum across dimensions = [1] : (tensor<12x1024xf32>, tensor<f32>) -> tensor<12xf32>
      %cst_37 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %70 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %71 = stablehlo.maximum %70, %69 : tensor<12xf32>
      %72 = stablehlo.broadcast_in_dim %71, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
      %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x1024xf32>
      %74 = stablehlo.subtract %68, %73 : tensor<12x1024xf32>
      %75 = stablehlo.exponential %74 : tensor<12x1024xf32>
      %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %76 = stablehlo.reduce(%75 init: %cst_38) applies stablehlo.add across dimensions = [1] : (tensor<12x1024xf32>, tensor<f32>) -> tensor<12xf32>
      %77 = stablehlo.broadcast_in_dim %76, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
      %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x1024xf32>
      %79 = stablehlo.divide %75, %78 : tensor<12x1024xf32>
      %80 = stablehlo.convert %79 : (tensor<12x1024xf32>) -> tensor<12x1024xbf16>
      %81 = stablehlo.dot_general %80, %63, batching_dims = [0] x [1], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x1024xbf16>, tensor<1024x12x64xbf16>) -> tensor<12x64xf32>
      %82 = stablehlo.reshape %81 : (tensor<12x64xf32>) -> tensor<768xf32>
      %83 = stablehlo.convert %82 : (tensor<768xf32>) -> tensor<768xbf16>
      %84 = stablehlo.dot_general %83, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xbf16>, tensor<768x768xbf16>) -> tensor<768xf32>
      %85 = stablehlo.add %iterArg_18, %84 : tensor<768xf32>
      %86 = stablehlo.convert %22 : (tensor<768xbf16>) -> tensor<768xf32>
      %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %87 = stablehlo.reduce(%85 init: %cst_39) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %88 = stablehlo.broadcast_in_dim %87, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_40 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %89 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %90 = stablehlo.divide %88, %89 : tensor<1xf32>
      %91 = stablehlo.broadcast_in_dim %90, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %92 = stablehlo.subtract %85, %91 : tensor<768xf32>
      %93 = stablehlo.multiply %92, %92 : tensor<768xf32>
      %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %94 = stablehlo.reduce(%93 init: %cst_41) applies stablehlo.add across dimensions = [0] : (tensor<768xf32>, tensor<f32>) -> tensor<f32>
      %95 = stablehlo.broadcast_in_dim %94, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %cst_42 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
      %96 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %97 = stablehlo.divide %95, %96 : tensor<1xf32>
      %98 = stablehlo.broadcast_in_dim %90, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %99 = stablehlo.subtract %85, %98 : tensor<768xf32>
      %cst_43 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %100 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %101 = stablehlo.add %97, %100 : tensor<1xf32>
      %102 = stablehlo.rsqrt %101 : tensor<1xf32>
      %103 = stablehlo.broadcast_in_dim %102, dims = [0] : (tensor<1xf32>) -> tensor<768xf32>
      %104 = stablehlo.multiply %99, %103 : tensor<768xf32>
      %105 = stablehlo.multiply %104, %86 : tensor<768xf32>
      %106 = stablehlo.convert %105 : (tensor<768xf32>) -> tensor<768xbf16>
      %107 = stablehlo.dot_general %106, %19, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xbf16>, tensor<768x3072xbf16>) -> tensor<3072xf32>
      %108 = stablehlo.multiply %107, %107 : tensor<3072xf32>
      %109 = stablehlo.multiply %108, %107 : tensor<3072xf32>
      %cst_44 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %110 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %111 = stablehlo.multiply %110, %109 : tensor<3072xf32>
      %112 = stablehlo.add %107, %111 : tensor<3072xf32>
      %cst_45 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %113 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %114 = stablehlo.multiply %113, %112 : tensor<3072xf32>
      %115 = stablehlo.tanh %114 : tensor<3072xf32>
      %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %116 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %117 = stablehlo.add %116, %115 : tensor<3072xf32>
      %cst_47 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %118 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<3072xf32>
      %119 = stablehlo.multiply %118, %117 : tensor<3072xf32>
      %120 = stablehlo.multiply %107, %119 : tensor<3072xf32>
      %121 = stablehlo.convert %120 : (tensor<3072xf32>) -> tensor<3072xbf16>
      %122 = stablehlo.dot_general %121, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3072xbf16>, tensor<3072x768xbf16>) -> tensor<768xf32>
      %123 = stablehlo.add %85, %122 : tensor<768xf32>
      %124 = func.call @dynamic_update_index_in_dim(%iterArg_19, %57, %iterArg_17) : (tensor<12x1024x12x64xbf16>, tensor<1024x12x64xbf16>, tensor<i32>) -> tensor<12x1024x12x64xbf16>
      %125 = func.call @dynamic_update_index_in_dim(%iterArg_20, %63, %iterArg_17) : (tensor<12x1024x12x64xbf16>, tensor<1024x12x64xbf16>, tensor<i32>) -> tensor<12x1024x12x64xbf16>
      %c_48 = stablehlo.constant dense<1> : tensor<i32>
      %126 = stablehlo.add %iterArg_17, %c_48 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13, %iterArg_14, %iterArg_15, %iterArg_16, %126, %123, %124, %125 : tensor<12x768x2304xbf16>, tensor<12x768x768xbf16>, tensor<12x768x3072xbf16>, tensor<12x3072x768xbf16>, tensor<12x768xbf16>, tensor<12x768xbf16>, tensor<12x1024x12x64xbf16>, tensor<12x1024x12x64xbf16>, tensor<i32>, tensor<1024xi1>, tensor<i32>, tensor<768xf32>, tensor<12x1024x12x64xbf16>, tensor<12x1024x12x64xbf16>
    }
    %15 = stablehlo.convert %14#11 : (tensor<768xf32>) -> tensor<768xbf16>
    %16 = stablehlo.dot_general %15, %arg6, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<768xbf16>, tensor<768x8192xbf16>) -> tensor<8192xf32>
    return %16, %14#12, %14#13 : tensor<8192xf32>, tensor<12x1024x12x64xbf16>, tensor<12x1024x12x64xbf16>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<12x768x2304xbf16>, %arg1: tensor<i32>) -> tensor<768x2304xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 2304] : (tensor<12x768x2304xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x2304xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x768x2304xbf16>) -> tensor<768x2304xbf16>
    return %1 : tensor<768x2304xbf16>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<12x768x768xbf16>, %arg1: tensor<i32>) -> tensor<768x768xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 768] : (tensor<12x768x768xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x768xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x768x768xbf16>) -> tensor<768x768xbf16>
    return %1 : tensor<768x768xbf16>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<12x768x3072xbf16>, %arg1: tensor<i32>) -> tensor<768x3072xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 768, 3072] : (tensor<12x768x3072xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x768x3072xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x768x3072xbf16>) -> tensor<768x3072xbf16>
    return %1 : tensor<768x3072xbf16>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<12x3072x768xbf16>, %arg1: tensor<i32>) -> tensor<3072x768xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3072, 768] : (tensor<12x3072x768xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3072x768xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x3072x768xbf16>) -> tensor<3072x768xbf16>
    return %1 : tensor<3072x768xbf16>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<12x768xbf16>, %arg1: tensor<i32>) -> tensor<768xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 768] : (tensor<12x768xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x768xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x768xbf16>) -> tensor<768xbf16>
    return %1 : tensor<768xbf16>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<12x1024x12x64xbf16>, %arg1: tensor<i32>) -> tensor<1024x12x64xbf16> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, %c_1, sizes = [1, 1024, 12, 64] : (tensor<12x1024x12x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1024x12x64xbf16>
    %1 = stablehlo.reshape %0 : (tensor<1x1024x12x64xbf16>) -> tensor<1024x12x64xbf16>
    return %1 : tensor<1024x12x64xbf16>
  }
  func.func private @_where(%arg0: tensor<1x1024xi1>, %arg1: tensor<12x1024xf32>, %arg2: tensor<f32>) -> tensor<12x1024xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x1024xi1>) -> tensor<12x1024xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12x1024xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<12x1024xi1>, tensor<12x1024xf32>
    return %3 : tensor<12x1024xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<12x1024x12x64xbf16>, %arg1: tensor<1024x12x64xbf16>, %arg2: tensor<i32>) -> tensor<12x1024x12x64xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<1024x12x64xbf16>) -> tensor<1x1024x12x64xbf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0, %c_1 : (tensor<12x1024x12x64xbf16>, tensor<1x1024x12x64xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<12x1024x12x64xbf16>
    return %1 : tensor<12x1024x12x64xbf16>
  }
}

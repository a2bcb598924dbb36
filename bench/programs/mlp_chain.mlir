module @jit_mlp_chain attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512xf32>, %arg1: tensor<512x512xf32>, %arg2: tensor<512x512xf32>, %arg3: tensor<512x512xf32>, %arg4: tensor<512x512xf32>, %arg5: tensor<512x512xf32>, %arg6: tensor<512x512xf32>, %arg7: tensor<512x512xf32>, %arg8: tensor<512x512xf32>, %arg9: tensor<512x512xf32>, %arg10: tensor<512x512xf32>, %arg11: tensor<512x512xf32>, %arg12: tensor<512x512xf32>, %arg13: tensor<512x512xf32>, %arg14: tensor<512x512xf32>, %arg15: tensor<512x512xf32>, %arg16: tensor<512x512xf32>, %arg17: tensor<512x512xf32>, %arg18: tensor<512x512xf32>, %arg19: tensor<512x512xf32>, %arg20: tensor<512x512xf32>, %arg21: tensor<512x512xf32>, %arg22: tensor<512x512xf32>, %arg23: tensor<512x512xf32>, %arg24: tensor<512x512xf32>, %arg25: tensor<512xf32>, %arg26: tensor<512xf32>, %arg27: tensor<512xf32>, %arg28: tensor<512xf32>, %arg29: tensor<512xf32>, %arg30: tensor<512xf32>, %arg31: tensor<512xf32>, %arg32: tensor<512xf32>, %arg33: tensor<512xf32>, %arg34: tensor<512xf32>, %arg35: tensor<512xf32>, %arg36: tensor<512xf32>, %arg37: tensor<512xf32>, %arg38: tensor<512xf32>, %arg39: tensor<512xf32>, %arg40: tensor<512xf32>, %arg41: tensor<512xf32>, %arg42: tensor<512xf32>, %arg43: tensor<512xf32>, %arg44: tensor<512xf32>, %arg45: tensor<512xf32>, %arg46: tensor<512xf32>, %arg47: tensor<512xf32>, %arg48: tensor<512xf32>) -> (tensor<8x512xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %1 = stablehlo.broadcast_in_dim %arg25, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x512xf32>
    %4 = call @relu(%3) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %6 = stablehlo.broadcast_in_dim %arg26, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %8 = stablehlo.add %5, %7 : tensor<8x512xf32>
    %9 = call @relu(%8) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %10 = stablehlo.dot_general %9, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %11 = stablehlo.broadcast_in_dim %arg27, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %13 = stablehlo.add %10, %12 : tensor<8x512xf32>
    %14 = call @relu(%13) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %15 = stablehlo.dot_general %14, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %16 = stablehlo.broadcast_in_dim %arg28, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %18 = stablehlo.add %15, %17 : tensor<8x512xf32>
    %19 = call @relu(%18) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %20 = stablehlo.dot_general %19, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %21 = stablehlo.broadcast_in_dim %arg29, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %23 = stablehlo.add %20, %22 : tensor<8x512xf32>
    %24 = call @relu(%23) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %25 = stablehlo.dot_general %24, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %26 = stablehlo.broadcast_in_dim %arg30, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %28 = stablehlo.add %25, %27 : tensor<8x512xf32>
    %29 = call @relu(%28) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %30 = stablehlo.dot_general %29, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %31 = stablehlo.broadcast_in_dim %arg31, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %33 = stablehlo.add %30, %32 : tensor<8x512xf32>
    %34 = call @relu(%33) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %35 = stablehlo.dot_general %34, %arg8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %36 = stablehlo.broadcast_in_dim %arg32, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %38 = stablehlo.add %35, %37 : tensor<8x512xf32>
    %39 = call @relu(%38) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %40 = stablehlo.dot_general %39, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %41 = stablehlo.broadcast_in_dim %arg33, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %43 = stablehlo.add %40, %42 : tensor<8x512xf32>
    %44 = call @relu(%43) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %45 = stablehlo.dot_general %44, %arg10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %46 = stablehlo.broadcast_in_dim %arg34, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %48 = stablehlo.add %45, %47 : tensor<8x512xf32>
    %49 = call @relu(%48) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %50 = stablehlo.dot_general %49, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %51 = stablehlo.broadcast_in_dim %arg35, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %53 = stablehlo.add %50, %52 : tensor<8x512xf32>
    %54 = call @relu(%53) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %55 = stablehlo.dot_general %54, %arg12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %56 = stablehlo.broadcast_in_dim %arg36, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %58 = stablehlo.add %55, %57 : tensor<8x512xf32>
    %59 = call @relu(%58) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %60 = stablehlo.dot_general %59, %arg13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %61 = stablehlo.broadcast_in_dim %arg37, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %63 = stablehlo.add %60, %62 : tensor<8x512xf32>
    %64 = call @relu(%63) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %65 = stablehlo.dot_general %64, %arg14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %66 = stablehlo.broadcast_in_dim %arg38, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %68 = stablehlo.add %65, %67 : tensor<8x512xf32>
    %69 = call @relu(%68) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %70 = stablehlo.dot_general %69, %arg15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %71 = stablehlo.broadcast_in_dim %arg39, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %73 = stablehlo.add %70, %72 : tensor<8x512xf32>
    %74 = call @relu(%73) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %75 = stablehlo.dot_general %74, %arg16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %76 = stablehlo.broadcast_in_dim %arg40, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %78 = stablehlo.add %75, %77 : tensor<8x512xf32>
    %79 = call @relu(%78) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %80 = stablehlo.dot_general %79, %arg17, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %81 = stablehlo.broadcast_in_dim %arg41, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %83 = stablehlo.add %80, %82 : tensor<8x512xf32>
    %84 = call @relu(%83) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %85 = stablehlo.dot_general %84, %arg18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %86 = stablehlo.broadcast_in_dim %arg42, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %88 = stablehlo.add %85, %87 : tensor<8x512xf32>
    %89 = call @relu(%88) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %90 = stablehlo.dot_general %89, %arg19, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %91 = stablehlo.broadcast_in_dim %arg43, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %93 = stablehlo.add %90, %92 : tensor<8x512xf32>
    %94 = call @relu(%93) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %95 = stablehlo.dot_general %94, %arg20, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %96 = stablehlo.broadcast_in_dim %arg44, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %98 = stablehlo.add %95, %97 : tensor<8x512xf32>
    %99 = call @relu(%98) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %100 = stablehlo.dot_general %99, %arg21, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %101 = stablehlo.broadcast_in_dim %arg45, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %103 = stablehlo.add %100, %102 : tensor<8x512xf32>
    %104 = call @relu(%103) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %105 = stablehlo.dot_general %104, %arg22, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %106 = stablehlo.broadcast_in_dim %arg46, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %108 = stablehlo.add %105, %107 : tensor<8x512xf32>
    %109 = call @relu(%108) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %110 = stablehlo.dot_general %109, %arg23, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %111 = stablehlo.broadcast_in_dim %arg47, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %113 = stablehlo.add %110, %112 : tensor<8x512xf32>
    %114 = call @relu(%113) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %115 = stablehlo.dot_general %114, %arg24, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %116 = stablehlo.broadcast_in_dim %arg48, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %118 = stablehlo.add %115, %117 : tensor<8x512xf32>
    %119 = call @relu(%118) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    return %119 : tensor<8x512xf32>
  }
  func.func private @relu(%arg0: tensor<8x512xf32>) -> tensor<8x512xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x512xf32>
    return %1 : tensor<8x512xf32>
  }
}

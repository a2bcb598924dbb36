module @jit_mlp_chain_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512xbf16>, %arg1: tensor<512x512xbf16>, %arg2: tensor<512x512xbf16>, %arg3: tensor<512x512xbf16>, %arg4: tensor<512x512xbf16>, %arg5: tensor<512x512xbf16>, %arg6: tensor<512x512xbf16>, %arg7: tensor<512x512xbf16>, %arg8: tensor<512x512xbf16>, %arg9: tensor<512x512xbf16>, %arg10: tensor<512x512xbf16>, %arg11: tensor<512x512xbf16>, %arg12: tensor<512x512xbf16>, %arg13: tensor<512x512xbf16>, %arg14: tensor<512x512xbf16>, %arg15: tensor<512x512xbf16>, %arg16: tensor<512x512xbf16>, %arg17: tensor<512x512xbf16>, %arg18: tensor<512x512xbf16>, %arg19: tensor<512x512xbf16>, %arg20: tensor<512x512xbf16>, %arg21: tensor<512x512xbf16>, %arg22: tensor<512x512xbf16>, %arg23: tensor<512x512xbf16>, %arg24: tensor<512x512xbf16>, %arg25: tensor<512xbf16>, %arg26: tensor<512xbf16>, %arg27: tensor<512xbf16>, %arg28: tensor<512xbf16>, %arg29: tensor<512xbf16>, %arg30: tensor<512xbf16>, %arg31: tensor<512xbf16>, %arg32: tensor<512xbf16>, %arg33: tensor<512xbf16>, %arg34: tensor<512xbf16>, %arg35: tensor<512xbf16>, %arg36: tensor<512xbf16>, %arg37: tensor<512xbf16>, %arg38: tensor<512xbf16>, %arg39: tensor<512xbf16>, %arg40: tensor<512xbf16>, %arg41: tensor<512xbf16>, %arg42: tensor<512xbf16>, %arg43: tensor<512xbf16>, %arg44: tensor<512xbf16>, %arg45: tensor<512xbf16>, %arg46: tensor<512xbf16>, %arg47: tensor<512xbf16>, %arg48: tensor<512xbf16>) -> (tensor<8x512xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %1 = stablehlo.convert %arg25 : (tensor<512xbf16>) -> tensor<512xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %4 = stablehlo.add %0, %3 : tensor<8x512xf32>
    %5 = call @relu(%4) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %6 = stablehlo.convert %5 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %7 = stablehlo.dot_general %6, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %8 = stablehlo.convert %arg26 : (tensor<512xbf16>) -> tensor<512xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %11 = stablehlo.add %7, %10 : tensor<8x512xf32>
    %12 = call @relu(%11) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %13 = stablehlo.convert %12 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %14 = stablehlo.dot_general %13, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %15 = stablehlo.convert %arg27 : (tensor<512xbf16>) -> tensor<512xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %18 = stablehlo.add %14, %17 : tensor<8x512xf32>
    %19 = call @relu(%18) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %20 = stablehlo.convert %19 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %21 = stablehlo.dot_general %20, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %22 = stablehlo.convert %arg28 : (tensor<512xbf16>) -> tensor<512xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %25 = stablehlo.add %21, %24 : tensor<8x512xf32>
    %26 = call @relu(%25) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %27 = stablehlo.convert %26 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %28 = stablehlo.dot_general %27, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %29 = stablehlo.convert %arg29 : (tensor<512xbf16>) -> tensor<512xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %32 = stablehlo.add %28, %31 : tensor<8x512xf32>
    %33 = call @relu(%32) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %34 = stablehlo.convert %33 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %35 = stablehlo.dot_general %34, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %36 = stablehlo.convert %arg30 : (tensor<512xbf16>) -> tensor<512xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %39 = stablehlo.add %35, %38 : tensor<8x512xf32>
    %40 = call @relu(%39) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %41 = stablehlo.convert %40 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %42 = stablehlo.dot_general %41, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %43 = stablehlo.convert %arg31 : (tensor<512xbf16>) -> tensor<512xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %46 = stablehlo.add %42, %45 : tensor<8x512xf32>
    %47 = call @relu(%46) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %48 = stablehlo.convert %47 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %49 = stablehlo.dot_general %48, %arg8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %50 = stablehlo.convert %arg32 : (tensor<512xbf16>) -> tensor<512xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %53 = stablehlo.add %49, %52 : tensor<8x512xf32>
    %54 = call @relu(%53) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %55 = stablehlo.convert %54 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %56 = stablehlo.dot_general %55, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %57 = stablehlo.convert %arg33 : (tensor<512xbf16>) -> tensor<512xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %60 = stablehlo.add %56, %59 : tensor<8x512xf32>
    %61 = call @relu(%60) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %62 = stablehlo.convert %61 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %63 = stablehlo.dot_general %62, %arg10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %64 = stablehlo.convert %arg34 : (tensor<512xbf16>) -> tensor<512xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %67 = stablehlo.add %63, %66 : tensor<8x512xf32>
    %68 = call @relu(%67) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %69 = stablehlo.convert %68 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %70 = stablehlo.dot_general %69, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %71 = stablehlo.convert %arg35 : (tensor<512xbf16>) -> tensor<512xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %74 = stablehlo.add %70, %73 : tensor<8x512xf32>
    %75 = call @relu(%74) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %76 = stablehlo.convert %75 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %77 = stablehlo.dot_general %76, %arg12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %78 = stablehlo.convert %arg36 : (tensor<512xbf16>) -> tensor<512xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %81 = stablehlo.add %77, %80 : tensor<8x512xf32>
    %82 = call @relu(%81) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %83 = stablehlo.convert %82 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %84 = stablehlo.dot_general %83, %arg13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %85 = stablehlo.convert %arg37 : (tensor<512xbf16>) -> tensor<512xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %88 = stablehlo.add %84, %87 : tensor<8x512xf32>
    %89 = call @relu(%88) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %90 = stablehlo.convert %89 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %91 = stablehlo.dot_general %90, %arg14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %92 = stablehlo.convert %arg38 : (tensor<512xbf16>) -> tensor<512xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %95 = stablehlo.add %91, %94 : tensor<8x512xf32>
    %96 = call @relu(%95) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %97 = stablehlo.convert %96 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %98 = stablehlo.dot_general %97, %arg15, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %99 = stablehlo.convert %arg39 : (tensor<512xbf16>) -> tensor<512xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %102 = stablehlo.add %98, %101 : tensor<8x512xf32>
    %103 = call @relu(%102) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %104 = stablehlo.convert %103 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %105 = stablehlo.dot_general %104, %arg16, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %106 = stablehlo.convert %arg40 : (tensor<512xbf16>) -> tensor<512xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %109 = stablehlo.add %105, %108 : tensor<8x512xf32>
    %110 = call @relu(%109) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %111 = stablehlo.convert %110 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %112 = stablehlo.dot_general %111, %arg17, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %113 = stablehlo.convert %arg41 : (tensor<512xbf16>) -> tensor<512xf32>
    %114 = stablehlo.broadcast_in_dim %113, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %116 = stablehlo.add %112, %115 : tensor<8x512xf32>
    %117 = call @relu(%116) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %118 = stablehlo.convert %117 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %119 = stablehlo.dot_general %118, %arg18, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %120 = stablehlo.convert %arg42 : (tensor<512xbf16>) -> tensor<512xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %123 = stablehlo.add %119, %122 : tensor<8x512xf32>
    %124 = call @relu(%123) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %125 = stablehlo.convert %124 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %126 = stablehlo.dot_general %125, %arg19, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %127 = stablehlo.convert %arg43 : (tensor<512xbf16>) -> tensor<512xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %130 = stablehlo.add %126, %129 : tensor<8x512xf32>
    %131 = call @relu(%130) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %132 = stablehlo.convert %131 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %133 = stablehlo.dot_general %132, %arg20, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %134 = stablehlo.convert %arg44 : (tensor<512xbf16>) -> tensor<512xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %137 = stablehlo.add %133, %136 : tensor<8x512xf32>
    %138 = call @relu(%137) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %139 = stablehlo.convert %138 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %140 = stablehlo.dot_general %139, %arg21, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %141 = stablehlo.convert %arg45 : (tensor<512xbf16>) -> tensor<512xf32>
    %142 = stablehlo.broadcast_in_dim %141, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %144 = stablehlo.add %140, %143 : tensor<8x512xf32>
    %145 = call @relu(%144) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %146 = stablehlo.convert %145 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %147 = stablehlo.dot_general %146, %arg22, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %148 = stablehlo.convert %arg46 : (tensor<512xbf16>) -> tensor<512xf32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %151 = stablehlo.add %147, %150 : tensor<8x512xf32>
    %152 = call @relu(%151) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %153 = stablehlo.convert %152 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %154 = stablehlo.dot_general %153, %arg23, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %155 = stablehlo.convert %arg47 : (tensor<512xbf16>) -> tensor<512xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %158 = stablehlo.add %154, %157 : tensor<8x512xf32>
    %159 = call @relu(%158) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %160 = stablehlo.convert %159 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    %161 = stablehlo.dot_general %160, %arg24, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512xbf16>, tensor<512x512xbf16>) -> tensor<8x512xf32>
    %162 = stablehlo.convert %arg48 : (tensor<512xbf16>) -> tensor<512xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<8x512xf32>
    %165 = stablehlo.add %161, %164 : tensor<8x512xf32>
    %166 = call @relu(%165) : (tensor<8x512xf32>) -> tensor<8x512xf32>
    %167 = stablehlo.convert %166 : (tensor<8x512xf32>) -> tensor<8x512xbf16>
    return %167 : tensor<8x512xbf16>
  }
  func.func private @relu(%arg0: tensor<8x512xf32>) -> tensor<8x512xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x512xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x512xf32>
    return %1 : tensor<8x512xf32>
  }
}

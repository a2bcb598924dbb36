module @jit_special_functions attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12xf32>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<12xf32> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xf32> {jax.result_info = "result[5]"}, tensor<12xf32> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}, tensor<12xf32> {jax.result_info = "result[8]"}, tensor<12xf32> {jax.result_info = "result[9]"}) {
    %cst = stablehlo.constant dense<[-59.9633484, 98.0010757, -56.6762848, 13.9312611, -1.23916578]> : tensor<5xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 1.95448864, 4.67627907, 86.3602447, -225.462692, 200.260208, -82.0372238, 15.9056225, -1.18331623]> : tensor<9xf32>
    %cst_1 = stablehlo.constant dense<[3.23774886, 6.91522884, 3.93881035, 1.33303463, 0.201485395, 0.0123716639, 3.01581546E-4, 2.65806966E-6, 6.23974561E-9]> : tensor<9xf32>
    %cst_2 = stablehlo.constant dense<[1.000000e+00, 6.02427053, 3.67983556, 1.37702096, 2.162370e-01, 1.342040e-02, 3.28014459E-4, 2.89247873E-6, 6.79019418E-9]> : tensor<9xf32>
    %cst_3 = stablehlo.constant dense<[4.05544901, 31.5251102, 57.1628189, 44.0805092, 14.6849566, 2.18663311, -0.140256077, -0.035042461, -8.57456762E-4]> : tensor<9xf32>
    %cst_4 = stablehlo.constant dense<[1.000000e+00, 15.7799883, 45.3907623, 41.3172035, 15.0425386, 2.5046494, -0.142182916, -0.0380806401, -9.33259492E-4]> : tensor<9xf32>
    %0 = chlo.erf %arg0 : tensor<12xf32> -> tensor<12xf32>
    %1 = chlo.erfc %arg0 : tensor<12xf32> -> tensor<12xf32>
    %2 = chlo.erf_inv %arg0 : tensor<12xf32> -> tensor<12xf32>
    %3 = chlo.lgamma %arg1 : tensor<12xf32> -> tensor<12xf32>
    %4 = chlo.digamma %arg1 : tensor<12xf32> -> tensor<12xf32>
    %5 = chlo.lgamma %arg1 : tensor<12xf32> -> tensor<12xf32>
    %6 = stablehlo.abs %arg0 : tensor<12xf32>
    %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<12xf32>
    %cst_6 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %10 = stablehlo.add %8, %9 : tensor<12xf32>
    %cst_7 = stablehlo.constant dense<0.864664733> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %12 = stablehlo.compare GT, %10, %11, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %14 = stablehlo.subtract %13, %10 : tensor<12xf32>
    %15 = call @_where(%12, %14, %10) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %17 = stablehlo.compare EQ, %15, %16, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %19 = call @_where(%17, %18, %15) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %21 = stablehlo.subtract %19, %20 : tensor<12xf32>
    %22 = chlo.square %21 : tensor<12xf32> -> tensor<12xf32>
    %23 = stablehlo.multiply %21, %22 : tensor<12xf32>
    %24 = call @polyval(%cst, %22) : (tensor<5xf32>, tensor<12xf32>) -> tensor<12xf32>
    %25 = call @polyval_0(%cst_0, %22) : (tensor<9xf32>, tensor<12xf32>) -> tensor<12xf32>
    %26 = stablehlo.divide %24, %25 : tensor<12xf32>
    %27 = stablehlo.multiply %23, %26 : tensor<12xf32>
    %28 = stablehlo.add %21, %27 : tensor<12xf32>
    %cst_12 = stablehlo.constant dense<-2.50662827> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %30 = stablehlo.multiply %28, %29 : tensor<12xf32>
    %31 = stablehlo.log %19 : tensor<12xf32>
    %cst_13 = stablehlo.constant dense<-2.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<12xf32>
    %34 = stablehlo.sqrt %33 : tensor<12xf32>
    %35 = stablehlo.log %34 : tensor<12xf32>
    %36 = stablehlo.divide %35, %34 : tensor<12xf32>
    %37 = stablehlo.subtract %34, %36 : tensor<12xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %39 = stablehlo.divide %38, %34 : tensor<12xf32>
    %40 = call @polyval_0(%cst_1, %39) : (tensor<9xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %42 = stablehlo.divide %41, %34 : tensor<12xf32>
    %43 = call @polyval_0(%cst_2, %42) : (tensor<9xf32>, tensor<12xf32>) -> tensor<12xf32>
    %44 = stablehlo.divide %40, %43 : tensor<12xf32>
    %45 = stablehlo.divide %44, %34 : tensor<12xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %47 = stablehlo.divide %46, %34 : tensor<12xf32>
    %48 = call @polyval_0(%cst_3, %47) : (tensor<9xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %50 = stablehlo.divide %49, %34 : tensor<12xf32>
    %51 = call @polyval_0(%cst_4, %50) : (tensor<9xf32>, tensor<12xf32>) -> tensor<12xf32>
    %52 = stablehlo.divide %48, %51 : tensor<12xf32>
    %53 = stablehlo.divide %52, %34 : tensor<12xf32>
    %54 = stablehlo.subtract %37, %45 : tensor<12xf32>
    %55 = stablehlo.subtract %37, %53 : tensor<12xf32>
    %cst_18 = stablehlo.constant dense<0.135335281> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %57 = stablehlo.compare GT, %19, %56, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_19 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %59 = stablehlo.compare GE, %34, %58, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %60 = call @_where(%59, %54, %55) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %61 = call @_where(%57, %30, %60) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_20 = stablehlo.constant dense<0.864664733> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %63 = stablehlo.compare GT, %10, %62, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %64 = stablehlo.negate %61 : tensor<12xf32>
    %65 = call @_where(%63, %61, %64) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_21 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %68 = stablehlo.compare EQ, %10, %67, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %69 = stablehlo.negate %66 : tensor<12xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %71 = stablehlo.compare EQ, %10, %70, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %72 = call @_where(%71, %66, %65) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %73 = call @_where(%68, %69, %72) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst_24 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %75 = stablehlo.multiply %arg1, %74 : tensor<12xf32>
    %76 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %77 = stablehlo.compare NE, %75, %75, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %78 = stablehlo.or %76, %77 : tensor<12xi1>
    %cst_25 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %80 = stablehlo.compare EQ, %75, %79, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_26 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %82 = stablehlo.compare EQ, %arg1, %81, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %84 = stablehlo.compare EQ, %arg1, %83, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %86 = stablehlo.compare EQ, %75, %85, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %88 = stablehlo.compare LT, %75, %87, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %90 = stablehlo.compare LT, %arg1, %89, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %91 = stablehlo.and %84, %86 : tensor<12xi1>
    %92 = stablehlo.and %82, %80 : tensor<12xi1>
    %93 = stablehlo.or %88, %90 : tensor<12xi1>
    %94 = stablehlo.or %93, %91 : tensor<12xi1>
    %95 = stablehlo.or %94, %92 : tensor<12xi1>
    %96 = stablehlo.or %95, %78 : tensor<12xi1>
    %cst_31 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %98 = stablehlo.compare GE, %75, %97, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %99 = stablehlo.compare GT, %75, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %100 = stablehlo.and %98, %99 : tensor<12xi1>
    %101 = stablehlo.log %75 : tensor<12xf32>
    %102 = stablehlo.multiply %arg1, %101 : tensor<12xf32>
    %103 = stablehlo.subtract %102, %75 : tensor<12xf32>
    %104 = chlo.lgamma %arg1 : tensor<12xf32> -> tensor<12xf32>
    %105 = stablehlo.subtract %103, %104 : tensor<12xf32>
    %cst_32 = stablehlo.constant dense<3.40282347E+38> : tensor<f32>
    %106 = stablehlo.log %cst_32 : tensor<f32>
    %107 = stablehlo.negate %106 : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %109 = stablehlo.compare LT, %105, %108, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %110 = stablehlo.exponential %105 : tensor<12xf32>
    %111 = stablehlo.or %86, %96 : tensor<12xi1>
    %112 = stablehlo.or %111, %109 : tensor<12xi1>
    %113 = stablehlo.or %112, %80 : tensor<12xi1>
    %114 = stablehlo.or %113, %82 : tensor<12xi1>
    %115 = stablehlo.not %114 : tensor<12xi1>
    %116 = stablehlo.and %115, %100 : tensor<12xi1>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %118 = stablehlo.subtract %117, %arg1 : tensor<12xf32>
    %119 = stablehlo.add %75, %118 : tensor<12xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %121 = stablehlo.add %119, %120 : tensor<12xf32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %124 = stablehlo.add %75, %123 : tensor<12xf32>
    %125 = stablehlo.multiply %121, %75 : tensor<12xf32>
    %126 = stablehlo.divide %124, %125 : tensor<12xf32>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %131 = stablehlo.negate %75 : tensor<12xf32>
    %132 = stablehlo.multiply %126, %131 : tensor<12xf32>
    %133 = stablehlo.subtract %130, %132 : tensor<12xf32>
    %134 = stablehlo.divide %133, %125 : tensor<12xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135:15 = stablehlo.while(%iterArg = %116, %iterArg_53 = %126, %iterArg_54 = %127, %iterArg_55 = %118, %iterArg_56 = %121, %iterArg_57 = %cst_41, %iterArg_58 = %124, %iterArg_59 = %125, %iterArg_60 = %122, %iterArg_61 = %75, %iterArg_62 = %128, %iterArg_63 = %129, %iterArg_64 = %130, %iterArg_65 = %131, %iterArg_66 = %134) : tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<f32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
    cond {
      %cst_67 = stablehlo.constant dense<2.000000e+03> : tensor<f32>
      %163 = stablehlo.compare LT, %iterArg_57, %cst_67, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c = stablehlo.constant dense<false> : tensor<i1>
      %164 = stablehlo.reduce(%iterArg init: %c) applies stablehlo.or across dimensions = [0] : (tensor<12xi1>, tensor<i1>) -> tensor<i1>
      %165 = stablehlo.and %163, %164 : tensor<i1>
      stablehlo.return %165 : tensor<i1>
    } do {
      %cst_67 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %163 = stablehlo.add %iterArg_57, %cst_67 : tensor<f32>
      %cst_68 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %164 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %165 = stablehlo.add %iterArg_55, %164 : tensor<12xf32>
      %cst_69 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %166 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %167 = stablehlo.add %iterArg_56, %166 : tensor<12xf32>
      %168 = stablehlo.broadcast_in_dim %163, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %169 = stablehlo.multiply %165, %168 : tensor<12xf32>
      %170 = stablehlo.multiply %iterArg_58, %167 : tensor<12xf32>
      %171 = stablehlo.multiply %iterArg_60, %169 : tensor<12xf32>
      %172 = stablehlo.subtract %170, %171 : tensor<12xf32>
      %173 = stablehlo.multiply %iterArg_59, %167 : tensor<12xf32>
      %174 = stablehlo.multiply %iterArg_61, %169 : tensor<12xf32>
      %175 = stablehlo.subtract %173, %174 : tensor<12xf32>
      %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %176 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %177 = stablehlo.compare NE, %175, %176, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
      %178 = stablehlo.divide %172, %175 : tensor<12xf32>
      %179 = stablehlo.subtract %iterArg_53, %178 : tensor<12xf32>
      %180 = stablehlo.divide %179, %178 : tensor<12xf32>
      %181 = stablehlo.abs %180 : tensor<12xf32>
      %cst_71 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %182 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %183 = stablehlo.select %177, %181, %182 : tensor<12xi1>, tensor<12xf32>
      %184 = stablehlo.select %177, %178, %iterArg_53 : tensor<12xi1>, tensor<12xf32>
      %185 = stablehlo.multiply %iterArg_64, %167 : tensor<12xf32>
      %186 = stablehlo.subtract %185, %iterArg_58 : tensor<12xf32>
      %187 = stablehlo.multiply %iterArg_62, %169 : tensor<12xf32>
      %188 = stablehlo.subtract %186, %187 : tensor<12xf32>
      %189 = stablehlo.broadcast_in_dim %163, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %190 = stablehlo.multiply %iterArg_60, %189 : tensor<12xf32>
      %191 = stablehlo.add %188, %190 : tensor<12xf32>
      %192 = stablehlo.multiply %iterArg_65, %167 : tensor<12xf32>
      %193 = stablehlo.subtract %192, %iterArg_59 : tensor<12xf32>
      %194 = stablehlo.multiply %iterArg_63, %169 : tensor<12xf32>
      %195 = stablehlo.subtract %193, %194 : tensor<12xf32>
      %196 = stablehlo.broadcast_in_dim %163, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %197 = stablehlo.multiply %iterArg_61, %196 : tensor<12xf32>
      %198 = stablehlo.add %195, %197 : tensor<12xf32>
      %199 = stablehlo.multiply %184, %198 : tensor<12xf32>
      %200 = stablehlo.subtract %191, %199 : tensor<12xf32>
      %201 = stablehlo.divide %200, %175 : tensor<12xf32>
      %202 = stablehlo.select %177, %201, %iterArg_66 : tensor<12xi1>, tensor<12xf32>
      %203 = stablehlo.subtract %202, %iterArg_66 : tensor<12xf32>
      %204 = stablehlo.abs %203 : tensor<12xf32>
      %cst_72 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %205 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %206 = stablehlo.select %177, %204, %205 : tensor<12xi1>, tensor<12xf32>
      %207 = stablehlo.abs %172 : tensor<12xf32>
      %cst_73 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %cst_74 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %208 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<f32>
      %209 = stablehlo.divide %208, %cst_73 : tensor<f32>
      %210 = stablehlo.broadcast_in_dim %209, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %211 = stablehlo.compare GT, %207, %210, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
      %cst_75 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %212 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %213 = stablehlo.multiply %iterArg_58, %212 : tensor<12xf32>
      %214 = stablehlo.select %211, %213, %iterArg_58 : tensor<12xi1>, tensor<12xf32>
      %cst_76 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %215 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %216 = stablehlo.multiply %172, %215 : tensor<12xf32>
      %217 = stablehlo.select %211, %216, %172 : tensor<12xi1>, tensor<12xf32>
      %cst_77 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %218 = stablehlo.broadcast_in_dim %cst_77, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %219 = stablehlo.multiply %iterArg_59, %218 : tensor<12xf32>
      %220 = stablehlo.select %211, %219, %iterArg_59 : tensor<12xi1>, tensor<12xf32>
      %cst_78 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %221 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %222 = stablehlo.multiply %175, %221 : tensor<12xf32>
      %223 = stablehlo.select %211, %222, %175 : tensor<12xi1>, tensor<12xf32>
      %cst_79 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %224 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %225 = stablehlo.multiply %iterArg_64, %224 : tensor<12xf32>
      %226 = stablehlo.select %211, %225, %iterArg_64 : tensor<12xi1>, tensor<12xf32>
      %cst_80 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %227 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %228 = stablehlo.multiply %iterArg_65, %227 : tensor<12xf32>
      %229 = stablehlo.select %211, %228, %iterArg_65 : tensor<12xi1>, tensor<12xf32>
      %cst_81 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %230 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %231 = stablehlo.multiply %191, %230 : tensor<12xf32>
      %232 = stablehlo.select %211, %231, %191 : tensor<12xi1>, tensor<12xf32>
      %cst_82 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %233 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %234 = stablehlo.multiply %198, %233 : tensor<12xf32>
      %235 = stablehlo.select %211, %234, %198 : tensor<12xi1>, tensor<12xf32>
      %cst_83 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %236 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %237 = stablehlo.compare GT, %183, %236, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
      %238 = stablehlo.and %iterArg, %237 : tensor<12xi1>
      %239 = stablehlo.select %iterArg, %184, %iterArg_53 : tensor<12xi1>, tensor<12xf32>
      %240 = stablehlo.select %iterArg, %183, %iterArg_54 : tensor<12xi1>, tensor<12xf32>
      %241 = stablehlo.select %iterArg, %165, %iterArg_55 : tensor<12xi1>, tensor<12xf32>
      %242 = stablehlo.select %iterArg, %167, %iterArg_56 : tensor<12xi1>, tensor<12xf32>
      %243 = stablehlo.select %iterArg, %217, %iterArg_58 : tensor<12xi1>, tensor<12xf32>
      %244 = stablehlo.select %iterArg, %223, %iterArg_59 : tensor<12xi1>, tensor<12xf32>
      %245 = stablehlo.select %iterArg, %214, %iterArg_60 : tensor<12xi1>, tensor<12xf32>
      %246 = stablehlo.select %iterArg, %220, %iterArg_61 : tensor<12xi1>, tensor<12xf32>
      %247 = stablehlo.select %iterArg, %226, %iterArg_62 : tensor<12xi1>, tensor<12xf32>
      %248 = stablehlo.select %iterArg, %229, %iterArg_63 : tensor<12xi1>, tensor<12xf32>
      %249 = stablehlo.select %iterArg, %232, %iterArg_64 : tensor<12xi1>, tensor<12xf32>
      %250 = stablehlo.select %iterArg, %235, %iterArg_65 : tensor<12xi1>, tensor<12xf32>
      %251 = stablehlo.select %iterArg, %202, %iterArg_66 : tensor<12xi1>, tensor<12xf32>
      stablehlo.return %238, %239, %240, %241, %242, %163, %243, %244, %245, %246, %247, %248, %249, %250, %251 : tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<f32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
    }
    %136 = stablehlo.multiply %135#1, %110 : tensor<12xf32>
    %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %138 = stablehlo.subtract %137, %136 : tensor<12xf32>
    %139 = stablehlo.not %100 : tensor<12xi1>
    %140 = stablehlo.and %115, %139 : tensor<12xi1>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %145:7 = stablehlo.while(%iterArg = %140, %iterArg_53 = %arg1, %iterArg_54 = %141, %iterArg_55 = %142, %iterArg_56 = %75, %iterArg_57 = %143, %iterArg_58 = %144) : tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      %163 = stablehlo.reduce(%iterArg init: %c) applies stablehlo.or across dimensions = [0] : (tensor<12xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %163 : tensor<i1>
    } do {
      %cst_59 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %163 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %164 = stablehlo.add %iterArg_53, %163 : tensor<12xf32>
      %165 = stablehlo.divide %iterArg_56, %164 : tensor<12xf32>
      %166 = stablehlo.multiply %iterArg_57, %165 : tensor<12xf32>
      %167 = stablehlo.multiply %iterArg_54, %iterArg_56 : tensor<12xf32>
      %168 = stablehlo.multiply %164, %164 : tensor<12xf32>
      %169 = stablehlo.divide %167, %168 : tensor<12xf32>
      %170 = stablehlo.subtract %166, %169 : tensor<12xf32>
      %171 = stablehlo.add %iterArg_58, %170 : tensor<12xf32>
      %172 = stablehlo.divide %iterArg_56, %164 : tensor<12xf32>
      %173 = stablehlo.multiply %iterArg_54, %172 : tensor<12xf32>
      %174 = stablehlo.add %iterArg_55, %173 : tensor<12xf32>
      %175 = stablehlo.divide %173, %174 : tensor<12xf32>
      %cst_60 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %176 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<12xf32>
      %177 = stablehlo.compare GT, %175, %176, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
      %178 = stablehlo.and %iterArg, %177 : tensor<12xi1>
      %179 = stablehlo.select %iterArg, %164, %iterArg_53 : tensor<12xi1>, tensor<12xf32>
      %180 = stablehlo.select %iterArg, %173, %iterArg_54 : tensor<12xi1>, tensor<12xf32>
      %181 = stablehlo.select %iterArg, %174, %iterArg_55 : tensor<12xi1>, tensor<12xf32>
      %182 = stablehlo.select %iterArg, %iterArg_56, %iterArg_56 : tensor<12xi1>, tensor<12xf32>
      %183 = stablehlo.select %iterArg, %170, %iterArg_57 : tensor<12xi1>, tensor<12xf32>
      %184 = stablehlo.select %iterArg, %171, %iterArg_58 : tensor<12xi1>, tensor<12xf32>
      stablehlo.return %178, %179, %180, %181, %182, %183, %184 : tensor<12xi1>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
    }
    %146 = stablehlo.multiply %145#3, %110 : tensor<12xf32>
    %147 = stablehlo.divide %146, %arg1 : tensor<12xf32>
    %148 = stablehlo.select %100, %138, %147 : tensor<12xi1>, tensor<12xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %150 = stablehlo.select %82, %149, %148 : tensor<12xi1>, tensor<12xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %152 = stablehlo.select %86, %151, %150 : tensor<12xi1>, tensor<12xf32>
    %cst_49 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %154 = stablehlo.select %80, %153, %152 : tensor<12xi1>, tensor<12xf32>
    %cst_50 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %156 = stablehlo.select %96, %155, %154 : tensor<12xi1>, tensor<12xf32>
    %157 = chlo.bessel_i1e %arg1 : tensor<12xf32> -> tensor<12xf32>
    %cst_51 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %158 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %159 = stablehlo.add %arg1, %158 : tensor<12xf32>
    %cst_52 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %160 = stablehlo.convert %cst_52 : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %162 = chlo.zeta %159, %161 : tensor<12xf32>, tensor<12xf32> -> tensor<12xf32>
    return %0, %1, %2, %3, %4, %5, %73, %156, %157, %162 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
  }
  func.func private @_where(%arg0: tensor<12xi1>, %arg1: tensor<12xf32>, %arg2: tensor<12xf32>) -> tensor<12xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xf32>
    return %0 : tensor<12xf32>
  }
  func.func private @polyval(%arg0: tensor<5xf32>, %arg1: tensor<12xf32>) -> tensor<12xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<5xf32>) -> tensor<0xf32>
    %2 = stablehlo.slice %arg0 [0:5] : (tensor<5xf32>) -> tensor<5xf32>
    %3 = stablehlo.slice %2 [0:1] : (tensor<5xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %5 = stablehlo.multiply %0, %arg1 : tensor<12xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %7 = stablehlo.add %5, %6 : tensor<12xf32>
    %8 = stablehlo.slice %2 [1:2] : (tensor<5xf32>) -> tensor<1xf32>
    %9 = stablehlo.reshape %8 : (tensor<1xf32>) -> tensor<f32>
    %10 = stablehlo.multiply %7, %arg1 : tensor<12xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %12 = stablehlo.add %10, %11 : tensor<12xf32>
    %13 = stablehlo.slice %2 [2:3] : (tensor<5xf32>) -> tensor<1xf32>
    %14 = stablehlo.reshape %13 : (tensor<1xf32>) -> tensor<f32>
    %15 = stablehlo.multiply %12, %arg1 : tensor<12xf32>
    %16 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %17 = stablehlo.add %15, %16 : tensor<12xf32>
    %18 = stablehlo.slice %2 [3:4] : (tensor<5xf32>) -> tensor<1xf32>
    %19 = stablehlo.reshape %18 : (tensor<1xf32>) -> tensor<f32>
    %20 = stablehlo.multiply %17, %arg1 : tensor<12xf32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %22 = stablehlo.add %20, %21 : tensor<12xf32>
    %23 = stablehlo.slice %2 [4:5] : (tensor<5xf32>) -> tensor<1xf32>
    %24 = stablehlo.reshape %23 : (tensor<1xf32>) -> tensor<f32>
    %25 = stablehlo.multiply %22, %arg1 : tensor<12xf32>
    %26 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %27 = stablehlo.add %25, %26 : tensor<12xf32>
    return %27 : tensor<12xf32>
  }
  func.func private @polyval_0(%arg0: tensor<9xf32>, %arg1: tensor<12xf32>) -> tensor<12xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<9xf32>) -> tensor<0xf32>
    %2 = stablehlo.slice %arg0 [0:9] : (tensor<9xf32>) -> tensor<9xf32>
    %3 = stablehlo.slice %2 [0:1] : (tensor<9xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %5 = stablehlo.multiply %0, %arg1 : tensor<12xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %7 = stablehlo.add %5, %6 : tensor<12xf32>
    %8 = stablehlo.slice %2 [1:2] : (tensor<9xf32>) -> tensor<1xf32>
    %9 = stablehlo.reshape %8 : (tensor<1xf32>) -> tensor<f32>
    %10 = stablehlo.multiply %7, %arg1 : tensor<12xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %12 = stablehlo.add %10, %11 : tensor<12xf32>
    %13 = stablehlo.slice %2 [2:3] : (tensor<9xf32>) -> tensor<1xf32>
    %14 = stablehlo.reshape %13 : (tensor<1xf32>) -> tensor<f32>
    %15 = stablehlo.multiply %12, %arg1 : tensor<12xf32>
    %16 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %17 = stablehlo.add %15, %16 : tensor<12xf32>
    %18 = stablehlo.slice %2 [3:4] : (tensor<9xf32>) -> tensor<1xf32>
    %19 = stablehlo.reshape %18 : (tensor<1xf32>) -> tensor<f32>
    %20 = stablehlo.multiply %17, %arg1 : tensor<12xf32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %22 = stablehlo.add %20, %21 : tensor<12xf32>
    %23 = stablehlo.slice %2 [4:5] : (tensor<9xf32>) -> tensor<1xf32>
    %24 = stablehlo.reshape %23 : (tensor<1xf32>) -> tensor<f32>
    %25 = stablehlo.multiply %22, %arg1 : tensor<12xf32>
    %26 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %27 = stablehlo.add %25, %26 : tensor<12xf32>
    %28 = stablehlo.slice %2 [5:6] : (tensor<9xf32>) -> tensor<1xf32>
    %29 = stablehlo.reshape %28 : (tensor<1xf32>) -> tensor<f32>
    %30 = stablehlo.multiply %27, %arg1 : tensor<12xf32>
    %31 = stablehlo.broadcast_in_dim %29, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %32 = stablehlo.add %30, %31 : tensor<12xf32>
    %33 = stablehlo.slice %2 [6:7] : (tensor<9xf32>) -> tensor<1xf32>
    %34 = stablehlo.reshape %33 : (tensor<1xf32>) -> tensor<f32>
    %35 = stablehlo.multiply %32, %arg1 : tensor<12xf32>
    %36 = stablehlo.broadcast_in_dim %34, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %37 = stablehlo.add %35, %36 : tensor<12xf32>
    %38 = stablehlo.slice %2 [7:8] : (tensor<9xf32>) -> tensor<1xf32>
    %39 = stablehlo.reshape %38 : (tensor<1xf32>) -> tensor<f32>
    %40 = stablehlo.multiply %37, %arg1 : tensor<12xf32>
    %41 = stablehlo.broadcast_in_dim %39, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %42 = stablehlo.add %40, %41 : tensor<12xf32>
    %43 = stablehlo.slice %2 [8:9] : (tensor<9xf32>) -> tensor<1xf32>
    %44 = stablehlo.reshape %43 : (tensor<1xf32>) -> tensor<f32>
    %45 = stablehlo.multiply %42, %arg1 : tensor<12xf32>
    %46 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %47 = stablehlo.add %45, %46 : tensor<12xf32>
    return %47 : tensor<12xf32>
  }
}

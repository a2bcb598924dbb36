module @jit_logistic_regression_hessian attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<20x6xf32>, %arg2: tensor<20xf32>) -> (tensor<6x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %1 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %3 = stablehlo.add %0, %2 : tensor<6x6xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %5 = stablehlo.convert %4 : (tensor<6x6xi1>) -> tensor<6x6xf32>
    %6 = stablehlo.slice %5 [0:6, 0:6] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %7 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<20x6xf32>, tensor<6xf32>) -> tensor<20xf32>
    %8 = stablehlo.dot_general %arg1, %6, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<20x6xf32>, tensor<6x6xf32>) -> tensor<20x6xf32>
    %9 = stablehlo.negate %7 : tensor<20xf32>
    %10 = stablehlo.exponential %9 : tensor<20xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %12 = stablehlo.add %11, %10 : tensor<20xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %14 = stablehlo.divide %13, %12 : tensor<20xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %16 = stablehlo.subtract %15, %14 : tensor<20xf32>
    %17 = stablehlo.multiply %14, %16 : tensor<20xf32>
    %18 = stablehlo.transpose %8, dims = [1, 0] : (tensor<20x6xf32>) -> tensor<6x20xf32>
    %19 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<6x20xf32>
    %21 = stablehlo.multiply %18, %20 : tensor<6x20xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %23 = stablehlo.subtract %22, %14 : tensor<20xf32>
    %24 = stablehlo.negate %21 : tensor<6x20xf32>
    %25 = stablehlo.multiply %14, %23 : tensor<20xf32>
    %26 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<6x20xf32>
    %28 = stablehlo.multiply %21, %27 : tensor<6x20xf32>
    %29 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<6x20xf32>
    %31 = stablehlo.multiply %30, %24 : tensor<6x20xf32>
    %32 = stablehlo.add %28, %31 : tensor<6x20xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %34 = stablehlo.subtract %33, %arg2 : tensor<20xf32>
    %35 = stablehlo.negate %14 : tensor<20xf32>
    %36 = stablehlo.negate %21 : tensor<6x20xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %38 = stablehlo.add %35, %37 : tensor<20xf32>
    %39 = stablehlo.iota dim = 0 : tensor<1x1xi32>
    %40 = stablehlo.iota dim = 1 : tensor<1x1xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %41 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<1x1xi32>
    %42 = stablehlo.add %39, %41 : tensor<1x1xi32>
    %43 = stablehlo.compare EQ, %42, %40, SIGNED : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    %44 = stablehlo.convert %43 : (tensor<1x1xi1>) -> tensor<1x1xf32>
    %45 = stablehlo.slice %44 [0:1, 0:1] : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %46 = stablehlo.reshape %45 : (tensor<1x1xf32>) -> tensor<1xf32>
    %47 = stablehlo.negate %46 : tensor<1xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+01> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %49 = stablehlo.divide %47, %48 : tensor<1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0] : (tensor<1xf32>) -> tensor<1x20xf32>
    %51 = stablehlo.broadcast_in_dim %34, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %52 = stablehlo.multiply %51, %50 : tensor<1x20xf32>
    %53 = stablehlo.broadcast_in_dim %38, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %54 = stablehlo.broadcast_in_dim %36, dims = [0, 2] : (tensor<6x20xf32>) -> tensor<6x1x20xf32>
    %55 = stablehlo.divide %52, %53 : tensor<1x20xf32>
    %56 = stablehlo.negate %54 : tensor<6x1x20xf32>
    %57 = stablehlo.broadcast_in_dim %52, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %59 = stablehlo.multiply %56, %58 : tensor<6x1x20xf32>
    %60 = stablehlo.multiply %53, %53 : tensor<1x20xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x20xf32>
    %62 = stablehlo.divide %61, %60 : tensor<1x20xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %65 = stablehlo.multiply %59, %64 : tensor<6x1x20xf32>
    %66 = stablehlo.negate %55 : tensor<1x20xf32>
    %67 = stablehlo.negate %65 : tensor<6x1x20xf32>
    %68 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %69 = stablehlo.multiply %68, %50 : tensor<1x20xf32>
    %70 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %71 = stablehlo.broadcast_in_dim %21, dims = [0, 2] : (tensor<6x20xf32>) -> tensor<6x1x20xf32>
    %72 = stablehlo.divide %69, %70 : tensor<1x20xf32>
    %73 = stablehlo.negate %71 : tensor<6x1x20xf32>
    %74 = stablehlo.broadcast_in_dim %69, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %76 = stablehlo.multiply %73, %75 : tensor<6x1x20xf32>
    %77 = stablehlo.multiply %70, %70 : tensor<1x20xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1x20xf32>
    %79 = stablehlo.divide %78, %77 : tensor<1x20xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %82 = stablehlo.multiply %76, %81 : tensor<6x1x20xf32>
    %83 = stablehlo.add %66, %72 : tensor<1x20xf32>
    %84 = stablehlo.add %67, %82 : tensor<6x1x20xf32>
    %85 = stablehlo.broadcast_in_dim %25, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %86 = stablehlo.broadcast_in_dim %32, dims = [0, 2] : (tensor<6x20xf32>) -> tensor<6x1x20xf32>
    %87 = stablehlo.broadcast_in_dim %85, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %89 = stablehlo.multiply %84, %88 : tensor<6x1x20xf32>
    %90 = stablehlo.broadcast_in_dim %83, dims = [1, 2] : (tensor<1x20xf32>) -> tensor<1x1x20xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<1x1x20xf32>) -> tensor<6x1x20xf32>
    %92 = stablehlo.multiply %91, %86 : tensor<6x1x20xf32>
    %93 = stablehlo.add %89, %92 : tensor<6x1x20xf32>
    %94 = stablehlo.dot_general %93, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x1x20xf32>, tensor<20x6xf32>) -> tensor<6x1x6xf32>
    %95 = stablehlo.slice %94 [0:6, 0:1, 0:6] : (tensor<6x1x6xf32>) -> tensor<6x1x6xf32>
    %96 = stablehlo.reshape %95 : (tensor<6x1x6xf32>) -> tensor<6x6xf32>
    %97 = stablehlo.transpose %96, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %98 = stablehlo.slice %97 [0:6, 0:6] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    return %98 : tensor<6x6xf32>
  }
}

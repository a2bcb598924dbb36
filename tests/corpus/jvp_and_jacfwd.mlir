module @jit_jvp_and_jacfwd attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5x5xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}, tensor<5x5xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %1 = stablehlo.dot_general %arg2, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %2 = stablehlo.sine %0 : tensor<5xf32>
    %3 = stablehlo.cosine %0 : tensor<5xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<5xf32>
    %5 = stablehlo.multiply %2, %arg0 : tensor<5xf32>
    %6 = stablehlo.multiply %4, %arg0 : tensor<5xf32>
    %7 = stablehlo.multiply %2, %arg1 : tensor<5xf32>
    %8 = stablehlo.add %6, %7 : tensor<5xf32>
    %9 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %10 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %12 = stablehlo.add %9, %11 : tensor<5x5xi32>
    %13 = stablehlo.compare EQ, %12, %10, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %14 = stablehlo.convert %13 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %15 = stablehlo.slice %14 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %16 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %17 = stablehlo.dot_general %arg2, %15, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %18 = stablehlo.sine %16 : tensor<5xf32>
    %19 = stablehlo.cosine %16 : tensor<5xf32>
    %20 = stablehlo.transpose %17, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %23 = stablehlo.multiply %20, %22 : tensor<5x5xf32>
    %24 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %26 = stablehlo.multiply %23, %25 : tensor<5x5xf32>
    %27 = stablehlo.broadcast_in_dim %18, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %29 = stablehlo.multiply %28, %15 : tensor<5x5xf32>
    %30 = stablehlo.add %26, %29 : tensor<5x5xf32>
    %31 = stablehlo.transpose %30, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %32 = stablehlo.slice %31 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    return %5, %8, %32 : tensor<5xf32>, tensor<5xf32>, tensor<5x5xf32>
  }
}

module @jit_scatter_int_2d_indices attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xi32>, %arg1: tensor<5xi32>, %arg2: tensor<5xi32>, %arg3: tensor<5xi32>) -> (tensor<6x4xi32> {jax.result_info = "result[0]"}, tensor<5xi32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5xi1>, tensor<5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %6 = stablehlo.compare LT, %arg2, %5, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %8 = stablehlo.add %arg2, %7 : tensor<5xi32>
    %9 = stablehlo.select %6, %8, %arg2 : tensor<5xi1>, tensor<5xi32>
    %10 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %12 = stablehlo.concatenate %10, %11, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %13 = "stablehlo.scatter"(%arg0, %12, %arg3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>):
      %37 = stablehlo.add %arg4, %arg5 : tensor<i32>
      stablehlo.return %37 : tensor<i32>
    }) : (tensor<6x4xi32>, tensor<5x2xi32>, tensor<5xi32>) -> tensor<6x4xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %15 = stablehlo.compare LT, %arg1, %14, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %17 = stablehlo.add %arg1, %16 : tensor<5xi32>
    %18 = stablehlo.select %15, %17, %arg1 : tensor<5xi1>, tensor<5xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %20 = stablehlo.compare LT, %arg2, %19, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_6 = stablehlo.constant dense<4> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %22 = stablehlo.add %arg2, %21 : tensor<5xi32>
    %23 = stablehlo.select %20, %22, %arg2 : tensor<5xi1>, tensor<5xi32>
    %24 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %25 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %26 = stablehlo.concatenate %24, %25, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %c_7 = stablehlo.constant dense<[5, 3]> : tensor<2xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<5x2xi32>
    %28 = stablehlo.compare GE, %26, %27, SIGNED : (tensor<5x2xi32>, tensor<5x2xi32>) -> tensor<5x2xi1>
    %29 = stablehlo.broadcast_in_dim %c_7, dims = [1] : (tensor<2xi32>) -> tensor<1x2xi32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<1x2xi32>) -> tensor<5x2xi32>
    %31 = stablehlo.compare LE, %26, %30, SIGNED : (tensor<5x2xi32>, tensor<5x2xi32>) -> tensor<5x2xi1>
    %32 = stablehlo.and %28, %31 : tensor<5x2xi1>
    %c_9 = stablehlo.constant dense<true> : tensor<i1>
    %33 = stablehlo.reduce(%32 init: %c_9) applies stablehlo.and across dimensions = [1] : (tensor<5x2xi1>, tensor<i1>) -> tensor<5xi1>
    %34 = "stablehlo.gather"(%arg0, %26) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x4xi32>, tensor<5x2xi32>) -> tensor<5xi32>
    %c_10 = stablehlo.constant dense<-1> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %36 = stablehlo.select %33, %34, %35 : tensor<5xi1>, tensor<5xi32>
    return %13, %36 : tensor<6x4xi32>, tensor<5xi32>
  }
}

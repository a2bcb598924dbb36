module @jit_embedding_lookup_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20x8xf32>, %arg1: tensor<4x6xi32>) -> (tensor<20x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
    %c_0 = stablehlo.constant dense<20> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x6xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x6xi1>, tensor<4x6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x6xi32>) -> tensor<4x6x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<20x8xf32>, tensor<4x6x1xi32>) -> tensor<4x6x8xf32>
    %7 = stablehlo.tanh %6 : tensor<4x6x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6x8xf32>
    %9 = stablehlo.add %8, %7 : tensor<4x6x8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x6x8xf32>
    %11 = stablehlo.subtract %10, %7 : tensor<4x6x8xf32>
    %12 = stablehlo.multiply %9, %11 : tensor<4x6x8xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x6x8xf32>
    %14 = stablehlo.multiply %13, %12 : tensor<4x6x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20x8xf32>
    %16 = "stablehlo.scatter"(%15, %5, %14) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %17 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %17 : tensor<f32>
    }) : (tensor<20x8xf32>, tensor<4x6x1xi32>, tensor<4x6x8xf32>) -> tensor<20x8xf32>
    return %16 : tensor<20x8xf32>
  }
}

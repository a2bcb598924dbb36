module @jit_vmap_gather attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10x3xf32>, %arg1: tensor<4x2xi32>) -> (tensor<4x2x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x2xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x2xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x2xi1>, tensor<4x2xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x2xi32>) -> tensor<4x2x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<4x10x3xf32>, tensor<4x2x1xi32>) -> tensor<4x2x3xf32>
    return %6 : tensor<4x2x3xf32>
  }
}

// Gather, scatter, dynamic slicing and strided slices at their edges.
// Expected values were computed by running each program through XLA:CPU
// (jaxlib 0.11.2); the comments say why they are right.
func.func @main() {
  // Gather clamps each start index so the whole slice fits: with 2-row
  // slices of a 5-row operand, start 4 becomes 3 and start -3 becomes 0.
  %x = stablehlo.constant dense<[[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32], [40, 41, 42]]> : tensor<5x3xi32>
  %i = stablehlo.constant dense<[[1], [4], [-3], [100]]> : tensor<4x1xi32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3>}> : (tensor<5x3xi32>, tensor<4x1xi32>) -> tensor<4x2x3xi32>
  check.expect_eq_const %g, dense<[[[10, 11, 12], [20, 21, 22]], [[30, 31, 32], [40, 41, 42]], [[0, 1, 2], [10, 11, 12]], [[30, 31, 32], [40, 41, 42]]]> : tensor<4x2x3xi32>
  return
}

// -----

func.func @main() {
  // Two-component indices through a permuted start_index_map ([1, 0]: the
  // first component indexes columns), each component clamped on its own
  // dimension; index_vector_dim = 0 puts the components in the leading dim.
  %x = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>
  %i = stablehlo.constant dense<[[0, 3, -1, 9], [1, 2, 5, -4]]> : tensor<2x4xi32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<3x4xi32>, tensor<2x4xi32>) -> tensor<4x2xi32>
  check.expect_eq_const %g, dense<[[10, 11], [22, 23], [20, 21], [2, 3]]> : tensor<4x2xi32>
  return
}

// -----

func.func @main() {
  // Batching dims: operand dim 0 pairs with indices dim 1 (not the leading
  // one), so result[b0, b1, :] slices operand row b1 at a clamped column.
  %x = stablehlo.constant dense<[[0, 1, 2, 3, 4], [50, 51, 52, 53, 54]]> : tensor<2x5xi32>
  %i = stablehlo.constant dense<[[[0], [1]], [[4], [-2]], [[2], [3]]]> : tensor<3x2x1xi32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<2x5xi32>, tensor<3x2x1xi32>) -> tensor<3x2x2xi32>
  check.expect_eq_const %g, dense<[[[0, 1], [51, 52]], [[3, 4], [50, 51]], [[2, 3], [53, 54]]]> : tensor<3x2x2xi32>
  return
}

// -----

func.func @main() {
  // An empty set of indices gathers nothing: a 0x2 result.
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = stablehlo.constant dense<> : tensor<0x1xi32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<2x2xf32>, tensor<0x1xi32>) -> tensor<0x2xf32>
  check.expect_eq_const %g, dense<> : tensor<0x2xf32>
  return
}

// -----

func.func @main() {
  // torch.gather / jnp.take_along_axis(x, idx, axis=1) as JAX lowers it:
  // a batching gather (row b, column idx[b, j]).
  %x = stablehlo.constant dense<[[1.5, 2.5, 3.5], [-1.0, -2.0, -3.0]]> : tensor<2x3xf32>
  %i = stablehlo.constant dense<[[[2], [0], [2]], [[1], [1], [0]]]> : tensor<2x3x1xi32>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x3x1xi32>) -> tensor<2x3xf32>
  check.expect_eq_const %g, dense<[[3.5, 1.5, 3.5], [-2.0, -2.0, -1.0]]> : tensor<2x3xf32>
  // The same take-along written without batching dims: full (row, column)
  // index pairs built from an iota, as older lowerings did.
  %rows = stablehlo.iota dim = 0 : tensor<2x3x1xi32>
  %ij = stablehlo.concatenate %rows, %i, dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
  %h = "stablehlo.gather"(%x, %ij) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x3x2xi32>) -> tensor<2x3xf32>
  check.expect_eq %g, %h : tensor<2x3xf32>
  return
}

// -----

func.func @main() {
  // Scatter with duplicate indices and an add body accumulates every update
  // that lands on the same element: x[1] = 200 + 1 + 2 + 4.
  %x = stablehlo.constant dense<[100, 200, 300, 400]> : tensor<4xi32>
  %i = stablehlo.constant dense<[[1], [1], [3], [1]]> : tensor<4x1xi32>
  %u = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }) : (tensor<4xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %s, dense<[100, 207, 300, 403]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  // Out-of-bounds update windows are skipped whole, not clamped: with
  // 2-wide windows on 5 elements, starts 4, -1 and 7 drop their windows;
  // starts 0 and 3 (the last one that fits) are applied.
  %x = stablehlo.constant dense<[0, 0, 0, 0, 0]> : tensor<5xi32>
  %i = stablehlo.constant dense<[[4], [-1], [0], [3], [7]]> : tensor<5x1xi32>
  %u = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }) : (tensor<5xi32>, tensor<5x1xi32>, tensor<5x2xi32>) -> tensor<5xi32>
  check.expect_eq_const %s, dense<[5, 6, 0, 7, 8]> : tensor<5xi32>
  return
}

// -----

func.func @main() {
  // 2-D windows: a window is dropped if it leaves the operand in any
  // dimension (start [1, 2] with 2x2 windows on 3x3 does); [1, 1] applies.
  %x = stablehlo.constant dense<0.0> : tensor<3x3xf32>
  %i = stablehlo.constant dense<[[1, 2], [1, 1], [-1, 0]]> : tensor<3x2xi32>
  %u = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[9.0, 9.0], [9.0, 9.0]]]> : tensor<3x2x2xf32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<3x3xf32>, tensor<3x2xi32>, tensor<3x2x2xf32>) -> tensor<3x3xf32>
  check.expect_eq_const %s, dense<[[0.0, 0.0, 0.0], [0.0, 5.0, 6.0], [0.0, 7.0, 8.0]]> : tensor<3x3xf32>
  return
}

// -----

func.func @main() {
  // Bodies other than add, with duplicates: max keeps the largest of the
  // operand and all updates (x.at[i].max(u)); multiply takes their product.
  %x = stablehlo.constant dense<[5.0, -1.0, 2.0, 0.0]> : tensor<4xf32>
  %i = stablehlo.constant dense<[[0], [1], [1], [2], [2]]> : tensor<5x1xi32>
  %u = stablehlo.constant dense<[3.0, -4.0, 7.0, -2.0, 0.5]> : tensor<5xf32>
  %m = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<4xf32>
  check.expect_eq_const %m, dense<[5.0, 7.0, 2.0, 0.0]> : tensor<4xf32>
  %p = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<4xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<4xf32>
  check.expect_eq_const %p, dense<[15.0, 28.0, -2.0, 0.0]> : tensor<4xf32>
  return
}

// -----

func.func @main() {
  // Zero updates leave the operand unchanged.
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<> : tensor<0x1xi32>
  %u = stablehlo.constant dense<> : tensor<0xf32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<3xf32>, tensor<0x1xi32>, tensor<0xf32>) -> tensor<3xf32>
  check.expect_eq_const %s, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // dynamic_slice clamps every start into [0, dim - size] on its own
  // dimension: (-5, 7) becomes (0, 2) and (9, -1) becomes (1, 0).
  %x = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>
  %neg = stablehlo.constant dense<-5> : tensor<i32>
  %big = stablehlo.constant dense<7> : tensor<i32>
  %a = stablehlo.dynamic_slice %x, %neg, %big, sizes = [2, 2] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  check.expect_eq_const %a, dense<[[2, 3], [12, 13]]> : tensor<2x2xi32>
  %nine = stablehlo.constant dense<9> : tensor<i64>
  %m1 = stablehlo.constant dense<-1> : tensor<i64>
  %b = stablehlo.dynamic_slice %x, %nine, %m1, sizes = [2, 3] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi32>
  // A full-size slice can only start at 0.
  %c = stablehlo.dynamic_slice %x, %big, %big, sizes = [3, 4] : (tensor<3x4xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq %c, %x : tensor<3x4xi32>
  return
}

// -----

func.func @main() {
  // dynamic_update_slice clamps the same way: start (-5, 7) writes the 2x2
  // update at (0, 2); start (2, -1) writes it at (1, 0).
  %x = stablehlo.constant dense<0> : tensor<3x4xi32>
  %u = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %neg = stablehlo.constant dense<-5> : tensor<i32>
  %big = stablehlo.constant dense<7> : tensor<i32>
  %a = stablehlo.dynamic_update_slice %x, %u, %neg, %big : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %a, dense<[[0, 0, 1, 2], [0, 0, 3, 4], [0, 0, 0, 0]]> : tensor<3x4xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %b = stablehlo.dynamic_update_slice %x, %u, %two, %m1 : (tensor<3x4xi32>, tensor<2x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %b, dense<[[0, 0, 0, 0], [1, 2, 0, 0], [3, 4, 0, 0]]> : tensor<3x4xi32>
  return
}

// -----

func.func @main() {
  // Strided slices: [1:8:3] of 0..9 takes 1, 4, 7; a limit that is not a
  // whole number of strides past the start still yields ceil((8-1)/3) = 3.
  %x = stablehlo.iota dim = 0 : tensor<10xi32>
  %a = stablehlo.slice %x [1:8:3] : (tensor<10xi32>) -> tensor<3xi32>
  check.expect_eq_const %a, dense<[1, 4, 7]> : tensor<3xi32>
  %y = stablehlo.constant dense<[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34]]> : tensor<4x5xi32>
  %b = stablehlo.slice %y [1:4:2, 0:5:4] : (tensor<4x5xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %b, dense<[[10, 14], [30, 34]]> : tensor<2x2xi32>
  // An empty range gives an empty result.
  %c = stablehlo.slice %y [2:2, 1:5:3] : (tensor<4x5xi32>) -> tensor<0x2xi32>
  check.expect_eq_const %c, dense<> : tensor<0x2xi32>
  return
}

// -----

func.func @main() {
  // Wide and unsigned index types: a ui8 start of 255 clamps to the last
  // valid start (3); an i64 start of 2^32 + 1 clamps too rather than
  // wrapping to 1 as a 32-bit truncation would.
  %x = stablehlo.constant dense<[0, 10, 20, 30, 40]> : tensor<5xi32>
  %i = stablehlo.constant dense<[[255], [1]]> : tensor<2x1xui8>
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2>}> : (tensor<5xi32>, tensor<2x1xui8>) -> tensor<2x2xi32>
  check.expect_eq_const %g, dense<[[30, 40], [10, 20]]> : tensor<2x2xi32>
  %j = stablehlo.constant dense<[[4294967297], [-4294967295]]> : tensor<2x1xi64>
  %h = "stablehlo.gather"(%x, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2>}> : (tensor<5xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %h, dense<[[30, 40], [0, 10]]> : tensor<2x2xi32>
  return
}

// -----

func.func @main() {
  // Scatter with i64 indices past 2^32: 4294967297 is out of bounds and its
  // update is skipped (not applied at 1); ui8 index 255 is skipped as well.
  %x = stablehlo.constant dense<[0, 0, 0, 0]> : tensor<4xi32>
  %i = stablehlo.constant dense<[[4294967297], [2], [-4294967294]]> : tensor<3x1xi64>
  %u = stablehlo.constant dense<[5, 6, 7]> : tensor<3xi32>
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }) : (tensor<4xi32>, tensor<3x1xi64>, tensor<3xi32>) -> tensor<4xi32>
  check.expect_eq_const %s, dense<[0, 0, 6, 0]> : tensor<4xi32>
  %j = stablehlo.constant dense<[[255], [0]]> : tensor<2x1xui8>
  %v = stablehlo.constant dense<[8, 9]> : tensor<2xi32>
  %t = "stablehlo.scatter"(%x, %j, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }) : (tensor<4xi32>, tensor<2x1xui8>, tensor<2xi32>) -> tensor<4xi32>
  check.expect_eq_const %t, dense<[9, 0, 0, 0]> : tensor<4xi32>
  return
}

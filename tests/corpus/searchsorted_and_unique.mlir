module @jit_searchsorted_and_unique attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>, %arg1: tensor<5xf32>) -> (tensor<5xi32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = call @sort(%arg0) : (tensor<20xf32>) -> tensor<20xf32>
    %1 = call @searchsorted(%0, %arg1) : (tensor<20xf32>, tensor<5xf32>) -> tensor<5xi32>
    %2 = call @round(%arg0) : (tensor<20xf32>) -> tensor<20xf32>
    %3:2 = call @_unique_sorted_mask(%2) : (tensor<20xf32>) -> (tensor<20xf32>, tensor<20xi1>)
    %4 = call @cumsum(%3#1) : (tensor<20xi1>) -> tensor<20xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %6 = call @clip(%4, %c_0) : (tensor<20xi32>, tensor<i32>) -> tensor<20xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %8 = stablehlo.compare LT, %6, %7, SIGNED : (tensor<20xi32>, tensor<20xi32>) -> tensor<20xi1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %10 = stablehlo.add %6, %9 : tensor<20xi32>
    %11 = stablehlo.select %8, %10, %6 : tensor<20xi1>, tensor<20xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<20xi32>) -> tensor<20x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %14 = "stablehlo.scatter"(%5, %12, %13) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %31 = stablehlo.add %arg2, %arg3 : tensor<i32>
      stablehlo.return %31 : tensor<i32>
    }) : (tensor<8xi32>, tensor<20x1xi32>, tensor<20xi32>) -> tensor<8xi32>
    %15 = call @cumsum_2(%14) : (tensor<8xi32>) -> tensor<8xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %16 = call @floor_divide_4(%15, %c_4) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
    %c_5 = stablehlo.constant dense<20> : tensor<i32>
    %17 = call @remainder(%16, %c_5) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %19 = stablehlo.compare LT, %17, %18, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_7 = stablehlo.constant dense<20> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %21 = stablehlo.add %17, %20 : tensor<8xi32>
    %22 = stablehlo.select %19, %21, %17 : tensor<8xi1>, tensor<8xi32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %24 = "stablehlo.gather"(%3#0, %23) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<20xf32>, tensor<8x1xi32>) -> tensor<8xf32>
    %25 = stablehlo.iota dim = 0 : tensor<8xi32>
    %26 = stablehlo.convert %3#1 : (tensor<20xi1>) -> tensor<20xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %27 = stablehlo.reduce(%26 init: %c_8) applies stablehlo.add across dimensions = [0] : (tensor<20xi32>, tensor<i32>) -> tensor<i32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %29 = stablehlo.compare LT, %25, %28, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = call @_where_6(%29, %24, %cst) : (tensor<8xi1>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    return %1, %30 : tensor<5xi32>, tensor<8xf32>
  }
  func.func private @sort(%arg0: tensor<20xf32>) -> tensor<20xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<20xf32>) -> tensor<20xf32>
    return %0 : tensor<20xf32>
  }
  func.func private @searchsorted(%arg0: tensor<20xf32>, %arg1: tensor<5xf32>) -> tensor<5xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<20xf32>, tensor<5xf32>) -> tensor<5xi32>
    return %0 : tensor<5xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<20xf32>, %arg1: tensor<5xf32>) -> tensor<5xi32> {
    %0 = call @_searchsorted_scan_impl_0(%arg0, %arg1) : (tensor<20xf32>, tensor<5xf32>) -> tensor<5xi32>
    return %0 : tensor<5xi32>
  }
  func.func private @_searchsorted_scan_impl_0(%arg0: tensor<20xf32>, %arg1: tensor<5xf32>) -> tensor<5xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<5xui32>
    %c_0 = stablehlo.constant dense<20> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<5xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<20xf32>, tensor<5xf32>, tensor<i32>, tensor<5xui32>, tensor<5xui32>
    cond {
      %c_6 = stablehlo.constant dense<5> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.subtract %iterArg_5, %iterArg_4 : tensor<5xui32>
      %c_6 = stablehlo.constant dense<2> : tensor<i32>
      %5 = func.call @floor_divide(%4, %c_6) : (tensor<5xui32>, tensor<i32>) -> tensor<5xui32>
      %6 = stablehlo.add %iterArg_4, %5 : tensor<5xui32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<5xui32>) -> tensor<5x1xui32>
      %8 = "stablehlo.gather"(%iterArg, %7) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<20xf32>, tensor<5x1xui32>) -> tensor<5x1xf32>
      %9 = stablehlo.reshape %8 : (tensor<5x1xf32>) -> tensor<5xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %11 = stablehlo.compare EQ, %iterArg_2, %10, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %13 = stablehlo.select %11, %12, %iterArg_2 : tensor<5xi1>, tensor<5xf32>
      %14 = stablehlo.compare NE, %iterArg_2, %iterArg_2, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
      %cst_8 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %16 = stablehlo.select %14, %15, %13 : tensor<5xi1>, tensor<5xf32>
      %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %18 = stablehlo.compare EQ, %9, %17, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
      %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %19 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %20 = stablehlo.select %18, %19, %9 : tensor<5xi1>, tensor<5xf32>
      %21 = stablehlo.compare NE, %9, %9, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
      %cst_11 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %22 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %23 = stablehlo.select %21, %22, %20 : tensor<5xi1>, tensor<5xf32>
      %24 = stablehlo.compare LE, %16, %23, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
      %25 = stablehlo.select %24, %iterArg_4, %6 : tensor<5xi1>, tensor<5xui32>
      %26 = stablehlo.select %24, %6, %iterArg_5 : tensor<5xi1>, tensor<5xui32>
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %27 = stablehlo.add %iterArg_3, %c_12 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %27, %25, %26 : tensor<20xf32>, tensor<5xf32>, tensor<i32>, tensor<5xui32>, tensor<5xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<5xui32>) -> tensor<5xi32>
    return %3 : tensor<5xi32>
  }
  func.func private @floor_divide(%arg0: tensor<5xui32>, %arg1: tensor<i32>) -> tensor<5xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<5xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<5xui32>
    return %2 : tensor<5xui32>
  }
  func.func private @round(%arg0: tensor<20xf32>) -> tensor<20xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<20xf32>
    return %0 : tensor<20xf32>
  }
  func.func private @_unique_sorted_mask(%arg0: tensor<20xf32>) -> (tensor<20xf32>, tensor<20xi1>) {
    %0 = stablehlo.reshape %arg0 : (tensor<20xf32>) -> tensor<20x1xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<20x1xf32>) -> tensor<1x20xf32>
    %2 = stablehlo.reverse %1, dims = [0] : tensor<1x20xf32>
    %3 = call @lexsort(%2) : (tensor<1x20xf32>) -> tensor<20xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %5 = stablehlo.compare LT, %3, %4, SIGNED : (tensor<20xi32>, tensor<20xi32>) -> tensor<20xi1>
    %c_0 = stablehlo.constant dense<20> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %7 = stablehlo.add %3, %6 : tensor<20xi32>
    %8 = stablehlo.select %5, %7, %3 : tensor<20xi1>, tensor<20xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<20xi32>) -> tensor<20x1xi32>
    %10 = "stablehlo.gather"(%arg0, %9) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<20xf32>, tensor<20x1xi32>) -> tensor<20xf32>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %11 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<20xi1>
    %12 = stablehlo.slice %10 [1:20] : (tensor<20xf32>) -> tensor<19xf32>
    %13 = stablehlo.slice %10 [0:19] : (tensor<20xf32>) -> tensor<19xf32>
    %14 = stablehlo.compare NE, %12, %13, FLOAT : (tensor<19xf32>, tensor<19xf32>) -> tensor<19xi1>
    %15 = stablehlo.compare NE, %12, %12, FLOAT : (tensor<19xf32>, tensor<19xf32>) -> tensor<19xi1>
    %16 = stablehlo.compare NE, %13, %13, FLOAT : (tensor<19xf32>, tensor<19xf32>) -> tensor<19xi1>
    %17 = stablehlo.and %15, %16 : tensor<19xi1>
    %18 = stablehlo.not %17 : tensor<19xi1>
    %19 = stablehlo.and %14, %18 : tensor<19xi1>
    %c_2 = stablehlo.constant dense<false> : tensor<i1>
    %20 = stablehlo.reduce(%19 init: %c_2) applies stablehlo.or across dimensions = [] : (tensor<19xi1>, tensor<i1>) -> tensor<19xi1>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %22 = "stablehlo.scatter"(%11, %21, %20) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      stablehlo.return %arg2 : tensor<i1>
    }) : (tensor<20xi1>, tensor<1xi32>, tensor<19xi1>) -> tensor<20xi1>
    return %10, %22 : tensor<20xf32>, tensor<20xi1>
  }
  func.func private @lexsort(%arg0: tensor<1x20xf32>) -> tensor<20xi32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:20] : (tensor<1x20xf32>) -> tensor<1x20xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x20xf32>) -> tensor<20xf32>
    %2 = stablehlo.iota dim = 0 : tensor<20xi32>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.select %4, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %6 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %7 = stablehlo.select %6, %cst_1, %5 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %9 = stablehlo.select %8, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %11 = stablehlo.select %10, %cst_4, %9 : tensor<i1>, tensor<f32>
      %12 = stablehlo.compare LT, %7, %11, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }) : (tensor<20xf32>, tensor<20xi32>) -> (tensor<20xf32>, tensor<20xi32>)
    return %3#1 : tensor<20xi32>
  }
  func.func private @cumsum(%arg0: tensor<20xi1>) -> tensor<20xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<20xi1>) -> tensor<20xi32>
    %1 = call @cumsum_1(%0) : (tensor<20xi32>) -> tensor<20xi32>
    return %1 : tensor<20xi32>
  }
  func.func private @cumsum_1(%arg0: tensor<20xi32>) -> tensor<20xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[19, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 20>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<20xi32>, tensor<i32>) -> tensor<20xi32>
    return %1 : tensor<20xi32>
  }
  func.func private @clip(%arg0: tensor<20xi32>, %arg1: tensor<i32>) -> tensor<20xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<20xi32>
    return %2 : tensor<20xi32>
  }
  func.func private @cumsum_2(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %0 = call @cumsum_3(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @cumsum_3(%arg0: tensor<8xi32>) -> tensor<8xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[7, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 8>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<8xi32>, tensor<i32>) -> tensor<8xi32>
    return %1 : tensor<8xi32>
  }
  func.func private @floor_divide_4(%arg0: tensor<8xi32>, %arg1: tensor<i32>) -> tensor<8xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.divide %arg0, %0 : tensor<8xi32>
    %2 = stablehlo.sign %arg0 : tensor<8xi32>
    %3 = stablehlo.sign %arg1 : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %5 = stablehlo.compare NE, %2, %4, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %6 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %7 = stablehlo.remainder %arg0, %6 : tensor<8xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %9 = stablehlo.compare NE, %7, %8, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %10 = stablehlo.and %5, %9 : tensor<8xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %12 = stablehlo.subtract %1, %11 : tensor<8xi32>
    %13 = call @_where(%10, %12, %1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    return %13 : tensor<8xi32>
  }
  func.func private @_where(%arg0: tensor<8xi1>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>) -> tensor<8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8xi1>, tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @remainder(%arg0: tensor<8xi32>, %arg1: tensor<i32>) -> tensor<8xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where_5(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<8xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<8xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    %12 = stablehlo.and %11, %6 : tensor<8xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %14 = stablehlo.add %4, %13 : tensor<8xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<8xi1>, tensor<8xi32>
    return %15 : tensor<8xi32>
  }
  func.func private @_where_5(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_6(%arg0: tensor<8xi1>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> tensor<8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<8xi1>, tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}

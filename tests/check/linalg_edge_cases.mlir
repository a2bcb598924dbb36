// Linear-algebra edge cases: dot_general, convolution, cholesky,
// triangular_solve and fft. Expected values come from XLA:CPU (the same
// StableHLO run through jaxlib's compiler), cross-checked by hand where noted.
func.func @main() {
  // A zero-size contracting dimension sums nothing: every output is +0.
  %a = stablehlo.constant dense<> : tensor<2x0xf32>
  %b = stablehlo.constant dense<> : tensor<0x3xf32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %d, dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  return
}

// -----

func.func @main() {
  // Batch dim 0 on both sides; lhs is [b, k, m] and rhs is [b, n, k], so the
  // contraction runs over lhs dim 1 and rhs dim 2; result is [b, m, n].
  // Batch 0: A^T = [[1,3,5],[2,4,6]], B^T = [[1,0],[0,1],[1,1]] -> [[6,8],[8,10]].
  %a = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[-1.0, 0.5], [2.0, -2.0], [0.0, 1.0]]]> : tensor<2x3x2xf32>
  %b = stablehlo.constant dense<[[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], [[2.0, 1.0, 0.0], [-1.0, 3.0, 4.0]]]> : tensor<2x2x3xf32>
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x3x2xf32>, tensor<2x2x3xf32>) -> tensor<2x2x2xf32>
  check.expect_eq_const %d, dense<[[[6.0, 8.0], [8.0, 10.0]], [[0.0, 7.0], [-1.0, -2.5]]]> : tensor<2x2x2xf32>
  return
}

// -----

func.func @main() {
  // Both operands transposed: lhs [k, m], rhs [n, k], contract lhs dim 0 with
  // rhs dim 1 (A^T . B^T).
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b = stablehlo.constant dense<[[1.0, 1.0, 1.0], [1.0, -1.0, 0.5], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x2xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %d, dense<[[9.0, 0.5, 10.0], [12.0, 1.0, 12.0]]> : tensor<2x3xf32>
  return
}

// -----

func.func @main() {
  // Integer dot wraps modulo 2^32: 65536*65536 = 2^32 -> 0, and
  // 2147483647*2 + 65536 wraps to 65534.
  %a = stablehlo.constant dense<[[65536, 65536, 2147483647], [-2147483648, 1, 0]]> : tensor<2x3xi32>
  %b = stablehlo.constant dense<[[65536, -1], [1, 0], [2, 3]]> : tensor<3x2xi32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %d, dense<[[65534, 2147418109], [1, -2147483648]]> : tensor<2x2xi32>
  // i8 operands with an i32 result (preferred_element_type=int32): no i8
  // wraparound, 127*127 + (-128)*(-128) = 32513.
  %c = stablehlo.constant dense<[[127, -128]]> : tensor<1x2xi8>
  %e = stablehlo.constant dense<[[127], [-128]]> : tensor<2x1xi8>
  %f = stablehlo.dot_general %c, %e, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi32>
  check.expect_eq_const %f, dense<[[32513]]> : tensor<1x1xi32>
  return
}

// -----

func.func @main() {
  // NaN/inf in a dot: inf*0 = NaN, inf + 1 = inf, inf - inf = NaN, and a NaN
  // input poisons every output in its row.
  %a = stablehlo.constant dense<[[0x7F800000, 1.0], [0x7F800000, 0xFF800000], [1.0, 2.0], [0x7FC00000, 0.0]]> : tensor<4x2xf32>
  %b = stablehlo.constant dense<[[0.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  check.expect_almost_eq_const %d, dense<[[0xFFC00000, 0x7F800000], [0xFFC00000, 0xFFC00000], [2.0, 3.0], [0x7FC00000, 0x7FC00000]]> : tensor<4x2xf32>
  return
}

// -----

func.func @main() {
  // bf16 operands with an f32 result, as JAX emits for
  // preferred_element_type=float32: the products and sum are kept in f32.
  // (1 + 2^-7)^2 * 2 = 2 + 2^-5 + 2^-13 = 2.0313720703125, which bf16 could not
  // hold (it would round to 2.03125).
  %a = stablehlo.constant dense<[[1.0078125, 1.0078125], [3.0, 0.5]]> : tensor<2x2xbf16>
  %b = stablehlo.constant dense<[[1.0078125], [1.0078125]]> : tensor<2x1xbf16>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x2xbf16>, tensor<2x1xbf16>) -> tensor<2x1xf32>
  check.expect_eq_const %d, dense<[[2.031372], [3.5273438]]> : tensor<2x1xf32>
  // f16 operands with an f32 result: 300*300 = 90000 overflows f16 (max
  // 65504) but not the f32 result.
  %c = stablehlo.constant dense<[[300.0, 1.0009765625]]> : tensor<1x2xf16>
  %e = stablehlo.constant dense<[[300.0], [1.0009765625]]> : tensor<2x1xf16>
  %f = stablehlo.dot_general %c, %e, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2xf16>, tensor<2x1xf16>) -> tensor<1x1xf32>
  check.expect_eq_const %f, dense<[[90001.0]]> : tensor<1x1xf32>
  return
}

// -----

func.func @main() {
  // 2-D convolution in the default NCHW/OIHW layout with stride 2 and
  // asymmetric padding (top/bottom 1, left 1, right 0): lax.conv_general_dilated
  // with window_strides=(2, 2), padding=((1, 1), (1, 0)).
  %x = stablehlo.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
  %w = stablehlo.constant dense<[[[[1.0, -1.0], [2.0, 0.5]]]]> : tensor<1x1x2x2xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [1, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x2xf32>
  check.expect_eq_const %y, dense<[[[[0.5, 5.5], [-0.5, 24.5], [-13.0, -1.0]]]]> : tensor<1x1x3x2xf32>
  return
}

// -----

func.func @main() {
  // NHWC input, HWIO kernel, NHWC output (dimension_numbers=('NHWC', 'HWIO',
  // 'NHWC')) with lhs dilation 2 along H (a transposed conv: zeros inserted
  // between input rows), rhs dilation 2 along W, and padding [[1, 1], [0, 1]].
  // Two input channels, two output channels.
  %x = stablehlo.constant dense<[[[[1.0, -1.0], [2.0, 0.0], [3.0, 1.0]], [[4.0, 2.0], [5.0, -2.0], [6.0, 0.5]]]]> : tensor<1x2x3x2xf32>
  %w = stablehlo.constant dense<[[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 1.0], [-1.0, 0.0]]], [[[0.5, 0.0], [1.0, 1.0]], [[0.0, -1.0], [3.0, 2.0]]]]> : tensor<2x2x2x2xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [0, 1]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x3x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  check.expect_eq_const %y, dense<[[[[2.5, -2.0], [1.0, 0.0]], [[6.0, 2.0], [2.0, 0.0]], [[5.5, -3.0], [0.5, -2.0]], [[15.5, 8.0], [5.0, -2.0]]]]> : tensor<1x4x2x2xf32>
  return
}

// -----

func.func @main() {
  // Depthwise 1-D conv (feature_group_count = 2): each of the two input
  // channels is convolved only with its own kernel. Channel 0 with [1, 0, -1]
  // gives x[i] - x[i+2] = [-2, -2, -2]; channel 1 with [1, 1, 1] gives window sums.
  %x = stablehlo.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0], [10.0, 20.0, 30.0, 40.0, 50.0]]]> : tensor<1x2x5xf32>
  %w = stablehlo.constant dense<[[[1.0, 0.0, -1.0]], [[1.0, 1.0, 1.0]]]> : tensor<2x1x3xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x5xf32>, tensor<2x1x3xf32>) -> tensor<1x2x3xf32>
  check.expect_eq_const %y, dense<[[[-2.0, -2.0, -2.0], [60.0, 90.0, 120.0]]]> : tensor<1x2x3xf32>
  return
}

// -----

func.func @main() {
  // batch_group_count = 2 (the form of a weight gradient): the batch of 2 is
  // split into two groups, output feature o uses batch group o; output batch is 1.
  // Feature 0: batch 0 [1,2,3,4] with [1,1] -> [3,5,7]; feature 1: batch 1
  // [5,6,7,8] with [1,-1] -> [-1,-1,-1].
  %x = stablehlo.constant dense<[[[1.0, 2.0, 3.0, 4.0]], [[5.0, 6.0, 7.0, 8.0]]]> : tensor<2x1x4xf32>
  %w = stablehlo.constant dense<[[[1.0, 1.0]], [[1.0, -1.0]]]> : tensor<2x1x2xf32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x1x4xf32>, tensor<2x1x2xf32>) -> tensor<1x2x3xf32>
  check.expect_eq_const %y, dense<[[[3.0, 5.0, 7.0], [-1.0, -1.0, -1.0]]]> : tensor<1x2x3xf32>
  return
}

// -----

func.func @main() {
  // Integer (i32) 1-D convolution with negative low padding (crops the first
  // input element), positive high padding, and window reversal (the kernel is
  // flipped, i.e. a true convolution rather than a correlation):
  // input [0, 1, 2, 3, 4] padded by [-1, 2] is [1, 2, 3, 4, 0, 0]; with the
  // reversed kernel [1, 10, 100] -> [321, 432, 43, 4].
  %x = stablehlo.constant dense<[[[0, 1, 2, 3, 4]]]> : tensor<1x1x5xi32>
  %w = stablehlo.constant dense<[[[100, 10, 1]]]> : tensor<1x1x3xi32>
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[-1, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x5xi32>, tensor<1x1x3xi32>) -> tensor<1x1x4xi32>
  check.expect_eq_const %y, dense<[[[321, 432, 43, 4]]]> : tensor<1x1x4xi32>
  return
}

// -----

func.func @main() {
  // Cholesky of A = L L^T with L = [[2,0,0],[1,3,0],[-1,1,2]]; lower = false
  // gives U = L^T. The triangle not produced is implementation-defined, so it
  // is masked to zero (as JAX's lowering does) before comparing.
  %a = stablehlo.constant dense<[[4.0, 2.0, -2.0], [2.0, 10.0, 2.0], [-2.0, 2.0, 6.0]]> : tensor<3x3xf32>
  %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  %u = stablehlo.cholesky %a, lower = false : tensor<3x3xf32>
  %r = stablehlo.iota dim = 0 : tensor<3x3xi32>
  %c = stablehlo.iota dim = 1 : tensor<3x3xi32>
  %ge = stablehlo.compare GE, %r, %c, SIGNED : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %le = stablehlo.compare LE, %r, %c, SIGNED : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %z = stablehlo.constant dense<0.0> : tensor<3x3xf32>
  %lm = stablehlo.select %ge, %l, %z : tensor<3x3xi1>, tensor<3x3xf32>
  %um = stablehlo.select %le, %u, %z : tensor<3x3xi1>, tensor<3x3xf32>
  check.expect_almost_eq_const %lm, dense<[[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 1.0, 2.0]]> : tensor<3x3xf32>
  check.expect_almost_eq_const %um, dense<[[2.0, 1.0, -1.0], [0.0, 3.0, 1.0], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>
  return
}

// -----

func.func @main() {
  // Cholesky of a batch of 2x2 f64 matrices: [[1,0],[0,1]] -> I and
  // [[9,3],[3,5]] -> [[3,0],[1,2]].
  %a = stablehlo.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[9.0, 3.0], [3.0, 5.0]]]> : tensor<2x2x2xf64>
  %l = stablehlo.cholesky %a, lower = true : tensor<2x2x2xf64>
  %r = stablehlo.iota dim = 1 : tensor<2x2x2xi32>
  %c = stablehlo.iota dim = 2 : tensor<2x2x2xi32>
  %ge = stablehlo.compare GE, %r, %c, SIGNED : (tensor<2x2x2xi32>, tensor<2x2x2xi32>) -> tensor<2x2x2xi1>
  %z = stablehlo.constant dense<0.0> : tensor<2x2x2xf64>
  %lm = stablehlo.select %ge, %l, %z : tensor<2x2x2xi1>, tensor<2x2x2xf64>
  check.expect_almost_eq_const %lm, dense<[[[1.0, 0.0], [0.0, 1.0]], [[3.0, 0.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
  return
}

// -----

func.func @main() {
  // triangular_solve on one full matrix A: only the triangle named by `lower`
  // is read, and unit_diagonal replaces the diagonal by ones.
  //   left,  lower, no transpose           : A x = b
  //   left,  upper, transpose_a            : A^T x = b
  //   right, lower, transpose_a, unit diag : x A^T = b
  //   right, upper, no transpose, unit diag: x A = b
  %a = stablehlo.constant dense<[[2.0, 7.0, -3.0], [1.0, 4.0, 5.0], [-1.0, 2.0, 8.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0, 4.0], [5.0, -1.0], [3.0, 0.5]]> : tensor<3x2xf32>
  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-4.0, 0.0, 2.0]]> : tensor<2x3xf32>
  %x1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const %x1, dense<[[1.0, 2.0], [1.0, -0.75], [0.25, 0.5]]> : tensor<3x2xf32>
  %x2 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const %x2, dense<[[1.0, 2.0], [-0.5, -3.75], [1.0625, 3.15625]]> : tensor<3x2xf32>
  %x3 = "stablehlo.triangular_solve"(%a, %c) {left_side = false, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %x3, dense<[[1.0, 1.0, 2.0], [-4.0, 4.0, -10.0]]> : tensor<2x3xf32>
  %x4 = "stablehlo.triangular_solve"(%a, %c) {left_side = false, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %x4, dense<[[1.0, -5.0, 31.0], [-4.0, 28.0, -150.0]]> : tensor<2x3xf32>
  return
}

// -----

func.func @main() {
  // JAX's CPU lowering of lax.linalg.triangular_solve(a, b, left_side=True,
  // lower=True, transpose_a=True, unit_diagonal=True): LAPACK trsm with
  // side='L' (76), uplo='L' (76), trans='T' (84), diag='U' (85). Solves
  // L^T x = b with L's diagonal taken as ones: x = [[6, 6.5], [-1, -2], [3, 0.5]].
  %a = stablehlo.constant dense<[[2.0, 7.0, -3.0], [1.0, 4.0, 5.0], [-1.0, 2.0, 8.0]]> : tensor<3x3xf32>
  %b = stablehlo.constant dense<[[2.0, 4.0], [5.0, -1.0], [3.0, 0.5]]> : tensor<3x2xf32>
  %x = stablehlo.custom_call @lapack_strsm_ffi(%a, %b) {backend_config = "", mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  check.expect_almost_eq_const %x, dense<[[6.0, 6.5], [-1.0, -2.0], [3.0, 0.5]]> : tensor<3x2xf32>
  return
}

// -----

func.func @main() {
  // JAX's CPU lowering of cholesky (lapack_spotrf_ffi, uplo='L'): the second
  // result is LAPACK's info, 0 for a positive-definite input and k > 0 when
  // the leading k-by-k minor is not positive definite ([[1, 2], [2, 1]] fails
  // at k = 2), which JAX turns into a NaN result.
  %a = stablehlo.constant dense<[[[4.0, 2.0], [2.0, 5.0]], [[1.0, 2.0], [2.0, 1.0]]]> : tensor<2x2x2xf32>
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xi32>)
  check.expect_eq_const %r#1, dense<[0, 2]> : tensor<2xi32>
  %l = stablehlo.slice %r#0 [0:1, 0:2, 0:2] : (tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
  %r1 = stablehlo.iota dim = 1 : tensor<1x2x2xi32>
  %c1 = stablehlo.iota dim = 2 : tensor<1x2x2xi32>
  %ge = stablehlo.compare GE, %r1, %c1, SIGNED : (tensor<1x2x2xi32>, tensor<1x2x2xi32>) -> tensor<1x2x2xi1>
  %z = stablehlo.constant dense<0.0> : tensor<1x2x2xf32>
  %lm = stablehlo.select %ge, %l, %z : tensor<1x2x2xi1>, tensor<1x2x2xf32>
  check.expect_almost_eq_const %lm, dense<[[[2.0, 0.0], [1.0, 2.0]]]> : tensor<1x2x2xf32>
  return
}

// -----

func.func @main() {
  // Complex triangular_solve with transpose_a = ADJOINT (conjugate transpose):
  // A = [[2, 0], [i, 1]] lower, solve A^H x = b.
  %a = stablehlo.constant dense<[[(2.0,0.0), (9.0,9.0)], [(0.0,1.0), (1.0,0.0)]]> : tensor<2x2xcomplex<f32>>
  %b = stablehlo.constant dense<[[(1.0,0.0)], [(0.0,2.0)]]> : tensor<2x1xcomplex<f32>>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  check.expect_almost_eq_const %x, dense<[[(-0.5,0.0)], [(0.0,2.0)]]> : tensor<2x1xcomplex<f32>>
  return
}

// -----

func.func @main() {
  // FFT of [1, 2, 3, 4] is [10, -2+2i, -2, -2-2i]; IFFT of that (with the
  // 1/n scale) returns the input.
  %x = stablehlo.constant dense<[(1.0,0.0), (2.0,0.0), (3.0,0.0), (4.0,0.0)]> : tensor<4xcomplex<f32>>
  %f = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %f, dense<[(10.0,0.0), (-2.0,2.0), (-2.0,0.0), (-2.0,-2.0)]> : tensor<4xcomplex<f32>>
  %g = stablehlo.fft %f, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  check.expect_almost_eq_const %g, dense<[(1.0,0.0), (2.0,0.0), (3.0,0.0), (4.0,0.0)]> : tensor<4xcomplex<f32>>
  // A 2-D FFT over both dims of a 2x2 input.
  %y = stablehlo.constant dense<[[(1.0,1.0), (0.0,0.0)], [(0.0,0.0), (0.0,-1.0)]]> : tensor<2x2xcomplex<f32>>
  %h = stablehlo.fft %y, type = FFT, length = [2, 2] : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_almost_eq_const %h, dense<[[(1.0,0.0), (1.0,2.0)], [(1.0,2.0), (1.0,0.0)]]> : tensor<2x2xcomplex<f32>>
  return
}

// -----

func.func @main() {
  // RFFT keeps n/2+1 outputs; IRFFT ignores the imaginary parts of the DC and
  // Nyquist bins (here 5 and 7), so it returns [1, 2, 3, 4] from the RFFT
  // with those imaginary parts set.
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %f = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %f, dense<[(10.0,0.0), (-2.0,2.0), (-2.0,0.0)]> : tensor<3xcomplex<f32>>
  %y = stablehlo.constant dense<[(10.0,5.0), (-2.0,2.0), (-2.0,7.0)]> : tensor<3xcomplex<f32>>
  %g = stablehlo.fft %y, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %g, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // Odd length 5: IRFFT reads 3 bins and the last bin has no Nyquist partner.
  %z = stablehlo.constant dense<[(5.0,0.0), (1.0,1.0), (0.0,-2.0)]> : tensor<3xcomplex<f32>>
  %h = stablehlo.fft %z, type = IRFFT, length = [5] : (tensor<3xcomplex<f32>>) -> tensor<5xf32>
  check.expect_almost_eq_const %h, dense<[1.4, 1.2134124, -0.31956607, 1.6723527, 1.0338012]> : tensor<5xf32>
  return
}

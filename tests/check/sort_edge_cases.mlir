// Sort and top_k at their edges: NaN and signed zeros, stability, order.
// Expected values were computed by running each program through XLA:CPU
// (jaxlib 0.11.2); the comments say why they are right.
func.func @main() {
  // jnp.sort's comparator as JAX emits it: -0.0 is mapped to 0.0 and every
  // NaN to the positive quiet NaN before a TOTALORDER LT. So NaNs (either
  // sign) go last, -0.0 and 0.0 tie and, the sort being stable, keep their
  // input order; the values themselves come out unchanged (bitwise).
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 0xFF800000, 1.0, 0xFFC00000, 0x7F800000, -1.0, -0.0]> : tensor<9xf32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
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
  }) : (tensor<9xf32>) -> tensor<9xf32>
  check.expect_eq_const %0, dense<[0xFF800000, -1.0, 0.0, -0.0, -0.0, 1.0, 0x7F800000, 0x7FC00000, 0xFFC00000]> : tensor<9xf32>
  return
}

// -----

func.func @main() {
  // jnp.argsort with the same comparator: the permutation shows the ties
  // (0.0 / -0.0 at 1, 2, 8; NaNs at 0, 5) kept in input order.
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 0xFF800000, 1.0, 0xFFC00000, 0x7F800000, -1.0, -0.0]> : tensor<9xf32>
  %iota = stablehlo.iota dim = 0 : tensor<9xi32>
  %0:2 = "stablehlo.sort"(%x, %iota) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %cst, %arg1 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.select %7, %cst_1, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare EQ, %arg2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %10 = stablehlo.select %9, %cst, %arg2 : tensor<i1>, tensor<f32>
    %11 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = stablehlo.select %11, %cst_1, %10 : tensor<i1>, tensor<f32>
    %13 = stablehlo.compare LT, %8, %12, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %13 : tensor<i1>
  }) : (tensor<9xf32>, tensor<9xi32>) -> (tensor<9xf32>, tensor<9xi32>)
  check.expect_eq_const %0#1, dense<[3, 7, 1, 2, 8, 4, 6, 0, 5]> : tensor<9xi32>
  return
}

// -----

func.func @main() {
  // A bare TOTALORDER comparator (no canonicalisation) orders by the IEEE
  // total order: -NaN < -inf < -1 < -0.0 < 0.0 < 1 < inf < NaN.
  %x = stablehlo.constant dense<[0x7FC00000, 0.0, -0.0, 0xFF800000, 1.0, 0xFFC00000, 0x7F800000, -1.0]> : tensor<8xf32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  check.expect_eq_const %0, dense<[0xFFC00000, 0xFF800000, -1.0, -0.0, 0.0, 1.0, 0x7F800000, 0x7FC00000]> : tensor<8xf32>
  return
}

// -----

func.func @main() {
  // lax.sort((keys, values), num_keys=1), stable: equal keys keep the input
  // order of their values (the three 2s carry 10, 30, 60 in that order).
  %k = stablehlo.constant dense<[2, 1, 2, 0, 1, 2, -5]> : tensor<7xi32>
  %v = stablehlo.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]> : tensor<7xf32>
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<7xi32>, tensor<7xf32>) -> (tensor<7xi32>, tensor<7xf32>)
  check.expect_eq_const %0#0, dense<[-5, 0, 1, 1, 2, 2, 2]> : tensor<7xi32>
  check.expect_eq_const %0#1, dense<[70.0, 40.0, 20.0, 50.0, 10.0, 30.0, 60.0]> : tensor<7xf32>
  return
}

// -----

func.func @main() {
  // Descending with a GT comparator, stable: ties still keep input order
  // (the 2s carry 0, 2, 5). Unsigned keys compare UNSIGNED: 200 > 3.
  %k = stablehlo.constant dense<[2, 1, 2, 200, 1, 2]> : tensor<6xui8>
  %v = stablehlo.iota dim = 0 : tensor<6xi32>
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>, %c: tensor<i32>, %d: tensor<i32>):
    %r = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<6xui8>, tensor<6xi32>) -> (tensor<6xui8>, tensor<6xi32>)
  check.expect_eq_const %0#0, dense<[200, 2, 2, 2, 1, 1]> : tensor<6xui8>
  check.expect_eq_const %0#1, dense<[3, 0, 2, 5, 1, 4]> : tensor<6xi32>
  return
}

// -----

func.func @main() {
  // jnp.argsort(x, descending=True) as JAX lowers it: reverse, stable
  // ascending sort, reverse. Among equal keys the lower index comes first
  // (the 3s at 1 and 3 give 1, 3); the NaN ranks above everything.
  %x = stablehlo.constant dense<[1.0, 3.0, 2.0, 3.0, 0x7FC00000]> : tensor<5xf32>
  %iota = stablehlo.iota dim = 0 : tensor<5xi32>
  %1 = stablehlo.reverse %x, dims = [0] : tensor<5xf32>
  %2 = stablehlo.reverse %iota, dims = [0] : tensor<5xi32>
  %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %cst, %arg1 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.select %7, %cst_1, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare EQ, %arg2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %10 = stablehlo.select %9, %cst, %arg2 : tensor<i1>, tensor<f32>
    %11 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = stablehlo.select %11, %cst_1, %10 : tensor<i1>, tensor<f32>
    %13 = stablehlo.compare LT, %8, %12, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %13 : tensor<i1>
  }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)
  %4 = stablehlo.reverse %3#1, dims = [0] : tensor<5xi32>
  check.expect_eq_const %4, dense<[4, 1, 3, 2, 0]> : tensor<5xi32>
  return
}

// -----

func.func @main() {
  // Sorting along dimension 0 of a 2-D tensor sorts each column on its own.
  %x = stablehlo.constant dense<[[3, 0, 5], [1, 2, 5], [2, -1, 4]]> : tensor<3x3xi32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const %0, dense<[[1, -1, 4], [2, 0, 5], [3, 2, 5]]> : tensor<3x3xi32>
  // Along dimension 1 each row is sorted instead.
  %1 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const %1, dense<[[0, 3, 5], [1, 2, 5], [-1, 2, 4]]> : tensor<3x3xi32>
  return
}

// -----

func.func @main() {
  // Empty tensors sort to empty tensors, whether the sorted dimension or
  // another one is zero-sized.
  %x = stablehlo.constant dense<> : tensor<0xf32>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<0xf32>) -> tensor<0xf32>
  check.expect_eq_const %0, dense<> : tensor<0xf32>
  %y = stablehlo.constant dense<> : tensor<0x3xi32>
  %1 = "stablehlo.sort"(%y) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<0x3xi32>) -> tensor<0x3xi32>
  check.expect_eq_const %1, dense<> : tensor<0x3xi32>
  return
}

// -----

func.func @main() {
  // A single-element dimension and a one-element tensor are already sorted.
  %x = stablehlo.constant dense<[[0x7FC00000], [-0.0]]> : tensor<2x1xf32>
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_eq_const %0, dense<[[0x7FC00000], [-0.0]]> : tensor<2x1xf32>
  return
}

// -----

func.func @main() {
  // lax.top_k lowers to chlo.top_k: the k largest along the last dim in
  // descending order; equal values come lower index first (the 5s at 1, 3
  // and 4 of row 0 give 1, 3).
  %x = stablehlo.constant dense<[[1.0, 5.0, 2.0, 5.0, 5.0], [-1.0, -1.0, -3.0, 0.0, -2.0]]> : tensor<2x5xf32>
  %values, %indices = chlo.top_k(%x, k = 2) : tensor<2x5xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  check.expect_eq_const %values, dense<[[5.0, 5.0], [0.0, -1.0]]> : tensor<2x2xf32>
  check.expect_eq_const %indices, dense<[[1, 3], [3, 0]]> : tensor<2x2xi32>
  return
}

// -----

func.func @main() {
  // top_k over integers with k equal to the whole dimension is a stable
  // descending sort; k = 0 gives empty results.
  %x = stablehlo.constant dense<[3, -2, 3, 7, -2, 0]> : tensor<6xi32>
  %values, %indices = chlo.top_k(%x, k = 6) : tensor<6xi32> -> (tensor<6xi32>, tensor<6xi32>)
  check.expect_eq_const %values, dense<[7, 3, 3, 0, -2, -2]> : tensor<6xi32>
  check.expect_eq_const %indices, dense<[3, 0, 2, 5, 1, 4]> : tensor<6xi32>
  %v0, %i0 = chlo.top_k(%x, k = 0) : tensor<6xi32> -> (tensor<0xi32>, tensor<0xi32>)
  check.expect_eq_const %i0, dense<> : tensor<0xi32>
  return
}

// -----

func.func @main() {
  // top_k with NaN and signed zeros: XLA's TopK ranks NaN above +inf and
  // 0.0 above -0.0 (a total order on the values).
  %x = stablehlo.constant dense<[-0.0, 0x7F800000, 0.0, 0x7FC00000, 1.0]> : tensor<5xf32>
  %values, %indices = chlo.top_k(%x, k = 4) : tensor<5xf32> -> (tensor<4xf32>, tensor<4xi32>)
  check.expect_eq_const %values, dense<[0x7FC00000, 0x7F800000, 1.0, 0.0]> : tensor<4xf32>
  check.expect_eq_const %indices, dense<[3, 1, 4, 2]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  // The mhlo.topk custom call (what chlo.top_k becomes on the way to XLA)
  // gives the same answer as chlo.top_k, ties lower index first.
  %x = stablehlo.constant dense<[[4.0, 9.0, 4.0, 9.0], [0.5, 0.25, 0.5, 1.0]]> : tensor<2x4xf32>
  %0:2 = stablehlo.custom_call @mhlo.topk(%x) {mhlo.attributes = {k = 3 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %0#0, dense<[[9.0, 9.0, 4.0], [1.0, 0.5, 0.5]]> : tensor<2x3xf32>
  check.expect_eq_const %0#1, dense<[[1, 3, 0], [3, 0, 2]]> : tensor<2x3xi32>
  return
}

// -----

func.func @main() {
  // Two sort keys compared lexicographically (as jnp.lexsort / lax.sort
  // with num_keys=2 emit): by the first key, then by the second.
  %a = stablehlo.constant dense<[1, 0, 1, 0, 1]> : tensor<5xi32>
  %b = stablehlo.constant dense<[3.0, 2.0, -1.0, 2.0, 0.5]> : tensor<5xf32>
  %v = stablehlo.iota dim = 0 : tensor<5xi32>
  %0:3 = "stablehlo.sort"(%a, %b, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<i32>, %b0: tensor<f32>, %b1: tensor<f32>, %v0: tensor<i32>, %v1: tensor<i32>):
    %lt = stablehlo.compare LT, %a0, %a1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a0, %a1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %blt = stablehlo.compare LT, %b0, %b1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %t = stablehlo.and %eq, %blt : tensor<i1>
    %r = stablehlo.or %lt, %t : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) : (tensor<5xi32>, tensor<5xf32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xf32>, tensor<5xi32>)
  check.expect_eq_const %0#2, dense<[1, 3, 2, 4, 0]> : tensor<5xi32>
  return
}

// -----

func.func @main() {
  // TOTALORDER on narrower floats: bf16 and f16 order -NaN < -inf < -0.0 <
  // 0.0 < NaN by their own bit patterns.
  %x = stablehlo.constant dense<[0x7FC0, 0.0, -0.0, 0xFF80, 0xFFC0, 2.0]> : tensor<6xbf16>
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xbf16>) -> tensor<6xbf16>
  check.expect_eq_const %0, dense<[0xFFC0, 0xFF80, -0.0, 0.0, 2.0, 0x7FC0]> : tensor<6xbf16>
  %y = stablehlo.constant dense<[0x7E00, 0.0, -0.0, 0xFC00, 0xFE00, -2.0]> : tensor<6xf16>
  %1 = "stablehlo.sort"(%y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f16>, tensor<f16>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<6xf16>) -> tensor<6xf16>
  check.expect_eq_const %1, dense<[0xFE00, 0xFC00, -2.0, -0.0, 0.0, 0x7E00]> : tensor<6xf16>
  return
}

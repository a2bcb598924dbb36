// Reductions at their edges: empty dims, NaN, ties, wraparound, windows.
// Expected values were computed by running each program through XLA:CPU
// (jaxlib 0.11.2); the comments say why they are right.
func.func @main() {
  // Reducing an empty dimension gives the init value for every output
  // element: 0 for a sum, -inf for a max, 1 for a product.
  %x = stablehlo.constant dense<> : tensor<0x3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %s, dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %m, dense<[0xFF800000, 0xFF800000, 0xFF800000]> : tensor<3xf32>
  %y = stablehlo.constant dense<> : tensor<2x0xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %p = stablehlo.reduce(%y init: %one) applies stablehlo.multiply across dimensions = [1] : (tensor<2x0xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %p, dense<[1, 1]> : tensor<2xi32>
  return
}

// -----

func.func @main() {
  // maximum and minimum propagate NaN, so a row holding a NaN reduces to
  // NaN whatever its other values (jnp.max / jnp.min).
  %x = stablehlo.constant dense<[[1.0, 0x7FC00000, 3.0], [-1.0, 4.0, 0xFF800000], [0x7FC00000, 0x7F800000, -2.0]]> : tensor<3x3xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %mx, dense<[0x7FC00000, 4.0, 0x7FC00000]> : tensor<3xf32>
  %mn = stablehlo.reduce(%x init: %pinf) applies stablehlo.minimum across dimensions = [1] : (tensor<3x3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %mn, dense<[0x7FC00000, 0xFF800000, 0x7FC00000]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // jnp.argmax(x, axis=1) as JAX lowers it: a variadic (value, index)
  // reduce whose body prefers the larger value, a NaN, or on a tie the
  // lower index. So ties give the first maximum and a NaN row gives the
  // first NaN.
  %x = stablehlo.constant dense<[[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 5.0, 5.0], [0.0, 0x7FC00000, 9.0, 0x7FC00000]]> : tensor<3x4xf32>
  %iota = stablehlo.iota dim = 1 : tensor<3x4xi32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %cst), (%iota init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<[1, 0, 1]> : tensor<3xi32>
  check.expect_eq_const %r#0, dense<[3.0, 5.0, 0x7FC00000]> : tensor<3xf32>
  return
}

// -----

func.func @main() {
  // jnp.argmin over integers (axis 0), ties again to the lower index.
  %x = stablehlo.constant dense<[[4, -7, 2], [4, -7, 1], [3, 0, 1]]> : tensor<3x3xi32>
  %iota = stablehlo.iota dim = 0 : tensor<3x3xi32>
  %big = stablehlo.constant dense<2147483647> : tensor<i32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %big), (%iota init: %c) across dimensions = [0] : (tensor<3x3xi32>, tensor<3x3xi32>, tensor<i32>, tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
   reducer(%arg1: tensor<i32>, %arg3: tensor<i32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare LT, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %2, %7 : tensor<i1>
    %9 = stablehlo.select %2, %arg1, %arg3 : tensor<i1>, tensor<i32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<[2, 0, 1]> : tensor<3xi32>
  check.expect_eq_const %r#0, dense<[3, -7, 1]> : tensor<3xi32>
  return
}

// -----

func.func @main() {
  // Reducing several dims at once: x[i, j, k] = 12 i + 4 j + k summed over
  // i and k leaves one value per j; over all three dims a scalar (276).
  %x = stablehlo.iota dim = 0 : tensor<24xi32>
  %y = stablehlo.reshape %x : (tensor<24xi32>) -> tensor<2x3x4xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %a = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32>
  check.expect_eq_const %a, dense<[60, 92, 124]> : tensor<3xi32>
  %b = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [2, 0, 1] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %b, dense<276> : tensor<i32>
  %m = stablehlo.reduce(%y init: %z) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %m, dense<[11, 23]> : tensor<2xi32>
  return
}

// -----

func.func @main() {
  // Integer sums wrap: 100 * 3 in i8 is 300 - 256 = 44; INT_MAX + 1 is
  // INT_MIN; in ui8 250 + 10 is 4. Products wrap too: 16 * 16 in i8 is 0.
  %a = stablehlo.constant dense<[100, 100, 100]> : tensor<3xi8>
  %z8 = stablehlo.constant dense<0> : tensor<i8>
  %sa = stablehlo.reduce(%a init: %z8) applies stablehlo.add across dimensions = [0] : (tensor<3xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %sa, dense<44> : tensor<i8>
  %b = stablehlo.constant dense<[2147483647, 1]> : tensor<2xi32>
  %z32 = stablehlo.constant dense<0> : tensor<i32>
  %sb = stablehlo.reduce(%b init: %z32) applies stablehlo.add across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %sb, dense<-2147483648> : tensor<i32>
  %c = stablehlo.constant dense<[250, 10]> : tensor<2xui8>
  %zu = stablehlo.constant dense<0> : tensor<ui8>
  %sc = stablehlo.reduce(%c init: %zu) applies stablehlo.add across dimensions = [0] : (tensor<2xui8>, tensor<ui8>) -> tensor<ui8>
  check.expect_eq_const %sc, dense<4> : tensor<ui8>
  %d = stablehlo.constant dense<[16, 16, 3]> : tensor<3xi8>
  %o8 = stablehlo.constant dense<1> : tensor<i8>
  %pd = stablehlo.reduce(%d init: %o8) applies stablehlo.multiply across dimensions = [0] : (tensor<3xi8>, tensor<i8>) -> tensor<i8>
  check.expect_eq_const %pd, dense<0> : tensor<i8>
  return
}

// -----

func.func @main() {
  // reduce_window sum with padding [1, 2] (filled with the init value 0),
  // window 3 and stride 2 over 1..6: the padded row is 0 1 2 3 4 5 6 0 0,
  // windows start at 0, 2, 4, 6 -> 3, 9, 15, 6.
  %x = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[1, 2]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<6xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[3, 9, 15, 6]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  // Window dilation 3 with a 2-wide window reads x[i] and x[i + 3]; the
  // window spans 4 elements, so 7 inputs give 4 outputs. Init 100 is also
  // folded in once per window.
  %x = stablehlo.constant dense<[1, 2, 3, 4, 5, 6, 7]> : tensor<7xi32>
  %z = stablehlo.constant dense<100> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %z) <{window_dilations = array<i64: 3>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<7xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[105, 107, 109, 111]> : tensor<4xi32>
  return
}

// -----

func.func @main() {
  // Base dilation 2 puts a hole between inputs (0 1 2 3 4 5 becomes
  // 0 _ 1 _ 2 _ 3 _ 4 _ 5); holes and the padding of 1 on each side act
  // as the init value (-inf for this max), so windows of 2 at stride 2
  // over  _ 0 _ 1 _ 2 _ 3 _ 4 _ 5 _  give 0 1 2 3 4 5.
  %x = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{base_dilations = array<i64: 2>, padding = dense<1> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  check.expect_eq_const %r, dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
  // A sum over the same dilated input: windows of 3 at stride 1 see one or
  // two real elements each (holes add 0).
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.reduce_window"(%x, %z) <{base_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<6xf32>, tensor<f32>) -> tensor<9xf32>
  check.expect_eq_const %s, dense<[1.0, 1.0, 3.0, 2.0, 5.0, 3.0, 7.0, 4.0, 9.0]> : tensor<9xf32>
  return
}

// -----

func.func @main() {
  // 2-D max pool, 3x3 window, stride 2, SAME padding (1 on each side) with
  // -inf, over a 4x4 input holding negative values: padding never wins.
  %x = stablehlo.constant dense<[[-1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0], [-9.0, -10.0, -11.0, -12.0], [-13.0, -14.0, -15.0, -16.0]]> : tensor<4x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[-1.0, -2.0], [-5.0, -6.0]]> : tensor<2x2xf32>
  return
}

// -----

func.func @main() {
  // Max-pool gradient (jax.grad of a max pool) through select_and_scatter
  // with JAX's GE selector: in each window the first maximum wins, so ties
  // go to the lower index. Overlapping windows (size 2, stride 1) over
  // 1 3 3 2 pick indices 1, 1, 2: source 1, 10, 100 lands as 0 11 100 0.
  %x = stablehlo.constant dense<[1.0, 3.0, 3.0, 2.0]> : tensor<4xf32>
  %src = stablehlo.constant dense<[1.0, 10.0, 100.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %z) <{padding = dense<0> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[0.0, 11.0, 100.0, 0.0]> : tensor<4xf32>
  return
}

// -----

func.func @main() {
  // 2-D select_and_scatter, 2x2 windows at stride 2 with padding 1 on the
  // low side of each dim (padding is never selected): every window of an
  // all-equal input selects its first (row-major) real element.
  %x = stablehlo.constant dense<7.0> : tensor<3x3xf32>
  %src = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %src, %z) <{padding = dense<[[1, 0], [1, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x3xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<3x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 0.0], [3.0, 4.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<3x3xf32>
  return
}

// -----

func.func @main() {
  // Reductions over i1 with and/or (jnp.all / jnp.any); an empty dim gives
  // the init (true for and, false for or).
  %x = stablehlo.constant dense<[[true, true, false], [true, false, false]]> : tensor<2x3xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %all = stablehlo.reduce(%x init: %t) applies stablehlo.and across dimensions = [0] : (tensor<2x3xi1>, tensor<i1>) -> tensor<3xi1>
  check.expect_eq_const %all, dense<[true, false, false]> : tensor<3xi1>
  %any = stablehlo.reduce(%x init: %f) applies stablehlo.or across dimensions = [1] : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %any, dense<[true, true]> : tensor<2xi1>
  %e = stablehlo.constant dense<> : tensor<0x2xi1>
  %eall = stablehlo.reduce(%e init: %t) applies stablehlo.and across dimensions = [0] : (tensor<0x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %eall, dense<[true, true]> : tensor<2xi1>
  %eany = stablehlo.reduce(%e init: %f) applies stablehlo.or across dimensions = [0] : (tensor<0x2xi1>, tensor<i1>) -> tensor<2xi1>
  check.expect_eq_const %eany, dense<[false, false]> : tensor<2xi1>
  return
}

// -----

func.func @main() {
  // Padding wider than the window: windows that see only padding give the
  // init value (-inf for this max), here at both ends.
  %x = stablehlo.constant dense<[5.0, -3.0]> : tensor<2xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = "stablehlo.reduce_window"(%x, %ninf) <{padding = dense<[[3, 2]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<f32>) -> tensor<6xf32>
  check.expect_eq_const %m, dense<[0xFF800000, 0xFF800000, 5.0, 5.0, -3.0, 0xFF800000]> : tensor<6xf32>
  return
}

// -----

func.func @main() {
  // Variadic reduce_window (a windowed argmax, value and index together):
  // window 3 at stride 1 over 2 7 7 1 9 picks the first 7 twice, then 9.
  %x = stablehlo.constant dense<[2, 7, 7, 1, 9]> : tensor<5xi32>
  %iota = stablehlo.iota dim = 0 : tensor<5xi32>
  %lo = stablehlo.constant dense<-2147483648> : tensor<i32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %iota, %lo, %c) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %2 = stablehlo.compare GT, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %2, %7 : tensor<i1>
    %9 = stablehlo.select %2, %arg1, %arg3 : tensor<i1>, tensor<i32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<i32>, tensor<i32>
  }) : (tensor<5xi32>, tensor<5xi32>, tensor<i32>, tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %r#0, dense<[7, 7, 9]> : tensor<3xi32>
  check.expect_eq_const %r#1, dense<[1, 1, 4]> : tensor<3xi32>
  return
}

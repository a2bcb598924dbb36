// Integer edge cases: wraparound, division by zero, shifts past the width.
// Expected values follow the StableHLO spec and XLA's documented rules.
func.func @main() {
  %max = stablehlo.constant dense<[2147483647, -2147483648, 7]> : tensor<3xi32>
  %one = stablehlo.constant dense<[1, -1, 0]> : tensor<3xi32>
  %sum = stablehlo.add %max, %one : tensor<3xi32>
  check.expect_eq_const %sum, dense<[-2147483648, 2147483647, 7]> : tensor<3xi32>
  %neg = stablehlo.negate %max : tensor<3xi32>
  check.expect_eq_const %neg, dense<[-2147483647, -2147483648, -7]> : tensor<3xi32>
  return
}

// -----

func.func @main() {
  // x / 0 = -1 and x % 0 = x (signed); INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
  %a = stablehlo.constant dense<[7, -7, -2147483648, -2147483648, 7, -7]> : tensor<6xi32>
  %b = stablehlo.constant dense<[0, 0, -1, 0, 2, 2]> : tensor<6xi32>
  %q = stablehlo.divide %a, %b : tensor<6xi32>
  check.expect_eq_const %q, dense<[-1, -1, -2147483648, -1, 3, -3]> : tensor<6xi32>
  %r = stablehlo.remainder %a, %b : tensor<6xi32>
  check.expect_eq_const %r, dense<[7, -7, 0, -2147483648, 1, -1]> : tensor<6xi32>
  return
}

// -----

func.func @main() {
  // Unsigned division by zero gives all ones.
  %a = stablehlo.constant dense<[7, 200]> : tensor<2xui8>
  %b = stablehlo.constant dense<[0, 3]> : tensor<2xui8>
  %q = stablehlo.divide %a, %b : tensor<2xui8>
  check.expect_eq_const %q, dense<[255, 66]> : tensor<2xui8>
  %m = stablehlo.multiply %a, %a : tensor<2xui8>
  check.expect_eq_const %m, dense<[49, 64]> : tensor<2xui8>
  return
}

// -----

func.func @main() {
  // Shifts by the bit width or more: left and logical give 0, arithmetic the sign.
  %x = stablehlo.constant dense<[-8, -8, 8, 1, -1]> : tensor<5xi8>
  // -56 is 200 read as unsigned, which is how shift amounts are compared.
  %s = stablehlo.constant dense<[8, 9, 8, 7, -56]> : tensor<5xi8>
  %l = stablehlo.shift_left %x, %s : tensor<5xi8>
  check.expect_eq_const %l, dense<[0, 0, 0, -128, 0]> : tensor<5xi8>
  %ar = stablehlo.shift_right_arithmetic %x, %s : tensor<5xi8>
  check.expect_eq_const %ar, dense<[-1, -1, 0, 0, -1]> : tensor<5xi8>
  %lo = stablehlo.shift_right_logical %x, %s : tensor<5xi8>
  check.expect_eq_const %lo, dense<[0, 0, 0, 0, 0]> : tensor<5xi8>
  return
}

// -----

func.func @main() {
  %x = stablehlo.constant dense<[0, 1, -1, 255, 256]> : tensor<5xi32>
  %c = stablehlo.count_leading_zeros %x : tensor<5xi32>
  check.expect_eq_const %c, dense<[32, 31, 0, 24, 23]> : tensor<5xi32>
  %p = stablehlo.popcnt %x : tensor<5xi32>
  check.expect_eq_const %p, dense<[0, 1, 32, 8, 1]> : tensor<5xi32>
  %n = stablehlo.not %x : tensor<5xi32>
  check.expect_eq_const %n, dense<[-1, -2, 0, -256, -257]> : tensor<5xi32>
  return
}

// -----

func.func @main() {
  // i4 wraps at four bits.
  %a = stablehlo.constant dense<[7, -8, 5]> : tensor<3xi4>
  %b = stablehlo.constant dense<[1, -1, 5]> : tensor<3xi4>
  %s = stablehlo.add %a, %b : tensor<3xi4>
  check.expect_eq_const %s, dense<[-8, 7, -6]> : tensor<3xi4>
  return
}

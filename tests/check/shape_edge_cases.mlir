// Data movement edge cases: zero-size dims, clamped indices, negative padding.
func.func @main() {
  %x = stablehlo.constant dense<> : tensor<0x3xf32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<0x3xf32>) -> tensor<3x0xf32>
  %c = stablehlo.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %j = stablehlo.concatenate %t, %c, dim = 1 : (tensor<3x0xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  check.expect_eq_const %j, dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  return
}

// -----

func.func @main() {
  // Start indices are clamped so that the slice stays inside the operand.
  %x = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %big = stablehlo.constant dense<10> : tensor<i32>
  %neg = stablehlo.constant dense<-3> : tensor<i32>
  %a = stablehlo.dynamic_slice %x, %big, sizes = [2] : (tensor<5xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %a, dense<[3, 4]> : tensor<2xi32>
  %b = stablehlo.dynamic_slice %x, %neg, sizes = [2] : (tensor<5xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %b, dense<[0, 1]> : tensor<2xi32>
  %u = stablehlo.constant dense<[9, 9]> : tensor<2xi32>
  %d = stablehlo.dynamic_update_slice %x, %u, %big : (tensor<5xi32>, tensor<2xi32>, tensor<i32>) -> tensor<5xi32>
  check.expect_eq_const %d, dense<[0, 1, 2, 9, 9]> : tensor<5xi32>
  return
}

// -----

func.func @main() {
  // Negative low padding crops; interior padding goes between elements.
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %x, %z, low = [-1], high = [2], interior = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
  check.expect_eq_const %p, dense<[0, 2, 0, 3, 0, 0]> : tensor<6xi32>
  return
}

// -----

func.func @main() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %s = stablehlo.slice %x [0:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[1, 3], [4, 6]]> : tensor<2x2xi32>
  %r = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi32>
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %i, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  return
}

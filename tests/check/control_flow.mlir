// while, case and calls.
func.func @main() {
  // Sum 0..9 with a while loop.
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %zero, %acc = %zero) : tensor<i32>, tensor<i32>
  cond {
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %ten, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %sum = stablehlo.add %acc, %i : tensor<i32>
    stablehlo.return %next, %sum : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %0#1, dense<45> : tensor<i32>
  return
}

// -----

func.func @main() {
  // An out-of-range case index selects the last branch.
  %idx = stablehlo.constant dense<7> : tensor<i32>
  %r = "stablehlo.case"(%idx) ({
    %a = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %b = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %r, dense<20> : tensor<i32>
  %neg = stablehlo.constant dense<-1> : tensor<i32>
  %s = "stablehlo.case"(%neg) ({
    %a = stablehlo.constant dense<10> : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }, {
    %b = stablehlo.constant dense<20> : tensor<i32>
    stablehlo.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %s, dense<20> : tensor<i32>
  return
}

// -----

func.func private @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = stablehlo.multiply %x, %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @main() {
  %x = stablehlo.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %y = call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %y, dense<[1.0, 4.0, 9.0]> : tensor<3xf32>
  %z = stablehlo.composite "my.square" %x {decomposition = @square} : (tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq %y, %z : tensor<3xf32>
  return
}

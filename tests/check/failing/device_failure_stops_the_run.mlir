// A device that fails (here: a custom call the CPU backend lacks) ends the
// run with its error: the device waiting for it in an all_reduce is woken
// with an error instead of waiting forever, and the run reports the first
// failure. `hlograph check` reports the test as failing (the harness
// expects exactly that).
module @device_failure {
  func.func @waits(%x: tensor<i32>) -> tensor<i32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i32>) -> tensor<i32>
    return %r : tensor<i32>
  }
  func.func @fails(%x: tensor<i32>) -> tensor<i32> {
    %r = stablehlo.custom_call @no_such_target(%x) : (tensor<i32>) -> tensor<i32>
    return %r : tensor<i32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<1> : tensor<i32>
    %r:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@waits], [@fails]]} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    check.expect_eq_const %r#0, dense<2> : tensor<i32>
    return
  }
}

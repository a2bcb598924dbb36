// sdy.manual_computation on the devices of interpreter.run_parallel: each
// device's body gets its piece of the operands (cut along the manual axes
// by in_shardings), collectives over mesh axes meet the devices that differ
// along those axes, and the pieces of the results make the global results
// (out_shardings). Mesh x=2, y=2: device (x, y) has id 2x + y. Expected
// values worked out by hand.
module @manual {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @f(%g: tensor<4x2xi32>) -> (tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>) {
    %r:3 = sdy.manual_computation(%g) in_shardings=[<@mesh, [{"x"}, {"y"}]>]
        out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{}, {"y"}]>]
        manual_axes={"x", "y"} (%p: tensor<2x1xi32>) {
      // Along y: device (x, 0) and (x, 1) add their pieces.
      %s = "stablehlo.all_reduce"(%p) ({
        ^bb0(%a: tensor<i32>, %b: tensor<i32>):
          %t = stablehlo.add %a, %b : tensor<i32>
          stablehlo.return %t : tensor<i32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "y">]>,
          use_global_device_ids} : (tensor<2x1xi32>) -> tensor<2x1xi32>
      %d = stablehlo.add %p, %p : tensor<2x1xi32>
      // Along x: the column of pieces, x=0's rows first.
      %c = "stablehlo.all_gather"(%p) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
          replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>,
          use_global_device_ids} : (tensor<2x1xi32>) -> tensor<4x1xi32>
      sdy.return %s, %d, %c : tensor<2x1xi32>, tensor<2x1xi32>, tensor<4x1xi32>
    } : (tensor<4x2xi32>) -> (tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>)
    return %r#0, %r#1, %r#2 : tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>
  }
  func.func @main() {
    %g = stablehlo.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
    %r:12 = "interpreter.run_parallel"(%g, %g, %g, %g) {programs = [[@f, @f, @f, @f]]}
        : (tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>)
        -> (tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>,
            tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x1xi32>, tensor<4x2xi32>, tensor<4x2xi32>)
    check.expect_eq_const %r#0, dense<[[1], [5], [9], [13]]> : tensor<4x1xi32>
    check.expect_eq_const %r#1, dense<[[0, 2], [4, 6], [8, 10], [12, 14]]> : tensor<4x2xi32>
    check.expect_eq_const %r#2, dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
    check.expect_eq_const %r#9, dense<[[1], [5], [9], [13]]> : tensor<4x1xi32>
    check.expect_eq_const %r#11, dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
    return
  }
}

// -----

// Manual along x only: pieces are cut along x, and y stays whole inside.
module @partly_manual {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @f(%g: tensor<4x2xi32>) -> tensor<2x2xi32> {
    %r = sdy.manual_computation(%g) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>]
        manual_axes={"x"} (%p: tensor<2x2xi32>) {
      %s = "stablehlo.all_reduce"(%p) ({
        ^bb0(%a: tensor<i32>, %b: tensor<i32>):
          %t = stablehlo.add %a, %b : tensor<i32>
          stablehlo.return %t : tensor<i32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]>,
          use_global_device_ids} : (tensor<2x2xi32>) -> tensor<2x2xi32>
      sdy.return %s : tensor<2x2xi32>
    } : (tensor<4x2xi32>) -> tensor<2x2xi32>
    return %r : tensor<2x2xi32>
  }
  func.func @main() {
    %g = stablehlo.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
    %r:4 = "interpreter.run_parallel"(%g, %g, %g, %g) {programs = [[@f, @f, @f, @f]]}
        : (tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>)
        -> (tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>)
    check.expect_eq_const %r#0, dense<[[4, 6], [8, 10]]> : tensor<2x2xi32>
    check.expect_eq_const %r#3, dense<[[4, 6], [8, 10]]> : tensor<2x2xi32>
    return
  }
}

module @jit_shard_map_collectives attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  sdy.mesh @mesh_0 = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}, tensor<2x16xf32> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x16xf32>
      %2 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 4], [4, 0], [1, 5], [5, 1], [2, 6], [6, 2], [3, 7], [7, 3]]> : tensor<8x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %3 = "stablehlo.all_to_all"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %4 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
      %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "y">]>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %17 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
        stablehlo.return %17 : tensor<f32>
      }) : (tensor<f32>) -> tensor<f32>
      %c = stablehlo.constant dense<1> : tensor<ui32>
      %c_0 = stablehlo.constant dense<4> : tensor<ui32>
      %6 = stablehlo.partition_id : tensor<ui32>
      %7 = stablehlo.divide %6, %c : tensor<ui32>
      %8 = stablehlo.remainder %7, %c_0 : tensor<ui32>
      %9 = stablehlo.convert %8 : (tensor<ui32>) -> tensor<i32>
      %10 = stablehlo.add %2, %3 : tensor<4x4xf32>
      %11 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
      %12 = stablehlo.add %10, %11 : tensor<4x4xf32>
      %13 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %17 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %17 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<1x4xf32>
      %14 = stablehlo.convert %9 : (tensor<i32>) -> tensor<f32>
      %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
      %16 = stablehlo.multiply %13, %15 : tensor<1x4xf32>
      sdy.return %1, %12, %16 : tensor<4x16xf32>, tensor<4x4xf32>, tensor<1x4xf32>
    } : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<2x16xf32>)
    return %0#0, %0#1, %0#2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<2x16xf32>
  }
}

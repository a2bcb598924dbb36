// Several devices on the CPU backend: interpreter.run_parallel runs a
// function per device of a replicas x partitions grid (programs: a row per
// replica), each device a thread, and the collectives exchange values by
// the StableHLO spec's process groups. Expected values worked out by hand
// from the spec's definitions (cross_replica, cross_replica_and_partition,
// flattened_ids, cross_partition).
module @ids {
  func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = stablehlo.partition_id : tensor<ui32>
    return %r, %p : tensor<ui32>, tensor<ui32>
  }
  func.func @main() {
    %x:8 = "interpreter.run_parallel"() {programs = [[@ids, @ids], [@ids, @ids]]}
        : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
    // (replica, partition) of devices (0,0), (0,1), (1,0), (1,1).
    check.expect_eq_const %x#2, dense<0> : tensor<ui32>
    check.expect_eq_const %x#3, dense<1> : tensor<ui32>
    check.expect_eq_const %x#4, dense<1> : tensor<ui32>
    check.expect_eq_const %x#5, dense<0> : tensor<ui32>
    check.expect_eq_const %x#7, dense<1> : tensor<ui32>
    return
  }
}

// -----

// No channel: replicas of one partition add up (cross_replica). A channel:
// every device of the replica group in every partition (one group here).
module @all_reduce {
  func.func @sum(%x: tensor<2xi32>) -> tensor<2xi32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.add %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
    return %r : tensor<2xi32>
  }
  func.func @max(%x: tensor<2xi32>) -> tensor<2xi32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = stablehlo.maximum %a, %b : tensor<i32>
        stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>} : (tensor<2xi32>) -> tensor<2xi32>
    return %r : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
    %c = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
    %d = stablehlo.constant dense<[1000, -5]> : tensor<2xi32>
    %s:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@sum, @sum], [@sum, @sum]]}
        : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %s#0, dense<[101, 202]> : tensor<2xi32>
    check.expect_eq_const %s#1, dense<[1010, 15]> : tensor<2xi32>
    check.expect_eq_const %s#2, dense<[101, 202]> : tensor<2xi32>
    check.expect_eq_const %s#3, dense<[1010, 15]> : tensor<2xi32>
    %m:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@max, @max], [@max, @max]]}
        : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %m#0, dense<[1000, 200]> : tensor<2xi32>
    check.expect_eq_const %m#3, dense<[1000, 200]> : tensor<2xi32>
    return
  }
}

// -----

// Flattened ids (replica * 2 + partition): groups {0, 3} and {1, 2}.
module @all_gather {
  func.func @gather(%x: tensor<1x2xf32>) -> tensor<2x2xf32> {
    %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>,
        channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, use_global_device_ids} : (tensor<1x2xf32>) -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
    %b = stablehlo.constant dense<[[3.0, 4.0]]> : tensor<1x2xf32>
    %c = stablehlo.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
    %d = stablehlo.constant dense<[[7.0, 8.0]]> : tensor<1x2xf32>
    %g:4 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gather, @gather], [@gather, @gather]]}
        : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
    check.expect_eq_const %g#0, dense<[[1.0, 2.0], [7.0, 8.0]]> : tensor<2x2xf32>
    check.expect_eq_const %g#1, dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
    check.expect_eq_const %g#2, dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
    check.expect_eq_const %g#3, dense<[[1.0, 2.0], [7.0, 8.0]]> : tensor<2x2xf32>
    return
  }
}

// -----

// Two replicas: the sum, each keeping its half; then all_to_all sending
// row i to replica i and joining what arrives along the columns.
module @scatter_and_all_to_all {
  func.func @rs(%x: tensor<4xi64>) -> tensor<2xi64> {
    %r = "stablehlo.reduce_scatter"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %s = stablehlo.add %a, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<2xi64>
    return %r : tensor<2xi64>
  }
  func.func @a2a(%x: tensor<2x2xi64>) -> tensor<1x4xi64> {
    %r = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>) -> tensor<1x4xi64>
    return %r : tensor<1x4xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
    %b = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi64>
    %s:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@rs], [@rs]]}
        : (tensor<4xi64>, tensor<4xi64>) -> (tensor<2xi64>, tensor<2xi64>)
    check.expect_eq_const %s#0, dense<[11, 22]> : tensor<2xi64>
    check.expect_eq_const %s#1, dense<[33, 44]> : tensor<2xi64>
    %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %d = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
    %t:2 = "interpreter.run_parallel"(%c, %d) {programs = [[@a2a], [@a2a]]}
        : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<1x4xi64>, tensor<1x4xi64>)
    check.expect_eq_const %t#0, dense<[[1, 2, 5, 6]]> : tensor<1x4xi64>
    check.expect_eq_const %t#1, dense<[[3, 4, 7, 8]]> : tensor<1x4xi64>
    return
  }
}

// -----

// Three replicas: 0 -> 1 -> 2 (replica 0 receives nothing: zeros); then a
// broadcast from the group's first member, replica 2.
module @permute_and_broadcast {
  func.func @permute(%x: tensor<1xi32>) -> tensor<1xi32> {
    %r = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}
        : (tensor<1xi32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @broadcast(%x: tensor<1xi32>) -> tensor<1xi32> {
    %r = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>}
        : (tensor<1xi32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[7]> : tensor<1xi32>
    %b = stablehlo.constant dense<[8]> : tensor<1xi32>
    %c = stablehlo.constant dense<[9]> : tensor<1xi32>
    %p:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@permute], [@permute], [@permute]]}
        : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
    check.expect_eq_const %p#0, dense<[0]> : tensor<1xi32>
    check.expect_eq_const %p#1, dense<[7]> : tensor<1xi32>
    check.expect_eq_const %p#2, dense<[8]> : tensor<1xi32>
    %q:3 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@broadcast], [@broadcast], [@broadcast]]}
        : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
    check.expect_eq_const %q#0, dense<[9]> : tensor<1xi32>
    check.expect_eq_const %q#1, dense<[9]> : tensor<1xi32>
    return
  }
}

// -----

// A send and its recv on another device; the infeed's values in order.
module @send_recv_infeed {
  func.func @send(%x: tensor<2xf32>, %t: !stablehlo.token) -> !stablehlo.token {
    %r = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
        : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    return %r : !stablehlo.token
  }
  func.func @recv(%t: !stablehlo.token) -> tensor<2xf32> {
    %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>}
        : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    return %r#0 : tensor<2xf32>
  }
  func.func @feed(%t: !stablehlo.token) -> (tensor<i32>, tensor<i32>) {
    %a:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
    %b:2 = "stablehlo.infeed"(%a#1) : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
    return %a#0, %b#0 : tensor<i32>, tensor<i32>
  }
  func.func @first() -> tensor<i32> {
    %c = stablehlo.constant dense<41> : tensor<i32>
    return %c : tensor<i32>
  }
  func.func @second() -> tensor<i32> {
    %c = stablehlo.constant dense<42> : tensor<i32>
    return %c : tensor<i32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1.5, -2.5]> : tensor<2xf32>
    %t = stablehlo.after_all : !stablehlo.token
    %r:2 = "interpreter.run_parallel"(%x, %t, %t) {programs = [[@send], [@recv]]}
        : (tensor<2xf32>, !stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<2xf32>)
    check.expect_eq_const %r#1, dense<[1.5, -2.5]> : tensor<2xf32>
    %f:2 = "interpreter.run_parallel"(%t) {programs = [[@feed]], infeed = [@first, @second]}
        : (!stablehlo.token) -> (tensor<i32>, tensor<i32>)
    check.expect_eq_const %f#0, dense<41> : tensor<i32>
    check.expect_eq_const %f#1, dense<42> : tensor<i32>
    return
  }
}

// -----

// Collectives on quantized tensors (!quant.uniform<i8:f32, 0.5:10>, stored
// q = round(x / 0.5) + 10): all_gather and the other moves carry the
// stored integers; all_reduce and reduce_scatter run their body on the
// quantized scalars (dequantize, add, quantize), as the spec applies it.
// all_reduce of [1.0, 30.0] (stored [12, 70]) and [2.5, 40.0] ([15, 90]):
// 3.5 -> 17; 70 -> 70 / 0.5 + 10 = 150, clamped to 127. reduce_scatter
// of [1, 2, 3, 4] ([12, 14, 16, 18]) and [0.5 x 4] ([11 x 4]): sums
// [1.5, 2.5, 3.5, 4.5] -> [13, 15, 17, 19], two to each replica.
module @quantized_collectives {
  func.func @sum(%x: tensor<2xf32>) -> tensor<2xi8> {
    %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
    %r = "stablehlo.all_reduce"(%q) ({
      ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
        %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
        stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
    %s = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2xi8>
    return %s : tensor<2xi8>
  }
  func.func @scatter(%x: tensor<4xf32>) -> tensor<2xi8> {
    %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:10>>
    %r = "stablehlo.reduce_scatter"(%q) ({
      ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:10>>, %b: tensor<!quant.uniform<i8:f32, 0.5:10>>):
        %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:10>>
        stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:10>>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
    %s = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2xi8>
    return %s : tensor<2xi8>
  }
  func.func @gather(%x: tensor<1xf32>) -> tensor<2xi8> {
    %q = stablehlo.uniform_quantize %x : (tensor<1xf32>) -> tensor<1x!quant.uniform<i8:f32, 0.5:10>>
    %r = "stablehlo.all_gather"(%q) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<1x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:10>>
    %s = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:10>>) -> tensor<2xi8>
    return %s : tensor<2xi8>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1.0, 30.0]> : tensor<2xf32>
    %b = stablehlo.constant dense<[2.5, 40.0]> : tensor<2xf32>
    %s:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@sum], [@sum]]}
        : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xi8>, tensor<2xi8>)
    check.expect_eq_const %s#0, dense<[17, 127]> : tensor<2xi8>
    check.expect_eq_const %s#1, dense<[17, 127]> : tensor<2xi8>
    %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %d = stablehlo.constant dense<0.5> : tensor<4xf32>
    %r:2 = "interpreter.run_parallel"(%c, %d) {programs = [[@scatter], [@scatter]]}
        : (tensor<4xf32>, tensor<4xf32>) -> (tensor<2xi8>, tensor<2xi8>)
    check.expect_eq_const %r#0, dense<[13, 15]> : tensor<2xi8>
    check.expect_eq_const %r#1, dense<[17, 19]> : tensor<2xi8>
    %e = stablehlo.constant dense<[1.0]> : tensor<1xf32>
    %f = stablehlo.constant dense<[2.5]> : tensor<1xf32>
    %g:2 = "interpreter.run_parallel"(%e, %f) {programs = [[@gather], [@gather]]}
        : (tensor<1xf32>, tensor<1xf32>) -> (tensor<2xi8>, tensor<2xi8>)
    check.expect_eq_const %g#0, dense<[12, 15]> : tensor<2xi8>
    check.expect_eq_const %g#1, dense<[12, 15]> : tensor<2xi8>
    return
  }
}

// passes/spmd: the rules that keep data cut through the ops that read
// along some dims (slice, concatenate, pad, reverse, sort, reduce_window),
// iota made piece by piece, gather and scatter on cut indices, convolution
// on a cut batch, and a cut moved between dims by all_to_all. Each program
// is run partitioned on the device grid against the whole program, and the
// summary says which collectives it took and that nothing ran whole.
#include <gtest/gtest.h>

#include "spmd_test_util.h"

namespace hlograph::passes {
namespace {

std::string Mesh2(int x, int y) {
  return "sdy.mesh @mesh = <[\"x\"=" + std::to_string(x) + ", \"y\"=" + std::to_string(y) + "]>\n";
}

// Rows cut, columns wanted cut: each device sends one block to each other.
TEST(SpmdRules, MovingTheCutToAnotherDimIsOneAllToAll) {
  for (int n : {2, 4, 8}) {
    const std::string text = "module {\n" + Mesh1(n) + R"(
  func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %e = stablehlo.exponential %a : tensor<8x16xf32>
    return %e : tensor<8x16xf32>
  }
})";
    EXPECT_EQ(PartitionAndCompare(text, n), "1 all_to_all") << n;
  }
  // On a 2x4 mesh, the cut over "y" moved while "x" keeps its own; and a
  // cut over "x" moved in a value copied over "y" (groups per copy).
  const std::string mesh2 = "module {\n" + Mesh2(2, 4) + R"(
  func.func @main(%a: tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}, {}]>},
                  %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>},
          tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    return %a, %b : tensor<8x16x4xf32>, tensor<8x16xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(mesh2, 8), "2 all_to_all");
}

// Slices, concatenations, pads and reverses along the dim not cut, each
// device on its own rows.
TEST(SpmdRules, SliceConcatenatePadReverseAlongWholeDims) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %b: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<8x9xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %s = stablehlo.slice %a [0:8, 1:6:2] : (tensor<8x6xf32>) -> tensor<8x3xf32>
    %c = stablehlo.concatenate %a, %b, dim = 1 : (tensor<8x6xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
    %z = stablehlo.constant dense<0.5> : tensor<f32>
    %p = stablehlo.pad %s, %z, low = [0, 2], high = [0, 1], interior = [0, 1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<8x8xf32>
    %q = stablehlo.concatenate %p, %s, dim = 1 : (tensor<8x8xf32>, tensor<8x3xf32>) -> tensor<8x11xf32>
    %r = stablehlo.slice %q [0:8, 2:11] : (tensor<8x11xf32>) -> tensor<8x9xf32>
    %v = stablehlo.reverse %a, dims = [1] : tensor<8x6xf32>
    return %s, %c, %r, %v : tensor<8x3xf32>, tensor<8x8xf32>, tensor<8x9xf32>, tensor<8x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives");
}

// dynamic_slice and dynamic_update_slice at a computed row, the columns
// cut: each device slices and updates its own columns.
TEST(SpmdRules, DynamicSlicesAlongWholeDims) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %u: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %i: tensor<i32>)
      -> (tensor<3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
          tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %seven = stablehlo.constant dense<7> : tensor<i32>
    %r = stablehlo.and %i, %seven : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %r, %z, sizes = [3, 8] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<3x8xf32>
    %d = stablehlo.dynamic_update_slice %a, %u, %r, %z : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    return %s, %d : tensor<3x8xf32>, tensor<8x8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives");
}

// A sort whose comparator reads a constant of the enclosing function (as
// serialized programs have them) is still divided.
TEST(SpmdRules, SortWithAHoistedConstant) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = stablehlo.add %x, %zero : tensor<f32>
      %lt = stablehlo.compare LT, %m, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) {dimension = 1 : i64, is_stable = true} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    return %s : tensor<8x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives");
}

// A slice of the cut dim gathers it first (it is not divided yet).
TEST(SpmdRules, ASliceOfTheCutDimGathersIt) {
  const std::string text = "module {\n" + Mesh1(2) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<3x6xf32> {
    %s = stablehlo.slice %a [1:4, 0:6] : (tensor<8x6xf32>) -> tensor<3x6xf32>
    return %s : tensor<3x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 2), "1 all_gather");
}

// Two readers wanting the same value laid out the same way share one move.
TEST(SpmdRules, AValueIsMovedOnceForAllItsReaders) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32>, tensor<4x6xf32>) {
    %r = stablehlo.reverse %a, dims = [0] : tensor<8x6xf32>
    %s = stablehlo.slice %a [2:6, 0:6] : (tensor<8x6xf32>) -> tensor<4x6xf32>
    return %r, %s : tensor<8x6xf32>, tensor<4x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_gather");
}

// Iotas (and values computed from iotas alone) meeting cut values: each
// device makes its own piece (an iota from its offset), no slice of a
// whole one.
TEST(SpmdRules, IotaIsMadePieceByPiece) {
  const std::string text = "module {\n" + Mesh2(2, 4) + R"(
  func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %i = stablehlo.iota dim = 1 : tensor<8x16xf32>
    %r = stablehlo.iota dim = 0 : tensor<8xf32>
    %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
    %s = stablehlo.add %a, %i : tensor<8x16xf32>
    %t = stablehlo.multiply %s, %b : tensor<8x16xf32>
    %ib = stablehlo.multiply %i, %b : tensor<8x16xf32>
    %u = stablehlo.subtract %t, %ib : tensor<8x16xf32>
    return %u : tensor<8x16xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 8), "no collectives");
}

// Sort and a running sum (reduce_window) along the dim not cut.
TEST(SpmdRules, SortAndScansAlongWholeDims) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %s = "stablehlo.sort"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %lt = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) {dimension = 1 : i64, is_stable = true} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %c = "stablehlo.reduce_window"(%a, %z) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %r = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {window_dimensions = array<i64: 1, 6>, padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>} : (tensor<8x6xf32>, tensor<f32>) -> tensor<8x6xf32>
    return %s, %c : tensor<8x6xf32>, tensor<8x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives");
}

// An embedding lookup: indices cut by rows, the table whole, or with its
// feature dim cut over another mesh axis (the result then cut both ways).
TEST(SpmdRules, GatherOnCutIndices) {
  const std::string text = "module {\n" + Mesh2(2, 4) + R"(
  func.func @main(%table: tensor<10x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %ids: tensor<4x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %wide: tensor<10x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
      -> (tensor<4x2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
          tensor<4x2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
    %m = stablehlo.constant dense<7> : tensor<4x2xi32>
    %i = stablehlo.and %ids, %m : tensor<4x2xi32>
    %j = stablehlo.reshape %i : (tensor<4x2xi32>) -> tensor<4x2x1xi32>
    %g = "stablehlo.gather"(%table, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<4x2x1xi32>) -> tensor<4x2x8xf32>
    %h = "stablehlo.gather"(%wide, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<4x2x1xi32>) -> tensor<4x2x8xf32>
    return %g, %h : tensor<4x2x8xf32>, tensor<4x2x8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 8), "no collectives");
}

// An embedding's gradient: updates added at cut indices into a whole
// table, each device its own, then summed across devices.
TEST(SpmdRules, ScatterAddOnCutIndices) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%table: tensor<10x8xf32>,
                  %ids: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                  %u: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<10x8xf32> {
    %m = stablehlo.constant dense<7> : tensor<8xi32>
    %i = stablehlo.and %ids, %m : tensor<8xi32>
    %j = stablehlo.reshape %i : (tensor<8xi32>) -> tensor<8x1xi32>
    %s = "stablehlo.scatter"(%table, %j, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<10x8xf32>, tensor<8x1xi32>, tensor<8x8xf32>) -> tensor<10x8xf32>
    return %s : tensor<10x8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_reduce");
}

// A data-parallel convolution layer: the forward pass on each device's
// images, and the filter's gradient (JAX's form: the images' batch dim as
// the contracted feature dim) summed across devices.
TEST(SpmdRules, ConvolutionOnACutBatch) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%x: tensor<8x6x6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>},
                  %w: tensor<3x3x2x4xf32>,
                  %dy: tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>})
      -> (tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}, {}]>}, tensor<3x3x2x4xf32>) {
    %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<8x6x6x4xf32>
    %dw = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x2xf32>, tensor<8x6x6x4xf32>) -> tensor<3x3x2x4xf32>
    return %y, %dw : tensor<8x6x6x4xf32>, tensor<3x3x2x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_reduce");
}

// Images x [2, 8, 6, 3] cut as `cut` (Shardy's dims) through a 3x3
// convolution to 4 features with `stride` and `pad`, giving `out` (its
// shape), wanted cut as x is when `out_cut`.
std::string ImageConv(const std::string& mesh, const std::string& cut, const std::string& stride,
                      const std::string& pad, const std::string& out, bool out_cut) {
  const std::string x = "tensor<2x8x6x3xf32>", y = "tensor<" + out + "xf32>";
  const std::string sharding = "{sdy.sharding = #sdy.sharding<@mesh, " + cut + ">}";
  const std::string conv = "stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]";
  const std::string window = "window = {stride = " + stride + ", pad = " + pad +
                             ", lhs_dilate = [1, 1], rhs_dilate = [1, 1]}";
  const std::string groups = "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}";
  return "module {\n" + mesh + "  func.func @main(%x: " + x + " " + sharding + ", %w: tensor<3x3x3x4xf32>) -> (" + y +
         (out_cut ? " " + sharding : "") + ") {\n" + "    %y = " + conv + ", " + window + " " + groups + " : (" + x +
         ", tensor<3x3x3x4xf32>) -> " + y + "\n    return %y : " + y + "\n  }\n}";
}
constexpr const char* kHeightCut = R"([{}, {"x"}, {}, {}])";

// Images cut along their height: each device convolves its rows once it
// has the rows beside them (a halo from each neighbour, zeros past the
// ends as the padding is); the result keeps the cut. A 5-wide window on
// pieces of 2 rows takes both of a neighbour's; stride 2 halves each
// piece; a window that shrinks the output (no padding) makes the height
// whole.
TEST(SpmdRules, ConvolutionOnCutSpatialDimsExchangesHalos) {
  const std::string conv = "stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], ";
  const std::string attrs = "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}";
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%x: tensor<2x8x6x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>},
                  %w: tensor<3x3x3x4xf32>, %w5: tensor<5x1x3x4xf32>)
      -> (tensor<2x8x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>},
          tensor<2x8x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>}) {
    %y = )" + conv + R"(window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} )" +
                           attrs + R"( : (tensor<2x8x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x6x4xf32>
    %z = stablehlo.convolution(%x, %w5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 2], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} )" +
                           attrs + R"( : (tensor<2x8x6x3xf32>, tensor<5x1x3x4xf32>) -> tensor<2x8x6x4xf32>
    return %y, %z : tensor<2x8x6x4xf32>, tensor<2x8x6x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "4 collective_permute");
  // Stride 2 (a ResNet downsampling), SAME padding of a 3-wide window:
  // [0, 1], the pieces' halos one row after them.
  EXPECT_EQ(PartitionAndCompare(ImageConv(Mesh1(4), kHeightCut, "[2, 2]", "[[0, 1], [0, 1]]", "2x4x3x4", true), 4),
            "1 collective_permute");
  // The filter's gradient (JAX's form: the output gradient as the kernel)
  // of images and gradients cut along their height: each device sums its
  // rows (with the halo of the images'), the partial sums added.
  const std::string gradient = "module {\n" + Mesh1(2) + R"(
  func.func @main(%x: tensor<8x6x6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>},
                  %dy: tensor<8x6x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {}, {}]>})
      -> tensor<3x3x2x4xf32> {
    %dw = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} )" +
                                attrs + R"( : (tensor<8x6x6x2xf32>, tensor<8x6x6x4xf32>) -> tensor<3x3x2x4xf32>
    return %dw : tensor<3x3x2x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(gradient, 2), "1 all_reduce, 2 collective_permute");
  // On a 2 x 2 mesh, the height cut over one axis and the batch over the
  // other: each device's neighbours are those of its batch piece.
  EXPECT_EQ(PartitionAndCompare(ImageConv(Mesh2(2, 2), R"([{"y"}, {"x"}, {}, {}])", "[1, 1]", "[[1, 1], [1, 1]]",
                                          "2x8x6x4", true),
                                4),
            "2 collective_permute");
  // The height cut over one axis, replicated over the other: two devices
  // hold each piece, each paired with its own neighbour.
  EXPECT_EQ(PartitionAndCompare(ImageConv(Mesh2(2, 2), kHeightCut, "[1, 1]", "[[1, 1], [1, 1]]", "2x8x6x4", true), 4),
            "2 collective_permute");
  // No padding: the output shorter than the input, the height gathered.
  EXPECT_EQ(PartitionAndCompare(ImageConv(Mesh1(2), kHeightCut, "[1, 1]", "[[0, 0], [0, 0]]", "2x6x4x4", false), 2),
            "1 all_gather");
}

// A loop partitioned inside: its carried rows stay cut, the scalar sum of
// their squares is carried whole (an all_reduce each iteration), and the
// bias read from outside the loop is read as it was laid out before it.
TEST(SpmdRules, LoopsKeepTheirCarriedShardings) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<6xf32>)
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, tensor<f32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %bias = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<6xf32>) -> tensor<8x6xf32>
    %r:3 = stablehlo.while(%i = %i0, %h = %a, %s = %zero) : tensor<i32>, tensor<8x6xf32>, tensor<f32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %t = stablehlo.tanh %h : tensor<8x6xf32>
      %u = stablehlo.add %t, %bias : tensor<8x6xf32>
      %sq = stablehlo.multiply %h, %h : tensor<8x6xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %sum = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x6xf32>, tensor<f32>) -> tensor<f32>
      %s2 = stablehlo.add %s, %sum : tensor<f32>
      stablehlo.return %j, %u, %s2 : tensor<i32>, tensor<8x6xf32>, tensor<f32>
    }
    return %r#1, %r#2 : tensor<8x6xf32>, tensor<f32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_reduce");
}

// A scatter into a table cut by rows keeps the rows' pieces: every device
// scatters all the updates with the indices shifted by its piece's offset
// (those outside its rows, and those out of bounds everywhere, dropped).
// Replacing and adding alike; the indices here include -1 and 16.
TEST(SpmdRules, ScatterIntoATableCutByRows) {
  for (const char* body : {"stablehlo.add", "stablehlo.maximum"}) {
    const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%table: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %ids: tensor<6xi32>, %u: tensor<6x8xf32>)
      -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %m = stablehlo.constant dense<15> : tensor<6xi32>
    %k = stablehlo.and %ids, %m : tensor<6xi32>
    %edges = stablehlo.constant dense<[0, 0, 0, 0, -1, 16]> : tensor<6xi32>
    %zero = stablehlo.constant dense<0> : tensor<6xi32>
    %inner = stablehlo.constant dense<[1, 1, 1, 1, 0, 0]> : tensor<6xi32>
    %kk = stablehlo.multiply %k, %inner : tensor<6xi32>
    %i = stablehlo.add %kk, %edges : tensor<6xi32>
    %j = stablehlo.reshape %i : (tensor<6xi32>) -> tensor<6x1xi32>
    %s = "stablehlo.scatter"(%table, %j, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = )" + std::string(body) + R"( %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32>
    return %s : tensor<16x8xf32>
  }
})";
    EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives") << body;
  }
}

// Replacing rows (x.at[i].set(u)): the same, with the updates' body
// returning the update.
TEST(SpmdRules, ScatterReplacingRowsOfACutArray) {
  const std::string text = "module {\n" + Mesh1(2) + R"(
  func.func @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %ids: tensor<3xi32>, %u: tensor<3x4xf32>)
      -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %m = stablehlo.constant dense<7> : tensor<3xi32>
    %k = stablehlo.and %ids, %m : tensor<3xi32>
    %j = stablehlo.reshape %k : (tensor<3xi32>) -> tensor<3x1xi32>
    %s = "stablehlo.scatter"(%x, %j, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
    }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<8x4xf32>
    return %s : tensor<8x4xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 2), "no collectives");
}

// A lookup into a table cut by rows (a vocabulary split across devices):
// each device looks every index up in its rows, zeros the others, and the
// results are added; indices out of bounds clamp to the first and last
// rows, as the gather clamps them.
TEST(SpmdRules, GatherFromATableCutByRows) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%table: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %ids: tensor<6xi32>) -> tensor<6x8xf32> {
    %m = stablehlo.constant dense<63> : tensor<6xi32>
    %k = stablehlo.and %ids, %m : tensor<6xi32>
    %edges = stablehlo.constant dense<[0, 0, 0, -1, 64, 100]> : tensor<6xi32>
    %inner = stablehlo.constant dense<[1, 1, 1, 0, 0, 0]> : tensor<6xi32>
    %kk = stablehlo.multiply %k, %inner : tensor<6xi32>
    %i = stablehlo.add %kk, %edges : tensor<6xi32>
    %j = stablehlo.reshape %i : (tensor<6xi32>) -> tensor<6x1xi32>
    %g = "stablehlo.gather"(%table, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<64x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
    return %g : tensor<6x8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_reduce");
}

// Transforms and factorizations of a batch cut by its leading dim: each
// device its own matrices and rows, no collectives.
TEST(SpmdRules, FftAndLinalgAlongTrailingDims) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %a: tensor<4x3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
                  %b: tensor<4x3x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>})
      -> (tensor<8x9xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
          tensor<4x3x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>},
          tensor<4x3x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) {
    %f = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<8x16xf32>) -> tensor<8x9xcomplex<f32>>
    %at = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %aa = stablehlo.dot_general %a, %at, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
    %three = stablehlo.constant dense<3.0> : tensor<4x3x3xf32>
    %i = stablehlo.iota dim = 1 : tensor<4x3x3xf32>
    %j = stablehlo.iota dim = 2 : tensor<4x3x3xf32>
    %eq = stablehlo.compare EQ, %i, %j : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xi1>
    %zero = stablehlo.constant dense<0.0> : tensor<4x3x3xf32>
    %diag = stablehlo.select %eq, %three, %zero : tensor<4x3x3xi1>, tensor<4x3x3xf32>
    %spd = stablehlo.add %aa, %diag : tensor<4x3x3xf32>
    %l = stablehlo.cholesky %spd, lower = true : tensor<4x3x3xf32>
    %y = "stablehlo.triangular_solve"(%l, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    return %f, %l, %y : tensor<8x9xcomplex<f32>>, tensor<4x3x3xf32>, tensor<4x3x2xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "no collectives");
}

// The same on a 2-D mesh: rows cut over "y", the indices over "x"; the
// result keeps the indices' pieces, the devices of a row of the mesh add
// theirs.
TEST(SpmdRules, GatherFromRowsCutOverOneAxisIndicesOverTheOther) {
  const std::string text = "module {\n" + Mesh2(2, 4) + R"(
  func.func @main(%table: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                  %ids: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %m = stablehlo.constant dense<63> : tensor<6xi32>
    %k = stablehlo.and %ids, %m : tensor<6xi32>
    %j = stablehlo.reshape %k : (tensor<6xi32>) -> tensor<6x1xi32>
    %g = "stablehlo.gather"(%table, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<64x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
    return %g : tensor<6x8xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 8), "1 all_reduce");
}

// take_along_axis on logits cut along the vocabulary (a batched gather):
// each device picks the labels' logits in its columns, zeros elsewhere, and
// the picks are added; labels out of range clamp as the gather clamps them.
TEST(SpmdRules, BatchedGatherFromColumnsCutAcrossDevices) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%logits: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                  %labels: tensor<4xi32>) -> tensor<4x1xf32> {
    %m = stablehlo.constant dense<31> : tensor<4xi32>
    %k = stablehlo.and %labels, %m : tensor<4xi32>
    %edges = stablehlo.constant dense<[0, 0, -5, 40]> : tensor<4xi32>
    %inner = stablehlo.constant dense<[1, 1, 0, 0]> : tensor<4xi32>
    %kk = stablehlo.multiply %k, %inner : tensor<4xi32>
    %i = stablehlo.add %kk, %edges : tensor<4xi32>
    %j = stablehlo.reshape %i : (tensor<4xi32>) -> tensor<4x1x1xi32>
    %g = "stablehlo.gather"(%logits, %j) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x32xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
    return %g : tensor<4x1xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_reduce");
}

// A value cut outside a loop that the loop's body needs whole is gathered
// once, before the loop, not every iteration.
TEST(SpmdRules, ALoopGathersWhatItReadsFromOutsideOnceBeforeIt) {
  const std::string text = "module {\n" + Mesh1(4) + R"(
  func.func @main(%a: tensor<8x6xf32>, %w: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> tensor<8x6xf32> {
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %i0, %h = %a) : tensor<i32>, tensor<8x6xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %t = stablehlo.tanh %h : tensor<8x6xf32>
      %u = stablehlo.multiply %t, %w : tensor<8x6xf32>
      %v = stablehlo.transpose %u, dims = [0, 1] : (tensor<8x6xf32>) -> tensor<8x6xf32>
      stablehlo.return %j, %v : tensor<i32>, tensor<8x6xf32>
    }
    return %r#1 : tensor<8x6xf32>
  }
})";
  EXPECT_EQ(PartitionAndCompare(text, 4), "1 all_gather");
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  auto program = PartitionSpmd(*module, 4);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const std::string printed = ir::PrintModule(*program->module);
  const size_t gather = printed.find("all_gather");
  const size_t loop = printed.find("stablehlo.while");
  ASSERT_NE(gather, std::string::npos) << printed;
  ASSERT_NE(loop, std::string::npos) << printed;
  EXPECT_LT(gather, loop) << printed;
}

}  // namespace
}  // namespace hlograph::passes

// The pretty syntax of each form an OpDef can declare (ir/op_syntax.h): a
// program written as MLIR prints it parses and prints back byte for byte;
// the same op written in the generic form prints in the pretty form; and
// the generic print (PrintOptions::generic) reads back to the same program.
// The op lines follow the StableHLO/CHLO/Shardy printers (most are taken
// from JAX output in tests/corpus).
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace hlograph::testing {
namespace {

// `module { func.func @main(args) -> results { body } }`, body lines indented
// by four spaces and ending in newlines.
std::string Main(const std::string& args, const std::string& results, const std::string& body) {
  return "module {\n  func.func @main(" + args + ")" + (results.empty() ? "" : " -> " + results) + " {\n" + body +
         "  }\n}\n";
}

std::string Print(const std::vector<std::unique_ptr<ir::Module>>& modules, bool generic = false) {
  ir::PrintOptions options;
  options.generic = generic;
  return ir::PrintModules(modules, options);
}

// `pretty` is canonical: it prints back unchanged, verifies, and its generic
// print parses back to the same pretty text.
void ExpectCanonical(const std::string& pretty) {
  auto parsed = frontend::ParseText(pretty, "pretty.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message() << "\n" << pretty;
  EXPECT_EQ(Print(parsed->modules), pretty);
  for (const auto& m : parsed->modules) {
    Status s = ir::VerifyModule(*m);
    EXPECT_TRUE(s.ok()) << s.message() << "\n" << pretty;
  }
  const std::string generic = Print(parsed->modules, /*generic=*/true);
  auto reparsed = frontend::ParseText(generic, "generic.mlir");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().message() << "\n" << generic;
  EXPECT_EQ(Print(reparsed->modules), pretty) << "generic print:\n" << generic;
  EXPECT_EQ(Print(reparsed->modules, /*generic=*/true), generic);
}

// `generic` (the op under test written in the generic form) prints as `pretty`.
void ExpectGenericPrintsPretty(const std::string& generic, const std::string& pretty) {
  auto parsed = frontend::ParseText(generic, "generic.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message() << "\n" << generic;
  EXPECT_EQ(Print(parsed->modules), pretty);
}

void ExpectBoth(const std::string& pretty, const std::string& generic) {
  ExpectCanonical(pretty);
  ExpectGenericPrintsPretty(generic, pretty);
}

// ---------------------------------------------------------------------------
// Elementwise ops: `:same`

TEST(OpSyntax, UnarySameType) {
  ExpectBoth(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = \"stablehlo.abs\"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, BinarySameType) {
  const std::string pretty = Main("%arg0: tensor<2x3xi32>, %arg1: tensor<2x3xi32>", "tensor<2x3xi32>",
                                  "    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xi32>\n"
                                  "    %1 = stablehlo.shift_right_logical %0, %arg1 : tensor<2x3xi32>\n"
                                  "    return %1 : tensor<2x3xi32>\n");
  ExpectCanonical(pretty);
  // The functional type with all types equal is the same op.
  ExpectGenericPrintsPretty(
      Main("%arg0: tensor<2x3xi32>, %arg1: tensor<2x3xi32>", "tensor<2x3xi32>",
           "    %0 = stablehlo.add %arg0, %arg1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>\n"
           "    %1 = \"stablehlo.shift_right_logical\"(%0, %arg1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> "
           "tensor<2x3xi32>\n"
           "    return %1 : tensor<2x3xi32>\n"),
      pretty);
}

TEST(OpSyntax, ConvertSameAndDifferentTypes) {
  ExpectCanonical(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                       "    %0 = stablehlo.convert %arg0 : tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
  // Different operand and result types fall back to the functional form.
  ExpectBoth(Main("%arg0: tensor<4xi32>", "tensor<4xf32>",
                  "    %0 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main("%arg0: tensor<4xi32>", "tensor<4xf32>",
                  "    %0 = \"stablehlo.convert\"(%arg0) : (tensor<4xi32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"));
  ExpectCanonical(Main("%arg0: tensor<3xf32>", "tensor<3xui32>",
                       "    %0 = stablehlo.bitcast_convert %arg0 : (tensor<3xf32>) -> tensor<3xui32>\n"
                       "    return %0 : tensor<3xui32>\n"));
}

TEST(OpSyntax, CompareWithAndWithoutCompareType) {
  ExpectBoth(Main("%arg0: tensor<4xf32>, %arg1: tensor<4xf32>", "tensor<4xi1>",
                  "    %0 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> "
                  "tensor<4xi1>\n"
                  "    return %0 : tensor<4xi1>\n"),
             Main("%arg0: tensor<4xf32>, %arg1: tensor<4xf32>", "tensor<4xi1>",
                  "    %0 = \"stablehlo.compare\"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, "
                  "comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xf32>, tensor<4xf32>) -> "
                  "tensor<4xi1>\n"
                  "    return %0 : tensor<4xi1>\n"));
  ExpectBoth(Main("%arg0: tensor<i32>, %arg1: tensor<i32>", "tensor<i1>",
                  "    %0 = stablehlo.compare GE, %arg0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                  "    return %0 : tensor<i1>\n"),
             Main("%arg0: tensor<i32>, %arg1: tensor<i32>", "tensor<i1>",
                  "    %0 = \"stablehlo.compare\"(%arg0, %arg1) <{comparison_direction = "
                  "#stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                  "    return %0 : tensor<i1>\n"));
}

TEST(OpSyntax, Select) {
  ExpectBoth(Main("%arg0: tensor<4xi1>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main("%arg0: tensor<4xi1>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = \"stablehlo.select\"(%arg0, %arg1, %arg2) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) "
                  "-> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"));
  // A scalar predicate, as JAX prints it (tests/corpus).
  ExpectCanonical(Main("%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>", "tensor<i32>",
                       "    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>\n"
                       "    return %0 : tensor<i32>\n"));
}

TEST(OpSyntax, ComplexRealImag) {
  ExpectCanonical(Main("%arg0: tensor<3xf32>, %arg1: tensor<3xf32>", "tensor<3xf32>",
                       "    %0 = stablehlo.complex %arg0, %arg1 : tensor<3xcomplex<f32>>\n"
                       "    %1 = stablehlo.real %0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>\n"
                       "    return %1 : tensor<3xf32>\n"));
}

// ---------------------------------------------------------------------------
// Shape and data movement

TEST(OpSyntax, BroadcastInDim) {
  ExpectBoth(Main("%arg0: tensor<3xf32>", "tensor<2x3xf32>",
                  "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
                  "    return %0 : tensor<2x3xf32>\n"),
             Main("%arg0: tensor<3xf32>", "tensor<2x3xf32>",
                  "    %0 = \"stablehlo.broadcast_in_dim\"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : "
                  "(tensor<3xf32>) -> tensor<2x3xf32>\n"
                  "    return %0 : tensor<2x3xf32>\n"));
  ExpectCanonical(Main("%arg0: tensor<f32>", "tensor<4xf32>",
                       "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, Transpose) {
  ExpectBoth(Main("%arg0: tensor<2x3xf32>", "tensor<3x2xf32>",
                  "    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
                  "    return %0 : tensor<3x2xf32>\n"),
             Main("%arg0: tensor<2x3xf32>", "tensor<3x2xf32>",
                  "    %0 = \"stablehlo.transpose\"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> "
                  "tensor<3x2xf32>\n"
                  "    return %0 : tensor<3x2xf32>\n"));
}

TEST(OpSyntax, Iota) {
  ExpectBoth(Main("", "tensor<4x5xi32>",
                  "    %0 = stablehlo.iota dim = 1 : tensor<4x5xi32>\n"
                  "    return %0 : tensor<4x5xi32>\n"),
             Main("", "tensor<4x5xi32>",
                  "    %0 = \"stablehlo.iota\"() <{iota_dimension = 1 : i64}> : () -> tensor<4x5xi32>\n"
                  "    return %0 : tensor<4x5xi32>\n"));
}

TEST(OpSyntax, Reshape) {
  ExpectCanonical(Main("%arg0: tensor<2x3xf32>", "tensor<6xf32>",
                       "    %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>\n"
                       "    return %0 : tensor<6xf32>\n"));
}

TEST(OpSyntax, SliceWithStrides) {
  ExpectBoth(Main("%arg0: tensor<8x3xf32>", "tensor<3x3xf32>",
                  "    %0 = stablehlo.slice %arg0 [1:7:2, 0:3] : (tensor<8x3xf32>) -> tensor<3x3xf32>\n"
                  "    return %0 : tensor<3x3xf32>\n"),
             Main("%arg0: tensor<8x3xf32>", "tensor<3x3xf32>",
                  "    %0 = \"stablehlo.slice\"(%arg0) <{limit_indices = array<i64: 7, 3>, start_indices = array<i64: "
                  "1, 0>, strides = array<i64: 2, 1>}> : (tensor<8x3xf32>) -> tensor<3x3xf32>\n"
                  "    return %0 : tensor<3x3xf32>\n"));
  // Unit strides are left out, as JAX prints them.
  ExpectCanonical(Main("%arg0: tensor<5xf32>", "tensor<1xf32>",
                       "    %0 = stablehlo.slice %arg0 [1:2] : (tensor<5xf32>) -> tensor<1xf32>\n"
                       "    return %0 : tensor<1xf32>\n"));
}

TEST(OpSyntax, DynamicSliceAndUpdate) {
  ExpectBoth(Main("%arg0: tensor<8xf32>, %arg1: tensor<i32>", "tensor<1xf32>",
                  "    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<8xf32>, tensor<i32>) -> "
                  "tensor<1xf32>\n"
                  "    return %0 : tensor<1xf32>\n"),
             Main("%arg0: tensor<8xf32>, %arg1: tensor<i32>", "tensor<1xf32>",
                  "    %0 = \"stablehlo.dynamic_slice\"(%arg0, %arg1) <{slice_sizes = array<i64: 1>}> : "
                  "(tensor<8xf32>, tensor<i32>) -> tensor<1xf32>\n"
                  "    return %0 : tensor<1xf32>\n"));
  ExpectCanonical(Main("%arg0: tensor<8xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i32>", "tensor<8xf32>",
                       "    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2 : (tensor<8xf32>, tensor<2xf32>, "
                       "tensor<i32>) -> tensor<8xf32>\n"
                       "    return %0 : tensor<8xf32>\n"));
}

TEST(OpSyntax, Concatenate) {
  ExpectBoth(Main("%arg0: tensor<6xf32>, %arg1: tensor<1xf32>", "tensor<7xf32>",
                  "    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<6xf32>, tensor<1xf32>) -> "
                  "tensor<7xf32>\n"
                  "    return %0 : tensor<7xf32>\n"),
             Main("%arg0: tensor<6xf32>, %arg1: tensor<1xf32>", "tensor<7xf32>",
                  "    %0 = \"stablehlo.concatenate\"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<6xf32>, "
                  "tensor<1xf32>) -> tensor<7xf32>\n"
                  "    return %0 : tensor<7xf32>\n"));
}

TEST(OpSyntax, Pad) {
  ExpectBoth(Main("%arg0: tensor<3xf32>, %arg1: tensor<f32>", "tensor<6xf32>",
                  "    %0 = stablehlo.pad %arg0, %arg1, low = [-1], high = [2], interior = [1] : (tensor<3xf32>, "
                  "tensor<f32>) -> tensor<6xf32>\n"
                  "    return %0 : tensor<6xf32>\n"),
             Main("%arg0: tensor<3xf32>, %arg1: tensor<f32>", "tensor<6xf32>",
                  "    %0 = \"stablehlo.pad\"(%arg0, %arg1) <{edge_padding_high = array<i64: 2>, edge_padding_low = "
                  "array<i64: -1>, interior_padding = array<i64: 1>}> : (tensor<3xf32>, tensor<f32>) -> "
                  "tensor<6xf32>\n"
                  "    return %0 : tensor<6xf32>\n"));
}

TEST(OpSyntax, Reverse) {
  ExpectBoth(Main("%arg0: tensor<4x9xi32>", "tensor<4x9xi32>",
                  "    %0 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<4x9xi32>\n"
                  "    return %0 : tensor<4x9xi32>\n"),
             Main("%arg0: tensor<4x9xi32>", "tensor<4x9xi32>",
                  "    %0 = \"stablehlo.reverse\"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<4x9xi32>) -> "
                  "tensor<4x9xi32>\n"
                  "    return %0 : tensor<4x9xi32>\n"));
}

TEST(OpSyntax, TupleAndGetTupleElement) {
  ExpectBoth(Main("%arg0: tensor<f32>, %arg1: tensor<i32>", "tensor<i32>",
                  "    %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<f32>, tensor<i32>>\n"
                  "    %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>\n"
                  "    return %1 : tensor<i32>\n"),
             Main("%arg0: tensor<f32>, %arg1: tensor<i32>", "tensor<i32>",
                  "    %0 = \"stablehlo.tuple\"(%arg0, %arg1) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, "
                  "tensor<i32>>\n"
                  "    %1 = \"stablehlo.get_tuple_element\"(%0) <{index = 1 : i32}> : (tuple<tensor<f32>, "
                  "tensor<i32>>) -> tensor<i32>\n"
                  "    return %1 : tensor<i32>\n"));
}

// ---------------------------------------------------------------------------
// Linear algebra

TEST(OpSyntax, DotGeneralWithBatchingPrecisionAndAlgorithm) {
  const std::string args = "%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x5xf32>";
  const std::string algorithm =
      "lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, "
      "rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false";
  ExpectBoth(Main(args, "tensor<2x3x5xf32>",
                  "    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x "
                  "[1], precision = [DEFAULT, HIGHEST], algorithm = <" + algorithm +
                      "> : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
                      "    return %0 : tensor<2x3x5xf32>\n"),
             Main(args, "tensor<2x3x5xf32>",
                  "    %0 = \"stablehlo.dot_general\"(%arg0, %arg1) <{algorithm = #stablehlo.dot_algorithm<" +
                      algorithm +
                      ">, dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], "
                      "rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = "
                      "[1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : "
                      "(tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>\n"
                      "    return %0 : tensor<2x3x5xf32>\n"));
  // As JAX prints a plain matrix-vector product (tests/corpus).
  ExpectCanonical(Main("%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>", "tensor<4xf32>",
                       "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = "
                       "[DEFAULT, DEFAULT] : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
  // No precision at all.
  ExpectCanonical(Main("%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>", "tensor<4xf32>",
                       "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x4xf32>, "
                       "tensor<4xf32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, Dot) {
  const std::string args = "%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>";
  ExpectBoth(Main(args, "tensor<2x4xf32>",
                  "    %0 = stablehlo.dot %arg0, %arg1, precision = [HIGH, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) "
                  "-> tensor<2x4xf32>\n"
                  "    return %0 : tensor<2x4xf32>\n"),
             Main(args, "tensor<2x4xf32>",
                  "    %0 = \"stablehlo.dot\"(%arg0, %arg1) <{precision_config = [#stablehlo<precision HIGH>, "
                  "#stablehlo<precision HIGH>]}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
                  "    return %0 : tensor<2x4xf32>\n"));
  ExpectCanonical(Main(args, "tensor<2x4xf32>",
                       "    %0 = stablehlo.dot %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
                       "    return %0 : tensor<2x4xf32>\n"));
}

TEST(OpSyntax, ConvolutionWithFullWindow) {
  // tests/corpus/conv2d_lhs_dilation.mlir
  const std::string args = "%arg0: tensor<2x5x5x5xf32>, %arg1: tensor<3x3x3x5xf32>";
  ExpectBoth(
      Main(args, "tensor<2x9x9x3xf32>",
           "    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window "
           "= {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, "
           "false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = "
           "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x5x5x5xf32>, "
           "tensor<3x3x3x5xf32>) -> tensor<2x9x9x3xf32>\n"
           "    return %0 : tensor<2x9x9x3xf32>\n"),
      Main(args, "tensor<2x9x9x3xf32>",
           "    %0 = \"stablehlo.convolution\"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = "
           "#stablehlo.conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = "
           "array<i64: 2, 2>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision "
           "DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: "
           "false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x5x5x5xf32>, tensor<3x3x3x5xf32>) -> "
           "tensor<2x9x9x3xf32>\n"
           "    return %0 : tensor<2x9x9x3xf32>\n"));
  // Without a window at all.
  ExpectCanonical(Main("%arg0: tensor<1x4x8xf32>, %arg1: tensor<2x4x3xf32>", "tensor<1x2x6xf32>",
                       "    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0] "
                       "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x8xf32>, "
                       "tensor<2x4x3xf32>) -> tensor<1x2x6xf32>\n"
                       "    return %0 : tensor<1x2x6xf32>\n"));
}

TEST(OpSyntax, CholeskyAndFft) {
  ExpectBoth(Main("%arg0: tensor<3x3xf32>", "tensor<3x3xf32>",
                  "    %0 = stablehlo.cholesky %arg0, lower = true : tensor<3x3xf32>\n"
                  "    return %0 : tensor<3x3xf32>\n"),
             Main("%arg0: tensor<3x3xf32>", "tensor<3x3xf32>",
                  "    %0 = \"stablehlo.cholesky\"(%arg0) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>\n"
                  "    return %0 : tensor<3x3xf32>\n"));
  // tests/corpus/rfft_irfft.mlir
  ExpectBoth(Main("%arg0: tensor<3x32xf32>", "tensor<3x17xcomplex<f32>>",
                  "    %0 = stablehlo.fft %arg0, type = RFFT, length = [32] : (tensor<3x32xf32>) -> "
                  "tensor<3x17xcomplex<f32>>\n"
                  "    return %0 : tensor<3x17xcomplex<f32>>\n"),
             Main("%arg0: tensor<3x32xf32>", "tensor<3x17xcomplex<f32>>",
                  "    %0 = \"stablehlo.fft\"(%arg0) <{fft_length = array<i64: 32>, fft_type = #stablehlo<fft_type "
                  "RFFT>}> : (tensor<3x32xf32>) -> tensor<3x17xcomplex<f32>>\n"
                  "    return %0 : tensor<3x17xcomplex<f32>>\n"));
}

TEST(OpSyntax, ReducePrecision) {
  ExpectBoth(Main("%arg0: tensor<8xf32>", "tensor<8xf32>",
                  "    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<8xf32>\n"
                  "    return %0 : tensor<8xf32>\n"),
             Main("%arg0: tensor<8xf32>", "tensor<8xf32>",
                  "    %0 = \"stablehlo.reduce_precision\"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : "
                  "i32}> : (tensor<8xf32>) -> tensor<8xf32>\n"
                  "    return %0 : tensor<8xf32>\n"));
}

// ---------------------------------------------------------------------------
// Ops with regions

TEST(OpSyntax, ReduceCompact) {
  const std::string args = "%arg0: tensor<5x4xf32>, %arg1: tensor<f32>";
  ExpectBoth(Main(args, "tensor<4xf32>",
                  "    %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [0] : "
                  "(tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main(args, "tensor<4xf32>",
                  "    %0 = \"stablehlo.reduce\"(%arg0, %arg1) <{dimensions = array<i64: 0>}> ({\n"
                  "    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):\n"
                  "      %1 = stablehlo.add %arg2, %arg3 : tensor<f32>\n"
                  "      stablehlo.return %1 : tensor<f32>\n"
                  "    }) : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, ReduceGeneralWithTwoInputs) {
  // tests/corpus/variadic_reduce.mlir
  const std::string args = "%arg0: tensor<5x4xf32>, %arg1: tensor<5x4xf32>, %arg2: tensor<f32>, %arg3: tensor<f32>";
  ExpectBoth(Main(args, "(tensor<4xf32>, tensor<4xf32>)",
                  "    %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [0] : "
                  "(tensor<5x4xf32>, tensor<5x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
                  "     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<f32>, %arg7: tensor<f32>)  {\n"
                  "      %1 = stablehlo.maximum %arg4, %arg6 : tensor<f32>\n"
                  "      %2 = stablehlo.add %arg5, %arg7 : tensor<f32>\n"
                  "      stablehlo.return %1, %2 : tensor<f32>, tensor<f32>\n"
                  "    }\n"
                  "    return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n"),
             Main(args, "(tensor<4xf32>, tensor<4xf32>)",
                  "    %0:2 = \"stablehlo.reduce\"(%arg0, %arg1, %arg2, %arg3) <{dimensions = array<i64: 0>}> ({\n"
                  "    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<f32>):\n"
                  "      %1 = stablehlo.maximum %arg4, %arg6 : tensor<f32>\n"
                  "      %2 = stablehlo.add %arg5, %arg7 : tensor<f32>\n"
                  "      stablehlo.return %1, %2 : tensor<f32>, tensor<f32>\n"
                  "    }) : (tensor<5x4xf32>, tensor<5x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, "
                  "tensor<4xf32>)\n"
                  "    return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n"));
}

TEST(OpSyntax, ReduceGeneralWithOneInput) {
  // A body that is not a single binary op keeps the general form.
  ExpectCanonical(Main("%arg0: tensor<5xf32>, %arg1: tensor<f32>", "tensor<f32>",
                       "    %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<5xf32>, "
                       "tensor<f32>) -> tensor<f32>\n"
                       "     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {\n"
                       "      %1 = stablehlo.add %arg3, %arg2 : tensor<f32>\n"
                       "      stablehlo.return %1 : tensor<f32>\n"
                       "    }\n"
                       "    return %0 : tensor<f32>\n"));
}

TEST(OpSyntax, While) {
  const std::string pretty = Main(
      "%arg0: tensor<i32>, %arg1: tensor<4xf32>", "tensor<4xf32>",
      "    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i32>, tensor<4xf32>\n"
      "    cond {\n"
      "      %c = stablehlo.constant dense<10> : tensor<i32>\n"
      "      %1 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    } do {\n"
      "      %c = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %1 = stablehlo.add %iterArg, %c : tensor<i32>\n"
      "      %2 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<4xf32>\n"
      "      stablehlo.return %1, %2 : tensor<i32>, tensor<4xf32>\n"
      "    }\n"
      "    return %0#1 : tensor<4xf32>\n");
  const std::string generic = Main(
      "%arg0: tensor<i32>, %arg1: tensor<4xf32>", "tensor<4xf32>",
      "    %0:2 = \"stablehlo.while\"(%arg0, %arg1) ({\n"
      "    ^bb0(%iterArg: tensor<i32>, %iterArg_0: tensor<4xf32>):\n"
      "      %c = stablehlo.constant dense<10> : tensor<i32>\n"
      "      %1 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    }, {\n"
      "    ^bb0(%iterArg: tensor<i32>, %iterArg_0: tensor<4xf32>):\n"
      "      %c = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %1 = stablehlo.add %iterArg, %c : tensor<i32>\n"
      "      %2 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<4xf32>\n"
      "      stablehlo.return %1, %2 : tensor<i32>, tensor<4xf32>\n"
      "    }) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)\n"
      "    return %0#1 : tensor<4xf32>\n");
  ExpectBoth(pretty, generic);
}

TEST(OpSyntax, CaseAndIfAreGeneric) {
  // tests/corpus/cond_simple.mlir
  ExpectCanonical(Main("%arg0: tensor<i32>, %arg1: tensor<4xf32>", "tensor<4xf32>",
                       "    %0 = \"stablehlo.case\"(%arg0) ({\n"
                       "      %1 = stablehlo.cosine %arg1 : tensor<4xf32>\n"
                       "      stablehlo.return %1 : tensor<4xf32>\n"
                       "    }, {\n"
                       "      %1 = stablehlo.sine %arg1 : tensor<4xf32>\n"
                       "      stablehlo.return %1 : tensor<4xf32>\n"
                       "    }) : (tensor<i32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
  ExpectCanonical(Main("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                       "    %0 = \"stablehlo.if\"(%arg0) ({\n"
                       "      stablehlo.return %arg1 : tensor<f32>\n"
                       "    }, {\n"
                       "      %1 = stablehlo.negate %arg1 : tensor<f32>\n"
                       "      stablehlo.return %1 : tensor<f32>\n"
                       "    }) : (tensor<i1>) -> tensor<f32>\n"
                       "    return %0 : tensor<f32>\n"));
}

TEST(OpSyntax, SortIsGeneric) {
  // tests/corpus/sort_multi_operand.mlir, shortened.
  ExpectCanonical(Main("%arg0: tensor<5xf32>, %arg1: tensor<5xi32>", "(tensor<5xf32>, tensor<5xi32>)",
                       "    %0:2 = \"stablehlo.sort\"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({\n"
                       "    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):\n"
                       "      %1 = stablehlo.compare LT, %arg2, %arg3, TOTALORDER : (tensor<f32>, tensor<f32>) -> "
                       "tensor<i1>\n"
                       "      stablehlo.return %1 : tensor<i1>\n"
                       "    }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, tensor<5xi32>)\n"
                       "    return %0#0, %0#1 : tensor<5xf32>, tensor<5xi32>\n"));
}

TEST(OpSyntax, OptimizationBarrier) {
  ExpectBoth(Main("%arg0: tensor<4xf32>, %arg1: tensor<4xf32>", "(tensor<4xf32>, tensor<4xf32>)",
                  "    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<4xf32>, tensor<4xf32>\n"
                  "    return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n"),
             Main("%arg0: tensor<4xf32>, %arg1: tensor<4xf32>", "(tensor<4xf32>, tensor<4xf32>)",
                  "    %0:2 = \"stablehlo.optimization_barrier\"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> "
                  "(tensor<4xf32>, tensor<4xf32>)\n"
                  "    return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>\n"));
}

// ---------------------------------------------------------------------------
// Calls, custom calls, composites

TEST(OpSyntax, CustomCallWithStringConfigAndSideEffect) {
  ExpectBoth(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = stablehlo.custom_call @foo(%arg0) {backend_config = \"some config\", has_side_effect = "
                  "true} : (tensor<4xf32>) -> tensor<4xf32>\n"
                  "    stablehlo.custom_call @sink(%0) {has_side_effect = true} : (tensor<4xf32>) -> ()\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = \"stablehlo.custom_call\"(%arg0) <{backend_config = \"some config\", call_target_name = "
                  "\"foo\", has_side_effect = true}> : (tensor<4xf32>) -> tensor<4xf32>\n"
                  "    \"stablehlo.custom_call\"(%0) <{call_target_name = \"sink\", has_side_effect = true}> : "
                  "(tensor<4xf32>) -> ()\n"
                  "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, CustomCallWithDictConfig) {
  ExpectCanonical(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                       "    %0 = stablehlo.custom_call @bar(%arg0) {api_version = 4 : i32, backend_config = {alpha = "
                       "1.000000e+00 : f32, n = 3 : i64}} : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>\n"));
}

TEST(OpSyntax, CustomCallWithLayoutsAndAliases) {
  // tests/corpus/linalg_decompositions.mlir
  const std::string attrs =
      "backend_config = \"\", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = \"0\"}, "
      "operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = "
      "[#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], "
      "result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = "
      "#sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=4, j=4, k=4, l=4, m=4}, custom>";
  ExpectBoth(Main("%arg0: tensor<4x4xf32>", "tensor<4x4xf32>",
                  "    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {" + attrs +
                      "} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)\n"
                      "    return %0#0 : tensor<4x4xf32>\n"),
             Main("%arg0: tensor<4x4xf32>", "tensor<4x4xf32>",
                  "    %0:2 = \"stablehlo.custom_call\"(%arg0) <{backend_config = \"\", call_target_name = "
                  "\"lapack_sgeqrf_ffi\", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], "
                  "output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], "
                  "operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : "
                  "tensor<2xindex>, dense<0> : tensor<1xindex>]}> {mhlo.backend_config = {}, "
                  "mhlo.frontend_attributes = {num_batch_dims = \"0\"}, sdy.sharding_rule = "
                  "#sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=4, j=4, k=4, l=4, m=4}, custom>} : "
                  "(tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)\n"
                  "    return %0#0 : tensor<4x4xf32>\n"));
}

TEST(OpSyntax, FuncCall) {
  const std::string callee =
      "  func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    return %arg0 : tensor<4xf32>\n"
      "  }\n";
  const std::string pretty =
      "module {\n"
      "  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    return %0 : tensor<4xf32>\n"
      "  }\n" +
      callee + "}\n";
  const std::string generic =
      "module {\n"
      "  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = \"func.call\"(%arg0) <{callee = @f}> : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    \"func.return\"(%0) : (tensor<4xf32>) -> ()\n"
      "  }\n" +
      callee + "}\n";
  ExpectBoth(pretty, generic);
  // Inside another op's region the func ops keep their prefix, as in
  // tests/corpus/cond_inside_scan.mlir.
  ExpectCanonical(
      "module {\n"
      "  func.func @main(%arg0: tensor<i1>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = \"stablehlo.if\"(%arg0) ({\n"
      "      %1 = func.call @f(%arg1) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "      stablehlo.return %1 : tensor<4xf32>\n"
      "    }, {\n"
      "      stablehlo.return %arg1 : tensor<4xf32>\n"
      "    }) : (tensor<i1>) -> tensor<4xf32>\n"
      "    return %0 : tensor<4xf32>\n"
      "  }\n" +
      callee + "}\n");
}

TEST(OpSyntax, Composite) {
  const std::string decomposition =
      "  func.func private @my.op(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    return %arg0 : tensor<4xf32>\n"
      "  }\n";
  ExpectBoth("module {\n"
             "  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             "    %0 = stablehlo.composite \"my.op\" %arg0 {composite_attributes = {approximate = true}, "
             "decomposition = @my.op, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>\n"
             "    return %0 : tensor<4xf32>\n"
             "  }\n" +
                 decomposition + "}\n",
             "module {\n"
             "  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             "    %0 = \"stablehlo.composite\"(%arg0) <{composite_attributes = {approximate = true}, decomposition = "
             "@my.op, name = \"my.op\", version = 1 : i32}> : (tensor<4xf32>) -> tensor<4xf32>\n"
             "    return %0 : tensor<4xf32>\n"
             "  }\n" +
                 decomposition + "}\n");
}

// ---------------------------------------------------------------------------
// Random numbers, CHLO

TEST(OpSyntax, RngBitGeneratorWithTwoNamedResults) {
  // tests/corpus/random_rbg.mlir
  ExpectBoth(Main("%arg0: tensor<2xui64>", "(tensor<2xui64>, tensor<8xui32>)",
                  "    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : "
                  "(tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)\n"
                  "    return %output_state, %output : tensor<2xui64>, tensor<8xui32>\n"),
             Main("%arg0: tensor<2xui64>", "(tensor<2xui64>, tensor<8xui32>)",
                  "    %output_state, %output = \"stablehlo.rng_bit_generator\"(%arg0) <{rng_algorithm = "
                  "#stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8xui32>)\n"
                  "    return %output_state, %output : tensor<2xui64>, tensor<8xui32>\n"));
  // A result group prints as one group.
  ExpectCanonical(Main("%arg0: tensor<2xui64>", "tensor<8xui32>",
                       "    %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> "
                       "(tensor<2xui64>, tensor<8xui32>)\n"
                       "    return %0#1 : tensor<8xui32>\n"));
}

TEST(OpSyntax, ChloTopK) {
  // tests/corpus/top_k.mlir
  ExpectBoth(Main("%arg0: tensor<3x20xf32>", "(tensor<3x5xf32>, tensor<3x5xi32>)",
                  "    %values, %indices = chlo.top_k(%arg0, k = 5) : tensor<3x20xf32> -> (tensor<3x5xf32>, "
                  "tensor<3x5xi32>)\n"
                  "    return %values, %indices : tensor<3x5xf32>, tensor<3x5xi32>\n"),
             Main("%arg0: tensor<3x20xf32>", "(tensor<3x5xf32>, tensor<3x5xi32>)",
                  "    %values, %indices = \"chlo.top_k\"(%arg0) <{k = 5 : i64}> : (tensor<3x20xf32>) -> "
                  "(tensor<3x5xf32>, tensor<3x5xi32>)\n"
                  "    return %values, %indices : tensor<3x5xf32>, tensor<3x5xi32>\n"));
}

TEST(OpSyntax, ChloUnaryArrow) {
  ExpectBoth(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = chlo.erf_inv %arg0 : tensor<4xf32> -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"),
             Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                  "    %0 = \"chlo.erf_inv\"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n"
                  "    return %0 : tensor<4xf32>\n"));
}

// ---------------------------------------------------------------------------
// The check dialect

TEST(OpSyntax, CheckOps) {
  const std::string args = "%arg0: tensor<2xf32>, %arg1: tensor<2xf32>";
  ExpectBoth(
      Main(args, "",
           "    check.expect_eq %arg0, %arg1 : tensor<2xf32>\n"
           "    check.expect_eq_const %arg0, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>\n"
           "    check.expect_almost_eq_const %arg0, dense<1.000000e+00> : tensor<2xf32>, tolerance = 1.000000e-03\n"
           "    check.expect_almost_eq_const %arg1, dense<0.000000e+00> : tensor<2xf32>\n"
           "    check.expect_close %arg0, %arg1, max_ulp_difference = 3 : tensor<2xf32>\n"
           "    check.expect_close %arg0, %arg1, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<2xf32>\n"
           "    return\n"),
      Main(args, "",
           "    \"check.expect_eq\"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
           "    \"check.expect_eq_const\"(%arg0) <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : "
           "(tensor<2xf32>) -> ()\n"
           "    \"check.expect_almost_eq_const\"(%arg0) <{tolerance = 1.000000e-03 : f64, value = "
           "dense<1.000000e+00> : tensor<2xf32>}> : (tensor<2xf32>) -> ()\n"
           "    \"check.expect_almost_eq_const\"(%arg1) <{value = dense<0.000000e+00> : tensor<2xf32>}> : "
           "(tensor<2xf32>) -> ()\n"
           "    \"check.expect_close\"(%arg0, %arg1) <{max_ulp_difference = 3 : i64}> : (tensor<2xf32>, "
           "tensor<2xf32>) -> ()\n"
           "    \"check.expect_close\"(%arg0, %arg1) <{max_ulp_difference = 3 : i64, min_ulp_difference = 1 : i64}> "
           ": (tensor<2xf32>, tensor<2xf32>) -> ()\n"
           "    \"func.return\"() : () -> ()\n"));
}

// ---------------------------------------------------------------------------
// Shardy

TEST(OpSyntax, ShardyMeshConstraintAndManualComputation) {
  const std::string pretty =
      "module @jit_f {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"
      "  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
      "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"x\"}, {}]> : tensor<8x16xf32>\n"
      "    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] out_shardings=[<@mesh, "
      "[{\"x\"}, {\"y\"}]>] manual_axes={\"x\", \"y\"} (%arg1: tensor<4x4xf32>) {\n"
      "      %2 = stablehlo.negate %arg1 : tensor<4x4xf32>\n"
      "      sdy.return %2 : tensor<4x4xf32>\n"
      "    } : (tensor<8x16xf32>) -> tensor<8x16xf32>\n"
      "    return %1 : tensor<8x16xf32>\n"
      "  }\n"
      "}\n";
  const std::string generic =
      "module @jit_f {\n"
      "  \"sdy.mesh\"() <{mesh = #sdy.mesh<[\"x\"=2, \"y\"=4]>, sym_name = \"mesh\"}> : () -> ()\n"
      "  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
      "    %0 = \"sdy.sharding_constraint\"(%arg0) <{sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}> : "
      "(tensor<8x16xf32>) -> tensor<8x16xf32>\n"
      "    %1 = \"sdy.manual_computation\"(%0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, "
      "{\"y\"}]>]>, manual_axes = #sdy<manual_axes{\"x\", \"y\"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, "
      "[{\"x\"}, {\"y\"}]>]>}> ({\n"
      "    ^bb0(%arg1: tensor<4x4xf32>):\n"
      "      %2 = stablehlo.negate %arg1 : tensor<4x4xf32>\n"
      "      sdy.return %2 : tensor<4x4xf32>\n"
      "    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>\n"
      "    return %1 : tensor<8x16xf32>\n"
      "  }\n"
      "}\n";
  ExpectBoth(pretty, generic);
  // The mesh with a discardable attribute, as JAX prints it.
  ExpectCanonical(
      "module {\n"
      "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]> {stablehlo.mesh = {axes = [{name = \"x\", size = 2 : i64}, {name = "
      "\"y\", size = 4 : i64}]}}\n"
      "}\n");
}

// ---------------------------------------------------------------------------
// Modules and functions

TEST(OpSyntax, ModuleAndFunctionHeaders) {
  ExpectCanonical(
      "module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<f32> {jax.arg_info = \"x\", mhlo.sharding = \"{replicated}\"}, %arg1: "
      "tensor<i32>) -> (tensor<f32> {jax.result_info = \"result[0]\"}, tensor<i32>) {\n"
      "    return %arg0, %arg1 : tensor<f32>, tensor<i32>\n"
      "  }\n"
      "  func.func private @g() attributes {some.flag} {\n"
      "    return\n"
      "  }\n"
      "}\n");
  // A top-level function without `module` gets one.
  ExpectGenericPrintsPretty("func.func @f() {\n  return\n}\n", "module {\n  func.func @f() {\n    return\n  }\n}\n");
}

TEST(OpSyntax, GenericPrintKeepsDiscardableAttributes) {
  // Every op prints as `"name"(operands) <{inherent}> ({regions}) {discardable} : type`.
  auto parsed = frontend::ParseText(Main("%arg0: tensor<4xf32>", "tensor<4xf32>",
                                         "    %0 = stablehlo.abs %arg0 {mhlo.frontend_attributes = {x = \"1\"}} : "
                                         "tensor<4xf32>\n"
                                         "    return %0 : tensor<4xf32>\n"),
                                    "t.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const std::string generic = Print(parsed->modules, /*generic=*/true);
  EXPECT_TRUE(HasSubstr(generic, "%0 = \"stablehlo.abs\"(%arg0) {mhlo.frontend_attributes = {x = \"1\"}} : "
                                 "(tensor<4xf32>) -> tensor<4xf32>\n"));
  EXPECT_TRUE(HasSubstr(generic, "\"func.return\"(%0) : (tensor<4xf32>) -> ()\n"));
}

}  // namespace
}  // namespace hlograph::testing

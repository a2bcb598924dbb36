// Quantized element types (!quant.uniform): parsing and printing as MLIR
// prints them, the parser's and the verifier's messages, and the CPU
// interpreter's uniform_quantize / uniform_dequantize and ops on quantized
// tensors, against values worked out from the StableHLO spec's formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu_test_util.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

using cpu::Tensor;
using cpu::test_util::Make;
using cpu::test_util::RunOk;
using cpu::test_util::RunProgram;
using cpu::test_util::Values;

std::string Func(const std::string& args, const std::string& results, const std::string& body) {
  return "func.func @main(" + args + ")" + (results.empty() ? "" : " -> " + results) + " {\n" + body + "}\n";
}

// The type of the first argument of @main in `text`.
ir::Type ArgType(const std::string& element) {
  auto modules = ParseOrDie(Func("%arg0: tensor<2x3x" + element + ">", "", "  return\n"));
  if (modules.empty()) return {};
  const ir::Operation* main = modules[0]->EntryFunction();
  return ir::FunctionSignature(*main).inputs.at(0);
}

std::string Printed(const std::string& element) { return ArgType(element).ToString(); }

TEST(QuantizedTypes, PrintsAsMlirDoes) {
  // Scales as MLIR prints f64 floats (six digits in exponent form when they
  // read back exactly, else the shortest exact decimal), zero points
  // omitted when 0. MLIR's own output: tests/bytecode/data/quantized.*.
  EXPECT_EQ(Printed("!quant.uniform<i8:f32, 0.5:-3>"), "tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>");
  EXPECT_EQ(Printed("!quant.uniform<i8:f32, 1.0>"), "tensor<2x3x!quant.uniform<i8:f32, 1.000000e+00>>");
  EXPECT_EQ(Printed("!quant.uniform<i8:f32, 2.0:0>"), "tensor<2x3x!quant.uniform<i8:f32, 2.000000e+00>>");
  EXPECT_EQ(Printed("!quant.uniform<i32:f32, 1.5350925350904778E-5>"),
            "tensor<2x3x!quant.uniform<i32:f32, 1.5350925350904778E-5>>");
  EXPECT_EQ(Printed("!quant.uniform<i8:f32, 0.0039132908278820561:-128>"),
            "tensor<2x3x!quant.uniform<i8:f32, 0.0039132908278820561:-128>>");
  EXPECT_EQ(Printed("!quant.uniform<i8:f32, 0.1:-128>"), "tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-128>>");
  // Scales without a decimal point in APFloat's form print as hex bits and read back.
  EXPECT_EQ(Printed("!quant.uniform<i32:f32, 12345678901234567.0>"),
            "tensor<2x3x!quant.uniform<i32:f32, 0x4345EE2A2EB5A5C4>>");
  EXPECT_EQ(ArgType("!quant.uniform<i32:f32, 0x4345EE2A2EB5A5C4>").quant()->scales,
            (std::vector<double>{12345678901234567.0}));
  // Per axis: no space between entries.
  EXPECT_EQ(Printed("!quant.uniform<i8:f32:1, {0.1:0, 0.2:1, 3.0:-2}>"),
            "tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01:1,3.000000e+00:-2}>>");
  // A storage range only when it is not the full range of the type.
  EXPECT_EQ(Printed("!quant.uniform<i8<-127:127>:f32, 0.5>"),
            "tensor<2x3x!quant.uniform<i8<-127:127>:f32, 5.000000e-01>>");
  EXPECT_EQ(Printed("!quant.uniform<i8<-128:127>:f32, 0.5>"), "tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01>>");
  // Unsigned storage keeps its spelling; i4, i16, bf16 and f16.
  EXPECT_EQ(Printed("!quant.uniform<u8:f32, 34.0:16>"), "tensor<2x3x!quant.uniform<u8:f32, 3.400000e+01:16>>");
  EXPECT_EQ(Printed("!quant.uniform<ui8:f32, 34.0:16>"), "tensor<2x3x!quant.uniform<ui8:f32, 3.400000e+01:16>>");
  EXPECT_EQ(Printed("!quant.uniform<i4:bf16, 0.25:-8>"), "tensor<2x3x!quant.uniform<i4:bf16, 2.500000e-01:-8>>");
  EXPECT_EQ(Printed("!quant.uniform<i16:f16, 0.25>"), "tensor<2x3x!quant.uniform<i16:f16, 2.500000e-01>>");
}

TEST(QuantizedTypes, CarriesItsParameters) {
  const ir::Type t = ArgType("!quant.uniform<i8<-127:127>:bf16:1, {0.1:0, 0.2:1, 3.0:-2}>");
  ASSERT_TRUE(t.IsQuantized());
  const ir::QuantParams& q = *t.quant();
  EXPECT_EQ(t.element(), ir::ElementType::kI8);  // tensors hold the storage integers
  EXPECT_EQ(q.storage, ir::ElementType::kI8);
  EXPECT_EQ(q.expressed, ir::ElementType::kBF16);
  EXPECT_EQ(t.ExpressedElement(), ir::ElementType::kBF16);
  EXPECT_EQ(q.storage_min, -127);
  EXPECT_EQ(q.storage_max, 127);
  EXPECT_EQ(q.quantized_dimension, 1);
  EXPECT_EQ(q.scales, (std::vector<double>{0.1, 0.2, 3.0}));
  EXPECT_EQ(q.zero_points, (std::vector<int64_t>{0, 1, -2}));
  EXPECT_EQ(ArgType("!quant.uniform<u8:f32, 0.5>").quant()->storage, ir::ElementType::kU8);
  EXPECT_EQ(ArgType("!quant.uniform<u8:f32, 0.5>").quant()->storage_max, 255);
  // Equality looks at every parameter but the u/ui spelling.
  EXPECT_EQ(ArgType("!quant.uniform<u8:f32, 0.5>"), ArgType("!quant.uniform<ui8:f32, 0.5>"));
  EXPECT_NE(ArgType("!quant.uniform<i8:f32, 0.5>"), ArgType("!quant.uniform<i8:f32, 0.5:1>"));
  EXPECT_NE(ArgType("!quant.uniform<i8:f32, 0.5>"), ArgType("!quant.uniform<i8:f32, 0.25>"));
  EXPECT_NE(ArgType("!quant.uniform<i8:f32, 0.5>"), ArgType("i8"));
}

TEST(QuantizedTypes, PrintParsePrintIsAFixedPoint) {
  const std::string text =
      "func.func @main(%arg0: tensor<4x!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20,1.0,2.0:5}>>) "
      "-> tensor<4xf32> {\n"
      "  %0 = stablehlo.uniform_dequantize %arg0 : (tensor<4x!quant.uniform<i8:f32:0, "
      "{1.000000e-01:-30,5.000000e-01:-20,1.0,2.0:5}>>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n";
  auto modules = ParseOrDie(text);
  ASSERT_FALSE(modules.empty());
  const std::string once = ir::PrintModules(modules);
  auto again = ParseOrDie(once);
  ASSERT_FALSE(again.empty());
  EXPECT_EQ(ir::PrintModules(again), once);
  EXPECT_TRUE(HasSubstr(once, "{1.000000e-01:-30,5.000000e-01:-20,1.000000e+00,2.000000e+00:5}"));
}

// A parse error at `at` (file:line:col) saying `phrase`.
void ExpectParseError(const std::string& element, const std::string& at, const std::string& phrase) {
  const std::string text = Func("%arg0: tensor<2x3x" + element + ">", "", "  return\n");
  const std::string err = ParseError(text);
  EXPECT_TRUE(HasSubstr(err, PosOf("t.mlir", text, at) + ": error: ")) << err;
  EXPECT_TRUE(HasSubstr(err, phrase)) << err;
}

TEST(QuantizedTypes, ParseErrorsNameThePlace) {
  ExpectParseError("!quant.uniform<i8:f32, 0.0>", "!quant", "scale to be positive and finite, got 0");
  ExpectParseError("!quant.uniform<i8:f32, -0.5>", "!quant", "scale to be positive and finite");
  ExpectParseError("!quant.uniform<i8:f32, inf>", "!quant", "scale to be positive and finite");
  ExpectParseError("!quant.uniform<i8:f32, 0.5:200>", "!quant",
                   "zero point to be within the storage range -128:127, got 200");
  ExpectParseError("!quant.uniform<i8<-100:100>:f32, 0.5:-101>", "!quant", "storage range -100:100");
  ExpectParseError("!quant.uniform<i8<-200:100>:f32, 0.5>", "!quant", "within i8's -128:127");
  ExpectParseError("!quant.uniform<i8:f32:0, {0.5, 0.0:1}>", "!quant", "scale #1 to be positive");
  ExpectParseError("!quant.uniform<i8:i32, 0.5>", "!quant", "floating-point expressed type, got i32");
  ExpectParseError("!quant.uniform<i64:f32, 0.5>", "!quant", "storage type of i2..i32");
  ExpectParseError("!quant.uniform<f32:f32, 0.5>", "f32:f32", "expected an integer storage type");
  ExpectParseError("!quant.uniform<i8:f99, 0.5>", "f99", "expected an expressed type");
  ExpectParseError("!quant.uniform<i8:f32, abc>", "abc", "expected a scale");
  ExpectParseError("!quant.uniform<i8:f32 0.5>", "0.5", "expected ','");
  // The tensor's '>' closes the quantized type; the tensor then lacks its own.
  ExpectParseError("!quant.uniform<i8:f32, 0.5", ")", "expected '>' to close tensor<...>");
  ExpectParseError("!quant.uniform<i8:f32:{0:1}, {{0.5}}>", "{0:1}", "sub-channel");
  ExpectParseError("!quant.calibrated<f32<-1.0:1.0>>", "!quant", "only !quant.uniform");
  ExpectParseError("!quant.uniform<si8:f32, 0.5>", "si8", "signless (i8) or unsigned");
  ExpectParseError("!quant.uniform<i4:f16, 10.550400e+04>", "!quant",
                   "scale to be within the range of the expressed type f16");
  ExpectParseError("!quant.uniform<i4:f16, 4.960464e-08>", "!quant",
                   "scale to be within the range of the expressed type f16");
}

// The verifier's message for `body` in @main(args), at `op_at`.
void ExpectVerifyError(const std::string& args, const std::string& body, const std::string& op_at,
                       const std::string& op_name, const std::string& phrase) {
  const std::string text = Func(args, "", body + "  return\n");
  const std::string err = VerifyError(text);
  EXPECT_TRUE(HasSubstr(err, PosOf("t.mlir", text, op_at) + ": error: '" + op_name + "' op ")) << err;
  EXPECT_TRUE(HasSubstr(err, phrase)) << err;
}

const char kQ[] = "!quant.uniform<i8:f32, 5.000000e-01>";

TEST(QuantizedTypes, VerifierChecksPerAxisParameters) {
  const std::string q3 = "tensor<2x3x!quant.uniform<i8:f32:2, {0.5,0.5,0.5}>>";
  ExpectVerifyError("%a: " + q3, "  %0 = stablehlo.uniform_dequantize %a : (" + q3 + ") -> tensor<2x3xf32>\n",
                    "%0 =", "stablehlo.uniform_dequantize",
                    "expects the quantization dimension of operand 0 to be less than its rank 2, got 2");
  const std::string q2 = "tensor<2x3x!quant.uniform<i8:f32:1, {0.5,0.5}>>";
  ExpectVerifyError("%a: tensor<2x3xf32>", "  %0 = stablehlo.uniform_quantize %a : (tensor<2x3xf32>) -> " + q2 + "\n",
                    "%0 =", "stablehlo.uniform_quantize",
                    "expects result 0 to have 3 scales and zero points (the size of its quantization dimension 1), "
                    "got 2");
}

TEST(QuantizedTypes, VerifierChecksQuantizeAndDequantize) {
  const std::string q = std::string("tensor<4x") + kQ + ">";
  ExpectVerifyError("%a: tensor<4xf32>", "  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4xi8>\n",
                    "%0 =", "stablehlo.uniform_quantize", "expects the result to be a tensor of a quantized type");
  ExpectVerifyError("%a: tensor<4xbf16>", "  %0 = stablehlo.uniform_quantize %a : (tensor<4xbf16>) -> " + q + "\n",
                    "%0 =", "stablehlo.uniform_quantize",
                    "expects the result's expressed type to be bf16 (the operand's element type)");
  ExpectVerifyError("%a: tensor<4xi32>", "  %0 = stablehlo.uniform_quantize %a : (tensor<4xi32>) -> " + q + "\n",
                    "%0 =", "stablehlo.uniform_quantize", "floating-point");
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.uniform_dequantize %a : (" + q + ") -> tensor<4xf16>\n", "%0 =",
                    "stablehlo.uniform_dequantize",
                    "expects the result to have element type f32 (the operand's expressed type)");
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.uniform_dequantize %a : (" + q + ") -> tensor<3xf32>\n", "%0 =",
                    "stablehlo.uniform_dequantize", "same shape");
}

TEST(QuantizedTypes, VerifierChecksOpsOnQuantizedTensors) {
  const std::string q = std::string("tensor<4x") + kQ + ">";
  const std::string q2 = "tensor<4x!quant.uniform<i8:f32, 2.500000e-01>>";
  const std::string q16 = "tensor<4x!quant.uniform<i16:f32, 5.000000e-01>>";
  // Elementwise ops may change scales but not storage or expressed types.
  EXPECT_EQ(VerifyError(Func("%a: " + q + ", %b: " + q2, "",
                             "  %0 = stablehlo.add %a, %b : (" + q + ", " + q2 + ") -> " + q2 + "\n  return\n")),
            "<verified fine>");
  ExpectVerifyError("%a: " + q + ", %b: " + q16, "  %0 = stablehlo.add %a, %b : (" + q + ", " + q16 + ") -> " + q + "\n",
                    "%0 =", "stablehlo.add", "expects all operands to have the same type");
  ExpectVerifyError("%a: " + q + ", %b: tensor<4xf32>",
                    "  %0 = stablehlo.add %a, %b : (" + q + ", tensor<4xf32>) -> " + q + "\n", "%0 =", "stablehlo.add",
                    "all quantized or all not quantized");
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.and %a, %a : " + q + "\n", "%0 =", "stablehlo.and",
                    "boolean or integer type");
  // Ops that move elements keep the parameters.
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.reshape %a : (" + q + ") -> tensor<2x2x!quant.uniform<i8:f32, 0.25>>\n",
                    "%0 =", "stablehlo.reshape", "the same quantization parameters");
  // dot_general: hybrid operands want a float result of the expressed type.
  const std::string w = "tensor<3x2x!quant.uniform<i8:f32, 5.000000e-01>>";
  ExpectVerifyError("%a: tensor<2x3xf32>, %b: " + w,
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, " + w +
                        ") -> tensor<2x2xbf16>\n",
                    "%0 =", "stablehlo.dot_general", "hybrid op to have element type f32");
  ExpectVerifyError("%a: tensor<2x3x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x2xf32>",
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, "
                    "0.5>>, tensor<3x2xf32>) -> tensor<2x2x!quant.uniform<i32:f32, 0.25>>\n",
                    "%0 =", "stablehlo.dot_general",
                    "expects a quantized lhs exactly when the rhs and the result are quantized");
  ExpectVerifyError("%a: tensor<2x3xf32>, %b: tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>",
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, "
                    "tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2xf32>\n",
                    "%0 =", "stablehlo.dot_general", "expects the rhs's zero points to be 0, got 1");
  const std::string per_axis = "tensor<3x2x!quant.uniform<i8:f32:0, {0.5,0.5,0.5}>>";
  ExpectVerifyError("%a: tensor<2x3x!quant.uniform<i8:f32, 0.5>>, %b: " + per_axis,
                    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, "
                    "0.5>>, " + per_axis + ") -> tensor<2x2x!quant.uniform<i32:f32, 0.25>>\n",
                    "%0 =", "stablehlo.dot_general", "not to be one of its contracting dimensions [0]");
}

TEST(QuantizedTypes, VerifierChecksPerAxisTensorsOfOps) {
  // Only some ops take per-axis quantized tensors (slice does not).
  const std::string q = "tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>";
  const std::string r = "tensor<2x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>";
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.slice %a [0:2, 0:2] : (" + q + ") -> " + r + "\n", "%0 =",
                    "stablehlo.slice", "does not take per-axis quantized tensors, got operand 0");
  // broadcast_in_dim (C6) moves the quantization dimension with the data.
  const std::string b = "tensor<3x4x2x!quant.uniform<i8:f32:1, {0.5,0.25,0.5,0.25}>>";
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (" + q + ") -> " + b + "\n",
                    "%0 =", "stablehlo.broadcast_in_dim",
                    "expects the result's quantization dimension to be broadcast_dimensions[1] = 2, got 1");
  // reshape (C3): the dimensions before the quantization dimension keep their product.
  const std::string s = "tensor<2x2x2x!quant.uniform<i8:f32:2, {0.5,0.25}>>";
  EXPECT_EQ(VerifyError(Func("%a: " + q, "", "  %0 = stablehlo.reshape %a : (" + q + ") -> " + s + "\n  return\n")),
            "<verified fine>");
  const std::string t = "tensor<2x2x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>";
  ExpectVerifyError("%a: " + q, "  %0 = stablehlo.reshape %a : (" + q + ") -> " + t + "\n", "%0 =",
                    "stablehlo.reshape", "product of the dimensions before the quantization dimension");
}

// The body of reduce_window, scatter, select_and_scatter (and reduce, sort)
// computes on the inputs' element type; the spec gives init values,
// updates, the source and the results that type, scale and zero point
// included. Per-axis tensors are not theirs (nor map's) to take.
TEST(QuantizedTypes, VerifierKeepsTheBodysTypeInOpsWithABody) {
  const std::string q = std::string("tensor<4x") + kQ + ">";
  const std::string s = std::string("tensor<") + kQ + ">";
  const std::string add = "  ^bb0(%x: " + s + ", %y: " + s + "):\n    %z = stablehlo.add %x, %y : " + s +
                          "\n    stablehlo.return %z : " + s + "\n";
  const std::string q2 = "tensor<2x!quant.uniform<i8:f32, 2.500000e-01>>";
  ExpectVerifyError("%a: " + q + ", %i: " + s,
                    "  %0 = \"stablehlo.reduce_window\"(%a, %i) ({\n" + add +
                        "  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (" + q + ", " + s +
                        ") -> " + q2 + "\n",
                    "%0 =", "stablehlo.reduce_window",
                    "expects result 0 to have the element type of input 0 (its body computes on that type, "
                    "quantization parameters included)");
  const std::string u = "tensor<1x!quant.uniform<i8:f32, 5.000000e-01:3>>";
  ExpectVerifyError("%a: " + q + ", %i: tensor<1x1xi32>, %u: " + u,
                    "  %0 = \"stablehlo.scatter\"(%a, %i, %u) ({\n" + add +
                        "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
                        "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (" + q +
                        ", tensor<1x1xi32>, " + u + ") -> " + q + "\n",
                    "%0 =", "stablehlo.scatter", "expects update 0 to have the element type of input 0");
  const std::string src = "tensor<2x!quant.uniform<i8:f32, 5.000000e-01:3>>";
  ExpectVerifyError("%a: " + q + ", %src: " + src + ", %i: " + s,
                    "  %0 = \"stablehlo.select_and_scatter\"(%a, %src, %i) ({\n"
                    "  ^bb0(%x: " + s + ", %y: " + s + "):\n"
                    "    %c = stablehlo.compare GE, %x, %y : (" + s + ", " + s + ") -> tensor<i1>\n"
                    "    stablehlo.return %c : tensor<i1>\n"
                    "  }, {\n" + add +
                        "  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (" + q + ", " +
                        src + ", " + s + ") -> " + q + "\n",
                    "%0 =", "stablehlo.select_and_scatter",
                    "expects the source to have the element type of the operand");
  const std::string pa = "tensor<4x!quant.uniform<i8:f32:0, {0.5,0.5,0.5,0.5}>>";
  ExpectVerifyError("%a: " + pa,
                    "  %0 = \"stablehlo.map\"(%a) ({\n"
                    "  ^bb0(%x: " + s + "):\n"
                    "    stablehlo.return %x : " + s + "\n"
                    "  }) {dimensions = array<i64: 0>} : (" + pa + ") -> " + q + "\n",
                    "%0 =", "stablehlo.map", "does not take per-axis quantized tensors, got operand 0");
}

// The spec's formulas, written out for the tests in float arithmetic.
int64_t SpecQuantize(float x, float scale, int64_t zero_point, int64_t lo, int64_t hi) {
  float y = x / scale + static_cast<float>(zero_point);
  y = std::fmin(std::fmax(y, static_cast<float>(lo)), static_cast<float>(hi));
  return static_cast<int64_t>(std::nearbyint(y));
}
float SpecDequantize(int64_t q, float scale, int64_t zero_point) {
  return static_cast<float>(q - zero_point) * scale;
}

TEST(QuantizedCpu, QuantizeAndDequantizePerTensor) {
  const std::vector<float> x = {-3.3f, -0.26f, 0.0f, 0.74f, 1.25f, 1.75f, 9.9f, 80.0f, -80.0f};
  const std::string q = "tensor<9x!quant.uniform<i8<-100:100>:f32, 2.500000e-01:7>>";
  const auto results =
      RunOk(Func("%x: tensor<9xf32>", "(tensor<9xi8>, tensor<9xf32>)",
                 "  %q = stablehlo.uniform_quantize %x : (tensor<9xf32>) -> " + q + "\n" +
                     "  %s = stablehlo.bitcast_convert %q : (" + q + ") -> tensor<9xi8>\n" +
                     "  %d = stablehlo.uniform_dequantize %q : (" + q + ") -> tensor<9xf32>\n" +
                     "  return %s, %d : tensor<9xi8>, tensor<9xf32>\n"),
            {Make(ir::ElementType::kF32, {9}, x)});
  ASSERT_EQ(results.size(), 2u);
  const auto stored = Values<int8_t>(results[0]);
  const auto back = Values<float>(results[1]);
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t want = SpecQuantize(x[i], 0.25f, 7, -100, 100);
    EXPECT_EQ(stored[i], want) << "x = " << x[i];
    EXPECT_EQ(back[i], SpecDequantize(want, 0.25f, 7)) << "x = " << x[i];
  }
}

TEST(QuantizedCpu, PerAxisQuantizeUsesTheSliceParameters) {
  const std::vector<float> x = {1.0f, 2.0f, 3.0f, -1.0f, -2.0f, -3.0f};
  const std::string q = "tensor<2x3x!quant.uniform<u8:f32:1, {0.5:10,0.25:20,2.0:30}>>";
  const auto results = RunOk(Func("%x: tensor<2x3xf32>", "tensor<2x3xui8>",
                                  "  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> " + q + "\n" +
                                      "  %s = stablehlo.bitcast_convert %q : (" + q + ") -> tensor<2x3xui8>\n" +
                                      "  return %s : tensor<2x3xui8>\n"),
                             {Make(ir::ElementType::kF32, {2, 3}, x)});
  ASSERT_EQ(results.size(), 1u);
  const auto stored = Values<uint8_t>(results[0]);
  const float scales[] = {0.5f, 0.25f, 2.0f};
  const int64_t zero_points[] = {10, 20, 30};
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(stored[i], SpecQuantize(x[i], scales[i % 3], zero_points[i % 3], 0, 255)) << i;
  }
}

TEST(QuantizedCpu, ElementwiseOpsDequantizeComputeAndQuantize) {
  const std::string qa = "tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-5>>";
  const std::string qr = "tensor<4x!quant.uniform<i8:f32, 5.000000e-02:3>>";
  const std::vector<int8_t> a = {-128, -5, 20, 100};
  const auto results = RunOk(Func("%a: " + qa, "tensor<4xi8>",
                                  "  %e = stablehlo.exponential %a : (" + qa + ") -> " + qr + "\n" +
                                      "  %m = stablehlo.multiply %e, %e : " + qr + "\n" +
                                      "  %s = stablehlo.bitcast_convert %m : (" + qr + ") -> tensor<4xi8>\n" +
                                      "  return %s : tensor<4xi8>\n"),
                             {Make(ir::ElementType::kI8, {4}, a)});  // storage integers bind to a quantized parameter
  ASSERT_EQ(results.size(), 1u);
  const auto stored = Values<int8_t>(results[0]);
  for (size_t i = 0; i < a.size(); ++i) {
    const int64_t e = SpecQuantize(std::exp(SpecDequantize(a[i], 0.1f, -5)), 0.05f, 3, -128, 127);
    const float ed = SpecDequantize(e, 0.05f, 3);
    EXPECT_EQ(stored[i], SpecQuantize(ed * ed, 0.05f, 3, -128, 127)) << i;
  }
}

TEST(QuantizedCpu, DotGeneralAccumulatesIntegers) {
  // Sums of up to 64 products of i8 values: exact as integers.
  const int64_t k = 64;
  std::vector<int8_t> lhs(2 * k), rhs(k * 3);
  for (int64_t i = 0; i < 2 * k; ++i) lhs[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  for (int64_t i = 0; i < k * 3; ++i) rhs[i] = static_cast<int8_t>((i * 91) % 255 - 127);
  const std::string ql = "tensor<2x64x!quant.uniform<i8:f32, 1.000000e-01:3>>";
  const std::string qr = "tensor<64x3x!quant.uniform<i8:f32:1, {2.000000e-01,5.000000e-01,1.000000e+00:0}>>";
  const std::string qo = "tensor<2x3x!quant.uniform<i32:f32:1, {2.000000e-02,5.000000e-02,1.000000e-01}>>";
  const auto results =
      RunOk(Func("%l: " + ql + ", %r: " + qr, "tensor<2x3xi32>",
                 "  %d = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (" + ql + ", " + qr + ") -> " +
                     qo + "\n  %s = stablehlo.bitcast_convert %d : (" + qo + ") -> tensor<2x3xi32>\n" +
                     "  return %s : tensor<2x3xi32>\n"),
            {Make(ir::ElementType::kI8, {2, k}, lhs), Make(ir::ElementType::kI8, {k, 3}, rhs)});
  ASSERT_EQ(results.size(), 1u);
  const auto out = Values<int32_t>(results[0]);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      int64_t sum = 0;
      for (int64_t c = 0; c < k; ++c) sum += (lhs[i * k + c] - 3) * rhs[c * 3 + j];
      EXPECT_EQ(out[i * 3 + j], sum) << i << "," << j;
    }
  }
}

TEST(QuantizedCpu, ShapeOpsKeepTheStoredIntegers) {
  const std::string q = "tensor<2x3x!quant.uniform<i8:f32, 3.000000e-01:-1>>";
  const std::string t = "tensor<3x2x!quant.uniform<i8:f32, 3.000000e-01:-1>>";
  const std::vector<int8_t> a = {1, 2, 3, 4, 5, 6};
  const auto results = RunOk(Func("%a: " + q, "tensor<3x2xi8>",
                                  "  %t = stablehlo.transpose %a, dims = [1, 0] : (" + q + ") -> " + t + "\n" +
                                      "  %r = stablehlo.reverse %t, dims = [0] : " + t + "\n" +
                                      "  %s = stablehlo.bitcast_convert %r : (" + t + ") -> tensor<3x2xi8>\n" +
                                      "  return %s : tensor<3x2xi8>\n"),
                             {Make(ir::ElementType::kI8, {2, 3}, a)});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<int8_t>(results[0]), (std::vector<int8_t>{3, 6, 2, 5, 1, 4}));
}

// reduce, reduce_window, select_and_scatter, scatter, map, sort, all_reduce
// and reduce_scatter run their bodies on quantized scalars
// (tests/check/quantized.mlir, tests/check/multi_device.mlir); on one
// device an all_reduce gives back its operand's stored integers. A scan
// on quantized tensors is refused by name.
TEST(QuantizedCpu, AllReduceRunsAndAScanIsRefusedByName) {
  const std::string q = std::string("tensor<4x") + kQ + ">";
  const std::string s = std::string("tensor<") + kQ + ">";
  const std::string body = "  ^bb0(%x: " + s + ", %y: " + s + "):\n"
                           "    %z = stablehlo.add %x, %y : " + s + "\n"
                           "    stablehlo.return %z : " + s + "\n";
  const auto reduced = RunOk(Func("%a: " + q, "tensor<4xi8>",
                                  "  %0 = \"stablehlo.all_reduce\"(%a) ({\n" + body +
                                      "  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (" + q + ") -> " + q +
                                      "\n  %1 = stablehlo.bitcast_convert %0 : (" + q + ") -> tensor<4xi8>\n"
                                      "  return %1 : tensor<4xi8>\n"),
                             {Make(ir::ElementType::kI8, {4}, std::vector<int8_t>{4, 3, 2, 1})});
  ASSERT_EQ(reduced.size(), 1u);
  EXPECT_EQ(Values<int8_t>(reduced[0]), (std::vector<int8_t>{4, 3, 2, 1}));
  auto r = RunProgram(Func("%a: " + q + ", %i: " + s, "",
                           "  %0:2 = chlo.scan(%a) inits (%i) dimension=0 attributes {is_associative = true, "
                           "is_reverse = false} {\n" +
                               std::string("  ^bb0(%x: ") + s + ", %y: " + s + "):\n"
                               "    %z = stablehlo.add %x, %y : " + s + "\n"
                               "    stablehlo.return %z, %z : " + s + ", " + s + "\n"
                               "  } : (" + q + ", " + s + ") -> (" + q + ", " + s + ")\n  return\n"),
                      {Make(ir::ElementType::kI8, {4}, std::vector<int8_t>{4, 3, 2, 1}),
                       Make(ir::ElementType::kI8, {}, std::vector<int8_t>{0})});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(HasSubstr(r.status().message(), "chlo.scan")) << r.status().message();
  EXPECT_TRUE(HasSubstr(r.status().message(), "dequantize first")) << r.status().message();
}

// A map whose body keeps the value: the stored integers come back as they
// were (the body's arguments are the inputs' quantized scalars).
TEST(QuantizedCpu, MapPassesTheStoredIntegersToItsBody) {
  const std::string q = std::string("tensor<4x") + kQ + ">";
  const std::string s = std::string("tensor<") + kQ + ">";
  const auto results = RunOk(Func("%a: " + q, "tensor<4xi8>",
                                  "  %m = \"stablehlo.map\"(%a) ({\n"
                                  "  ^bb0(%x: " + s + "):\n"
                                  "    stablehlo.return %x : " + s + "\n"
                                  "  }) {dimensions = array<i64: 0>} : (" + q + ") -> " + q + "\n" +
                                      "  %s = stablehlo.bitcast_convert %m : (" + q + ") -> tensor<4xi8>\n" +
                                      "  return %s : tensor<4xi8>\n"),
                             {Make(ir::ElementType::kI8, {4}, std::vector<int8_t>{4, -3, 127, -128})});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(Values<int8_t>(results[0]), (std::vector<int8_t>{4, -3, 127, -128}));
}

}  // namespace
}  // namespace hlograph::testing

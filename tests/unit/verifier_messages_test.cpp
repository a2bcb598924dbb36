// Programs that parse but break StableHLO's rules: ir::VerifyModule rejects
// them with `file:line:col: error: 'op.name' op <what was expected>`, the
// position being the op's first token in the source.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace hlograph::testing {
namespace {

constexpr char kFile[] = "v.mlir";

std::string Func(const std::string& args, const std::string& results, const std::string& body) {
  return "func.func @main(" + args + ")" + (results.empty() ? "" : " -> " + results) + " {\n" + body + "}\n";
}

std::string VerifyMessage(const std::string& text) {
  auto parsed = frontend::ParseText(text, kFile);
  if (!parsed.ok()) return "<parse error> " + parsed.status().message();
  std::string all;
  for (const auto& m : parsed->modules) {
    Status s = ir::VerifyModule(*m);
    if (!s.ok()) all += s.message() + "\n";
  }
  return all.empty() ? "<verified fine>" : all;
}

// The program parses, fails verification at the op starting with `op_at`,
// names `op_name` in quotes and says `phrase`.
void ExpectVerifyError(const std::string& text, const std::string& op_at, const std::string& op_name,
                       const std::string& phrase, size_t nth = 0) {
  const std::string msg = VerifyMessage(text);
  ASSERT_EQ(msg.find("<parse error>"), std::string::npos) << msg;
  ASSERT_NE(msg, "<verified fine>") << "expected a verifier error for:\n" << text;
  EXPECT_TRUE(HasSubstr(msg, PosOf(kFile, text, op_at, nth) + ": error: '" + op_name + "' op ")) << text;
  EXPECT_TRUE(HasSubstr(msg, phrase)) << text;
}

TEST(VerifierMessages, ValidProgramVerifies) {
  EXPECT_EQ(VerifyMessage(Func("%arg0: tensor<2xf32>", "tensor<2xf32>",
                               "  %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>\n  return %0 : tensor<2xf32>\n")),
            "<verified fine>");
}

TEST(VerifierMessages, ElementwiseShapeMismatch) {
  const std::string text = Func("%arg0: tensor<2xf32>, %arg1: tensor<3xf32>", "tensor<2xf32>",
                                "  %0 = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
                                "  return %0 : tensor<2xf32>\n");
  ExpectVerifyError(text, "%0 = stablehlo.add", "stablehlo.add", "tensor<3xf32>");
  EXPECT_TRUE(HasSubstr(VerifyMessage(text), "expects"));
}

TEST(VerifierMessages, ElementwiseElementTypeMismatch) {
  const std::string text = Func("%arg0: tensor<2xf32>, %arg1: tensor<2xi32>", "tensor<2xf32>",
                                "  %0 = stablehlo.multiply %arg0, %arg1 : (tensor<2xf32>, tensor<2xi32>) -> "
                                "tensor<2xf32>\n  return %0 : tensor<2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.multiply", "expects");
}

TEST(VerifierMessages, BroadcastInDimOutOfRange) {
  const std::string text = Func("%arg0: tensor<3xf32>", "tensor<2x3xf32>",
                                "  %0 = stablehlo.broadcast_in_dim %arg0, dims = [5] : (tensor<3xf32>) -> "
                                "tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.broadcast_in_dim", "broadcast_dimensions");
  EXPECT_TRUE(HasSubstr(VerifyMessage(text), "5"));
}

TEST(VerifierMessages, BroadcastInDimSizeMismatch) {
  const std::string text = Func("%arg0: tensor<3xf32>", "tensor<2x4xf32>",
                                "  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<3xf32>) -> "
                                "tensor<2x4xf32>\n  return %0 : tensor<2x4xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.broadcast_in_dim", "1 or 4");
}

TEST(VerifierMessages, DotGeneralContractingSizeMismatch) {
  const std::string text = Func("%arg0: tensor<2x3xf32>, %arg1: tensor<4x5xf32>", "tensor<2x5xf32>",
                                "  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
                                "(tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>\n"
                                "  return %0 : tensor<2x5xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.dot_general", "contracting");
  const std::string msg = VerifyMessage(text);
  EXPECT_TRUE(HasSubstr(msg, "3")) << "names the lhs size";
  EXPECT_TRUE(HasSubstr(msg, "4")) << "names the rhs size";
}

TEST(VerifierMessages, DotGeneralWrongResultShape) {
  const std::string text = Func("%arg0: tensor<2x3xf32>, %arg1: tensor<3x5xf32>", "tensor<2x6xf32>",
                                "  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
                                "(tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x6xf32>\n"
                                "  return %0 : tensor<2x6xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.dot_general", "[2, 5]");
}

TEST(VerifierMessages, WhileBodyReturnsTheWrongType) {
  const std::string text = Func("%arg0: tensor<i32>", "tensor<i32>",
                                "  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n"
                                "  cond {\n"
                                "    %c = stablehlo.constant dense<10> : tensor<i32>\n"
                                "    %1 = stablehlo.compare LT, %iterArg, %c : (tensor<i32>, tensor<i32>) -> "
                                "tensor<i1>\n"
                                "    stablehlo.return %1 : tensor<i1>\n"
                                "  } do {\n"
                                "    %1 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>\n"
                                "    stablehlo.return %1 : tensor<f32>\n"
                                "  }\n"
                                "  return %0 : tensor<i32>\n");
  ExpectVerifyError(text, "%0 = stablehlo.while", "stablehlo.while", "tensor<f32>");
  EXPECT_TRUE(HasSubstr(VerifyMessage(text), "tensor<i32>"));
}

TEST(VerifierMessages, WhileConditionMustReturnABool) {
  const std::string text = Func("%arg0: tensor<i32>", "tensor<i32>",
                                "  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n"
                                "  cond {\n"
                                "    stablehlo.return %iterArg : tensor<i32>\n"
                                "  } do {\n"
                                "    stablehlo.return %iterArg : tensor<i32>\n"
                                "  }\n"
                                "  return %0 : tensor<i32>\n");
  ExpectVerifyError(text, "%0 = stablehlo.while", "stablehlo.while", "tensor<i1>");
}

TEST(VerifierMessages, CallToAMissingFunction) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = call @nowhere(%arg0) : (tensor<f32>) -> tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0 = call", "func.call", "@nowhere");
}

TEST(VerifierMessages, CallWithTheWrongSignature) {
  const std::string text =
      "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = call @f(%arg0) : (tensor<f32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n"
      "func.func private @f(%arg0: tensor<i32>) -> tensor<f32> {\n"
      "  %0 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n";
  ExpectVerifyError(text, "%0 = call", "func.call", "tensor<i32>");
}

TEST(VerifierMessages, ReturnDoesNotMatchTheSignature) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<i32>", "  return %arg0 : tensor<f32>\n");
  const std::string msg = VerifyMessage(text);
  ASSERT_NE(msg, "<verified fine>");
  // Reported at the function or at its return; either names both types.
  EXPECT_TRUE(HasSubstr(msg, "v.mlir:1:1: error: 'func.func' op ") ||
              HasSubstr(msg, PosOf(kFile, text, "return") + ": error: 'func.return' op "));
  EXPECT_TRUE(HasSubstr(msg, "tensor<i32>"));
  EXPECT_TRUE(HasSubstr(msg, "tensor<f32>"));
  // The wrong number of results.
  const std::string count = Func("%arg0: tensor<f32>", "(tensor<f32>, tensor<f32>)", "  return %arg0 : tensor<f32>\n");
  EXPECT_NE(VerifyMessage(count), "<verified fine>");
}

TEST(VerifierMessages, ValueFromAnotherFunction) {
  // The parser cannot produce this (functions are isolated), so the IR is
  // rewired after parsing, as a transformation might do by mistake.
  const std::string text =
      "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "  return %arg0 : tensor<f32>\n"
      "}\n"
      "func.func @g(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = stablehlo.abs %arg0 : tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n";
  auto parsed = frontend::ParseText(text, kFile);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ir::Module& m = *parsed->modules[0];
  ASSERT_TRUE(ir::VerifyModule(m).ok());
  ir::Operation* f = m.LookupFunction("f");
  ir::Operation* g = m.LookupFunction("g");
  ASSERT_TRUE(f && g);
  ir::Operation& abs = *g->region(0).front().operations()[0];
  abs.SetOperand(0, f->region(0).front().argument(0));
  Status s = ir::VerifyModule(m);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(HasSubstr(s.message(), "v.mlir:5:3: error: 'stablehlo.abs' op "));
  EXPECT_TRUE(HasSubstr(s.message(), "operand #0"));
  EXPECT_TRUE(HasSubstr(s.message(), "scope"));
}

TEST(VerifierMessages, ValueFromASiblingRegion) {
  const std::string text = Func("%arg0: tensor<i32>, %arg1: tensor<f32>", "tensor<f32>",
                                "  %0 = \"stablehlo.case\"(%arg0) ({\n"
                                "    %1 = stablehlo.negate %arg1 : tensor<f32>\n"
                                "    stablehlo.return %1 : tensor<f32>\n"
                                "  }, {\n"
                                "    %2 = stablehlo.abs %arg1 : tensor<f32>\n"
                                "    stablehlo.return %2 : tensor<f32>\n"
                                "  }) : (tensor<i32>) -> tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  auto parsed = frontend::ParseText(text, kFile);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ir::Module& m = *parsed->modules[0];
  ASSERT_TRUE(ir::VerifyModule(m).ok());
  const ir::Operation& case_op = *m.Functions()[0]->region(0).front().operations()[0];
  ir::Value* first_region_value = case_op.region(0).front().operations()[0]->result(0);
  ir::Operation& abs = *case_op.region(1).front().operations()[0];
  abs.SetOperand(0, first_region_value);
  Status s = ir::VerifyModule(m);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(HasSubstr(s.message(), PosOf(kFile, text, "%2 = stablehlo.abs") + ": error: 'stablehlo.abs' op "));
  EXPECT_TRUE(HasSubstr(s.message(), "scope"));
}

TEST(VerifierMessages, StablehloReturnAtFunctionLevel) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>", "  stablehlo.return %arg0 : tensor<f32>\n");
  const std::string msg = VerifyMessage(text);
  ASSERT_NE(msg, "<verified fine>");
  EXPECT_TRUE(HasSubstr(msg, PosOf(kFile, text, "stablehlo.return") + ": error: 'stablehlo.return' op "));
  EXPECT_TRUE(HasSubstr(msg, "func.return"));
}

TEST(VerifierMessages, FuncReturnInsideAStablehloRegion) {
  const std::string text = Func("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                                "  %0 = \"stablehlo.if\"(%arg0) ({\n"
                                "    func.return %arg1 : tensor<f32>\n"
                                "  }, {\n"
                                "    stablehlo.return %arg1 : tensor<f32>\n"
                                "  }) : (tensor<i1>) -> tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  const std::string msg = VerifyMessage(text);
  ASSERT_NE(msg, "<verified fine>");
  EXPECT_TRUE(HasSubstr(msg, "stablehlo.return"));
  EXPECT_TRUE(HasSubstr(msg, "v.mlir:"));
}

TEST(VerifierMessages, MissingTerminator) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>", "  %0 = stablehlo.abs %arg0 : tensor<f32>\n");
  ExpectVerifyError(text, "func.func", "func.func", "func.return");
}

TEST(VerifierMessages, TransposeNotAPermutation) {
  const std::string text = Func("%arg0: tensor<2x3xf32>", "tensor<3x2xf32>",
                                "  %0 = stablehlo.transpose %arg0, dims = [0, 0] : (tensor<2x3xf32>) -> "
                                "tensor<3x2xf32>\n  return %0 : tensor<3x2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.transpose", "permutation");
}

TEST(VerifierMessages, ReshapeElementCount) {
  const std::string text = Func("%arg0: tensor<2x3xf32>", "tensor<5xf32>",
                                "  %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<5xf32>\n"
                                "  return %0 : tensor<5xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.reshape", "6");
}

TEST(VerifierMessages, SliceOutOfBounds) {
  const std::string text = Func("%arg0: tensor<4xf32>", "tensor<3xf32>",
                                "  %0 = stablehlo.slice %arg0 [2:5] : (tensor<4xf32>) -> tensor<3xf32>\n"
                                "  return %0 : tensor<3xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.slice", "5");
}

TEST(VerifierMessages, ConcatenateDimensionOutOfRange) {
  const std::string text = Func("%arg0: tensor<2xf32>", "tensor<4xf32>",
                                "  %0 = stablehlo.concatenate %arg0, %arg0, dim = 1 : (tensor<2xf32>, tensor<2xf32>) "
                                "-> tensor<4xf32>\n  return %0 : tensor<4xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.concatenate", "dim");
}

TEST(VerifierMessages, IotaDimensionOutOfRange) {
  const std::string text = Func("", "tensor<4xi32>",
                                "  %0 = stablehlo.iota dim = 1 : tensor<4xi32>\n  return %0 : tensor<4xi32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.iota", "1");
}

TEST(VerifierMessages, CompareResultMustBeBool) {
  const std::string text = Func("%arg0: tensor<2xf32>", "tensor<2xf32>",
                                "  %0 = stablehlo.compare LT, %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> "
                                "tensor<2xf32>\n  return %0 : tensor<2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.compare", "i1");
}

TEST(VerifierMessages, SelectPredicateShape) {
  const std::string text = Func("%arg0: tensor<3xi1>, %arg1: tensor<2xf32>", "tensor<2xf32>",
                                "  %0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<3xi1>, tensor<2xf32>\n"
                                "  return %0 : tensor<2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.select", "tensor<3xi1>");
}

TEST(VerifierMessages, ReduceBodyWithTheWrongArity) {
  const std::string text = Func("%arg0: tensor<4xf32>, %arg1: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0] : (tensor<4xf32>, "
                                "tensor<f32>) -> tensor<f32>\n"
                                "   reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n"
                                "    stablehlo.return %a, %b : tensor<f32>, tensor<f32>\n"
                                "  }\n"
                                "  return %0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.reduce", "expects");
}

TEST(VerifierMessages, ReduceDimensionOutOfRange) {
  const std::string text = Func("%arg0: tensor<4xf32>, %arg1: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions "
                                "= [3] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.reduce", "3");
}

TEST(VerifierMessages, CompositeWithoutDecomposition) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.composite \"my.op\" %arg0 {decomposition = @missing} : "
                                "(tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.composite", "@missing");
}

TEST(VerifierMessages, CustomCallDictionaryConfigNeedsTypedFfi) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.custom_call @foo(%arg0) {backend_config = {x = 1 : i32}} : "
                                "(tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.custom_call", "api_version");
}

TEST(VerifierMessages, CustomCallLayoutNotAPermutation) {
  const std::string text =
      Func("%arg0: tensor<2x2xf32>", "tensor<2x2xf32>",
           "  %0 = stablehlo.custom_call @foo(%arg0) {operand_layouts = [dense<[0, 0]> : tensor<2xindex>], "
           "result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
           "  return %0 : tensor<2x2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.custom_call", "permutation");
}

TEST(VerifierMessages, WrongNumberOfResultsFromTheGenericForm) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0:2 = \"stablehlo.abs\"(%arg0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
                                "  return %0#0 : tensor<f32>\n");
  ExpectVerifyError(text, "%0:2", "stablehlo.abs", "expects 1 results, got 2");
}

TEST(VerifierMessages, MissingRequiredAttribute) {
  const std::string text = Func("%arg0: tensor<2x3xf32>", "tensor<3x2xf32>",
                                "  %0 = \"stablehlo.transpose\"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
                                "  return %0 : tensor<3x2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.transpose", "requires attribute 'permutation'");
}

TEST(VerifierMessages, AttributeOfTheWrongKind) {
  const std::string text = Func("%arg0: tensor<2x3xf32>", "tensor<3x2xf32>",
                                "  %0 = \"stablehlo.transpose\"(%arg0) <{permutation = [1, 0]}> : (tensor<2x3xf32>) "
                                "-> tensor<3x2xf32>\n  return %0 : tensor<3x2xf32>\n");
  ExpectVerifyError(text, "%0 = ", "stablehlo.transpose", "array<i64: ...>");
}

TEST(VerifierMessages, DuplicateSymbol) {
  const std::string text =
      "func.func @f() {\n  return\n}\n"
      "func.func @f() {\n  return\n}\n";
  ExpectVerifyError(text, "func.func", "func.func", "@f", 1);
}

TEST(VerifierMessages, NotesTheProgramLocation) {
  const std::string text =
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32> loc(#loc1)\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n"
      "#loc1 = loc(\"model.py\":12:3)\n";
  const std::string msg = VerifyMessage(text);
  EXPECT_TRUE(HasSubstr(msg, "v.mlir:3:5: error: 'stablehlo.add' op "));
  EXPECT_TRUE(HasSubstr(msg, "model.py:12:3"));
}

TEST(VerifierMessages, ErrorsInSeveralModulesNameTheirOwnLines) {
  const std::string text =
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    return %arg0 : tensor<2xf32>\n"
      "  }\n"
      "}\n"
      "// -----\n"
      "module {\n"
      "  func.func @main(%arg0: tensor<3xf32>) -> tensor<2x3xf32> {\n"
      "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
      "    return %0 : tensor<2x3xf32>\n"
      "  }\n"
      "}\n";
  EXPECT_TRUE(HasSubstr(VerifyMessage(text), "v.mlir:9:5: error: 'stablehlo.broadcast_in_dim' op "));
}

TEST(VerifierMessages, ErrorCountIsCapped) {
  std::string body;
  for (int i = 0; i < 30; ++i) {
    body += "  %" + std::to_string(i) +
            " = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n";
  }
  body += "  return %arg0 : tensor<2xf32>\n";
  auto parsed = frontend::ParseText(Func("%arg0: tensor<2xf32>, %arg1: tensor<3xf32>", "tensor<2xf32>", body), kFile);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  Status s = ir::VerifyModule(*parsed->modules[0], 5);
  ASSERT_FALSE(s.ok());
  size_t errors = 0;
  for (size_t at = s.message().find(": error: "); at != std::string::npos; at = s.message().find(": error: ", at + 1)) {
    ++errors;
  }
  EXPECT_EQ(errors, 5u);
  EXPECT_TRUE(HasSubstr(s.message(), "and 25 more errors"));
  // Each reported error names its own line.
  EXPECT_TRUE(HasSubstr(s.message(), "v.mlir:2:3: error: "));
  EXPECT_TRUE(HasSubstr(s.message(), "v.mlir:6:3: error: "));
  // The default cap is 20.
  Status all = ir::VerifyModule(*parsed->modules[0]);
  EXPECT_TRUE(HasSubstr(all.message(), "and 10 more errors"));
}

}  // namespace
}  // namespace hlograph::testing

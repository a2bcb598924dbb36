// Malformed input: every error is a Status naming file:line:col and what
// was expected; nothing crashes, however deep, truncated or corrupted the
// text is.
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "test_util.h"

namespace hlograph::testing {
namespace {

constexpr char kFile[] = "bad.mlir";

std::string Error(const std::string& text) {
  auto parsed = frontend::ParseText(text, kFile);
  return parsed.ok() ? std::string("<parsed fine>") : parsed.status().message();
}

// The error for `text` is reported at the `nth` occurrence of `at` and
// contains `phrase`.
void ExpectErrorAt(const std::string& text, const std::string& at, const std::string& phrase, size_t nth = 0) {
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, at, nth) + ": error: ")) << "input:\n" << text;
  EXPECT_TRUE(HasSubstr(err, phrase)) << "input:\n" << text;
}

std::string Func(const std::string& args, const std::string& results, const std::string& body) {
  return "func.func @main(" + args + ")" + (results.empty() ? "" : " -> " + results) + " {\n" + body + "}\n";
}

// A parse error message looks like `file:LINE:COL: error: ...`; returns
// LINE and COL.
bool SplitPosition(const std::string& message, const std::string& file, size_t* line, size_t* col) {
  // Appended piece by piece: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string.
  std::string pattern = "^";
  pattern += std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
  pattern += R"(:([0-9]+):([0-9]+): error: .+)";
  const std::regex re(pattern);
  std::smatch m;
  if (!std::regex_search(message, m, re)) return false;
  *line = std::stoul(m[1]);
  *col = std::stoul(m[2]);
  return true;
}

// ---------------------------------------------------------------------------
// Individual mistakes

TEST(ParserErrors, UnknownOperation) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.frobnicate %arg0 : tensor<f32>\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "stablehlo.frobnicate", "unknown operation 'stablehlo.frobnicate'");
  // In the generic form too.
  const std::string generic =
      Func("%arg0: tensor<f32>", "tensor<f32>",
           "  %0 = \"mydialect.op\"(%arg0) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(generic, "\"mydialect.op\"", "unknown operation 'mydialect.op'");
}

TEST(ParserErrors, UndefinedValue) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %missing : tensor<f32>\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "%missing", "use of undefined value %missing");
}

TEST(ParserErrors, ValueUsedBeforeItsDefinition) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %1 : tensor<f32>\n"
                                "  %1 = stablehlo.abs %arg0 : tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "%1", "undefined value %1");
}

TEST(ParserErrors, RedefinedValue) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %arg0 : tensor<f32>\n"
                                "  %0 = stablehlo.negate %arg0 : tensor<f32>\n"
                                "  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "%0", "redefinition of value %0", 1);
  // A function argument redefined in the body.
  const std::string arg = Func("%arg0: tensor<f32>", "tensor<f32>",
                               "  %arg0 = stablehlo.abs %arg0 : tensor<f32>\n  return %arg0 : tensor<f32>\n");
  EXPECT_TRUE(HasSubstr(Error(arg), "redefinition of value %arg0"));
  // Two arguments with one name.
  EXPECT_TRUE(HasSubstr(Error(Func("%a: tensor<f32>, %a: tensor<f32>", "", "  return\n")), "redefinition"));
}

TEST(ParserErrors, RedefinedValueInANestedRegion) {
  // Values of enclosing regions are visible inside nested ones, so a nested
  // definition of the same name is a redefinition (MLIR: "redefinition of
  // SSA value"), not a new, shadowing value.
  const std::string text = Func("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %arg1 : tensor<f32>\n"
                                "  %1 = \"stablehlo.if\"(%arg0) ({\n"
                                "    %0 = stablehlo.negate %arg1 : tensor<f32>\n"
                                "    stablehlo.return %0 : tensor<f32>\n"
                                "  }, {\n"
                                "    stablehlo.return %0 : tensor<f32>\n"
                                "  }) : (tensor<i1>) -> tensor<f32>\n"
                                "  return %1 : tensor<f32>\n");
  ExpectErrorAt(text, "%0", "redefinition of value %0", 1);
}

TEST(ParserErrors, SiblingRegionsMayReuseNames) {
  // Each region's values end with it.
  const std::string siblings = Func("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                                    "  %0 = \"stablehlo.if\"(%arg0) ({\n"
                                    "    %1 = stablehlo.negate %arg1 : tensor<f32>\n"
                                    "    stablehlo.return %1 : tensor<f32>\n"
                                    "  }, {\n"
                                    "    %1 = stablehlo.abs %arg1 : tensor<f32>\n"
                                    "    stablehlo.return %1 : tensor<f32>\n"
                                    "  }) : (tensor<i1>) -> tensor<f32>\n"
                                    "  return %0 : tensor<f32>\n");
  EXPECT_EQ(Error(siblings), "<parsed fine>");
}

TEST(ParserErrors, ValuesOfOtherFunctionsAreNotVisible) {
  const std::string text =
      "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n"
      "  return %x : tensor<f32>\n"
      "}\n"
      "func.func @g() -> tensor<f32> {\n"
      "  return %x : tensor<f32>\n"
      "}\n";
  ExpectErrorAt(text, "%x", "undefined value %x", 2);
}

TEST(ParserErrors, TypeAnnotationDisagreesWithOperand) {
  const std::string text = Func("%arg0: tensor<2xf32>", "tensor<3xf32>",
                                "  %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>\n  return %0 : tensor<3xf32>\n");
  ExpectErrorAt(text, "tensor<3xf32>\n", "operand #0 has type tensor<2xf32> but the op's type says tensor<3xf32>");
  // The functional form, second operand.
  const std::string fn = Func(
      "%arg0: tensor<2xf32>, %arg1: tensor<2xi32>", "tensor<2xf32>",
      "  %0 = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n  return %0 : "
      "tensor<2xf32>\n");
  ExpectErrorAt(fn, "(tensor<2xf32>, tensor<2xf32>)", "operand #1 has type tensor<2xi32>");
  // The generic form, wrong operand count.
  const std::string count = Func("%arg0: tensor<f32>", "tensor<f32>",
                                 "  %0 = \"stablehlo.abs\"(%arg0) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
                                 "  return %0 : tensor<f32>\n");
  ExpectErrorAt(count, "(tensor<f32>, tensor<f32>)", "lists 2 operands but the op has 1");
}

TEST(ParserErrors, ResultCountDisagreesWithNames) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0:2 = stablehlo.abs %arg0 : tensor<f32>\n  return %0#0 : tensor<f32>\n");
  // Rejected by the parser or, at the latest, by the verifier.
  auto parsed = frontend::ParseText(text, kFile);
  const std::string msg = parsed.ok() ? ir::VerifyModule(*parsed->modules[0]).message() : parsed.status().message();
  EXPECT_TRUE(HasSubstr(msg, "bad.mlir:2:3: error: "));
  const std::string generic = Func("%arg0: tensor<f32>", "tensor<f32>",
                                   "  %0 = \"stablehlo.abs\"(%arg0) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)\n"
                                   "  return %0 : tensor<f32>\n");
  ExpectErrorAt(generic, "(tensor<f32>) ->", "lists 2 results but 1 are named");
}

TEST(ParserErrors, ResultNumbers) {
  const std::string several = Func("%arg0: tensor<4xf32>", "tensor<4xf32>",
                                   "  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<4xf32>, "
                                   "tensor<4xf32>\n  return %0 : tensor<4xf32>\n");
  ExpectErrorAt(several, "%0 :", "names several results");
  const std::string out_of_range = Func("%arg0: tensor<4xf32>", "tensor<4xf32>",
                                        "  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<4xf32>, "
                                        "tensor<4xf32>\n  return %0#2 : tensor<4xf32>\n");
  ExpectErrorAt(out_of_range, "%0#2", "has no result #2");
}

TEST(ParserErrors, MissingClosingBrace) {
  const std::string text =
      "module {\n"
      "  func.func @main() {\n"
      "    return\n"
      "  }\n";
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, "bad.mlir:5:1: error: ")) << "at the end of the input";
  EXPECT_TRUE(HasSubstr(err, "'}'"));
  EXPECT_TRUE(HasSubstr(err, "end of input"));
  // A region left open inside a function.
  const std::string region = Func("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                                  "  %0 = \"stablehlo.if\"(%arg0) ({\n"
                                  "    stablehlo.return %arg1 : tensor<f32>\n"
                                  "  }, {\n"
                                  "    stablehlo.return %arg1 : tensor<f32>\n"
                                  "  ) : (tensor<i1>) -> tensor<f32>\n"
                                  "  return %0 : tensor<f32>\n");
  ExpectErrorAt(region, ") : (tensor<i1>)", "expected");
}

TEST(ParserErrors, ExtraClosingBrace) {
  const std::string text = "module {\n}\n}\n";
  ExpectErrorAt(text, "}", "expected", 1);
}

TEST(ParserErrors, UnterminatedString) {
  const std::string text = "func.func @main() attributes {a = \"never closed} {\n  return\n}\n";
  ExpectErrorAt(text, "\"never", "closing quote");
  const std::string at_eof = "module attributes {a = \"abc";
  ExpectErrorAt(at_eof, "\"abc", "closing quote");
}

TEST(ParserErrors, BadToken) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %arg0 : tensor<f32> $\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "$", "unexpected character");
  const std::string byte = std::string("module {\n  \xFF\n}\n");
  ExpectErrorAt(byte, "\xFF", "unexpected character");
  const std::string percent = Func("%arg0: tensor<f32>", "tensor<f32>", "  % = stablehlo.abs %arg0 : tensor<f32>\n");
  ExpectErrorAt(percent, "% =", "identifier");
}

TEST(ParserErrors, MissingResultTypes) {
  const std::string text = Func("%arg0: tensor<f32>", "tensor<f32>",
                                "  %0 = stablehlo.abs %arg0\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(text, "return", "expected ':'");
  const std::string generic = Func("%arg0: tensor<f32>", "tensor<f32>",
                                   "  %0 = \"stablehlo.abs\"(%arg0)\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(generic, "return", "expected ':'");
  // A function type without results.
  const std::string arrow = Func("%arg0: tensor<f32>", "tensor<f32>",
                                 "  %0 = stablehlo.convert %arg0 : (tensor<f32>) ->\n  return %0 : tensor<f32>\n");
  ExpectErrorAt(arrow, "return", "expected a type");
}

TEST(ParserErrors, UnsupportedTypes) {
  ExpectErrorAt(Func("%arg0: tensor<?xf32>", "", "  return\n"), "?", "dynamic dimensions are not supported");
  ExpectErrorAt(Func("%arg0: tensor<*xf32>", "", "  return\n"), "*", "unranked");
  ExpectErrorAt(Func("%arg0: tensor<4xf31>", "", "  return\n"), "f31", "expected an element type");
  ExpectErrorAt(Func("%arg0: tensor<4xf32, #enc>", "", "  return\n"), ", #enc", "encodings");
  ExpectErrorAt(Func("%arg0: memref<4xf32>", "", "  return\n"), "memref", "expected a type");
  ExpectErrorAt(Func("%arg0: tensor<4x!quant.any<i8:f32>>", "", "  return\n"), "!quant", "only !quant.uniform");
  ExpectErrorAt(Func("%arg0: tensor<4xcomplex<i32>>", "", "  return\n"), "i32>>", "complex<f32> or complex<f64>");
  ExpectErrorAt(Func("%arg0: tensor<4x4f32>", "", "  return\n"), "f32>", "expected 'x'");
  ExpectErrorAt(Func("%arg0: !stablehlo.future", "", "  return\n"), "!stablehlo.future", "unsupported type");
}

TEST(ParserErrors, HugeDimensions) {
  ExpectErrorAt(Func("%arg0: tensor<99999999999999999999xf32>", "", "  return\n"), "99999999999999999999",
                "too large");
  // Dimensions that fit but whose product overflows: the types still parse
  // (NumElements saturates), and nothing is allocated for them.
  const std::string big = Func("", "tensor<1125899906842624x1125899906842624xf32>",
                               "  %0 = stablehlo.constant dense<0.000000e+00> : "
                               "tensor<1125899906842624x1125899906842624xf32>\n"
                               "  return %0 : tensor<1125899906842624x1125899906842624xf32>\n");
  auto parsed = frontend::ParseText(big, kFile);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(ir::Type::Tensor(ir::ElementType::kF32, {1125899906842624, 1125899906842624}).NumElements(), INT64_MAX);
  // A non-splat literal for it is a shape error, not an allocation.
  const std::string list = Func("", "",
                                "  %0 = stablehlo.constant dense<[1.0, 2.0]> : "
                                "tensor<1125899906842624x1125899906842624xf32>\n  return\n");
  EXPECT_TRUE(HasSubstr(Error(list), "shape"));
  const std::string hex = Func("", "",
                               "  %0 = stablehlo.constant dense<\"0x0000803F00000040\"> : "
                               "tensor<1125899906842624x1125899906842624xf32>\n  return\n");
  EXPECT_TRUE(HasSubstr(Error(hex), "bytes"));
  // Rank beyond any real program.
  std::string shape;
  for (int i = 0; i < 100; ++i) shape += "1x";
  EXPECT_TRUE(HasSubstr(Error(Func("%arg0: tensor<" + shape + "f32>", "", "  return\n")), "rank"));
}

TEST(ParserErrors, IntegerLiteralsOutOfRange) {
  ExpectErrorAt(Func("%arg0: tensor<4xf32>", "tensor<4xf32>",
                     "  %0 = stablehlo.reverse %arg0, dims = [99999999999999999999] : tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n"),
                "99999999999999999999", "out of the range of i64");
  ExpectErrorAt(Func("%arg0: tensor<4xf32>", "tensor<4xf32>",
                     "  %0 = stablehlo.reduce_precision %arg0, format = e5m : tensor<4xf32>\n"
                     "  return %0 : tensor<4xf32>\n"),
                "e5m", "format like e5m10");
}

TEST(ParserErrors, PrettyFormMistakes) {
  // A keyword of the pretty form misspelled.
  ExpectErrorAt(Func("%arg0: tensor<3xf32>", "tensor<2x3xf32>",
                     "  %0 = stablehlo.broadcast_in_dim %arg0, dimz = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
                     "  return %0 : tensor<2x3xf32>\n"),
                "dimz", "expected 'dims'");
  // An op without a pretty form written as if it had one.
  ExpectErrorAt(Func("%arg0: tensor<4xf32>", "tensor<4xf32>",
                     "  %0 = stablehlo.sort %arg0 : tensor<4xf32>\n  return %0 : tensor<4xf32>\n"),
                "stablehlo.sort", "no pretty form");
  // `applies` with something that is not a binary elementwise op.
  ExpectErrorAt(Func("%arg0: tensor<4xf32>, %arg1: tensor<f32>", "tensor<f32>",
                     "  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.abs across dimensions = [0] : "
                     "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n"),
                "stablehlo.abs", "not a binary elementwise op");
  // An unknown window field of a convolution.
  ExpectErrorAt(Func("%arg0: tensor<1x1x8xf32>, %arg1: tensor<1x1x3xf32>", "tensor<1x1x6xf32>",
                     "  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], "
                     "window = {strides = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : "
                     "(tensor<1x1x8xf32>, tensor<1x1x3xf32>) -> tensor<1x1x6xf32>\n  return %0 : tensor<1x1x6xf32>\n"),
                "strides", "unknown window field");
  // Select with the wrong number of types.
  ExpectErrorAt(Func("%arg0: tensor<i1>, %arg1: tensor<f32>", "tensor<f32>",
                     "  %0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<f32>\n  return %0 : tensor<f32>\n"),
                "tensor<f32>\n", "predicate type and the result type");
}

TEST(ParserErrors, UnsupportedConstructs) {
  ExpectErrorAt("module {\n}\n{-#\n  dialect_resources: {}\n#-}\n", "{-#", "not supported");
  ExpectErrorAt(Func("", "", "  %0 = stablehlo.constant dense_resource<blob> : tensor<4xf32>\n  return\n"),
                "dense_resource", "not supported");
  ExpectErrorAt(Func("%arg0: tensor<i1>", "",
                     "  \"cf.cond_br\"(%arg0)[^bb1, ^bb1] : (tensor<i1>) -> ()\n"
                     "^bb1:\n  return\n"),
                "\"cf.cond_br\"", "unknown operation");
  ExpectErrorAt("func.func private @decl(tensor<f32>) -> tensor<f32>\n", "tensor<f32>)", "argument");
  ExpectErrorAt("module {\n}\nmodule {\n}\n", "module", "'// -----'", 1);
}

// ---------------------------------------------------------------------------
// Depth: deep nesting is an error, never a stack overflow. Each case runs in
// a child process, so that a crash is reported as a failure of this test
// rather than taking the whole test binary down.

class ParserDepth : public ::testing::Test {
 protected:
  static void ExpectCleanError(const std::string& text, const std::string& phrase) {
    EXPECT_EXIT(
        {
          const std::string err = Error(text);
          const bool ok = err.rfind("bad.mlir:", 0) == 0 && err.find(phrase) != std::string::npos;
          if (!ok) std::fprintf(stderr, "unexpected message: %s\n", err.substr(0, 300).c_str());
          std::exit(ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "");
  }
};

TEST_F(ParserDepth, TenThousandNestedListsInADenseLiteral) {
  const std::string text = Func("", "", "  %0 = stablehlo.constant dense<" + std::string(10000, '[') + "1" +
                                            std::string(10000, ']') + "> : tensor<f32>\n  return\n");
  ExpectCleanError(text, "deep");
}

TEST_F(ParserDepth, TenThousandNestedRegions) {
  std::string body;
  for (int i = 0; i < 10000; ++i) body += "\"stablehlo.if\"(%arg0) ({\n";
  ExpectCleanError(Func("%arg0: tensor<i1>", "", body), "nesting deeper than");
}

TEST_F(ParserDepth, TenThousandNestedFunctionsInModules) {
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "module {\n";
  ExpectCleanError(text, "nesting deeper than");
}

TEST_F(ParserDepth, NestedAttributeArraysAndDictionaries) {
  ExpectCleanError("func.func @f() attributes {a = " + std::string(100000, '[') + "} {\n  return\n}\n",
                   "nesting deeper than");
  std::string dicts;
  for (int i = 0; i < 20000; ++i) dicts += "{a = ";
  ExpectCleanError("func.func @f() attributes {a = " + dicts + "1", "nesting deeper than");
}

TEST_F(ParserDepth, NestedTypes) {
  std::string tuple;
  for (int i = 0; i < 20000; ++i) tuple += "tuple<";
  ExpectCleanError(Func("%arg0: " + tuple + "tensor<f32>", "", "  return\n"), "nesting deeper than");
}

TEST_F(ParserDepth, NestedComplexElementTypes) {
  std::string complex;
  for (int i = 0; i < 200000; ++i) complex += "complex<";
  ExpectCleanError(Func("%arg0: tensor<" + complex + "f32", "", "  return\n"), "complex");
}

TEST_F(ParserDepth, NestedLocations) {
  std::string loc;
  for (int i = 0; i < 20000; ++i) loc += "callsite(";
  ExpectCleanError("module {\n} loc(" + loc + "\"a\"", "nesting deeper than");
  std::string fused;
  for (int i = 0; i < 20000; ++i) fused += "fused[";
  ExpectCleanError("module {\n} loc(" + fused + "\"a\"", "nesting deeper than");
}

TEST_F(ParserDepth, NestedOpaqueDialectAttribute) {
  ExpectCleanError("func.func @f() attributes {a = #sdy.sharding" + std::string(100000, '<') + "} {\n}\n",
                   "too deeply");
}

// ---------------------------------------------------------------------------
// Truncated and corrupted corpus files

std::string CorpusFile(const std::string& name) { return ReadFile(SourceDir() + "/tests/corpus/" + name); }

// The message is a well-formed error whose position lies inside `text`.
void ExpectWellFormedError(const std::string& message, const std::string& file, const std::string& text) {
  size_t line = 0, col = 0;
  ASSERT_TRUE(SplitPosition(message, file, &line, &col)) << message.substr(0, 300);
  const size_t lines = 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  EXPECT_GE(line, 1u);
  EXPECT_LE(line, lines) << message.substr(0, 200);
  EXPECT_GE(col, 1u);
}

// Whatever parses must print, and print to a fixed point.
void ExpectPrintsToFixedPoint(const std::vector<std::unique_ptr<ir::Module>>& modules, const std::string& what) {
  for (const auto& m : modules) (void)ir::VerifyModule(*m);  // must not crash
  const std::string once = ir::PrintModules(modules);
  auto again = frontend::ParseText(once, "printed.mlir");
  ASSERT_TRUE(again.ok()) << what << ": printed text does not parse: " << again.status().message() << "\n"
                          << once.substr(0, 3000);
  EXPECT_EQ(ir::PrintModules(again->modules), once) << what;
}

TEST(ParserRobustness, TruncatedFilesErrorCleanly) {
  for (const std::string name : {"transformer_block.mlir", "debug/cnn_train_grad.mlir", "multi_module.mlir"}) {
    const std::string text = CorpusFile(name);
    ASSERT_GT(text.size(), 1000u) << name;
    std::vector<size_t> cuts;
    for (size_t i = 0; i < 200; ++i) cuts.push_back(i * text.size() / 200);
    std::mt19937 rng(7);
    for (int i = 0; i < 50; ++i) cuts.push_back(rng() % text.size());
    int errors = 0;
    for (size_t cut : cuts) {
      const std::string prefix = text.substr(0, cut);
      auto parsed = frontend::ParseText(prefix, name);
      if (parsed.ok()) {
        ExpectPrintsToFixedPoint(parsed->modules, name + " cut at " + std::to_string(cut));
      } else {
        ++errors;
        ExpectWellFormedError(parsed.status().message(), name, prefix);
      }
    }
    EXPECT_GT(errors, 150) << name << ": almost every prefix of a program is incomplete";
  }
}

TEST(ParserRobustness, RandomByteFlipsErrorCleanlyOrParse) {
  const char kInteresting[] = "%@#^!\"\\{}[]()<>:=,-x0123456789 \n\xFF\x00";
  for (const std::string name : {"mlp_grad.mlir", "debug/while_loop_newton_sqrt.mlir", "sharded_mlp.mlir",
                                 "conv2d_lhs_dilation.mlir"}) {
    const std::string original = CorpusFile(name);
    ASSERT_FALSE(original.empty()) << name;
    std::mt19937 rng(12345);
    int parsed_ok = 0, errors = 0;
    for (int round = 0; round < 100; ++round) {
      std::string text = original;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        const size_t at = rng() % text.size();
        text[at] = (rng() % 2) ? kInteresting[rng() % (sizeof(kInteresting) - 1)] : static_cast<char>(rng() % 256);
      }
      auto parsed = frontend::ParseText(text, "flipped.mlir");
      if (parsed.ok()) {
        ++parsed_ok;
        ExpectPrintsToFixedPoint(parsed->modules, name + " round " + std::to_string(round));
      } else {
        ++errors;
        ExpectWellFormedError(parsed.status().message(), "flipped.mlir", text);
      }
    }
    EXPECT_EQ(parsed_ok + errors, 100);
  }
}

TEST(ParserRobustness, RandomTokenSoupErrorsCleanly) {
  const std::vector<std::string> pieces = {
      "module", "{", "}", "func.func", "@main", "(", ")", "%arg0", ":", "tensor<4xf32>", "->", "return", "%0",
      "=", "stablehlo.add", ",", "stablehlo.constant", "dense<1.0>", "\"stablehlo.case\"", "({", "})", "^bb0",
      "loc(", "#loc1", "[", "]", "<", ">", "array<i64:", "1", "-", "\"s\"", "attributes", "// -----\n", "\n"};
  std::mt19937 rng(99);
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const int n = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) text += pieces[rng() % pieces.size()] + " ";
    auto parsed = frontend::ParseText(text, "soup.mlir");
    if (parsed.ok()) {
      ExpectPrintsToFixedPoint(parsed->modules, "soup: " + text);
    } else {
      ExpectWellFormedError(parsed.status().message(), "soup.mlir", text);
    }
  }
}

// ---------------------------------------------------------------------------
// Locations

TEST(ParserErrors, LocationAliasCycles) {
  // Alias definitions may refer only to earlier aliases (as MLIR prints
  // them), which rules out cycles.
  const std::string two =
      "module {\n"
      "  func.func @main() {\n"
      "    return loc(#loc1)\n"
      "  }\n"
      "}\n"
      "#loc1 = loc(#loc2)\n"
      "#loc2 = loc(#loc1)\n";
  ExpectErrorAt(two, "#loc2", "#loc2 is used before its definition");
  const std::string self =
      "module {\n"
      "  func.func @main() {\n"
      "    return loc(#loc1)\n"
      "  }\n"
      "}\n"
      "#loc1 = loc(#loc1)\n";
  ExpectErrorAt(self, "#loc1", "#loc1 is used before its definition", 2);
  // A cycle through callsite and fused locations.
  const std::string via_callsite =
      "module {\n"
      "} loc(#loc1)\n"
      "#loc1 = loc(callsite(#loc2 at \"f.py\":1:1))\n"
      "#loc2 = loc(fused[#loc1])\n";
  ExpectErrorAt(via_callsite, "#loc2", "used before its definition");
  // Referring back is fine, and so is an op referring ahead.
  const std::string chain =
      "module {\n"
      "} loc(#loc2)\n"
      "#loc1 = loc(\"f.py\":1:1)\n"
      "#loc2 = loc(callsite(#loc1 at #loc1))\n";
  auto parsed = frontend::ParseText(chain, kFile);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_TRUE(parsed->modules[0]->op().loc());
  EXPECT_EQ(parsed->modules[0]->op().loc()->ToString(), "callsite(\"f.py\":1:1 at \"f.py\":1:1)");
}

TEST(ParserErrors, UndefinedLocationAlias) {
  const std::string text =
      "module {\n"
      "  func.func @main() {\n"
      "    return loc(#loc9)\n"
      "  }\n"
      "}\n"
      "#loc1 = loc(\"x.py\":1:2)\n";
  ExpectErrorAt(text, "#loc9", "undefined location alias #loc9");
}

TEST(ParserErrors, RedefinedLocationAlias) {
  const std::string text =
      "module {\n"
      "}\n"
      "#loc1 = loc(unknown)\n"
      "#loc1 = loc(\"x.py\":1:2)\n";
  ExpectErrorAt(text, "#loc1", "redefinition of #loc1", 1);
}

TEST(ParserErrors, MalformedLocations) {
  ExpectErrorAt("module {\n} loc(42)\n", "42", "expected a location");
  ExpectErrorAt("module {\n} loc(\"f.py\":1:2 frob)\n", "frob", "')'");
  ExpectErrorAt("module {\n}\n#loc1 = \"f.py\":1:2\n", "\"f.py\"", "loc(");
  ExpectErrorAt("module {\n} loc(callsite(\"a\" \"b\"))\n", "\"b\"", "'at'");
}

// ---------------------------------------------------------------------------
// Files with several modules

TEST(ParserErrors, MultiModuleErrorNamesTheLineInTheWholeFile) {
  const std::string text =
      "module @a {\n"
      "  func.func @main() {\n"
      "    return\n"
      "  }\n"
      "}\n"
      "// -----\n"
      "module @b {\n"
      "  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "    %0 = stablehlo.bogus %arg0 : tensor<f32>\n"
      "    return %0 : tensor<f32>\n"
      "  }\n"
      "}\n";
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, "bad.mlir:9:10: error: unknown operation 'stablehlo.bogus'"));
  // The same in a third chunk, after a chunk with a comment.
  const std::string third = "module {\n}\n// -----\n// a comment\nmodule {\n}\n   // -----  \nmodule {\n  %x\n}\n";
  ExpectErrorAt(third, "}\n", "expected '='", 2);
}

TEST(ParserErrors, EachChunkHasItsOwnNamesAndAliases) {
  // Values and #loc aliases do not leak from one chunk into the next.
  const std::string text =
      "module {\n"
      "  func.func @main() {\n"
      "    return loc(#loc1)\n"
      "  }\n"
      "}\n"
      "#loc1 = loc(\"a.py\":1:1)\n"
      "// -----\n"
      "module {\n"
      "  func.func @main() {\n"
      "    return loc(#loc1)\n"
      "  }\n"
      "}\n";
  ExpectErrorAt(text, "#loc1", "undefined location alias #loc1", 2);
}

TEST(ParserErrors, FileErrors) {
  auto missing = frontend::ParseFile("/nonexistent/dir/none.mlir");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(HasSubstr(missing.status().message(), "/nonexistent/dir/none.mlir: error: "));
  EXPECT_TRUE(HasSubstr(missing.status().message(), "no such file") ||
              HasSubstr(missing.status().message(), "cannot open"));
  // A directory opens but is not a program.
  auto dir = frontend::ParseFile(SourceDir() + "/tests");
  ASSERT_FALSE(dir.ok());
  EXPECT_TRUE(HasSubstr(dir.status().message(), SourceDir() + "/tests: error: "));
  // ParseModule does not split chunks: a separator is just a comment, and two
  // modules are an error.
  auto two = frontend::ParseModule("module {\n}\n// -----\nmodule {\n}\n", "one.mlir");
  ASSERT_FALSE(two.ok());
  EXPECT_TRUE(HasSubstr(two.status().message(), "one.mlir:4:1"));
  auto one = frontend::ParseModule("module {\n}\n", "one.mlir");
  EXPECT_TRUE(one.ok());
}

TEST(ParserErrors, EmptyAndCommentOnlyInputsAreEmptyModules) {
  for (const char* text : {"", "\n\n", "// only a comment\n"}) {
    auto parsed = frontend::ParseText(text, kFile);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    ASSERT_EQ(parsed->modules.size(), 1u);
    EXPECT_TRUE(parsed->modules[0]->body().operations().empty());
  }
}

}  // namespace
}  // namespace hlograph::testing

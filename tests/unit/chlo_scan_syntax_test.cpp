// chlo.scan in text and bytecode, as JAX 0.11.2 writes it: the op's own
// pretty form (jax.jit(f).lower for CUDA), its generic form, and the
// `stablehlo.composite "chlo.scan"` holding its body as a region that
// jax.export writes; all print back as MLIR prints them, and the verifier
// names what is wrong with a malformed scan.
#include <gtest/gtest.h>

#include <span>
#include <string>

#include "frontend/bytecode/bytecode_reader.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

// jnp.cumsum(x, axis=1) lowered for CUDA by JAX 0.11.2.
constexpr char kLowered[] = R"(module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = call @cumsum(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
  func.func private @cumsum(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1:2 = chlo.scan(%arg0) inits (%0) dimension=1  attributes {is_associative = true, is_reverse = false} {
    ^bb0(%input: tensor<3xf32>, %carry: tensor<3xf32>):
      %2 = stablehlo.add %input, %carry : tensor<3xf32>
      stablehlo.return %2, %2 : tensor<3xf32>, tensor<3xf32>
    } : (tensor<3x4xf32>, tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
    return %1#0 : tensor<3x4xf32>
  }
}
)";

// The same scan as jax.export writes it (the decomposition's loop cut short).
constexpr char kExported[] = R"(module @jit__lambda {
  func.func public @main(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1:2 = stablehlo.composite "chlo.scan" %arg0, %0 ({
    ^bb0(%arg1: tensor<3xf32>, %arg2: tensor<3xf32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<3xf32>
      stablehlo.return %2, %2 : tensor<3xf32>, tensor<3xf32>
    }) {composite_attributes = {dimension = 1 : i64, is_associative = true, is_reverse = false, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}, decomposition = @chlo.scan.impl, version = 1 : i32} : (tensor<3x4xf32>, tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
    return %1#0 : tensor<3x4xf32>
  }
  func.func private @chlo.scan.impl(%arg0: tensor<3x4xf32>, %arg1: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<3x4xf32>
    return %cst, %arg1 : tensor<3x4xf32>, tensor<3xf32>
  }
}
)";

std::string Print(const std::string& text, bool generic, bool debug_info = false) {
  auto modules = ParseOrDie(text);
  ir::PrintOptions options;
  options.generic = generic;
  options.debug_info = debug_info;
  return ir::PrintModules(modules, options);
}

TEST(ChloScanSyntax, JaxsTextPrintsBackAsItIs) {
  EXPECT_EQ(Print(kLowered, false), kLowered);
  EXPECT_EQ(Print(kExported, false), kExported);
  for (const char* text : {kLowered, kExported}) {
    auto modules = ParseOrDie(text);
    Status s = ir::VerifyModule(*modules.at(0));
    EXPECT_TRUE(s.ok()) << s.message();
  }
}

TEST(ChloScanSyntax, GenericFormsAreMlirsAndRoundTrip) {
  const std::string scan = Print(kLowered, true);
  EXPECT_TRUE(HasSubstr(scan, "\"chlo.scan\"(%arg0, %0) <{dimension = 1 : i64, is_associative = true, is_reverse = "
                              "false, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> ({"));
  const std::string composite = Print(kExported, true);
  EXPECT_TRUE(HasSubstr(composite, "\"stablehlo.composite\"(%arg0, %0) <{composite_attributes = {dimension = 1 : i64, "));
  EXPECT_TRUE(HasSubstr(composite, "name = \"chlo.scan\", version = 1 : i32}> ({"));
  for (const std::string& text : {scan, composite}) {
    EXPECT_EQ(Print(text, true), text) << "the generic form is a fixed point";
    EXPECT_EQ(Print(Print(text, false), true), text) << "and the pretty form carries everything";
  }
}

TEST(ChloScanSyntax, EveryPartOfThePrettyForm) {
  // Several inputs and carries, no attributes, reverse with scan_dim_size,
  // none at all, locations on the body's arguments.
  const std::string text = R"(module {
  func.func @main(%arg0: tensor<2x5xf32>, %arg1: tensor<2x5xi32>, %arg2: tensor<5xf32>) -> tensor<2x5xf32> {
    %0:3 = chlo.scan(%arg0, %arg1) inits (%arg2) dimension=0  attributes {is_reverse = true, scan_dim_size = 2 : i64} {
    ^bb0(%input: tensor<5xf32> loc("x"), %input_0: tensor<5xi32>, %carry: tensor<5xf32>):
      %2 = stablehlo.add %input, %carry : tensor<5xf32>
      stablehlo.return %2, %input_0, %2 : tensor<5xf32>, tensor<5xi32>, tensor<5xf32>
    } : (tensor<2x5xf32>, tensor<2x5xi32>, tensor<5xf32>) -> (tensor<2x5xf32>, tensor<2x5xi32>, tensor<5xf32>)
    %1 = chlo.scan(%arg0) inits () dimension=1  {
    ^bb0(%input: tensor<2xf32>):
      stablehlo.return %input : tensor<2xf32>
    } : (tensor<2x5xf32>) -> tensor<2x5xf32>
    return %1 : tensor<2x5xf32>
  }
}
)";
  EXPECT_EQ(Print(text, false, /*debug_info=*/true), text);
  auto modules = ParseOrDie(text);
  Status s = ir::VerifyModule(*modules.at(0));
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Print(Print(text, true), false), Print(text, false));
}

TEST(ChloScanSyntax, CompositesTakeAnyNumberOfRegions) {
  const std::string text = R"(module {
  func.func @impl(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.composite "my.op" %arg0 ({
    ^bb0(%arg1: tensor<f32>):
      stablehlo.return %arg1 : tensor<f32>
    }, {
    ^bb0(%arg1: tensor<f32>):
      stablehlo.return %arg1 : tensor<f32>
    }) {decomposition = @impl} : (tensor<f32>) -> tensor<f32>
    %1 = stablehlo.composite "my.op" %0 {decomposition = @impl} : (tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
}
)";
  EXPECT_EQ(Print(text, false), text);
  EXPECT_EQ(Print(Print(text, true), false), text);
}

TEST(ChloScanSyntax, ParseErrorsNameWhatWasExpected) {
  EXPECT_TRUE(HasSubstr(ParseError(R"(func.func @main(%a: tensor<2xf32>, %i: tensor<f32>) -> tensor<2xf32> {
  %0:2 = chlo.scan(%a) (%i) dimension=0 {
  ^bb0(%x: tensor<f32>, %c: tensor<f32>):
    stablehlo.return %x, %c : tensor<f32>, tensor<f32>
  } : (tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<f32>)
  return %0#0 : tensor<2xf32>
})"),
                        "t.mlir:2:24: error: expected 'inits', found '('"));
  EXPECT_TRUE(HasSubstr(ParseError(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = chlo.scan(%a) inits () dimension=0 attributes {dimension = 1 : i64} {
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})"),
                        "attribute 'dimension' is part of chlo.scan's syntax"));
  EXPECT_TRUE(HasSubstr(ParseError(R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = chlo.scan(%a) inits () dimension=0 : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})"),
                        "expected the scan's body '{'"));
}

// A scan of x: tensor<4x3xf32> along `dim` with one carry of `init_type`,
// body arguments `args`, returning `returned` (a scan's pieces spelled out).
std::string ScanProgram(const std::string& dim, const std::string& init_type, const std::string& args,
                        const std::string& returned, const std::string& attrs = "",
                        const std::string& result = "tensor<4x3xf32>") {
  return "func.func @main(%x: tensor<4x3xf32>, %i: " + init_type + ") -> " + result + " {\n" +
         "  %0:2 = chlo.scan(%x) inits (%i) dimension=" + dim + " " + attrs + " {\n" +
         "  ^bb0(" + args + "):\n" +
         "    stablehlo.return " + returned + "\n" +
         "  } : (tensor<4x3xf32>, " + init_type + ") -> (" + result + ", " + init_type + ")\n" +
         "  return %0#0 : " + result + "\n}\n";
}

TEST(ChloScanVerifier, NamesWhatIsWrong) {
  const std::string good_args = "%a: tensor<3xf32>, %c: tensor<3xf32>";
  const std::string good_ret = "%a, %a : tensor<3xf32>, tensor<3xf32>";
  EXPECT_EQ(VerifyError(ScanProgram("0", "tensor<3xf32>", good_args, good_ret)), "<verified fine>");
  EXPECT_TRUE(HasSubstr(VerifyError(ScanProgram("2", "tensor<3xf32>", good_args, good_ret)),
                        "'chlo.scan' op expects dimension to be in [0, 2), got 2"));
  EXPECT_TRUE(HasSubstr(VerifyError(ScanProgram("0", "tensor<4xf32>", "%a: tensor<3xf32>, %c: tensor<4xf32>",
                                                "%a, %c : tensor<3xf32>, tensor<4xf32>")),
                        "expects initial carry 0 (the inputs' shape without dimension 0) to have shape [3]"));
  EXPECT_TRUE(HasSubstr(VerifyError(ScanProgram("0", "tensor<3xf32>", "%a: tensor<4xf32>, %c: tensor<3xf32>",
                                                "%c, %c : tensor<3xf32>, tensor<3xf32>")),
                        "the body"));
  EXPECT_TRUE(HasSubstr(VerifyError(ScanProgram("0", "tensor<3xf32>", good_args, good_ret,
                                                "attributes {scan_dim_size = 5 : i64}")),
                        "expects scan_dim_size to be 4 (dimension 0 of the inputs), got 5"));
  EXPECT_TRUE(HasSubstr(VerifyError(ScanProgram("0", "tensor<3xf32>", good_args, good_ret, "", "tensor<4x2xf32>")),
                        "expects output 0 (the inputs' shape) to have shape [4, 3]"));
  // Generic form: the operand split is an attribute, checked too.
  const std::string generic = R"(func.func @main(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  %0:2 = "chlo.scan"(%x, %i) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 2, 0>, resultSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    stablehlo.return %a, %a : tensor<f32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %0#0 : tensor<4xf32>
})";
  EXPECT_TRUE(HasSubstr(VerifyError(generic), "expects one output per input and one final carry per initial carry"));
  std::string no_split = generic;
  no_split.replace(no_split.find("operandSegmentSizes = array<i32: 2, 0>, "), 41, "");
  EXPECT_TRUE(HasSubstr(VerifyError(no_split), "operandSegmentSizes"));
}

TEST(ChloScanBytecode, JaxsExportedArtifactReads) {
  // jax.export's artifact holds the composite's attributes as a builtin
  // DenseArrayAttr (array<i32: 1, 1>), MLIR bytecode attribute code 17.
  const std::string path = SourceDir() + "/tests/bytecode/data/cumsum_cuda.jax.mlirbc";
  const std::string bytes = ReadFile(path);
  auto module = frontend::ReadBytecodeModule(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), path);
  ASSERT_TRUE(module.ok()) << module.status().message();
  const std::string printed = ir::PrintOperation((*module)->op());
  EXPECT_TRUE(HasSubstr(printed, "stablehlo.composite \"chlo.scan\""));
  EXPECT_TRUE(HasSubstr(printed, "operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>"));
}

}  // namespace
}  // namespace hlograph::testing

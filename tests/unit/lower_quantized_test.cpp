// passes/lower_quantized: a lowered program gives the interpreter's bits.
// Each program runs on the CPU interpreter as written (quantized ops) and
// lowered (integer and float ops only) on the same random arguments, and
// every result must be identical byte for byte (quantized results compared
// as their storage integers); the functions of tests/check/quantized.mlir
// return the values they check and are compared the same way. Ops the
// lowering cannot reproduce are refused by name, the module left as it was.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "ir/clone.h"
#include "ir/printer.h"
#include "passes/lower_quantized.h"
#include "quantized_programs.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

bool QuantizedIn(const ir::Type& t) {
  if (t.IsQuantized()) return true;
  for (const ir::Type& e : t.tuple_elements()) {
    if (QuantizedIn(e)) return true;
  }
  return false;
}

// The first value, argument or attribute type that is still quantized, or "".
std::string QuantizedLeft(const ir::Operation& op) {
  for (const auto& r : op.results()) {
    if (QuantizedIn(r->type())) return op.name() + " result " + r->type().ToString();
  }
  for (const auto& [name, attr] : op.attributes()) {
    if (const auto* d = attr.as<ir::DenseElementsAttr>(); d && QuantizedIn(d->type)) return op.name() + " " + name;
    if (const auto* f = attr.as<ir::FunctionTypeAttr>()) {
      for (const ir::Type& t : f->type.inputs) {
        if (QuantizedIn(t)) return op.name() + " signature";
      }
      for (const ir::Type& t : f->type.results) {
        if (QuantizedIn(t)) return op.name() + " signature";
      }
    }
  }
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& arg : block->arguments()) {
        if (QuantizedIn(arg->type())) return op.name() + " block argument " + arg->type().ToString();
      }
      for (const auto& inner : block->operations()) {
        if (std::string left = QuantizedLeft(*inner); !left.empty()) return left;
      }
    }
  }
  return "";
}

std::unique_ptr<ir::Module> Lowered(const ir::Module& module) {
  std::unique_ptr<ir::Module> lowered = ir::CloneModule(module);
  Status s = passes::LowerQuantized(*lowered);
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return nullptr;
  EXPECT_EQ(QuantizedLeft(lowered->op()), "");
  EXPECT_FALSE(passes::HasQuantizedTypes(*lowered));
  return lowered;
}

// Runs `func` of `module` and the function of the same name in `lowered`
// on `args` (the lowered one reads quantized arguments as their storage
// integers) and expects the same bytes from both.
void ExpectSameResults(const std::string& name, const ir::Module& module, const ir::Operation& func,
                       const ir::Module& lowered, const std::vector<cpu::Tensor>& args) {
  const ir::Operation* lowered_func = lowered.LookupFunction(ir::FunctionName(func));
  ASSERT_NE(lowered_func, nullptr) << name;
  std::vector<cpu::Tensor> storage_args;
  for (const cpu::Tensor& a : args) storage_args.push_back(a.Reshaped(a.type().StorageType()));
  auto want = cpu::Interpreter(module).Call(func, args);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().message();
  auto got = cpu::Interpreter(lowered).Call(*lowered_func, storage_args);
  ASSERT_TRUE(got.ok()) << name << " (lowered): " << got.status().message();
  ASSERT_EQ(want->size(), got->size()) << name;
  for (size_t i = 0; i < want->size(); ++i) {
    const cpu::Tensor& w = (*want)[i];
    const cpu::Tensor& g = (*got)[i];
    ASSERT_EQ(g.type(), w.type().StorageType()) << name << " result " << i;
    ASSERT_EQ(w.byte_size(), g.byte_size()) << name << " result " << i;
    for (size_t b = 0; b < w.byte_size(); ++b) {
      ASSERT_EQ(w.bytes()[b], g.bytes()[b])
          << name << " result " << i << " differs at byte " << b << " (element "
          << b / static_cast<size_t>(ir::StorageBytes(w.element())) << ")";
    }
  }
}

TEST(LowerQuantized, ProgramsGiveTheInterpretersBits) {
  for (const QuantizedProgram& program : QuantizedPrograms()) {
    auto modules = ParseOrDie(program.text, program.name);
    ASSERT_FALSE(modules.empty()) << program.name;
    ASSERT_TRUE(ir::VerifyModule(*modules[0]).ok()) << program.name << ": "
                                                    << ir::VerifyModule(*modules[0]).message();
    ASSERT_TRUE(passes::HasQuantizedTypes(*modules[0])) << program.name;
    std::unique_ptr<ir::Module> lowered = Lowered(*modules[0]);
    ASSERT_NE(lowered, nullptr) << program.name;
    const ir::Operation* entry = modules[0]->EntryFunction();
    for (uint64_t seed = 0; seed < 8; ++seed) {
      const auto args = QuantizedTestArgs(ir::FunctionSignature(*entry).inputs, seed);
      ExpectSameResults(std::string(program.name) + " seed " + std::to_string(seed), *modules[0], *entry, *lowered,
                        args);
    }
  }
}

// The functions of tests/check/quantized.mlir with the values they check
// returned, so that the interpreter's and the lowered program's can be
// compared (their checks still run).
TEST(LowerQuantized, CheckFileFunctionsGiveTheInterpretersBits) {
  const std::string path = SourceDir() + "/tests/check/quantized.mlir";
  auto modules = ParseOrDie(ReadFile(path), path);
  ASSERT_FALSE(modules.empty());
  int compared = 0;
  for (const auto& module : modules) {
    for (ir::Operation* func : module->Functions()) {
      if (func->num_regions() != 1 || func->region(0).empty()) continue;
      ir::Block& body = func->region(0).front();
      std::vector<ir::Type> types;
      ir::Operation* ret = body.terminator();
      for (const auto& op : body.operations()) {
        if (op->name().rfind("check.", 0) == 0 && op->num_operands() > 0) {
          ret->AddOperand(op->operand(0));
          types.push_back(op->operand(0)->type());
        }
      }
      ir::FunctionType sig = ir::FunctionSignature(*func);
      sig.results = types;
      func->SetAttr("function_type", ir::Attribute::Make(ir::FunctionTypeAttr{sig}));
    }
    ASSERT_TRUE(ir::VerifyModule(*module).ok()) << ir::VerifyModule(*module).message();
    std::unique_ptr<ir::Module> lowered = Lowered(*module);
    ASSERT_NE(lowered, nullptr);
    for (ir::Operation* func : module->Functions()) {
      if (QuantizedLeft(*func).empty()) continue;  // uses no quantized type
      ExpectSameResults(ir::FunctionName(*func), *module, *func, *lowered, {});
      ++compared;
    }
  }
  EXPECT_GE(compared, 15);
}

// What the products become: the stored i8 multiplied as they are (the
// int8 GEMM), wider sums in i64, and no f64 where the result's scale is
// the product of the operands' (the sums are the result).
TEST(LowerQuantized, ProductsSumStoredIntegers) {
  auto lowered_text = [](const char* name) {
    for (const QuantizedProgram& program : QuantizedPrograms()) {
      if (std::string(program.name) != name) continue;
      auto modules = ParseOrDie(program.text, program.name);
      if (modules.empty()) return std::string();
      std::unique_ptr<ir::Module> lowered = Lowered(*modules[0]);
      return lowered ? ir::PrintModule(*lowered) : std::string();
    }
    return std::string("no program ") + name;
  };
  const std::string gemm = lowered_text("dot_int8_gemm_layout");
  EXPECT_TRUE(HasSubstr(gemm, "(tensor<32x64xi8>, tensor<16x64xi8>) -> tensor<32x16xi32>"));
  // lhs zero point 7 times the rhs's row sums, taken off the sums.
  EXPECT_TRUE(HasSubstr(gemm, "stablehlo.reduce"));
  EXPECT_TRUE(HasSubstr(gemm, "stablehlo.subtract"));
  EXPECT_EQ(gemm.find("f64"), std::string::npos) << gemm;
  const std::string wide = lowered_text("dot_int16");
  EXPECT_TRUE(HasSubstr(wide, "(tensor<4x8xi64>, tensor<8x4xi64>) -> tensor<4x4xi64>"));
  const std::string requantized = lowered_text("dot_requantized");
  EXPECT_TRUE(HasSubstr(requantized, "tensor<32x16xf64>"));
}

struct Refused {
  const char* text;
  const char* op;
  const char* why;
};

TEST(LowerQuantized, RefusesWhatItCannotReproduceByNameAndChangesNothing) {
  const Refused cases[] = {
      {R"(
func.func @main(%a: tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>) -> tensor<4xbf16> {
  %x = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>) -> tensor<4xbf16>
  return %x : tensor<4xbf16>
})",
       "stablehlo.uniform_dequantize", "wider than 24 bits to bf16"},
      {R"(
func.func @main(%a: tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>, %b: tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>) -> tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>> {
  %x = stablehlo.add %a, %b : tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>
  return %x : tensor<4x!quant.uniform<i32:bf16, 5.000000e-01:3>>
})",
       "stablehlo.add", "wider than 24 bits to bf16"},
      {R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<u16:f16, 1.000000e+00>> {
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<u16:f16, 1.000000e+00>>
  return %q : tensor<4x!quant.uniform<u16:f16, 1.000000e+00>>
})",
       "stablehlo.uniform_quantize", "storage range beyond f16"},
      {R"(
func.func private @square(%x: tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01>> {
  %y = stablehlo.multiply %x, %x : tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
  return %y : tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
}
func.func @main(%a: tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01>> {
  %z = stablehlo.composite "my.square" %a {decomposition = @square} : (tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
  return %z : tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
})",
       "stablehlo.composite", "not lowered through a composite"},
      {R"(
func.func @main(%a: tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01>>, %c: tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01>> {
  %1:2 = chlo.scan(%a) inits (%c) dimension=1  attributes {is_associative = true, is_reverse = false} {
  ^bb0(%input: tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>, %carry: tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>):
    %2 = stablehlo.add %input, %carry : tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
    stablehlo.return %2, %2 : tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>
  } : (tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>) -> (tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<3x!quant.uniform<i8:f32, 5.000000e-01>>)
  return %1#0 : tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01>>
})",
       "chlo.scan", "has a body"},
  };
  for (const Refused& c : cases) {
    auto modules = ParseOrDie(c.text);
    ASSERT_FALSE(modules.empty()) << c.op;
    const std::string before = ir::PrintModule(*modules[0]);
    Status s = passes::LowerQuantized(*modules[0]);
    ASSERT_FALSE(s.ok()) << c.op;
    EXPECT_TRUE(HasSubstr(s.message(), std::string("'") + c.op + "' op")) << s.message();
    EXPECT_TRUE(HasSubstr(s.message(), c.why));
    EXPECT_EQ(ir::PrintModule(*modules[0]), before);
  }
}

TEST(LowerQuantized, LeavesProgramsWithoutQuantizedTypesAlone) {
  auto modules = ParseOrDie(R"(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = stablehlo.add %a, %a : tensor<4xf32>
  return %x : tensor<4xf32>
})");
  ASSERT_FALSE(modules.empty());
  const std::string before = ir::PrintModule(*modules[0]);
  ASSERT_TRUE(passes::LowerQuantized(*modules[0]).ok());
  EXPECT_EQ(ir::PrintModule(*modules[0]), before);
}

}  // namespace
}  // namespace hlograph::testing

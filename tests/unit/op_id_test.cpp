// ir/op_id.h and ir/elementwise_ops.h: every declared op has exactly one
// id and one declaration, names and ids map both ways, and the elementwise
// declarations are what the registry, verifier and bytecode reader use.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "frontend/bytecode/vhlo_ops.h"
#include "ir/elementwise_ops.h"
#include "ir/op_def.h"
#include "test_util.h"

namespace hlograph::ir {
namespace {

TEST(OpIds, EveryDeclarationHasOneIdAndEveryIdOneDeclaration) {
  std::set<OpId> seen;
  for (const OpDef* def : AllOps()) {
    ASSERT_NE(def->id, OpId::kNumOps) << def->name << " has no line in ir/ops/op_ids.def or elementwise_ops.def";
    EXPECT_EQ(OpIdName(def->id), def->name);
    EXPECT_TRUE(seen.insert(def->id).second) << def->name << " declared twice";
  }
  for (int i = 0; i < kNumOpIds; ++i) {
    const auto id = static_cast<OpId>(i);
    const OpDef* def = LookupOp(OpIdName(id));
    ASSERT_NE(def, nullptr) << OpIdName(id) << " has an id but no declaration";
    EXPECT_EQ(def->id, id);
    EXPECT_EQ(OpIdOf(OpIdName(id)), id);
  }
  EXPECT_EQ(OpIdOf("stablehlo.no_such_op"), OpId::kNumOps);
}

TEST(OpIds, ParsedOpsCarryTheirId) {
  auto modules = testing::ParseOrDie(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %y = stablehlo.add %e, %x : tensor<4xf32>
  return %y : tensor<4xf32>
})");
  const auto& ops = modules[0]->EntryFunction()->region(0).front().operations();
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0]->id(), OpId::kChloErf);
  EXPECT_EQ(ops[1]->id(), OpId::kAdd);
  EXPECT_EQ(ops[2]->id(), OpId::kFuncReturn);
  EXPECT_EQ(modules[0]->EntryFunction()->id(), OpId::kFuncFunc);
}

TEST(ElementwiseOps, DeclarationsDriveTheRegistryAndTheBytecodeReader) {
  int stablehlo = 0;
  for (const ElementwiseOp& op : ElementwiseOps()) {
    EXPECT_EQ(FindElementwiseOp(op.id), &op);
    const OpDef* def = LookupOp(op.name);
    ASSERT_NE(def, nullptr) << op.name;
    EXPECT_EQ(def->num_operands, op.arity) << op.name;
    EXPECT_TRUE(def->Has(kElementwise)) << op.name;
    EXPECT_NE(op.operand_classes, 0) << op.name;
    if (!op.name.starts_with("stablehlo.")) {
      EXPECT_EQ(op.vhlo_version, 0) << op.name << " is not in VHLO";
      continue;
    }
    ++stablehlo;
    EXPECT_GE(op.vhlo_version, 1) << op.name << " is in VHLO";
    const std::string short_name(op.name.substr(op.name.find('.') + 1));
    for (int version = 1; version <= 3; ++version) {
      const auto* names = frontend::bytecode::VhloOpAttributeNames("vhlo." + short_name + "_v" + std::to_string(version));
      EXPECT_EQ(names != nullptr, version <= op.vhlo_version) << op.name << " v" << version;
    }
  }
  EXPECT_GE(stablehlo, 40);
  EXPECT_EQ(FindElementwiseOp(OpId::kSort), nullptr);
  EXPECT_EQ(FindElementwiseOp(OpId::kNumOps), nullptr);
}

// The ops both backends compute with one function of ir/scalar_math.h are
// declared elementwise ops of the same arity.
TEST(ElementwiseOps, ScalarFunctionOpsAreDeclaredWithTheirArity) {
  struct Line {
    OpId id;
    int arity;
  };
  constexpr Line kLines[] = {
#define HLOGRAPH_SCALAR_FUNCTION(id, fn, arity) {OpId::id, arity},
#include "ir/ops/scalar_function_ops.def"
#undef HLOGRAPH_SCALAR_FUNCTION
  };
  EXPECT_GE(std::size(kLines), 8u);
  for (const Line& line : kLines) {
    const ElementwiseOp* op = FindElementwiseOp(line.id);
    ASSERT_NE(op, nullptr) << OpIdName(line.id);
    EXPECT_EQ(op->arity, line.arity) << op->name;
    EXPECT_EQ(op->operand_classes, kFloatClass) << op->name << ": computed in double, so on floats only";
  }
}

TEST(ElementwiseOps, TheVerifierReadsTheTypeRule) {
  // cbrt takes floats and complex numbers, not integers; is_finite's
  // result is a predicate.
  EXPECT_NE(testing::VerifyError(R"(
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %y = stablehlo.cbrt %x : tensor<4xi32>
  return %y : tensor<4xi32>
})").find("floating-point or complex"), std::string::npos);
  EXPECT_NE(testing::VerifyError(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
})").find("i1"), std::string::npos);
}

}  // namespace
}  // namespace hlograph::ir

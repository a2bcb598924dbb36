// ir/fold_body.h: which region bodies are folds, and which constants are a
// fold's identity for every element type (complex and 1-byte types
// included, whose bytes the identity must fill exactly).
#include <gtest/gtest.h>

#include <string>

#include "ir/fold_body.h"
#include "test_util.h"

namespace hlograph::ir {
namespace {

// The value returned by @main of a one-constant program.
struct Constant {
  std::unique_ptr<Module> module;
  const Value* value = nullptr;
};

Constant ConstantOf(const std::string& literal, const std::string& type) {
  const std::string text = "func.func @main() -> tensor<" + type + "> {\n  %c = stablehlo.constant dense<" +
                           literal + "> : tensor<" + type + ">\n  return %c : tensor<" + type + ">\n}\n";
  auto modules = testing::ParseOrDie(text);
  Constant c;
  c.module = std::move(modules[0]);
  c.value = c.module->EntryFunction()->region(0).front().operations()[0]->result(0);
  return c;
}

bool Identity(OpId fold, const std::string& literal, const std::string& type) {
  Constant c = ConstantOf(literal, type);
  return IsFoldIdentity(fold, c.value);
}

TEST(FoldIdentity, EachFoldAndType) {
  EXPECT_TRUE(Identity(OpId::kAdd, "0.0", "f32"));
  EXPECT_FALSE(Identity(OpId::kAdd, "1.0", "f32"));
  EXPECT_TRUE(Identity(OpId::kMultiply, "1.0", "f64"));
  EXPECT_TRUE(Identity(OpId::kMultiply, "1.0", "bf16"));
  EXPECT_TRUE(Identity(OpId::kMultiply, "1.0", "f16"));
  EXPECT_FALSE(Identity(OpId::kMultiply, "2.0", "bf16"));
  EXPECT_TRUE(Identity(OpId::kMaximum, "0xFF800000", "f32"));
  EXPECT_TRUE(Identity(OpId::kMinimum, "0x7C00", "f16"));
  EXPECT_TRUE(Identity(OpId::kMaximum, "-128", "i8"));
  EXPECT_FALSE(Identity(OpId::kMaximum, "0", "i8"));
  EXPECT_TRUE(Identity(OpId::kMinimum, "127", "i8"));
  EXPECT_TRUE(Identity(OpId::kMinimum, "255", "ui8"));
  EXPECT_TRUE(Identity(OpId::kMaximum, "-9223372036854775808", "i64"));
  EXPECT_TRUE(Identity(OpId::kAnd, "-1", "i32"));
  EXPECT_TRUE(Identity(OpId::kAnd, "true", "i1"));
  EXPECT_TRUE(Identity(OpId::kOr, "false", "i1"));
  // Complex: zero is the sum's identity in both halves; 16-byte elements.
  EXPECT_TRUE(Identity(OpId::kAdd, "(0.0, 0.0)", "complex<f64>"));
  EXPECT_FALSE(Identity(OpId::kAdd, "(0.0, 1.0)", "complex<f64>"));
  EXPECT_TRUE(Identity(OpId::kAdd, "(0.0, 0.0)", "complex<f32>"));
  EXPECT_FALSE(Identity(OpId::kMaximum, "(0.0, 0.0)", "complex<f32>"));
  // A fold with no identity known here.
  EXPECT_FALSE(Identity(OpId::kSubtract, "0.0", "f32"));
}

TEST(FoldOfBody, ReadsTheFoldInEitherOrder) {
  auto modules = testing::ParseOrDie(R"(
func.func @main(%x: tensor<4x3xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %s = stablehlo.add %q, %p : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  %b = stablehlo.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    reducer(%p: tensor<f32>, %q: tensor<f32>) {
      %s = stablehlo.add %p, %p : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  %c = stablehlo.reduce(%x init: %zero) applies stablehlo.maximum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
})");
  const auto& ops = modules[0]->EntryFunction()->region(0).front().operations();
  const Operation* a = FoldOfBody(*ops[1]);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->id(), OpId::kAdd);
  EXPECT_EQ(FoldOfBody(*ops[2]), nullptr);  // folds one argument with itself
  const Operation* c = FoldOfBody(*ops[3]);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->id(), OpId::kMaximum);
}

}  // namespace
}  // namespace hlograph::ir

// passes/reuse_finer_reductions.h: which reductions become reductions of a
// finer one's result (dims renumbered), which stay, and that the rewritten
// program computes what the original does (the interpreter on random
// inputs; f32 sums reordered, so within rounding; max and integers exact).
#include <gtest/gtest.h>

#include <cmath>

#include "cpu_test_util.h"
#include "backends/cpu/random_tensor.h"
#include "ir/clone.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "ir/verify/verify_util.h"
#include "passes/reuse_finer_reductions.h"
#include "test_util.h"

namespace hlograph::passes {
namespace {

// x.sum(0), x.sum((0, 2)), x.max(2), x.max((1, 2)) and an i32 sum over
// everything of y after its sum over dim 1, in an order where each
// coarse reduction comes after a finer one.
constexpr const char* kNested = R"(
func.func @main(%x: tensor<4x6x8xf32>, %y: tensor<3x5xi32>) -> (tensor<6x8xf32>, tensor<6xf32>, tensor<4x6xf32>, tensor<4xf32>, tensor<3xi32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %low = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %izero = stablehlo.constant dense<0> : tensor<i32>
  %s0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32>
  %s02 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %m2 = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x6xf32>
  %m12 = stablehlo.reduce(%x init: %low) applies stablehlo.maximum across dimensions = [1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4xf32>
  %t1 = stablehlo.reduce(%y init: %izero) applies stablehlo.add across dimensions = [1] : (tensor<3x5xi32>, tensor<i32>) -> tensor<3xi32>
  %t01 = stablehlo.reduce(%y init: %izero) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x5xi32>, tensor<i32>) -> tensor<i32>
  return %s0, %s02, %m2, %m12, %t1, %t01 : tensor<6x8xf32>, tensor<6xf32>, tensor<4x6xf32>, tensor<4xf32>, tensor<3xi32>, tensor<i32>
})";

// What must stay: an init that is not the identity (added twice), a bf16
// sum (16-bit partial sums), different folds, dims that are not a subset,
// and a coarse reduction before the finer one.
constexpr const char* kKept = R"(
func.func @main(%x: tensor<4x6xf32>, %b: tensor<4x6xbf16>) -> (tensor<6xf32>, tensor<f32>, tensor<6xbf16>, tensor<bf16>, tensor<f32>, tensor<4xf32>, tensor<f32>) {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %bzero = stablehlo.constant dense<0.0> : tensor<bf16>
  %a0 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
  %a01 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
  %b0 = stablehlo.reduce(%b init: %bzero) applies stablehlo.add across dimensions = [0] : (tensor<4x6xbf16>, tensor<bf16>) -> tensor<6xbf16>
  %b01 = stablehlo.reduce(%b init: %bzero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xbf16>, tensor<bf16>) -> tensor<bf16>
  %p01 = stablehlo.reduce(%x init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
  %s01 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
  %s1 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
  return %a0, %a01, %b0, %b01, %p01, %s1, %s01 : tensor<6xf32>, tensor<f32>, tensor<6xbf16>, tensor<bf16>, tensor<f32>, tensor<4xf32>, tensor<f32>
})";

// The reduces of the entry function, in order.
std::vector<const ir::Operation*> Reduces(const ir::Module& m) {
  std::vector<const ir::Operation*> out;
  for (const auto& op : m.EntryFunction()->region(0).front().operations()) {
    if (op->name() == "stablehlo.reduce") out.push_back(op.get());
  }
  return out;
}

TEST(ReuseFinerReductions, CoarseReductionsReadTheFinerResult) {
  auto modules = testing::ParseOrDie(kNested);
  std::unique_ptr<ir::Module> rewritten = ir::CloneModule(*modules[0]);
  EXPECT_EQ(ReuseFinerReductions(*rewritten), 3);
  Status verified = ir::VerifyModule(*rewritten);
  ASSERT_TRUE(verified.ok()) << verified.message();
  const std::vector<const ir::Operation*> r = Reduces(*rewritten);
  ASSERT_EQ(r.size(), 6u);
  // sum over (0, 2) = the sum over 0's result [6, 8] over its dim 1.
  EXPECT_EQ(r[1]->operand(0), r[0]->result(0));
  EXPECT_EQ(ir::verify::I64ArrayAttr(*r[1], "dimensions"), (std::vector<int64_t>{1}));
  // max over (1, 2) = max over 2's result [4, 6] over its dim 1.
  EXPECT_EQ(r[3]->operand(0), r[2]->result(0));
  EXPECT_EQ(ir::verify::I64ArrayAttr(*r[3], "dimensions"), (std::vector<int64_t>{1}));
  EXPECT_EQ(r[5]->operand(0), r[4]->result(0));
  EXPECT_EQ(ir::verify::I64ArrayAttr(*r[5], "dimensions"), (std::vector<int64_t>{0}));

  const ir::Operation& entry = *modules[0]->EntryFunction();
  for (uint64_t seed : {1, 2, 3}) {
    auto args = cpu::RandomTensors(ir::FunctionSignature(entry).inputs, seed);
    ASSERT_TRUE(args.ok());
    auto want = cpu::Interpreter(*modules[0]).RunEntry(*args);
    auto got = cpu::Interpreter(*rewritten).RunEntry(*args);
    ASSERT_TRUE(want.ok() && got.ok());
    for (size_t i : {0, 1}) {
      const std::vector<float> w = cpu::test_util::Values<float>((*want)[i]), g = cpu::test_util::Values<float>((*got)[i]);
      ASSERT_EQ(w.size(), g.size());
      for (size_t k = 0; k < w.size(); ++k) EXPECT_NEAR(w[k], g[k], 1e-5f * (1 + std::fabs(w[k]))) << i << " " << k;
    }
    for (size_t i : {2, 3}) EXPECT_EQ(cpu::test_util::Values<float>((*want)[i]), cpu::test_util::Values<float>((*got)[i]));
    for (size_t i : {4, 5}) EXPECT_EQ(cpu::test_util::Values<int32_t>((*want)[i]), cpu::test_util::Values<int32_t>((*got)[i]));
  }
}

// x.sum(0), x.sum((0, 2)), x.sum(): each reads the one before it, the
// rewritten second as well.
TEST(ReuseFinerReductions, AChainReadsEachFinerResultInTurn) {
  auto modules = testing::ParseOrDie(R"(
func.func @main(%x: tensor<4x6x8xf32>) -> (tensor<6x8xf32>, tensor<6xf32>, tensor<f32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32>
  %s02 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6xf32>
  %all = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<f32>
  return %s0, %s02, %all : tensor<6x8xf32>, tensor<6xf32>, tensor<f32>
})");
  std::unique_ptr<ir::Module> rewritten = ir::CloneModule(*modules[0]);
  EXPECT_EQ(ReuseFinerReductions(*rewritten), 2);
  const std::vector<const ir::Operation*> r = Reduces(*rewritten);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1]->operand(0), r[0]->result(0));
  EXPECT_EQ(r[2]->operand(0), r[1]->result(0));
  EXPECT_EQ(ir::verify::I64ArrayAttr(*r[2], "dimensions"), (std::vector<int64_t>{0}));
  auto args = cpu::RandomTensors(ir::FunctionSignature(*modules[0]->EntryFunction()).inputs, 4);
  ASSERT_TRUE(args.ok());
  auto want = cpu::Interpreter(*modules[0]).RunEntry(*args);
  auto got = cpu::Interpreter(*rewritten).RunEntry(*args);
  ASSERT_TRUE(want.ok() && got.ok());
  const float w = cpu::test_util::Values<float>((*want)[2])[0], g = cpu::test_util::Values<float>((*got)[2])[0];
  EXPECT_NEAR(w, g, 1e-4f * (1 + std::fabs(w)));
}

TEST(ReuseFinerReductions, ReductionsThatWouldChangeStay) {
  auto modules = testing::ParseOrDie(kKept);
  const std::string before = ir::PrintModule(*modules[0]);
  EXPECT_EQ(ReuseFinerReductions(*modules[0]), 0);
  EXPECT_EQ(ir::PrintModule(*modules[0]), before);
}

}  // namespace
}  // namespace hlograph::passes

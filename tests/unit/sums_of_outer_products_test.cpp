// passes/sums_of_outer_products.h: which sums of outer products become
// products, which stay, and that the rewritten program computes what the
// original does (the interpreter on random inputs, within f32 rounding of
// reordered sums).
#include <gtest/gtest.h>

#include <cmath>

#include "backends/cpu/random_tensor.h"
#include "cpu_test_util.h"
#include "ir/clone.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/sums_of_outer_products.h"
#include "test_util.h"

namespace hlograph::passes {
namespace {

// Per-example gradients of a dense layer as jax.vmap(jax.grad) writes them:
// outer products with a one-element contraction, transposed; each
// example's squared norm (through the reshape flattening it) and the
// clipped mean over the batch (weights s per example).
constexpr const char* kPerExample = R"(
func.func @main(%a: tensor<6x1x5xf32>, %g: tensor<6x1x7xf32>, %s: tensor<6xf32>) -> (tensor<6xf32>, tensor<7x5xf32>, tensor<5x7xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %o = stablehlo.dot_general %a, %g, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<6x1x5xf32>, tensor<6x1x7xf32>) -> tensor<6x5x7xf32>
  %t = stablehlo.transpose %o, dims = [0, 2, 1] : (tensor<6x5x7xf32>) -> tensor<6x7x5xf32>
  %sq = chlo.square %t : tensor<6x7x5xf32> -> tensor<6x7x5xf32>
  %flat = stablehlo.reshape %sq : (tensor<6x7x5xf32>) -> tensor<6x35xf32>
  %norms = stablehlo.reduce(%flat init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x35xf32>, tensor<f32>) -> tensor<6xf32>
  %s3 = stablehlo.reshape %s : (tensor<6xf32>) -> tensor<6x1x1xf32>
  %w = stablehlo.broadcast_in_dim %s3, dims = [0, 1, 2] : (tensor<6x1x1xf32>) -> tensor<6x7x5xf32>
  %ws = stablehlo.multiply %t, %w : tensor<6x7x5xf32>
  %mean = stablehlo.reduce(%ws init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<6x7x5xf32>, tensor<f32>) -> tensor<7x5xf32>
  %plain = stablehlo.reduce(%o init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<6x5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %norms, %mean, %plain : tensor<6xf32>, tensor<7x5xf32>, tensor<5x7xf32>
})";

// Two batch dims and a real contraction: the weighted sum over both batch
// dims is one product contracting all three.
constexpr const char* kTwoBatchDims = R"(
func.func @main(%a: tensor<3x4x2x5xf32>, %g: tensor<4x3x2x6xf32>, %s: tensor<4x3xf32>) -> tensor<6x5xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %o = stablehlo.dot_general %a, %g, batching_dims = [0, 1] x [1, 0], contracting_dims = [2] x [2] : (tensor<3x4x2x5xf32>, tensor<4x3x2x6xf32>) -> tensor<3x4x5x6xf32>
  %w = stablehlo.broadcast_in_dim %s, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4x5x6xf32>
  %ws = stablehlo.multiply %w, %o : tensor<3x4x5x6xf32>
  %t = stablehlo.transpose %ws, dims = [1, 0, 3, 2] : (tensor<3x4x5x6xf32>) -> tensor<4x3x6x5xf32>
  %sum = stablehlo.reduce(%t init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3x6x5xf32>, tensor<f32>) -> tensor<6x5xf32>
  return %sum : tensor<6x5xf32>
})";

// What must stay: a bf16 sum, a sum over a free dim, weights varying along
// a free dim, squares of a product with a real contraction, a sum over
// only some of the free dims.
constexpr const char* kKept = R"(
func.func @main(%a: tensor<6x1x5xbf16>, %g: tensor<6x1x7xbf16>, %x: tensor<6x1x5xf32>, %y: tensor<6x1x7xf32>, %v: tensor<7xf32>, %p: tensor<6x3x5xf32>, %q: tensor<6x3x7xf32>) -> (tensor<5x7xbf16>, tensor<6x7xf32>, tensor<5x7xf32>, tensor<6xf32>, tensor<6x5xf32>) {
  %bzero = stablehlo.constant dense<0.0> : tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ob = stablehlo.dot_general %a, %g, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<6x1x5xbf16>, tensor<6x1x7xbf16>) -> tensor<6x5x7xbf16>
  %r0 = stablehlo.reduce(%ob init: %bzero) applies stablehlo.add across dimensions = [0] : (tensor<6x5x7xbf16>, tensor<bf16>) -> tensor<5x7xbf16>
  %o = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<6x1x5xf32>, tensor<6x1x7xf32>) -> tensor<6x5x7xf32>
  %r1 = stablehlo.reduce(%o init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x5x7xf32>, tensor<f32>) -> tensor<6x7xf32>
  %w = stablehlo.broadcast_in_dim %v, dims = [2] : (tensor<7xf32>) -> tensor<6x5x7xf32>
  %ow = stablehlo.multiply %o, %w : tensor<6x5x7xf32>
  %r2 = stablehlo.reduce(%ow init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<6x5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %pq = stablehlo.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<6x3x5xf32>, tensor<6x3x7xf32>) -> tensor<6x5x7xf32>
  %sq = chlo.square %pq : tensor<6x5x7xf32> -> tensor<6x5x7xf32>
  %r3 = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1, 2] : (tensor<6x5x7xf32>, tensor<f32>) -> tensor<6xf32>
  %osq = chlo.square %o : tensor<6x5x7xf32> -> tensor<6x5x7xf32>
  %r4 = stablehlo.reduce(%osq init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<6x5x7xf32>, tensor<f32>) -> tensor<6x5xf32>
  return %r0, %r1, %r2, %r3, %r4 : tensor<5x7xbf16>, tensor<6x7xf32>, tensor<5x7xf32>, tensor<6xf32>, tensor<6x5xf32>
})";

int Count(const ir::Module& m, const std::string& name) {
  int n = 0;
  for (const auto& op : m.EntryFunction()->region(0).front().operations()) n += op->name() == name;
  return n;
}

// The rewritten program's results against the original's, on random inputs.
void ExpectSameResults(const ir::Module& original, const ir::Module& rewritten) {
  const ir::Operation& entry = *original.EntryFunction();
  for (uint64_t seed : {1, 2, 3}) {
    auto args = cpu::RandomTensors(ir::FunctionSignature(entry).inputs, seed);
    ASSERT_TRUE(args.ok());
    auto want = cpu::Interpreter(original).RunEntry(*args);
    auto got = cpu::Interpreter(rewritten).RunEntry(*args);
    ASSERT_TRUE(want.ok() && got.ok()) << (want.ok() ? got.status().message() : want.status().message());
    ASSERT_EQ(want->size(), got->size());
    for (size_t i = 0; i < want->size(); ++i) {
      const std::vector<float> w = cpu::test_util::Values<float>((*want)[i]);
      const std::vector<float> g = cpu::test_util::Values<float>((*got)[i]);
      ASSERT_EQ(w.size(), g.size());
      for (size_t k = 0; k < w.size(); ++k) {
        EXPECT_FALSE(std::isnan(g[k]));
        EXPECT_NEAR(w[k], g[k], 1e-5f * (1 + std::fabs(w[k]))) << "result " << i << " element " << k;
      }
    }
  }
}

TEST(SumOuterProductsAsProducts, PerExampleNormsAndMeans) {
  auto modules = testing::ParseOrDie(kPerExample);
  std::unique_ptr<ir::Module> rewritten = ir::CloneModule(*modules[0]);
  EXPECT_EQ(SumOuterProductsAsProducts(*rewritten), 3);
  Status verified = ir::VerifyModule(*rewritten);
  ASSERT_TRUE(verified.ok()) << verified.message() << "\n" << ir::PrintModule(*rewritten);
  // The outer products are gone: two products contracting the batch, no
  // batched one; the norms are two sums of squares multiplied.
  const std::string text = ir::PrintModule(*rewritten);
  EXPECT_EQ(text.find("batching_dims"), std::string::npos) << text;
  EXPECT_EQ(Count(*rewritten, "stablehlo.dot_general"), 2) << text;
  EXPECT_EQ(Count(*rewritten, "chlo.square"), 0) << text;
  EXPECT_EQ(Count(*rewritten, "stablehlo.reduce"), 2) << text;
  ExpectSameResults(*modules[0], *rewritten);
}

TEST(SumOuterProductsAsProducts, SeveralBatchDimsAndAContraction) {
  auto modules = testing::ParseOrDie(kTwoBatchDims);
  std::unique_ptr<ir::Module> rewritten = ir::CloneModule(*modules[0]);
  EXPECT_EQ(SumOuterProductsAsProducts(*rewritten), 1);
  Status verified = ir::VerifyModule(*rewritten);
  ASSERT_TRUE(verified.ok()) << verified.message() << "\n" << ir::PrintModule(*rewritten);
  EXPECT_EQ(Count(*rewritten, "stablehlo.reduce"), 0);
  ExpectSameResults(*modules[0], *rewritten);
}

TEST(SumOuterProductsAsProducts, SumsThatAreNotProductsStay) {
  auto modules = testing::ParseOrDie(kKept);
  const std::string before = ir::PrintModule(*modules[0]);
  EXPECT_EQ(SumOuterProductsAsProducts(*modules[0]), 0);
  EXPECT_EQ(ir::PrintModule(*modules[0]), before);
}

}  // namespace
}  // namespace hlograph::passes

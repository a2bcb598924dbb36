// The call inliner (passes/inline_calls): the entry function loses its calls
// and composites, still verifies, and computes bit for bit what it computed
// before (checked with the CPU interpreter on the whole corpus).
#include <gtest/gtest.h>

#include <cstring>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "ir/clone.h"
#include "passes/inline_calls.h"
#include "test_util.h"

namespace hlograph {
namespace {

int CountCalls(const ir::Block& block) {
  int n = 0;
  for (const auto& op : block.operations()) {
    if (op->name() == "func.call" || op->name() == "stablehlo.composite") ++n;
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) n += CountCalls(*b);
    }
  }
  return n;
}

TEST(InlineCalls, NestedCallsAndCompositesDisappear) {
  auto modules = testing::ParseOrDie(R"(
module {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.composite "my.double" %0 {decomposition = @twice} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = call @twice(%1) : (tensor<4xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @add(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
})");
  ASSERT_EQ(modules.size(), 1u);
  ir::Module& m = *modules[0];
  ASSERT_TRUE(passes::InlineCalls(m).ok());
  const ir::Block& body = m.EntryFunction()->region(0).front();
  EXPECT_EQ(CountCalls(body), 0);
  EXPECT_EQ(body.operations().size(), 4u);  // three adds and the return
  EXPECT_TRUE(ir::VerifyModule(m).ok());
  cpu::Tensor x(ir::Type::Tensor(ir::ElementType::kF32, {4}));
  const float in[4] = {1, 2, 3, -0.5f};
  std::memcpy(x.mutable_bytes(), in, sizeof in);
  auto out = cpu::Interpreter(m).Call(*m.EntryFunction(), {x});
  ASSERT_TRUE(out.ok()) << out.status().message();
  for (int i = 0; i < 4; ++i) EXPECT_EQ((*out)[0].data<float>()[i], in[i] * 8);
}

TEST(InlineCalls, RecursionIsAnError) {
  auto modules = testing::ParseOrDie(R"(
module {
  func.func @main(%x: tensor<f32>) -> tensor<f32> {
    %0 = call @main(%x) : (tensor<f32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
})");
  ASSERT_EQ(modules.size(), 1u);
  Status s = passes::InlineCalls(*modules[0]);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(testing::HasSubstr(s.message(), "recursion"));
}

// Every corpus program computes the same bits after inlining (on a clone;
// the original stays untouched).
TEST(InlineCalls, CorpusResultsUnchanged) {
  int inlined = 0;
  for (const std::string& path : testing::MlirFiles(testing::SourceDir() + "/tests/corpus")) {
    // (collatz loops forever on arbitrary integers; shard_map needs 8 devices)
    if (path.find("/debug/") != std::string::npos || path.find("shard_map") != std::string::npos ||
        path.find("collatz") != std::string::npos) {
      continue;
    }
    auto parsed = frontend::ParseFile(path);
    ASSERT_TRUE(parsed.ok()) << path;
    if (parsed->modules.size() != 1) continue;
    const ir::Module& original = *parsed->modules[0];
    if (CountCalls(original.EntryFunction()->region(0).front()) == 0) continue;
    std::unique_ptr<ir::Module> copy = ir::CloneModule(original);
    ASSERT_TRUE(passes::InlineCalls(*copy).ok()) << path;
    EXPECT_EQ(CountCalls(copy->EntryFunction()->region(0).front()), 0) << path;
    EXPECT_TRUE(ir::VerifyModule(*copy).ok()) << path;
    auto args = cpu::RandomTensors(ir::FunctionSignature(*original.EntryFunction()).inputs, 3);
    ASSERT_TRUE(args.ok());
    auto want = cpu::Interpreter(original).Call(*original.EntryFunction(), *args);
    auto got = cpu::Interpreter(*copy).Call(*copy->EntryFunction(), *args);
    ASSERT_EQ(want.ok(), got.ok()) << path;
    if (!want.ok()) continue;
    ASSERT_EQ(want->size(), got->size()) << path;
    for (size_t i = 0; i < want->size(); ++i) {
      const cpu::Tensor& a = (*want)[i];
      const cpu::Tensor& b = (*got)[i];
      ASSERT_EQ(a.byte_size(), b.byte_size()) << path;
      EXPECT_EQ(std::memcmp(a.bytes(), b.bytes(), a.byte_size()), 0) << path << " result " << i;
    }
    ++inlined;
  }
  EXPECT_GT(inlined, 10);
}

}  // namespace
}  // namespace hlograph

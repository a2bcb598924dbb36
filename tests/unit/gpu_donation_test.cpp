// Donated arguments (plan/donation.h): which results the plan lets live in
// an argument's memory, and, on a GPU, that calls giving both one buffer
// compute what the interpreter computes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/runtime/device_memory.h"
#include "cli_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

std::vector<Donation> DonationsOf(const std::string& text) {
  auto modules = testing::ParseOrDie(text);
  auto program = PlanProgram(*modules[0]);
  EXPECT_TRUE(program.ok()) << program.status().message();
  return program.ok() ? program->donations : std::vector<Donation>{};
}

TEST(GpuDonation, ElementwiseUpdateIsWrittenInPlace) {
  const auto d = DonationsOf(R"(
func.func @main(%p: tensor<1024xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<1024xf32>) -> tensor<1024xf32> {
  %c = stablehlo.constant dense<0.1> : tensor<1024xf32>
  %0 = stablehlo.multiply %c, %g : tensor<1024xf32>
  %1 = stablehlo.subtract %p, %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
})");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].parameter, 0);
  EXPECT_EQ(d[0].result, 0);
  EXPECT_TRUE(d[0].in_place) << d[0].why;
}

TEST(GpuDonation, ArgumentReadAtOtherElementsIsNotOverwritten) {
  // The result at i reads the argument at 1023 - i: written in place, a
  // thread could read an element another thread has already replaced.
  const auto d = DonationsOf(R"(
func.func @main(%p: tensor<1024xf32> {tf.aliasing_output = 0 : i32}) -> tensor<1024xf32> {
  %0 = stablehlo.reverse %p, dims = [0] : tensor<1024xf32>
  %1 = stablehlo.add %p, %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
})");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_FALSE(d[0].in_place);
  EXPECT_TRUE(testing::HasSubstr(d[0].why, "not an in-place elementwise kernel")) << d[0].why;
}

TEST(GpuDonation, ArgumentReadAfterTheResultIsWrittenIsNotOverwritten) {
  const auto d = DonationsOf(R"(
func.func @main(%p: tensor<64xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<64xf32>, tensor<f32>) {
  %c = stablehlo.constant dense<2.0> : tensor<64xf32>
  %0 = stablehlo.multiply %p, %c : tensor<64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1 : tensor<64xf32>, tensor<f32>
})");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_FALSE(d[0].in_place);
}

TEST(GpuDonation, BufferDonorTakesTheFirstResultOfItsType) {
  const auto d = DonationsOf(R"(
func.func @main(%a: tensor<8xf32> {jax.buffer_donor = true}, %b: tensor<4xf32> {jax.buffer_donor = true}) -> (tensor<4xf32>, tensor<8xf32>) {
  %0 = stablehlo.negate %b : tensor<4xf32>
  %1 = stablehlo.abs %a : tensor<8xf32>
  return %0, %1 : tensor<4xf32>, tensor<8xf32>
})");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].parameter, 0);
  EXPECT_EQ(d[0].result, 1);
  EXPECT_EQ(d[1].parameter, 1);
  EXPECT_EQ(d[1].result, 0);
  EXPECT_TRUE(d[0].in_place && d[1].in_place);
}

TEST(GpuDonation, ExplainSaysWhatIsDonated) {
  auto modules = testing::ParseOrDie(testing::ReadFile(testing::Corpus("donated_and_unused.mlir")));
  auto program = PlanProgram(*modules[0]);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const std::string text = program->ToString();
  EXPECT_TRUE(testing::HasSubstr(text, "donated: arg 2 -> result 1 (written in place)")) << text;
  EXPECT_TRUE(testing::HasSubstr(text, "donated: arg 1 -> result 0 (not in place: read by stablehlo.dot_general"))
      << text;
}

// On a GPU: each corpus program with donations, called with the donated
// results in their arguments' buffers, against the interpreter; and a
// result given an argument's memory without the plan's leave is refused.
TEST(GpuDonation, InPlaceCallsMatchTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const char* name : {"donated_argument.mlir", "donated_and_unused.mlir"}) {
    auto modules = testing::ParseOrDie(testing::ReadFile(testing::Corpus(name)));
    const ir::Module& module = *modules[0];
    auto exe = GpuExecutable::Compile(module);
    ASSERT_TRUE(exe.ok()) << exe.status().message();
    const ir::Operation* entry = module.EntryFunction();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 7);
    ASSERT_TRUE(args.ok());
    cpu::Interpreter interpreter(module);
    auto want = interpreter.Call(*entry, *args);
    ASSERT_TRUE(want.ok());
    auto stream = Stream::Create();
    ASSERT_TRUE(stream.ok());
    std::vector<DeviceBuffer> in, out;
    std::vector<const void*> arg_ptrs;
    for (const cpu::Tensor& a : *args) {
      auto b = DeviceBuffer::Allocate(static_cast<int64_t>(a.byte_size()));
      ASSERT_TRUE(b.ok());
      ASSERT_TRUE(CopyHostToDevice(b->data(), a.bytes(), static_cast<int64_t>(a.byte_size()), stream->get()).ok());
      arg_ptrs.push_back(b->data());
      in.push_back(std::move(*b));
    }
    std::vector<void*> result_ptrs;
    for (const cpu::Tensor& w : *want) {
      auto b = DeviceBuffer::Allocate(static_cast<int64_t>(w.byte_size()));
      ASSERT_TRUE(b.ok());
      result_ptrs.push_back(b->data());
      out.push_back(std::move(*b));
    }
    int shared = 0;
    for (const Donation& d : (*exe)->program().donations) {
      if (!d.in_place) continue;
      result_ptrs[static_cast<size_t>(d.result)] = const_cast<void*>(arg_ptrs[static_cast<size_t>(d.parameter)]);
      ++shared;
    }
    EXPECT_GT(shared, 0) << name;
    ASSERT_TRUE((*exe)->Execute(arg_ptrs, result_ptrs, stream->get()).ok());
    for (size_t r = 0; r < want->size(); ++r) {
      cpu::Tensor got((*want)[r].type());
      ASSERT_TRUE(CopyDeviceToHost(got.mutable_bytes(), result_ptrs[r], static_cast<int64_t>(got.byte_size()),
                                   stream->get())
                      .ok());
      ASSERT_TRUE(stream->Synchronize().ok());
      const float* w = (*want)[r].data<float>();
      const float* g = got.data<float>();
      for (int64_t i = 0; i < got.num_elements(); ++i) {
        EXPECT_NEAR(g[i], w[i], 1e-2 * (1 + std::fabs(w[i]))) << name << " result " << r << " element " << i;
      }
    }
    // donated_and_unused: result 0 may not take argument 1's memory (a GEMM reads it).
    if (std::string(name) == "donated_and_unused.mlir") {
      std::vector<void*> bad = result_ptrs;
      bad[0] = const_cast<void*>(arg_ptrs[1]);
      const Status s = (*exe)->Execute(arg_ptrs, bad, stream->get());
      EXPECT_FALSE(s.ok());
      EXPECT_TRUE(testing::HasSubstr(s.message(), "result 0 is given argument 1's memory"));
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

// Several instances per graph (runtime/graph_exec_set.h): which instance a
// call takes (without a GPU), and on a GPU, calls whose results alternate
// between buffer sets: every result right, and with as many instances as
// sets no node updated and nothing copied once each set has its instance.
#include <gtest/gtest.h>

#include <cstring>

#include "backends/cpu/random_tensor.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/explain.h"
#include "backends/gpu/runtime/device_memory.h"
#include "backends/gpu/runtime/graph_exec_set.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

void* At(uintptr_t a) { return reinterpret_cast<void*>(a); }

TEST(GpuGraphInstances, ReusesTheInstanceBoundToTheCallsAddresses) {
  const std::vector<void*> a = {At(0x100), At(0xa00)}, b = {At(0x100), At(0xb00)};
  const InstanceChoice c = ChooseInstance({&a, &b}, {1, 2}, {At(0x100), At(0xb00)}, 2);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kReuse);
  EXPECT_EQ(c.index, 1u);
}

TEST(GpuGraphInstances, CreatesOneWhileThereIsRoom) {
  const std::vector<void*> a = {At(0x100), At(0xa00)};
  InstanceChoice c = ChooseInstance({}, {}, a, 2);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kCreate);
  EXPECT_EQ(c.index, 0u);
  c = ChooseInstance({&a}, {1}, {At(0x100), At(0xb00)}, 2);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kCreate);
  EXPECT_EQ(c.index, 1u);
  // One instance at most: the old behaviour, it is rebound.
  c = ChooseInstance({&a}, {1}, {At(0x100), At(0xb00)}, 1);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kRebind);
  EXPECT_EQ(c.index, 0u);
}

TEST(GpuGraphInstances, RebindsTheFewestMovesThenTheLeastRecentlyUsed) {
  const std::vector<void*> a = {At(0x100), At(0x200), At(0xa00)};
  const std::vector<void*> b = {At(0x110), At(0x210), At(0xb00)};
  // Closest to `a` (one buffer moved), although `a` was used last.
  InstanceChoice c = ChooseInstance({&a, &b}, {5, 4}, {At(0x100), At(0x200), At(0xc00)}, 2);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kRebind);
  EXPECT_EQ(c.index, 0u);
  // As far from both: the least recently used.
  c = ChooseInstance({&a, &b}, {5, 4}, {At(0x120), At(0x220), At(0xc00)}, 2);
  EXPECT_EQ(c.kind, InstanceChoice::Kind::kRebind);
  EXPECT_EQ(c.index, 1u);
  c = ChooseInstance({&a, &b}, {3, 4}, {At(0x120), At(0x220), At(0xc00)}, 2);
  EXPECT_EQ(c.index, 0u);
}

TEST(GpuGraphInstances, CountFromTheEnvironment) {
  {
    const testing::ScopedEnv unset("HLOGRAPH_GPU_GRAPH_INSTANCES", nullptr);
    EXPECT_EQ(GraphInstancesFromEnvironment(kDefaultGraphInstances), 2);
  }
  {
    const testing::ScopedEnv one("HLOGRAPH_GPU_GRAPH_INSTANCES", "1");
    EXPECT_EQ(GraphInstancesFromEnvironment(kDefaultGraphInstances), 1);
  }
  for (const char* bad : {"0", "-3", "4x", "", "1000"}) {
    const testing::ScopedEnv env("HLOGRAPH_GPU_GRAPH_INSTANCES", bad);
    EXPECT_EQ(GraphInstancesFromEnvironment(3), 3) << bad;
  }
}

constexpr const char* kProgram = R"(
func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
      : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %t = stablehlo.tanh %d : tensor<4x16xf32>
  %s = stablehlo.add %t, %x : tensor<4x16xf32>
  return %t, %s : tensor<4x16xf32>, tensor<4x16xf32>
})";

TEST(GpuGraphInstances, ExplainNamesTheCount) {
  const testing::ScopedEnv unset("HLOGRAPH_GPU_GRAPH_INSTANCES", nullptr);
  auto modules = testing::ParseOrDie(kProgram);
  ASSERT_FALSE(modules.empty());
  auto explained = ExplainModule(*modules[0]);
  ASSERT_TRUE(explained.ok()) << explained.status().message();
  EXPECT_TRUE(testing::HasSubstr(explained->text, "graph instances (HLOGRAPH_GPU_GRAPH_INSTANCES): up to 2"));
}

// `calls` calls of the program in graph mode with at most `instances`
// instances per graph: the arguments stay where they are (their contents
// cycle through three input sets, rewritten before each call), the results
// land in buffer set call % `sets`, filled with garbage first. Returns the
// executable's stats; every result is checked against stream mode's.
ExecutionStats AlternateResults(int instances, int sets, int calls) {
  auto modules = testing::ParseOrDie(kProgram);
  EXPECT_FALSE(modules.empty());
  if (modules.empty()) return {};
  const ir::Module& module = *modules[0];
  GpuCompileOptions graph_options, stream_options;
  graph_options.graph_instances = instances;
  stream_options.mode = ExecutionMode::kStream;
  const testing::ScopedEnv unset("HLOGRAPH_GPU_GRAPH_INSTANCES", nullptr);
  auto graph = GpuExecutable::Compile(module, graph_options);
  auto stream = GpuExecutable::Compile(module, stream_options);
  EXPECT_TRUE(graph.ok() && stream.ok());
  if (!graph.ok() || !stream.ok()) return {};

  constexpr int kInputSets = 3;  // not 2: a stale result from two calls back shows
  const auto types = ir::FunctionSignature(*module.EntryFunction()).inputs;
  std::vector<std::vector<cpu::Tensor>> inputs, want;
  for (int s = 0; s < kInputSets; ++s) {
    auto a = cpu::RandomTensors(types, 700 + s);
    EXPECT_TRUE(a.ok());
    auto w = (*stream)->Run(*a);
    EXPECT_TRUE(w.ok()) << w.status().message();
    if (!a.ok() || !w.ok()) return {};
    inputs.push_back(std::move(*a));
    want.push_back(std::move(*w));
  }
  auto device = Stream::Create();
  EXPECT_TRUE(device.ok());
  std::vector<DeviceBuffer> args;
  std::vector<const void*> arg_ptrs;
  for (const cpu::Tensor& t : inputs[0]) {
    auto b = DeviceBuffer::Allocate(static_cast<int64_t>(t.byte_size()));
    EXPECT_TRUE(b.ok());
    arg_ptrs.push_back(b->data());
    args.push_back(std::move(*b));
  }
  std::vector<std::vector<DeviceBuffer>> results(static_cast<size_t>(sets));
  for (auto& set : results) {
    for (const cpu::Tensor& t : want[0]) {
      auto b = DeviceBuffer::Allocate(static_cast<int64_t>(t.byte_size()));
      EXPECT_TRUE(b.ok());
      set.push_back(std::move(*b));
    }
  }
  int wrong = 0;
  for (int call = 0; call < calls && wrong < 5; ++call) {
    const auto& in = inputs[static_cast<size_t>(call % kInputSets)];
    const auto& expected = want[static_cast<size_t>(call % kInputSets)];
    const auto& out = results[static_cast<size_t>(call % sets)];
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_TRUE(CopyHostToDevice(args[i].data(), in[i].bytes(), args[i].size(), device->get()).ok());
    }
    std::vector<void*> result_ptrs;
    for (const DeviceBuffer& b : out) {
      EXPECT_TRUE(MemsetDevice(b.data(), 0xff, b.size(), device->get()).ok());
      result_ptrs.push_back(b.data());
    }
    const Status run = (*graph)->Execute(arg_ptrs, result_ptrs, device->get());
    EXPECT_TRUE(run.ok()) << run.message();
    if (!run.ok()) return {};
    for (size_t r = 0; r < out.size(); ++r) {
      cpu::Tensor got(expected[r].type());
      EXPECT_TRUE(CopyDeviceToHost(got.mutable_bytes(), out[r].data(), out[r].size(), device->get()).ok());
      EXPECT_TRUE(device->Synchronize().ok());
      if (std::memcmp(got.bytes(), expected[r].bytes(), got.byte_size()) != 0) {
        ++wrong;
        ADD_FAILURE() << "call " << call << ": result " << r << " differs from stream mode's";
      }
    }
  }
  ExecutionStats stats = (*graph)->stats();
  int64_t graphs = 0;  // launched per call
  for (const GraphSegment& segment : (*graph)->graph_plan().segments) graphs += segment.outside == nullptr;
  EXPECT_EQ(stats.graph_launches, calls * graphs);
  std::cout << instances << " instances, " << sets << " result sets: " << stats.binding.reuses << " reuses, "
            << stats.binding.node_updates << " node updates, " << stats.binding.instantiations
            << " instantiations, " << stats.binding.copies << " copies\n";
  return stats;
}

TEST(GpuGraphInstances, ResultsAlternatingBetweenTwoSetsNeedNoUpdates) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  constexpr int kCalls = 200;
  const ExecutionStats s = AlternateResults(2, 2, kCalls);
  if (HasFailure()) return;
  EXPECT_EQ(s.graph_instances, 2);
  // One instance per result set and graph, bound once; then reuses alone.
  EXPECT_EQ(s.binding.instantiations, 2 * s.graph_launches / kCalls);
  EXPECT_EQ(s.binding.node_updates, 0);
  EXPECT_EQ(s.binding.copies, 0);
  EXPECT_EQ(s.binding.reuses, s.graph_launches - s.binding.instantiations);
  EXPECT_EQ(s.binding_policy, BindingPolicy::kUpdateNodes);
}

TEST(GpuGraphInstances, OneInstanceRebindsAsBefore) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  constexpr int kCalls = 100;
  const ExecutionStats s = AlternateResults(1, 2, kCalls);
  if (HasFailure()) return;
  EXPECT_EQ(s.graph_instances, 1);
  EXPECT_EQ(s.binding.instantiations, s.graph_launches / kCalls);
  EXPECT_GT(s.binding.node_updates + s.binding.copies, 0);
}

TEST(GpuGraphInstances, MoreResultSetsThanInstancesStayRight) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const ExecutionStats s = AlternateResults(2, 3, 150);
  if (HasFailure()) return;
  EXPECT_EQ(s.binding.instantiations, 2 * s.graph_launches / 150);
  EXPECT_GT(s.binding.node_updates + s.binding.copies, 0);
}

TEST(GpuGraphInstances, TheEnvironmentOverridesTheOption) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto modules = testing::ParseOrDie(kProgram);
  ASSERT_FALSE(modules.empty());
  const testing::ScopedEnv one("HLOGRAPH_GPU_GRAPH_INSTANCES", "1");
  auto graph = GpuExecutable::Compile(*modules[0]);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  auto args = cpu::RandomTensors(ir::FunctionSignature(*modules[0]->EntryFunction()).inputs, 3);
  ASSERT_TRUE(args.ok());
  ASSERT_TRUE((*graph)->Run(*args).ok());
  EXPECT_EQ((*graph)->stats().graph_instances, 1);
  EXPECT_TRUE(testing::HasSubstr((*graph)->Explain(), "graph instances: up to 1 per graph"));
}

}  // namespace
}  // namespace hlograph::gpu

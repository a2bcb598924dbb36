// The process's device memory accounting (runtime/memory_stats.h): the
// counter behind it, what fails or is empty counting nothing, and on a GPU
// every DeviceBuffer and executable counted while it lives and the graph
// memory pool read from CUDA.
#include <gtest/gtest.h>

#include <utility>

#include "backends/cpu/random_tensor.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/runtime/device.h"
#include "backends/gpu/runtime/device_memory.h"
#include "backends/gpu/runtime/memory_stats.h"
#include "frontend/parser.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

TEST(GpuMemoryStats, ReportsTheProcessCounter) {
  const DeviceMemoryStats before = CurrentDeviceMemoryStats();
  DeviceAllocations().Add(1 << 20);  // as an allocation would, without a device
  DeviceMemoryStats during = CurrentDeviceMemoryStats();
  EXPECT_EQ(during.bytes_in_use, before.bytes_in_use + (1 << 20));
  EXPECT_GE(during.peak_bytes_in_use, during.bytes_in_use);
  EXPECT_EQ(during.num_allocs, before.num_allocs + 1);
  EXPECT_GE(during.largest_alloc_size, 1 << 20);
  DeviceAllocations().Remove(1 << 20);
  ResetPeakDeviceMemory();
  const DeviceMemoryStats after = CurrentDeviceMemoryStats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.peak_bytes_in_use, after.bytes_in_use);  // the peak starts again from now
  EXPECT_EQ(after.pools_read, DeviceCount() > 0);
  if (!after.pools_read) {
    EXPECT_EQ(after.graph_pool_bytes, 0);
    EXPECT_EQ(after.held_bytes(), after.bytes_in_use);
  }
}

TEST(GpuMemoryStats, EmptyAndFailedAllocationsCountNothing) {
  const DeviceMemoryStats before = CurrentDeviceMemoryStats();
  {
    auto empty = DeviceBuffer::Allocate(0);
    ASSERT_TRUE(empty.ok());
    // Without a device every allocation fails; with one, this one does.
    auto failed = DeviceBuffer::Allocate(int64_t{1} << 60);
    EXPECT_FALSE(failed.ok());
  }
  const DeviceMemoryStats after = CurrentDeviceMemoryStats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.num_allocs, before.num_allocs);
}

TEST(GpuMemoryStats, DeviceBuffersCountWhileTheyLive) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const DeviceMemoryStats before = CurrentDeviceMemoryStats();
  {
    auto a = DeviceBuffer::Allocate(3 << 20);
    ASSERT_TRUE(a.ok()) << a.status().message();
    DeviceBuffer moved = std::move(*a);  // moving hands the count over, no more
    DeviceBuffer b;
    b = std::move(moved);
    const DeviceMemoryStats during = CurrentDeviceMemoryStats();
    EXPECT_EQ(during.bytes_in_use, before.bytes_in_use + (3 << 20));
    EXPECT_EQ(during.num_allocs, before.num_allocs + 1);
    EXPECT_GE(during.largest_alloc_size, 3 << 20);
    EXPECT_TRUE(during.pools_read);
    auto c = DeviceBuffer::Allocate(1 << 20);
    ASSERT_TRUE(c.ok());
    b = std::move(*c);  // frees the 3 MiB
    EXPECT_EQ(CurrentDeviceMemoryStats().bytes_in_use, before.bytes_in_use + (1 << 20));
  }
  EXPECT_EQ(CurrentDeviceMemoryStats().bytes_in_use, before.bytes_in_use);
}

// An executable's arena, workspace and constants, and a call's buffers,
// are counted, and nothing is left once it is gone. With its temps in
// graph memory the pool's high-water mark covers them.
TEST(GpuMemoryStats, ExecutablesAndGraphMemoryAreCounted) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv no_autotune("HLOGRAPH_GPU_AUTOTUNE", "0");
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/bench/programs/mlp_chain.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const ir::Module& module = *parsed->modules[0];
  auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, 3);
  ASSERT_TRUE(args.ok());
  const int64_t before = CurrentDeviceMemoryStats().bytes_in_use;
  for (TempsPolicy temps : {TempsPolicy::kArena, TempsPolicy::kGraphMemory}) {
    GpuCompileOptions o;
    o.graph.temps = temps;
    auto exe = GpuExecutable::Compile(module, o);
    ASSERT_TRUE(exe.ok()) << exe.status().message();
    ASSERT_TRUE((*exe)->Run(*args).ok());
    EXPECT_GE(CurrentDeviceMemoryStats().bytes_in_use - before, (*exe)->resident_bytes()) << TempsPolicyName(temps);
    if ((*exe)->temps_in_graph_memory()) {
      ResetPeakDeviceMemory();
      ASSERT_TRUE((*exe)->Run(*args).ok());
      const DeviceMemoryStats s = CurrentDeviceMemoryStats();
      ASSERT_TRUE(s.pools_read);
      EXPECT_GE(s.graph_pool_peak_bytes, (*exe)->graph_plan().temps.bytes);
      EXPECT_GE(s.graph_pool_reserved_bytes, s.graph_pool_bytes);
    }
    exe->reset();
    EXPECT_EQ(CurrentDeviceMemoryStats().bytes_in_use, before) << TempsPolicyName(temps);
  }
}

}  // namespace
}  // namespace hlograph::gpu

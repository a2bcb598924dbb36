// The process-wide memory budget (runtime/memory_budget.h): least recently
// used idle executables give their memory back, busy ones are skipped; on
// the GPU, executables sharing a budget too small for all of them still
// compute the right results.
#include <gtest/gtest.h>

#include <cstring>

#include "backends/cpu/random_tensor.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/runtime/memory_budget.h"
#include "frontend/parser.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Fake : Evictable {
  explicit Fake(int64_t b) : bytes(b) {}
  int64_t evictable_bytes() const override { return bytes; }
  bool TryEvict() override {
    if (busy) return false;
    bytes = 0;
    ++evicted;
    return true;
  }
  int64_t bytes;
  bool busy = false;
  int evicted = 0;
};

TEST(GpuMemoryBudget, EvictsTheLeastRecentlyUsedFirst) {
  MemoryBudget budget(100);
  Fake a(40), b(40), c(0);
  budget.Register(&a);
  budget.Register(&b);
  EXPECT_EQ(budget.held_bytes(), 80);
  // c needs 50: a (least recently used) goes, b stays.
  EXPECT_TRUE(budget.MakeRoom(&c, 50));
  EXPECT_EQ(a.evicted, 1);
  EXPECT_EQ(b.evicted, 0);
  c.bytes = 50;
  // b is used again; then a comes back needing 40: c is now the oldest.
  EXPECT_TRUE(budget.MakeRoom(&b, 0));
  EXPECT_TRUE(budget.MakeRoom(&a, 40));
  EXPECT_EQ(c.evicted, 1);
  EXPECT_EQ(b.evicted, 0);
  EXPECT_EQ(budget.evictions(), 2);
}

TEST(GpuMemoryBudget, BusyExecutablesAreSkipped) {
  MemoryBudget budget(100);
  Fake a(60), b(30), c(0);
  budget.Register(&a);
  budget.Register(&b);
  a.busy = true;
  EXPECT_TRUE(budget.MakeRoom(&c, 30));  // a cannot go, b can: 60 + 30 fits
  EXPECT_EQ(a.evicted, 0);
  EXPECT_EQ(b.evicted, 1);
  EXPECT_FALSE(budget.MakeRoom(&c, 50));  // nothing more to take
  budget.Unregister(&a);
  EXPECT_TRUE(budget.MakeRoom(&c, 50));
}

TEST(GpuMemoryBudget, UnlimitedEvictsNothing) {
  MemoryBudget budget;
  Fake a(1 << 30), b(0);
  budget.Register(&a);
  EXPECT_TRUE(budget.MakeRoom(&b, int64_t{1} << 40));
  EXPECT_EQ(a.evicted, 0);
}

TEST(GpuMemoryBudget, ParsesSizes) {
  EXPECT_EQ(*MemoryBudget::ParseBytes("1048576"), 1048576);
  EXPECT_EQ(*MemoryBudget::ParseBytes("512M"), int64_t{512} << 20);
  EXPECT_EQ(*MemoryBudget::ParseBytes("8g"), int64_t{8} << 30);
  EXPECT_EQ(*MemoryBudget::ParseBytes("4K"), 4096);
  for (const char* bad : {"", "M", "12MB", "-5", "1.5G", "99999999999999999G"}) {
    auto parsed = MemoryBudget::ParseBytes(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_TRUE(testing::HasSubstr(parsed.status().message(), "K, M or G suffix")) << bad;
  }
}

TEST(GpuMemoryBudget, ParsesLimits) {
  const int64_t free_bytes = int64_t{80} << 30;
  EXPECT_EQ(*MemoryBudget::ParseLimit("8G", free_bytes), int64_t{8} << 30);
  EXPECT_EQ(*MemoryBudget::ParseLimit("50%", free_bytes), int64_t{40} << 30);
  EXPECT_EQ(*MemoryBudget::ParseLimit("100%", free_bytes), free_bytes);
  EXPECT_EQ(*MemoryBudget::ParseLimit("none", free_bytes), MemoryBudget::kUnlimited);
  // Without a device there is nothing to take a share of.
  EXPECT_EQ(*MemoryBudget::ParseLimit("90%", MemoryBudget::kUnlimited), MemoryBudget::kUnlimited);
  for (const char* bad : {"0%", "101%", "%", "x%", "1000%", "5.5%"}) {
    auto parsed = MemoryBudget::ParseLimit(bad, free_bytes);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_TRUE(testing::HasSubstr(parsed.status().message(), "1% to 100%")) << bad;
  }
  auto bad = MemoryBudget::ParseLimit("lots", free_bytes);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(testing::HasSubstr(bad.status().message(), "percentage of the free device memory")) << bad.status().message();
}

TEST(GpuMemoryBudget, SetLimitSaysWhoSetIt) {
  MemoryBudget budget;
  ASSERT_TRUE(budget.SetLimit("512M", "the test").ok());
  EXPECT_EQ(budget.limit(), int64_t{512} << 20);
  EXPECT_EQ(budget.source(), "the test");
  const Status bad = budget.SetLimit("12MB", "elsewhere");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(budget.limit(), int64_t{512} << 20);  // unchanged by a bad value
  EXPECT_EQ(budget.source(), "the test");
}

// A lowered limit is enforced by the next call, even one that allocates
// nothing (Touch); otherwise Touch only reorders.
TEST(GpuMemoryBudget, TouchEnforcesALoweredLimit) {
  MemoryBudget budget(100);
  Fake a(40), b(40);
  budget.Register(&a);
  budget.Register(&b);
  budget.Touch(&a);  // the order is now b, a
  EXPECT_EQ(a.evicted + b.evicted, 0);
  budget.set_limit(50);
  budget.Touch(&a);
  EXPECT_EQ(b.evicted, 1);  // the least recently used
  EXPECT_EQ(a.evicted, 0);
}

// After an allocation failed, every idle executable but the caller gives
// its memory back, whatever the limit; busy ones keep theirs.
TEST(GpuMemoryBudget, EvictAllExceptTheCaller) {
  MemoryBudget budget;  // unlimited
  Fake a(10), b(20), c(30), me(5);
  for (Fake* f : {&a, &b, &c, &me}) budget.Register(f);
  b.busy = true;
  EXPECT_EQ(budget.EvictAllExcept(&me), 40);
  EXPECT_EQ(a.evicted, 1);
  EXPECT_EQ(b.evicted, 0);
  EXPECT_EQ(c.evicted, 1);
  EXPECT_EQ(me.evicted, 0);
}

// Two executables whose arenas do not fit the budget together, called in
// turn: each call finds its memory given back and takes it again, every
// result is right, and one whose arena went moves its temps to graph
// memory (it then holds no arena).
TEST(GpuMemoryBudget, ExecutablesTakeTurnsWithinABudget) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/bench/programs/scan_layers.mlir");
  ASSERT_TRUE(parsed.ok());
  const ir::Module& module = *parsed->modules[0];
  auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, 5);
  ASSERT_TRUE(args.ok());
  auto first = GpuExecutable::Compile(module);
  auto second = GpuExecutable::Compile(module);
  ASSERT_TRUE(first.ok() && second.ok());
  auto want = (*first)->Run(*args);
  ASSERT_TRUE(want.ok()) << want.status().message();
  ASSERT_GT((*first)->evictable_bytes(), 0);
  MemoryBudget& budget = MemoryBudget::Global();
  const int64_t old_limit = budget.limit();
  budget.set_limit((*first)->evictable_bytes() + (*first)->evictable_bytes() / 2);
  for (int call = 0; call < 6; ++call) {
    GpuExecutable& exe = call % 2 ? **second : **first;
    auto got = exe.Run(*args);
    ASSERT_TRUE(got.ok()) << got.status().message();
    for (size_t r = 0; r < want->size(); ++r) {
      EXPECT_EQ(std::memcmp((*want)[r].bytes(), (*got)[r].bytes(), (*want)[r].byte_size()), 0) << "call " << call;
    }
  }
  budget.set_limit(old_limit);
  EXPECT_GE((*first)->stats().reloads + (*second)->stats().reloads, 1);
  if ((*first)->graph_plan().temps.graph_memory_possible) {
    const bool moved = (*first)->temps_in_graph_memory() || (*second)->temps_in_graph_memory();
    EXPECT_TRUE(moved) << "no executable moved its temps to graph memory";
    for (GpuExecutable* exe : {first->get(), second->get()}) {
      if (exe->temps_in_graph_memory()) {
        EXPECT_TRUE(testing::HasSubstr(exe->graph_plan().temps.why, "budget took the arena"));
      }
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu

// The choice between updating graph nodes and copying through stable
// buffers, buffer by buffer (runtime/binding_policy.h), without a GPU.
#include <gtest/gtest.h>

#include "backends/gpu/runtime/binding_policy.h"
#include "backends/gpu/runtime/recent_addresses.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// A window of calls where the buffers in `moving` move on every call.
void Window(BindingChooser& chooser, size_t n, std::vector<size_t> moving, int64_t node_updates) {
  std::vector<bool> moved(n, false);
  for (size_t i : moving) moved[i] = true;
  for (int i = 0; i < BindingChooser::kWindow; ++i) chooser.Observe(moved, node_updates);
}

TEST(GpuBindingPolicy, BuffersThatKeepMovingGoThroughStableCopies) {
  // Two weights at steady addresses, a result at a new one on every call.
  BindingChooser chooser(BindingChooser::Mode::kAuto, {64 << 10, 64 << 10, 1024});
  std::vector<bool> moved = {false, false, true};
  for (int i = 0; i < BindingChooser::kWindow - 1; ++i) {
    chooser.Observe(moved, 20);
    EXPECT_EQ(chooser.policy(), BindingPolicy::kUpdateNodes);  // still watching
  }
  chooser.Observe(moved, 20);
  EXPECT_EQ(chooser.policy(), BindingPolicy::kStableCopies);
  EXPECT_FALSE(chooser.copied(0));
  EXPECT_FALSE(chooser.copied(1));
  EXPECT_TRUE(chooser.copied(2));
  EXPECT_TRUE(testing::HasSubstr(chooser.why(), "1 of 3 arguments and results through stable copies"))
      << chooser.why();
}

TEST(GpuBindingPolicy, ChurnAfterSteadyCallsIsStillCaught) {
  // Warm-up calls that wait for each result reuse its memory; then calls
  // queued back to back get fresh results.
  BindingChooser chooser(BindingChooser::Mode::kAuto, {1024, 1024});
  Window(chooser, 2, {}, 0);
  Window(chooser, 2, {}, 0);
  EXPECT_EQ(chooser.policy(), BindingPolicy::kUpdateNodes);
  Window(chooser, 2, {1}, 50);
  EXPECT_TRUE(chooser.copied(1));
  EXPECT_FALSE(chooser.copied(0));
  // Once copied, it stays: its moves cost nothing now.
  Window(chooser, 2, {}, 0);
  EXPECT_TRUE(chooser.copied(1));
}

TEST(GpuBindingPolicy, AutoKeepsUpdatingWhenCopiesWouldNotPay) {
  // Addresses that stay put.
  BindingChooser steady(BindingChooser::Mode::kAuto, {1024, 1024});
  Window(steady, 2, {}, 10);
  EXPECT_EQ(steady.policy(), BindingPolicy::kUpdateNodes);
  // Few nodes per move: updating them is as cheap as copying.
  BindingChooser few(BindingChooser::Mode::kAuto, {256, 256, 256, 256});
  Window(few, 4, {0, 1, 2, 3}, 3);
  EXPECT_EQ(few.policy(), BindingPolicy::kUpdateNodes);
  EXPECT_TRUE(testing::HasSubstr(few.why(), "cheap")) << few.why();
  // Too much data to copy every call.
  BindingChooser large(BindingChooser::Mode::kAuto, {BindingChooser::kMaxCopyBytes + 1, 16});
  Window(large, 2, {0}, 100);
  EXPECT_EQ(large.policy(), BindingPolicy::kUpdateNodes);
  EXPECT_TRUE(testing::HasSubstr(large.why(), "too large to copy")) << large.why();
  // The small ones are copied, the large one stays bound directly.
  BindingChooser mixed(BindingChooser::Mode::kAuto, {BindingChooser::kMaxCopyBytes, 16, 16});
  Window(mixed, 3, {0, 1, 2}, 100);
  EXPECT_FALSE(mixed.copied(0));
  EXPECT_TRUE(mixed.copied(1));
  EXPECT_TRUE(mixed.copied(2));
}

TEST(GpuBindingPolicy, ResultsAlternatingBetweenTwoBuffersStayBoundDirectly) {
  // The PJRT plugin's recycled results: a weight at one address, a result at
  // A, B, A, B... With two graph instances neither moves; with one, the
  // result moves on every call and goes through a stable copy.
  const auto run = [](size_t instances) {
    BindingChooser chooser(BindingChooser::Mode::kAuto, {64 << 10, 1024});
    RecentAddresses recent(2, instances);
    for (int call = 0; call < 4 * BindingChooser::kWindow; ++call) {
      const void* result = reinterpret_cast<const void*>(call % 2 == 0 ? 0xa000 : 0xb000);
      const std::vector<bool> moved = recent.Observe({reinterpret_cast<const void*>(0x1000), result});
      chooser.Observe(moved, moved[1] ? 20 : 0);
    }
    return chooser.copied(1);
  };
  EXPECT_FALSE(run(2));
  EXPECT_TRUE(run(1));
}

TEST(GpuBindingPolicy, AutoUnlessTheEnvironmentSays) {
  {
    const testing::ScopedEnv unset("HLOGRAPH_GPU_BINDING", nullptr);
    EXPECT_EQ(BindingChooser::ModeFromEnvironment(), BindingChooser::Mode::kAuto);
  }
  const testing::ScopedEnv update("HLOGRAPH_GPU_BINDING", "update");
  EXPECT_EQ(BindingChooser::ModeFromEnvironment(), BindingChooser::Mode::kUpdate);
}

TEST(GpuBindingPolicy, ForcedModes) {
  BindingChooser copy(BindingChooser::Mode::kCopy, {1 << 30, 2});
  EXPECT_EQ(copy.policy(), BindingPolicy::kStableCopies);
  EXPECT_TRUE(copy.copied(0) && copy.copied(1));
  BindingChooser update(BindingChooser::Mode::kUpdate, {16, 2});
  Window(update, 2, {0, 1}, 1000);
  Window(update, 2, {0, 1}, 1000);
  EXPECT_EQ(update.policy(), BindingPolicy::kUpdateNodes);
}

}  // namespace
}  // namespace hlograph::gpu

// The choice between updating graph nodes and copying through stable
// buffers (runtime/binding_policy.h), without a GPU.
#include <gtest/gtest.h>

#include "backends/gpu/runtime/binding_policy.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

TEST(GpuBindingPolicy, AutoSwitchesWhenAddressesKeepMovingAndManyNodesFollow) {
  BindingChooser chooser(BindingChooser::Mode::kAuto, 64 << 10, 4);
  for (int i = 0; i < BindingChooser::kWindow - 1; ++i) {
    chooser.Observe(true, 20);
    EXPECT_EQ(chooser.policy(), BindingPolicy::kUpdateNodes);  // still watching
  }
  chooser.Observe(true, 20);
  EXPECT_EQ(chooser.policy(), BindingPolicy::kStableCopies);
  EXPECT_TRUE(testing::HasSubstr(chooser.why(), "moved on 16 of 16 calls")) << chooser.why();
}

TEST(GpuBindingPolicy, AutoKeepsUpdatingWhenCopiesWouldNotPay) {
  // Addresses that stay put.
  BindingChooser steady(BindingChooser::Mode::kAuto, 1024, 2);
  for (int i = 0; i < BindingChooser::kWindow; ++i) steady.Observe(i == 0, 10);
  EXPECT_EQ(steady.policy(), BindingPolicy::kUpdateNodes);
  // Few nodes per move: updating them is as cheap as copying.
  BindingChooser few(BindingChooser::Mode::kAuto, 1024, 4);
  for (int i = 0; i < BindingChooser::kWindow; ++i) few.Observe(true, 3);
  EXPECT_EQ(few.policy(), BindingPolicy::kUpdateNodes);
  // Too much data to copy every call.
  BindingChooser large(BindingChooser::Mode::kAuto, BindingChooser::kMaxCopyBytes + 1, 2);
  for (int i = 0; i < BindingChooser::kWindow; ++i) large.Observe(true, 100);
  EXPECT_EQ(large.policy(), BindingPolicy::kUpdateNodes);
  EXPECT_TRUE(testing::HasSubstr(large.why(), "too large to copy")) << large.why();
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
  BindingChooser copy(BindingChooser::Mode::kCopy, 1 << 30, 2);
  EXPECT_EQ(copy.policy(), BindingPolicy::kStableCopies);
  BindingChooser update(BindingChooser::Mode::kUpdate, 16, 2);
  for (int i = 0; i < 2 * BindingChooser::kWindow; ++i) update.Observe(true, 1000);
  EXPECT_EQ(update.policy(), BindingPolicy::kUpdateNodes);
}

}  // namespace
}  // namespace hlograph::gpu

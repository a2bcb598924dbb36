// Which addresses count as moves for the binding chooser when each graph
// keeps several instances (runtime/recent_addresses.h), without a GPU.
#include <gtest/gtest.h>

#include "backends/gpu/runtime/recent_addresses.h"

namespace hlograph::gpu {
namespace {

const void* At(uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(GpuRecentAddresses, NothingMovesOnTheFirstCall) {
  RecentAddresses recent(2, 2);
  EXPECT_EQ(recent.Observe({At(0x100), At(0x200)}), std::vector<bool>({false, false}));
}

TEST(GpuRecentAddresses, AlternatingBetweenTwoIsNoMoveWithDepthTwo) {
  RecentAddresses recent(2, 2);
  recent.Observe({At(0x100), At(0xa00)});
  // The first argument stays, the result alternates A, B, A, B...
  EXPECT_EQ(recent.Observe({At(0x100), At(0xb00)}), std::vector<bool>({false, true}));  // B is new
  for (int call = 0; call < 10; ++call) {
    const void* result = call % 2 == 0 ? At(0xa00) : At(0xb00);
    EXPECT_EQ(recent.Observe({At(0x100), result}), std::vector<bool>({false, false})) << "call " << call;
  }
}

TEST(GpuRecentAddresses, DepthOneCountsEveryChange) {
  RecentAddresses recent(1, 1);
  recent.Observe({At(0xa00)});
  EXPECT_EQ(recent.Observe({At(0xb00)}), std::vector<bool>({true}));
  EXPECT_EQ(recent.Observe({At(0xa00)}), std::vector<bool>({true}));
  EXPECT_EQ(recent.Observe({At(0xa00)}), std::vector<bool>({false}));
}

TEST(GpuRecentAddresses, ThreeAddressesCycleThroughDepthTwo) {
  RecentAddresses recent(1, 2);
  recent.Observe({At(0xa00)});
  recent.Observe({At(0xb00)});
  // A, B, C, A, B, C: each address left the last two before it comes back.
  for (int call = 0; call < 6; ++call) {
    const void* address = At(0xa00 + 0x100 * static_cast<uintptr_t>((call + 2) % 3));
    EXPECT_EQ(recent.Observe({address}), std::vector<bool>({true})) << "call " << call;
  }
}

TEST(GpuRecentAddresses, AUsedAddressStaysRecent) {
  RecentAddresses recent(1, 2);
  recent.Observe({At(0xa00)});
  recent.Observe({At(0xb00)});
  recent.Observe({At(0xa00)});  // A most recent, then B
  EXPECT_EQ(recent.Observe({At(0xc00)}), std::vector<bool>({true}));  // pushes out B
  EXPECT_EQ(recent.Observe({At(0xa00)}), std::vector<bool>({false}));
  EXPECT_EQ(recent.Observe({At(0xb00)}), std::vector<bool>({true}));
}

}  // namespace
}  // namespace hlograph::gpu

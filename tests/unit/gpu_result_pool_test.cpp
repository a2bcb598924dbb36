// The PJRT plugin's spare result memory (src/pjrt/gpu/result_pool.h),
// without a GPU: memory is handed to a fake `free`.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "pjrt/gpu/result_pool.h"

namespace hlograph::pjrt {
namespace {

void* At(uintptr_t a) { return reinterpret_cast<void*>(a); }

struct Freed {
  std::vector<void*> list;
  std::vector<size_t> outputs;  // each freed block's output (the plugin frees it by that output's size)
  ResultPool::Free free() {
    return [this](void* data, size_t output) {
      list.push_back(data);
      outputs.push_back(output);
    };
  }
};

TEST(GpuResultPool, ReleasedResultMemoryServesTheSameOutputNext) {
  Freed freed;
  ResultPool pool(2, freed.free());
  EXPECT_EQ(pool.Take(0), nullptr);  // nothing kept yet
  EXPECT_TRUE(pool.Keep(0, At(0xa00)));
  EXPECT_EQ(pool.Take(1), nullptr);  // another output's
  EXPECT_EQ(pool.Take(0), At(0xa00));
  EXPECT_EQ(pool.Take(0), nullptr);  // taken once
  EXPECT_EQ(pool.taken(), 1);
  EXPECT_TRUE(freed.list.empty());
}

TEST(GpuResultPool, OneSparePerOutput) {
  Freed freed;
  ResultPool pool(1, freed.free());
  EXPECT_TRUE(pool.Keep(0, At(0xa00)));
  EXPECT_FALSE(pool.Keep(0, At(0xb00)));  // the caller frees it
  EXPECT_FALSE(pool.Keep(1, At(0xc00)));  // no such output
  EXPECT_FALSE(pool.Keep(0, nullptr));
  EXPECT_TRUE(freed.list.empty());
}

TEST(GpuResultPool, AlternatesBetweenTwoAddressesInTheUsualLoop) {
  // out = f(x): call k's result is dropped right after call k+1 returns.
  Freed freed;
  ResultPool pool(1, freed.free());
  uintptr_t fresh = 0x1000;
  std::vector<void*> addresses;
  void* live = nullptr;
  for (int call = 0; call < 8; ++call) {
    void* result = pool.Take(0);
    if (result == nullptr) result = At(fresh += 0x1000);
    addresses.push_back(result);
    if (live != nullptr && !pool.Keep(0, live)) freed.list.push_back(live);
    live = result;
  }
  for (size_t call = 2; call < addresses.size(); ++call) EXPECT_EQ(addresses[call], addresses[call - 2]);
  EXPECT_NE(addresses[0], addresses[1]);
  EXPECT_EQ(pool.taken(), 6);
  EXPECT_TRUE(freed.list.empty());
}

TEST(GpuResultPool, ReleaseAndDestructionFreeTheSpares) {
  Freed freed;
  {
    ResultPool pool(3, freed.free());
    EXPECT_TRUE(pool.Keep(0, At(0xa00)));
    EXPECT_TRUE(pool.Keep(2, At(0xc00)));
    pool.Release();  // memory was short
    EXPECT_EQ(freed.list, std::vector<void*>({At(0xa00), At(0xc00)}));
    EXPECT_EQ(freed.outputs, std::vector<size_t>({0, 2}));
    EXPECT_EQ(pool.Take(0), nullptr);
    EXPECT_TRUE(pool.Keep(1, At(0xb00)));
  }
  EXPECT_EQ(freed.list, std::vector<void*>({At(0xa00), At(0xc00), At(0xb00)}));
}

}  // namespace
}  // namespace hlograph::pjrt

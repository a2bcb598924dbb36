// The allocation counter both backends count memory with
// (src/backends/allocation_counter.h): bytes in use, peak, count, largest,
// and a peak that starts again from what is in use.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "backends/allocation_counter.h"

namespace hlograph {
namespace {

TEST(AllocationCounter, CountsBytesPeakAllocationsAndTheLargest) {
  AllocationCounter c;
  c.Add(100);
  c.Add(300);
  c.Remove(100);
  c.Add(50);
  const AllocationCounter::Snapshot s = c.Read();
  EXPECT_EQ(s.bytes_in_use, 350);
  EXPECT_EQ(s.peak_bytes_in_use, 400);
  EXPECT_EQ(s.num_allocs, 3);  // made, freed or not
  EXPECT_EQ(s.largest_alloc_size, 300);
  c.Remove(300);
  c.Remove(50);
  EXPECT_EQ(c.Read().bytes_in_use, 0);
  EXPECT_EQ(c.Read().peak_bytes_in_use, 400);
}

TEST(AllocationCounter, ResetPeakStartsFromWhatIsInUse) {
  AllocationCounter c;
  c.Add(1000);
  c.Add(24);
  c.Remove(1000);
  c.ResetPeak();
  EXPECT_EQ(c.Read().peak_bytes_in_use, 24);
  c.Add(8);
  c.Remove(8);
  EXPECT_EQ(c.Read().peak_bytes_in_use, 32);
  EXPECT_EQ(c.Read().largest_alloc_size, 1000);  // not a peak: kept
}

TEST(AllocationCounter, ThreadsCountWithoutLosingUpdates) {
  AllocationCounter c;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&c, t] {
      for (int i = 0; i < 10000; ++i) {
        c.Add(t + 1);
        if (i % 2) c.Remove(t + 1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const AllocationCounter::Snapshot s = c.Read();
  EXPECT_EQ(s.bytes_in_use, 5000 * (1 + 2 + 3 + 4));
  EXPECT_EQ(s.num_allocs, 40000);
  EXPECT_EQ(s.largest_alloc_size, 4);
  EXPECT_GE(s.peak_bytes_in_use, s.bytes_in_use);
}

}  // namespace
}  // namespace hlograph

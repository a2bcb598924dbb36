// The CPU plugin backend's memory stats (src/pjrt/held_bytes.h): a block
// that several arrays share counts once, until the last lets go.
#include <gtest/gtest.h>

#include "pjrt/held_bytes.h"

namespace hlograph::pjrt {
namespace {

TEST(PjrtHeldBytes, SharedBlocksCountOnce) {
  HeldBytes held;
  char a[1], b[1];
  held.Hold(a, 4096);
  held.Hold(a, 4096);  // a reshaped result keeping its operand's bytes
  held.Hold(b, 100);
  EXPECT_EQ(held.Read().bytes_in_use, 4196);
  EXPECT_EQ(held.Read().num_allocs, 2);
  held.Release(a, 4096);
  EXPECT_EQ(held.Read().bytes_in_use, 4196);  // still held by the other
  held.Release(a, 4096);
  EXPECT_EQ(held.Read().bytes_in_use, 100);
  held.Release(b, 100);
  EXPECT_EQ(held.Read().bytes_in_use, 0);
  EXPECT_EQ(held.Read().peak_bytes_in_use, 4196);
}

TEST(PjrtHeldBytes, EmptyArraysHoldNothing) {
  HeldBytes held;
  char a[1];
  held.Hold(nullptr, 0);
  held.Hold(a, 0);
  held.Release(a, 0);
  EXPECT_EQ(held.Read().num_allocs, 0);
  EXPECT_EQ(held.Read().bytes_in_use, 0);
}

}  // namespace
}  // namespace hlograph::pjrt

// The rendezvous of the CPU backend's multi-device runs
// (backends/cpu/device_grid.h): exchanges in group order, repeated
// exchanges meeting in order, channels in order, and a failure waking the
// devices that wait.
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "backends/cpu/device_grid.h"
#include "cpu_test_util.h"

namespace hlograph::cpu {
namespace {

using test_util::Make;
using test_util::Values;

Tensor Scalar(int32_t v) { return Make<int32_t>(ir::ElementType::kI32, {}, {v}); }

TEST(CpuDeviceGrid, MembersGetEveryValueInGroupOrderEachTime) {
  DeviceGrid grid(3, 1);
  const std::vector<Process> group = {{2, 0}, {0, 0}, {1, 0}};  // not in id order
  std::vector<std::vector<int32_t>> seen(3);
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < 3; ++r) {
    threads.emplace_back([&, r] {
      for (int round = 0; round < 2; ++round) {  // the k-th exchanges meet
        auto all = grid.Exchange(group, {r, 0}, 0, {Scalar(static_cast<int32_t>(10 * round + r))});
        ASSERT_TRUE(all.ok()) << all.status().message();
        for (const auto& member : *all) seen[static_cast<size_t>(r)].push_back(Values<int32_t>(member[0])[0]);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& s : seen) EXPECT_EQ(s, (std::vector<int32_t>{2, 0, 1, 12, 10, 11}));
}

TEST(CpuDeviceGrid, AProcessOutsideTheGroupIsAnError) {
  DeviceGrid grid(2, 1);
  auto all = grid.Exchange({{0, 0}}, {1, 0}, 0, {Scalar(1)});
  ASSERT_FALSE(all.ok());
  EXPECT_NE(all.status().message().find("not in"), std::string::npos);
}

TEST(CpuDeviceGrid, AFailureWakesAWaitingDevice) {
  DeviceGrid grid(2, 1);
  Status waited = Status::Ok();
  std::thread waiting([&] { waited = grid.Exchange({{0, 0}, {1, 0}}, {0, 0}, 0, {Scalar(1)}).status(); });
  std::thread receiving([&] { EXPECT_FALSE(grid.Receive(7).ok()); });
  grid.Fail();
  waiting.join();
  receiving.join();
  EXPECT_FALSE(waited.ok());
}

TEST(CpuDeviceGrid, ChannelsDeliverInOrderAndInfeedRunsOut) {
  DeviceGrid grid(1, 1);
  grid.Send(3, {Scalar(5)});
  grid.Send(3, {Scalar(6)});
  grid.Send(4, {Scalar(9)});
  auto a = grid.Receive(3), b = grid.Receive(3), c = grid.Receive(4);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(Values<int32_t>((*a)[0])[0], 5);
  EXPECT_EQ(Values<int32_t>((*b)[0])[0], 6);
  EXPECT_EQ(Values<int32_t>((*c)[0])[0], 9);
  grid.SetInfeed({Scalar(1)});
  EXPECT_TRUE(grid.TakeInfeed().ok());
  auto past = grid.TakeInfeed();
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("past its 1 values"), std::string::npos);
}

}  // namespace
}  // namespace hlograph::cpu

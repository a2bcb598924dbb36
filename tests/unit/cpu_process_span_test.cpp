// Multi-device runs whose devices live in several processes
// (backends/cpu/process_span.h): values as bytes and back, and grids of two
// "processes" (here two grids in one process) exchanging through a shared
// store, waiting for each other, giving up, and failing promptly when a
// device of their own fails.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cpu/device_grid.h"
#include "backends/cpu/tensor_bytes.h"
#include "cpu_test_util.h"

namespace hlograph::cpu {
namespace {

using test_util::Make;
using test_util::Values;

Tensor Scalar(int32_t v) { return Make<int32_t>(ir::ElementType::kI32, {}, {v}); }

class MemoryLink : public ProcessLink {
 public:
  Status Put(const std::string& key, std::string_view value) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!values_.emplace(key, std::string(value)).second) return Status::Error(key + " exists");
    changed_.notify_all();
    return Status::Ok();
  }
  StatusOr<std::optional<std::string>> Get(const std::string& key, std::chrono::milliseconds wait) override {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!changed_.wait_for(lock, wait, [&] { return values_.count(key) != 0; })) return std::optional<std::string>();
    return std::optional<std::string>(values_[key]);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::string> values_;
};

TEST(CpuProcessSpan, ValuesComeBackFromTheirBytesOfTheTypesExpected) {
  const Tensor v = Make<float>(ir::ElementType::kF32, {2, 2}, {1.5f, -2, 3, 4});
  const Tensor tuple = Tensor::Tuple({Scalar(7), v});
  auto back = DecodeTensors(EncodeTensors({v, tuple}), {Tensor(v.type()), Tensor(tuple.type())});
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(Values<float>((*back)[0]), (std::vector<float>{1.5f, -2, 3, 4}));
  EXPECT_EQ(Values<int32_t>((*back)[1].tuple_elements()[0])[0], 7);

  auto other = DecodeTensors(EncodeTensors({v}), {Scalar(0)});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("passed a tensor<2x2xf32> where this one passed a tensor<i32>"),
            std::string::npos)
      << other.status().message();
  const std::string bytes = EncodeTensors({v});
  EXPECT_FALSE(DecodeTensors(bytes.substr(0, bytes.size() - 1), {v}).ok());
}

// Device (r, 0) of a 2 x 1 grid, run by "process" r.
ProcessSpan SpanOf(int64_t r, std::shared_ptr<ProcessLink> link, std::chrono::milliseconds timeout) {
  ProcessSpan span;
  span.local = {r};
  span.link = std::move(link);
  span.key = "run/0";
  span.timeout = timeout;
  return span;
}

TEST(CpuProcessSpan, DevicesOfTwoProcessesMeetThroughTheStoreInOrder) {
  auto link = std::make_shared<MemoryLink>();
  const ProcessSpan spans[2] = {SpanOf(0, link, std::chrono::seconds(10)), SpanOf(1, link, std::chrono::seconds(10))};
  DeviceGrid grids[2] = {DeviceGrid(2, 1, &spans[0]), DeviceGrid(2, 1, &spans[1])};
  EXPECT_TRUE(grids[0].spans_processes());
  std::vector<std::vector<int32_t>> seen(2);
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      for (int round = 0; round < 3; ++round) {
        auto all = grids[r].Exchange({{1, 0}, {0, 0}}, {r, 0}, 5, {Scalar(static_cast<int32_t>(10 * round + r))});
        ASSERT_TRUE(all.ok()) << all.status().message();
        for (const auto& member : *all) seen[static_cast<size_t>(r)].push_back(Values<int32_t>(member[0])[0]);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& s : seen) EXPECT_EQ(s, (std::vector<int32_t>{1, 0, 11, 10, 21, 20}));
}

TEST(CpuProcessSpan, AnAbsentProcessTimesOutAndALocalFailureEndsTheWaitAtOnce) {
  auto link = std::make_shared<MemoryLink>();
  const ProcessSpan span = SpanOf(0, link, std::chrono::milliseconds(250));
  DeviceGrid grid(2, 1, &span);
  auto alone = grid.Exchange({{0, 0}, {1, 0}}, {0, 0}, 1, {Scalar(1)});
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.status().message().find("waited 250 ms for device (replica 1, partition 0) of another process"),
            std::string::npos)
      << alone.status().message();

  const ProcessSpan patient = SpanOf(0, link, std::chrono::minutes(1));
  DeviceGrid failing(2, 1, &patient);
  const auto start = std::chrono::steady_clock::now();
  std::thread fail([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    failing.Fail();
  });
  auto waited = failing.Exchange({{0, 0}, {1, 0}}, {0, 0}, 2, {Scalar(1)});
  fail.join();
  ASSERT_FALSE(waited.ok());
  EXPECT_NE(waited.status().message().find("another device failed"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace hlograph::cpu

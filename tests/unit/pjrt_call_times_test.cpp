// The plugin's entry timers (HLOGRAPH_PJRT_STATS=1) on a table of its own:
// the wrapped entry still runs, returns its error, and is counted.
#include <gtest/gtest.h>

#include <string>

#include "pjrt/call_times.h"

namespace hlograph::pjrt {
namespace {

int platform_name_calls = 0;
PJRT_Error* const kSentinel = reinterpret_cast<PJRT_Error*>(0x1);

PJRT_Error* FakePlatformName(PJRT_Client_PlatformName_Args*) {
  ++platform_name_calls;
  return kSentinel;
}

// The [calls, ns] pair after `key` in the JSON, as calls.
long long CallsOf(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\": [");
  if (at == std::string::npos) return 0;
  return std::stoll(json.substr(at + key.size() + 5));
}

TEST(PjrtCallTimes, TimedEntriesRunTheInnerOneAndCountIt) {
  PJRT_Api inner{};
  inner.PJRT_Client_PlatformName = FakePlatformName;
  const PJRT_Api timed = TimedApi(inner);
  ASSERT_NE(timed.PJRT_Client_PlatformName, FakePlatformName);
  const long long before = CallsOf(CallTimesJson(), "PJRT_Client_PlatformName");
  PJRT_Client_PlatformName_Args args{};
  EXPECT_EQ(timed.PJRT_Client_PlatformName(&args), kSentinel);
  EXPECT_EQ(timed.PJRT_Client_PlatformName(&args), kSentinel);
  EXPECT_EQ(platform_name_calls, 2);
  EXPECT_EQ(CallsOf(CallTimesJson(), "PJRT_Client_PlatformName"), before + 2);
}

TEST(PjrtCallTimes, EngineExecuteTimeAddsUp) {
  const long long before = CallsOf(CallTimesJson(), "engine_execute");
  AddEngineExecuteTime(1500);
  AddEngineExecuteTime(2500);
  const std::string json = CallTimesJson();
  EXPECT_EQ(CallsOf(json, "engine_execute"), before + 2) << json;
  EXPECT_NE(json.find("\"entries\": {"), std::string::npos) << json;
  EXPECT_NE(json.find("\"timer_ns_per_entry\": "), std::string::npos) << json;
}

}  // namespace
}  // namespace hlograph::pjrt

#include "pjrt/call_times.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace hlograph::pjrt {
namespace {

enum Entry : int {
#define HLOGRAPH_PJRT_ENTRY(name) k_##name,
  HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_ENTRY)
#undef HLOGRAPH_PJRT_ENTRY
  kEntryCount
};

constexpr const char* kEntryNames[] = {
#define HLOGRAPH_PJRT_ENTRY_NAME(name) #name,
    HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_ENTRY_NAME)
#undef HLOGRAPH_PJRT_ENTRY_NAME
};

struct Counter {
  std::atomic<int64_t> calls{0};
  std::atomic<int64_t> nanoseconds{0};
  void Add(int64_t ns) {
    calls.fetch_add(1, std::memory_order_relaxed);
    nanoseconds.fetch_add(ns, std::memory_order_relaxed);
  }
};

std::array<Counter, kEntryCount> entry_counters;
Counter engine_execute;
PJRT_Api inner_api;  // set once, before the timed table is handed out

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

#define HLOGRAPH_PJRT_TIMED(name)                    \
  PJRT_Error* Timed_##name(name##_Args* args) {      \
    const int64_t start = NowNs();                   \
    PJRT_Error* error = inner_api.name(args);        \
    entry_counters[k_##name].Add(NowNs() - start);   \
    return error;                                    \
  }
HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_TIMED)
#undef HLOGRAPH_PJRT_TIMED

// What timing one entry adds to it (two clock reads, two atomic adds), so
// that tools can take it out of the entries' totals.
double TimerOverheadNs() {
  static const double ns = [] {
    Counter scratch;
    constexpr int kRounds = 20000;
    const int64_t start = NowNs();
    for (int i = 0; i < kRounds; ++i) {
      const int64_t t = NowNs();
      scratch.Add(NowNs() - t);
    }
    return static_cast<double>(NowNs() - start) / kRounds;
  }();
  return ns;
}

void AppendPair(std::string& out, const Counter& c) {
  out += '[' + std::to_string(c.calls.load(std::memory_order_relaxed)) + ", " +
         std::to_string(c.nanoseconds.load(std::memory_order_relaxed)) + ']';
}

}  // namespace

bool CallTimesEnabled() {
  static const bool enabled = [] {
    const char* env = std::getenv("HLOGRAPH_PJRT_STATS");
    return env != nullptr && std::strcmp(env, "1") == 0;
  }();
  return enabled;
}

PJRT_Api TimedApi(const PJRT_Api& inner) {
  inner_api = inner;
  PJRT_Api timed = inner;
#define HLOGRAPH_PJRT_SET_TIMED(name) timed.name = Timed_##name;
  HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_SET_TIMED)
#undef HLOGRAPH_PJRT_SET_TIMED
  return timed;
}

void AddEngineExecuteTime(int64_t nanoseconds) { engine_execute.Add(nanoseconds); }

std::string CallTimesJson() {
  std::string out = "{\"entries\": {";
  bool first = true;
  for (int e = 0; e < kEntryCount; ++e) {
    if (entry_counters[e].calls.load(std::memory_order_relaxed) == 0) continue;
    if (!first) out += ", ";
    first = false;
    out += '"' + std::string(kEntryNames[e]) + "\": ";
    AppendPair(out, entry_counters[e]);
  }
  out += "}, \"engine_execute\": ";
  AppendPair(out, engine_execute);
  out += ", \"timer_ns_per_entry\": " + std::to_string(CallTimesEnabled() ? TimerOverheadNs() : 0.0) + '}';
  return out;
}

}  // namespace hlograph::pjrt

// For tools that load the plugin next to the framework (bench/pjrt_overhead.py):
// the totals so far, as JSON. The string stays valid until the next call from
// the same thread.
extern "C" __attribute__((visibility("default"))) const char* hlograph_pjrt_call_times(void) {
  thread_local std::string text;
  text = hlograph::pjrt::CallTimesJson();
  return text.c_str();
}

// Host time spent inside the plugin, for measuring what a call through the
// plugin adds on top of hlograph's own execute. With HLOGRAPH_PJRT_STATS=1
// every entry of the function table counts its calls and the nanoseconds
// spent in it, and the backends add the time of the engine's own Execute
// (the C++ API's GpuExecutable::Execute, or the interpreter's run). A
// framework-side tool reads the totals through the exported C function
// hlograph_pjrt_call_times() (JSON) before and after the calls it measures.
#pragma once

#include <cstdint>
#include <string>

#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

// HLOGRAPH_PJRT_STATS=1, read once.
bool CallTimesEnabled();

// `inner` with every error-returning entry wrapped by a timer that counts it.
PJRT_Api TimedApi(const PJRT_Api& inner);

// Time spent in the engine's Execute (counted whether or not timing is on: two
// clock reads a call).
void AddEngineExecuteTime(int64_t nanoseconds);

// {"entries": {"PJRT_...": [calls, ns], ...}, "engine_execute": [calls, ns],
// "timer_ns_per_entry": ns}: the entries called at least once, the engine's
// Execute, and what the timer adds to each timed entry (0 when timing is off).
std::string CallTimesJson();

}  // namespace hlograph::pjrt

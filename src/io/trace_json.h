// A timeline as a Chrome trace: the Trace Event Format's JSON object
// ({"traceEvents": [...]}) that ui.perfetto.dev and chrome://tracing open.
// Each event is a complete event (ph "X") on a track of one process, times
// in microseconds; tracks are named by metadata events and kept in the
// order given. Events on one track must nest or follow each other (viewers
// draw overlapping ones wrongly): put work that overlaps on tracks of its own.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hlograph::io {

struct TraceEvent {
  std::string name;
  std::string category;  // what a viewer filters by: "kernel", "memcpy", "graph launch", ...
  int track = 0;         // a TraceTrack's id
  double start_us = 0, duration_us = 0;
  std::vector<std::pair<std::string, std::string>> args;  // shown when the event is selected
};

struct TraceTrack {
  int id = 0;
  std::string name;
};

struct Trace {
  std::string process;             // the name of the one process
  std::vector<TraceTrack> tracks;  // in the order a viewer should show them
  std::vector<TraceEvent> events;
};

// The whole trace, one event a line.
std::string TraceJson(const Trace& trace);

// `text` as a JSON string, quotes included: quotes, backslashes and
// control characters escaped; other bytes (UTF-8) as they are.
std::string JsonQuoted(std::string_view text);

}  // namespace hlograph::io

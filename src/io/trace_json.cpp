#include "io/trace_json.h"

#include <cstdio>

namespace hlograph::io {
namespace {

constexpr int kProcess = 1;

// Microseconds to the nanosecond: no exponent, no locale.
std::string Microseconds(double us) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

std::string Metadata(const char* what, int track, const std::string& key, const std::string& value) {
  return "{\"ph\": \"M\", \"pid\": " + std::to_string(kProcess) + ", \"tid\": " + std::to_string(track) +
         ", \"name\": \"" + what + "\", \"args\": {\"" + key + "\": " + value + "}}";
}

std::string Complete(const TraceEvent& e) {
  std::string out = "{\"ph\": \"X\", \"pid\": " + std::to_string(kProcess) + ", \"tid\": " + std::to_string(e.track) +
                    ", \"name\": " + JsonQuoted(e.name) + ", \"cat\": " + JsonQuoted(e.category) +
                    ", \"ts\": " + Microseconds(e.start_us) + ", \"dur\": " + Microseconds(e.duration_us) +
                    ", \"args\": {";
  for (size_t i = 0; i < e.args.size(); ++i) {
    out += (i ? ", " : "") + JsonQuoted(e.args[i].first) + ": " + JsonQuoted(e.args[i].second);
  }
  return out + "}}";
}

}  // namespace

std::string JsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string TraceJson(const Trace& trace) {
  std::vector<std::string> lines;
  lines.push_back(Metadata("process_name", 0, "name", JsonQuoted(trace.process)));
  for (size_t i = 0; i < trace.tracks.size(); ++i) {
    const TraceTrack& t = trace.tracks[i];
    lines.push_back(Metadata("thread_name", t.id, "name", JsonQuoted(t.name)));
    lines.push_back(Metadata("thread_sort_index", t.id, "sort_index", std::to_string(i)));
  }
  for (const TraceEvent& e : trace.events) lines.push_back(Complete(e));
  std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";
  for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  return out + "]}\n";
}

}  // namespace hlograph::io

// Chrome trace JSON (io/trace_json.h): the exact document for a small trace,
// written out by hand here, and JSON strings that a minimal reader turns
// back into the text they were made from, whatever bytes it holds.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "io/trace_json.h"

namespace hlograph::io {
namespace {

TEST(TraceJson, SmallTraceAsWrittenByHand) {
  Trace trace;
  trace.process = "bench \"a.mlir\"";
  trace.tracks = {{10, "device"}, {1, "host"}};
  trace.events.push_back({"fusion_3 loop: multiply add maximum", "kernel", 10, 0, 2.5, {{"activity", "fusion_3"}}});
  trace.events.push_back({"launch graph 0 (main)", "graph launch", 1, 1.25, 12.25, {}});
  const std::string want =
      "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"process_name\", \"args\": {\"name\": \"bench \\\"a.mlir\\\"\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 10, \"name\": \"thread_name\", \"args\": {\"name\": \"device\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 10, \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": 0}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"name\": \"thread_name\", \"args\": {\"name\": \"host\"}},\n"
      "{\"ph\": \"M\", \"pid\": 1, \"tid\": 1, \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": 1}},\n"
      "{\"ph\": \"X\", \"pid\": 1, \"tid\": 10, \"name\": \"fusion_3 loop: multiply add maximum\", \"cat\": \"kernel\", "
      "\"ts\": 0.000, \"dur\": 2.500, \"args\": {\"activity\": \"fusion_3\"}},\n"
      "{\"ph\": \"X\", \"pid\": 1, \"tid\": 1, \"name\": \"launch graph 0 (main)\", \"cat\": \"graph launch\", "
      "\"ts\": 1.250, \"dur\": 12.250, \"args\": {}}\n"
      "]}\n";
  EXPECT_EQ(TraceJson(trace), want);
}

TEST(TraceJson, EmptyTraceIsStillADocument) {
  EXPECT_EQ(TraceJson(Trace{}),
            "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n"
            "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"process_name\", \"args\": {\"name\": \"\"}}\n"
            "]}\n");
}

TEST(TraceJson, QuotesBackslashesAndControlCharactersAreEscaped) {
  EXPECT_EQ(JsonQuoted("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(JsonQuoted("C:\\temp\\x"), "\"C:\\\\temp\\\\x\"");
  EXPECT_EQ(JsonQuoted("a\nb\tc\rd"), "\"a\\nb\\tc\\rd\"");
  EXPECT_EQ(JsonQuoted(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonQuoted(std::string("nul\0!", 5)), "\"nul\\u0000!\"");
  EXPECT_EQ(JsonQuoted("\xc3\xa9t\xc3\xa9"), "\"\xc3\xa9t\xc3\xa9\"");  // UTF-8 as it is
}

// A JSON string's text (the quotes included in `json`), read as JSON does;
// "!" plus what is wrong when it is not a JSON string.
std::string Unquoted(const std::string& json) {
  if (json.size() < 2 || json.front() != '"' || json.back() != '"') return "!unquoted";
  std::string out;
  for (size_t i = 1; i + 1 < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') return "!bare quote";
    if (static_cast<unsigned char>(c) < 0x20) return "!bare control character";
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i + 1 >= json.size()) return "!escape at the end";
    switch (json[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        if (i + 4 >= json.size() - 1) return "!short \\u";
        const long code = std::strtol(json.substr(i + 1, 4).c_str(), nullptr, 16);
        if (code >= 0x80) return "!\\u beyond ASCII";
        out += static_cast<char>(code);
        i += 4;
        break;
      }
      default: return "!unknown escape";
    }
  }
  return out;
}

TEST(TraceJson, EveryByteReadsBack) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  EXPECT_EQ(Unquoted(JsonQuoted(all)), all);
  for (const std::string s : {"", "\"", "\\", "\\\"", "\"\\", "fusion_0 loop: \"x\" \\ y", "end\\"}) {
    EXPECT_EQ(Unquoted(JsonQuoted(s)), s) << s;
  }
}

}  // namespace
}  // namespace hlograph::io

#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hlograph::cli {
namespace {

constexpr std::chrono::milliseconds kQuietFor{500};
constexpr std::chrono::milliseconds kRedrawEvery{100};

bool StderrIsTerminal() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDERR_FILENO) == 1 && !(term != nullptr && std::strcmp(term, "dumb") == 0);
}

}  // namespace

Progress::Progress(std::string task) : enabled_(StderrIsTerminal()), started_(Clock::now()), task_(std::move(task)) {}

Progress::~Progress() {
  if (drawn_width_ == 0) return;
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(drawn_width_), "");
  std::fflush(stderr);
}

void Progress::SetTask(std::string task) {
  std::lock_guard<std::mutex> lock(mutex_);
  task_ = std::move(task);
  Redraw(0, 0, /*at_once=*/true);  // not the last task's count
}

void Progress::Update(int64_t done, int64_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  Redraw(done, total, /*at_once=*/false);
}

void Progress::Redraw(int64_t done, int64_t total, bool at_once) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - started_ < kQuietFor) return;
  if (!at_once && drawn_width_ > 0 && now - drawn_at_ < kRedrawEvery) return;
  drawn_at_ = now;
  char text[80];  // one line of a narrow terminal, at most
  const double seconds = std::chrono::duration<double>(now - started_).count();
  if (total > 0) {
    std::snprintf(text, sizeof text, "%s... %lld/%lld, %.1f s", task_.c_str(), static_cast<long long>(done),
                  static_cast<long long>(total), seconds);
  } else {
    std::snprintf(text, sizeof text, "%s... %.1f s", task_.c_str(), seconds);
  }
  const size_t width = std::strlen(text);
  // Blanks what is left of a longer line before.
  const int pad = drawn_width_ > width ? static_cast<int>(drawn_width_ - width) : 0;
  std::fprintf(stderr, "\r%s%*s", text, pad, "");
  std::fflush(stderr);
  drawn_width_ = std::max(drawn_width_, width);
}

}  // namespace hlograph::cli

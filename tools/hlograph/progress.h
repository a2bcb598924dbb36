// A one-line progress report on stderr for work long enough to wonder
// about (compiling many kernels, many timed calls): "compiling kernels...
// 12/37, 2.3 s", rewritten in place with '\r' and erased when done. Only
// when stderr is a terminal, so that pipes, logs and tests see nothing,
// and only once the work has taken half a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace hlograph::cli {

class Progress {
 public:
  explicit Progress(std::string task);
  ~Progress();  // erases the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Moves on to the next part of the work ("timing calls"), shown at once.
  void SetTask(std::string task);
  // `done` of `total` steps of the task. Safe from any thread; redrawn at
  // most ten times a second.
  void Update(int64_t done, int64_t total);

 private:
  using Clock = std::chrono::steady_clock;
  // With mutex_ held; total 0: no count to show.
  void Redraw(int64_t done, int64_t total, bool at_once);

  const bool enabled_;
  const Clock::time_point started_;
  Clock::time_point drawn_at_;
  std::mutex mutex_;
  std::string task_;
  size_t drawn_width_ = 0;  // of the line on the terminal, 0 when none
};

}  // namespace hlograph::cli

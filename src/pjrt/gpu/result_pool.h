// Result memory an executable's caller has let go of, kept for the same
// output of the next call: at most one spare allocation per output. In the
// usual loop `out = f(x)` the caller drops call k-1's result right after
// call k returns, so results alternate between two addresses and the
// executable's CUDA graphs find their buffers where an instance is already
// bound (backends/gpu/runtime/graph_exec_set.h) instead of updating nodes.
// Reuse is safe in stream order: every call, copy and free of the plugin is
// queued on one stream. Thread-safe; knows nothing of CUDA (`free` gives
// memory back).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace hlograph::pjrt {

class ResultPool {
 public:
  // Gives back `data`, memory made for output `output`.
  using Free = std::function<void(void* data, size_t output)>;
  ResultPool(size_t outputs, Free free);
  ~ResultPool();  // frees the spares
  ResultPool(const ResultPool&) = delete;
  ResultPool& operator=(const ResultPool&) = delete;

  // Output `output`'s spare, now the caller's; nullptr when there is none.
  void* Take(size_t output);
  // Keeps `data`, memory that was made for output `output`, as its spare;
  // false (the caller frees it) when the output has one already.
  bool Keep(size_t output, void* data);
  // Frees every spare (memory is short elsewhere).
  void Release();
  // Allocations taken from spares so far.
  int64_t taken() const { return taken_.load(); }

 private:
  Free free_;
  std::mutex mu_;
  std::vector<void*> spare_;  // per output
  std::atomic<int64_t> taken_{0};
};

}  // namespace hlograph::pjrt

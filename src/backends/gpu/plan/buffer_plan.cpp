#include "backends/gpu/plan/buffer_plan.h"

#include <algorithm>
#include <numeric>

namespace hlograph::gpu {
namespace {

struct LoopRange {
  int start, end;
};

class Liveness {
 public:
  explicit Liveness(GpuProgram& program) : program_(program) {}

  void Run() {
    for (Buffer& b : program_.buffers) b.first_use = b.last_use = -1;
    Walk(program_.main);
    // Zero-at-rest buffers keep their memory for the whole program.
    for (Buffer& b : program_.buffers) {
      if (b.zero_at_rest && b.first_use >= 0) {
        b.first_use = 0;
        b.last_use = std::max(b.last_use, next_);
      }
    }
    // A value that is live into a loop and read inside it must survive every
    // iteration: stretch it to the loop's end. Nested loops may need several
    // passes.
    for (bool changed = true; changed;) {
      changed = false;
      for (const LoopRange& loop : loops_) {
        for (Buffer& b : program_.buffers) {
          if (b.first_use >= 0 && b.first_use <= loop.start && b.last_use > loop.start && b.last_use < loop.end) {
            b.last_use = loop.end;
            changed = true;
          }
        }
      }
    }
  }

 private:
  void Use(BufferId id, int at) {
    if (id < 0 || static_cast<size_t>(id) >= program_.buffers.size()) return;
    Buffer& b = program_.buffers[static_cast<size_t>(id)];
    if (b.first_use < 0 || at < b.first_use) b.first_use = at;
    b.last_use = std::max(b.last_use, at);
  }

  void Walk(const Sequence& seq) {
    for (const Step& step : seq.steps) {
      const int start = next_++;
      for (BufferId id : StepReads(step)) Use(id, start);
      for (BufferId id : StepWrites(step)) Use(id, start);
      if (const auto* w = std::get_if<WhileStep>(&step.action)) {
        // The next values too hold their memory for the whole loop: an
        // unrolled loop swaps the roles of state and next instead of
        // copying (plan/graph_plan.h).
        for (BufferId id : w->state) Use(id, start);
        for (BufferId id : w->next) Use(id, start);
        Walk(w->cond);
        Walk(w->body);
        const int end = next_++;
        for (BufferId id : w->state) Use(id, end);
        for (BufferId id : w->next) Use(id, end);
        Use(w->pred, end);
        loops_.push_back({start, end});
      } else if (const auto* cs = std::get_if<CaseStep>(&step.action)) {
        Use(cs->index, start);
        for (BufferId id : cs->results) Use(id, start);
        for (size_t b = 0; b < cs->branches.size(); ++b) {
          Walk(cs->branches[b]);
          const int end = next_++;
          for (BufferId id : cs->branch_results[b]) Use(id, end);
          for (BufferId id : cs->results) Use(id, end);
        }
      }
    }
  }

  GpuProgram& program_;
  int next_ = 0;
  std::vector<LoopRange> loops_;
};

int64_t AlignUp(int64_t x) { return (x + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment; }

}  // namespace

Status PlanBuffers(GpuProgram& program) {
  Liveness(program).Run();
  std::vector<size_t> temps;
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    Buffer& b = program.buffers[i];
    if (b.kind != BufferKind::kTemp) continue;
    b.offset = -1;
    if (b.first_use < 0) continue;  // never used: no memory
    temps.push_back(i);
  }
  // Largest first, then first-fit: the lowest offset clear of every placed
  // temp that is live at the same time.
  std::stable_sort(temps.begin(), temps.end(),
                   [&](size_t a, size_t b) { return program.buffers[a].bytes > program.buffers[b].bytes; });
  std::vector<size_t> placed;
  int64_t arena = 0;
  for (size_t i : temps) {
    Buffer& b = program.buffers[i];
    const int64_t size = AlignUp(std::max<int64_t>(b.bytes, 1));
    std::vector<std::pair<int64_t, int64_t>> busy;  // [begin, end) of conflicting temps
    for (size_t j : placed) {
      const Buffer& o = program.buffers[j];
      if (o.first_use <= b.last_use && b.first_use <= o.last_use) {
        busy.emplace_back(o.offset, o.offset + AlignUp(std::max<int64_t>(o.bytes, 1)));
      }
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + size <= begin) break;
      offset = std::max(offset, end);
    }
    b.offset = offset;
    arena = std::max(arena, offset + size);
    placed.push_back(i);
  }
  program.arena_bytes = arena;
  return Status::Ok();
}

}  // namespace hlograph::gpu

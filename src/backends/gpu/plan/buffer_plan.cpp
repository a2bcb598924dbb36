#include "backends/gpu/plan/buffer_plan.h"

#include "backends/gpu/plan/donation.h"

#include <algorithm>
#include <numeric>
#include <map>

namespace hlograph::gpu {
namespace {

struct LoopRange {
  int start, end;
};

// A loop kernel's output that may take the memory of an input read in
// place (plan/donation.h: ReadsInPlace), if that input dies at the kernel.
struct InPlaceCandidate {
  BufferId output, input;
  int at;
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

  const std::vector<InPlaceCandidate>& in_place_candidates() const { return candidates_; }

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
      if (const auto* k = std::get_if<KernelStep>(&step.action)) NoteInPlace(*k, start);
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

  void NoteInPlace(const KernelStep& k, int at) {
    const Fusion& f = program_.fusions[static_cast<size_t>(k.fusion)];
    if (f.kind != FusionKind::kLoop) return;
    for (size_t i = 0; i < k.inputs.size() && i < f.inputs.size(); ++i) {
      if (!f.inputs[i] || !ReadsInPlace(f, i)) continue;
      for (size_t o = 0; o < k.outputs.size() && o < f.outputs.size(); ++o) {
        if (f.outputs[o] && f.outputs[o]->type() == f.inputs[i]->type()) {
          candidates_.push_back({k.outputs[o], k.inputs[i], at});
        }
      }
    }
  }

  GpuProgram& program_;
  int next_ = 0;
  std::vector<LoopRange> loops_;
  std::vector<InPlaceCandidate> candidates_;
};

int64_t AlignUp(int64_t x) { return (x + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment; }

// The input each output may take the memory of: the input's life ends at
// the kernel where the output's begins. An input goes to one output.
std::map<BufferId, BufferId> InPlacePartners(const GpuProgram& p, const std::vector<InPlaceCandidate>& all) {
  std::map<BufferId, BufferId> partner;
  for (const InPlaceCandidate& c : all) {
    const Buffer& out = p.buffers[static_cast<size_t>(c.output)];
    const Buffer& in = p.buffers[static_cast<size_t>(c.input)];
    if (out.kind != BufferKind::kTemp || in.kind != BufferKind::kTemp || out.zero_at_rest || in.zero_at_rest) continue;
    if (c.output == c.input || out.bytes != in.bytes || in.last_use != c.at || out.first_use != c.at) continue;
    if (partner.count(c.output) || partner.count(c.input)) continue;
    partner[c.output] = c.input;
    partner[c.input] = c.output;
  }
  return partner;
}

int64_t SlotBytes(const Buffer& b) { return AlignUp(std::max<int64_t>(b.bytes, 1)); }

// The lowest offset where `size` bytes fit between the sorted busy ranges.
int64_t FirstFit(const std::vector<std::pair<int64_t, int64_t>>& busy, int64_t size) {
  int64_t offset = 0;
  for (const auto& [begin, end] : busy) {
    if (offset + size <= begin) break;
    offset = std::max(offset, end);
  }
  return offset;
}

}  // namespace

Status PlanBuffers(GpuProgram& program) {
  Liveness liveness(program);
  liveness.Run();
  const auto partners = InPlacePartners(program, liveness.in_place_candidates());
  std::vector<size_t> temps;
  for (size_t i = 0; i < program.buffers.size(); ++i) {
    Buffer& b = program.buffers[i];
    if (b.kind != BufferKind::kTemp) continue;
    b.offset = -1;
    b.in_place_of = -1;
    if (b.first_use < 0) continue;  // never used: no memory
    temps.push_back(i);
  }
  // Largest first, then first-fit: the lowest offset clear of every placed
  // temp that is live at the same time. A kernel output and the input it
  // reads in place take exactly the same slot, or none of each other's.
  std::stable_sort(temps.begin(), temps.end(),
                   [&](size_t a, size_t b) { return program.buffers[a].bytes > program.buffers[b].bytes; });
  std::vector<size_t> placed;
  int64_t arena = 0;
  for (size_t i : temps) {
    Buffer& b = program.buffers[i];
    const int64_t size = SlotBytes(b);
    const auto partner = partners.find(static_cast<BufferId>(i));
    const Buffer* mate = partner == partners.end() ? nullptr : &program.buffers[static_cast<size_t>(partner->second)];
    std::vector<std::pair<int64_t, int64_t>> busy, busy_but_mate;  // [begin, end) of conflicting temps
    for (size_t j : placed) {
      const Buffer& o = program.buffers[j];
      if (o.first_use > b.last_use || b.first_use > o.last_use) continue;
      busy.emplace_back(o.offset, o.offset + SlotBytes(o));
      if (&o != mate) busy_but_mate.push_back(busy.back());
    }
    std::sort(busy.begin(), busy.end());
    std::sort(busy_but_mate.begin(), busy_but_mate.end());
    int64_t offset = FirstFit(busy, size);
    if (mate && mate->offset >= 0) {
      const bool clear = std::none_of(busy_but_mate.begin(), busy_but_mate.end(), [&](const auto& r) {
        return r.first < mate->offset + size && mate->offset < r.second;
      });
      if (clear) {
        offset = mate->offset;
        // The output is the one whose life begins at the shared kernel.
        const bool b_is_output = b.first_use > mate->first_use;
        const BufferId output = b_is_output ? static_cast<BufferId>(i) : partner->second;
        program.buffers[static_cast<size_t>(output)].in_place_of =
            b_is_output ? partner->second : static_cast<BufferId>(i);
      }
    }
    b.offset = offset;
    arena = std::max(arena, offset + size);
    placed.push_back(i);
  }
  program.arena_bytes = arena;
  return Status::Ok();
}

StatusOr<bool> PlanBuffersWithClusters(GpuProgram& program) {
  bool changed = false;
  ForEachStep(program.main, [&](const Step& step, int) {
    const auto* k = std::get_if<KernelStep>(&step.action);
    if (k == nullptr || k->scratch.empty()) return;
    const Fusion& f = program.fusions[static_cast<size_t>(k->fusion)];
    if (f.kind != FusionKind::kDot || !f.tiling.cluster_sum) return;
    Buffer& partials = program.buffers[static_cast<size_t>(k->scratch[0])];
    changed = changed || partials.bytes != 0;
    partials.bytes = 0;
  });
  if (changed) HLOGRAPH_TRY(PlanBuffers(program));
  return changed;
}

}  // namespace hlograph::gpu

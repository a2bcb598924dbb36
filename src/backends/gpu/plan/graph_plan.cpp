#include "backends/gpu/plan/graph_plan.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "ir/attribute.h"

namespace hlograph::gpu {

const char* NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kKernel: return "kernel";
    case NodeKind::kGemm: return "gemm";
    case NodeKind::kConvolution: return "convolution";
    case NodeKind::kFft: return "fft";
    case NodeKind::kCollective: return "collective";
    case NodeKind::kMemcpy: return "memcpy";
    case NodeKind::kMemset: return "memset";
    case NodeKind::kSetCondition: return "set-condition";
    case NodeKind::kWhile: return "while";
    case NodeKind::kSwitch: return "switch";
    case NodeKind::kAllocTemps: return "alloc-temps";
    case NodeKind::kFreeTemps: return "free-temps";
  }
  return "?";
}

namespace {

bool ContainsHostStep(const Step& step) {
  bool found = std::holds_alternative<HostStep>(step.action);
  const auto visit = [&](const Step& s, int) { found = found || std::holds_alternative<HostStep>(s.action); };
  if (const auto* w = std::get_if<WhileStep>(&step.action)) {
    ForEachStep(w->cond, visit);
    ForEachStep(w->body, visit);
  } else if (const auto* c = std::get_if<CaseStep>(&step.action)) {
    for (const Sequence& b : c->branches) ForEachStep(b, visit);
  }
  return found;
}

std::string Where(const Step& step) {
  if (!step.op) return "a step";
  std::string s = step.op->name();
  if (step.op->pos().valid()) s += " at line " + std::to_string(step.op->pos().line);
  return s;
}

// A kernel node in CUDA's graph (a set-condition node launches one too).
bool LaunchesKernel(const GraphNode& n) { return n.kind == NodeKind::kKernel || n.kind == NodeKind::kSetCondition; }

// What node `n` writes and, where it lets its dependents launch as it
// starts, what the kernels it launched early behind may still write
// (`behind`, per earlier node, holds theirs): all a kernel launched early
// behind `n` may run beside. A kernel that lets its dependents launch once
// it has waited has nothing running behind it.
std::vector<BufferId> WritesRunningBehind(const GraphNode& n, const std::vector<std::vector<BufferId>>& behind) {
  std::set<BufferId> all(n.writes.begin(), n.writes.end());
  if (n.dependents_at_start) {
    for (int p : n.programmatic) {
      const std::vector<BufferId>& theirs = behind[static_cast<size_t>(p)];
      all.insert(theirs.begin(), theirs.end());
    }
  }
  return {all.begin(), all.end()};
}

class Builder {
 public:
  Builder(const GpuProgram& program, const GraphOptions& options) : program_(program), options_(options) {}

  GraphPlan Build() {
    int graph = -1;
    for (const Step& step : program_.main.steps) {
      if (ContainsHostStep(step)) {
        GraphSegment outside;
        outside.outside = &step;
        outside.why = std::holds_alternative<HostStep>(step.action)
                          ? "runs on the host: the graph is split around it"
                          : "contains an op that runs on the host: the whole step runs in stream mode";
        plan_.segments.push_back(std::move(outside));
        graph = -1;
        continue;
      }
      if (graph < 0) {
        graph = NewGraph(plan_.graphs.empty() ? "main" : "main, part " + std::to_string(plan_.segments.size() + 1));
        GraphSegment segment;
        segment.graph = graph;
        plan_.segments.push_back(std::move(segment));
      }
      Lower(step, graph);
    }
    DropDeadNodes();
    PlaceTemps();
    if (options_.prioritize_chain) {
      for (Graph& g : plan_.graphs) MarkOffChain(g);
    }
    return std::move(plan_);
  }

 private:
  // Memory as hazards see it: a space (the arena, an argument, a result, a
  // constant) and a byte range in it. A result written in place of a donated
  // argument is that argument's memory.
  struct Region {
    int64_t space = 0, begin = 0, end = 0;
  };

  Region RegionOf(BufferId id) const {
    const Buffer& b = program_.buffers[static_cast<size_t>(id)];
    const int64_t params = static_cast<int64_t>(program_.parameters.size());
    const int64_t results = static_cast<int64_t>(program_.results.size());
    switch (b.kind) {
      case BufferKind::kTemp: return {0, b.offset, b.offset + b.bytes};
      case BufferKind::kParameter: return {1 + b.index, 0, b.bytes};
      case BufferKind::kOutput:
        for (const Donation& d : program_.donations) {
          if (d.in_place && d.result == b.index) return {1 + d.parameter, 0, b.bytes};
        }
        return {1 + params + b.index, 0, b.bytes};
      case BufferKind::kConstant: return {1 + params + results + id, 0, b.bytes};
    }
    return {};
  }

  bool Overlap(const std::vector<BufferId>& a, const std::vector<BufferId>& b) const {
    for (BufferId x : a) {
      const Region r = RegionOf(x);
      if (r.begin >= r.end) continue;
      for (BufferId y : b) {
        const Region s = RegionOf(y);
        if (r.space == s.space && r.begin < s.end && s.begin < r.end) return true;
      }
    }
    return false;
  }

  int NewGraph(std::string name) {
    plan_.graphs.push_back(Graph{std::move(name), {}});
    ancestors_.emplace_back();
    behind_.emplace_back();
    return static_cast<int>(plan_.graphs.size()) - 1;
  }

  // Appends `node` to graph `g`, waiting for the earlier nodes it conflicts
  // with, minus those another dependency already waits for.
  int AddNode(int g, GraphNode node, int must_follow = -1) {
    std::vector<GraphNode>& nodes = plan_.graphs[static_cast<size_t>(g)].nodes;
    std::vector<std::vector<bool>>& ancestors = ancestors_[static_cast<size_t>(g)];
    std::vector<std::vector<BufferId>>& behind = behind_[static_cast<size_t>(g)];
    const int id = static_cast<int>(nodes.size());
    std::vector<int> conflicts;
    for (int i = id - 1; i >= 0; --i) {
      const GraphNode& earlier = nodes[static_cast<size_t>(i)];
      if (i == must_follow || (earlier.workspace && node.workspace) || (earlier.collective && node.collective) ||
          Overlap(earlier.writes, node.reads) ||
          Overlap(earlier.writes, node.writes) ||
          Overlap(earlier.reads, node.writes)) {
        conflicts.push_back(i);
      }
    }
    std::vector<bool> mine(static_cast<size_t>(id) + 1, false);
    for (int c : conflicts) {  // latest first: an earlier conflict may already be an ancestor
      if (mine[static_cast<size_t>(c)]) continue;
      node.deps.push_back(c);
      mine[static_cast<size_t>(c)] = true;
      const std::vector<bool>& theirs = ancestors[static_cast<size_t>(c)];
      for (size_t j = 0; j < theirs.size(); ++j) mine[j] = mine[j] || theirs[j];
    }
    std::sort(node.deps.begin(), node.deps.end());
    if (options_.programmatic_launch && LaunchesKernel(node)) {
      for (int d : node.deps) {
        const GraphNode& dep = nodes[static_cast<size_t>(d)];
        if (LaunchesKernel(dep) && !Overlap(behind[static_cast<size_t>(d)], node.early_reads)) {
          node.programmatic.push_back(d);
        }
      }
      if (options_.one_early_edge && node.programmatic.size() > 1) {
        node.programmatic.erase(node.programmatic.begin(), node.programmatic.end() - 1);
      }
    }
    behind.push_back(WritesRunningBehind(node, behind));
    mine.resize(static_cast<size_t>(id));
    ancestors.push_back(std::move(mine));
    nodes.push_back(std::move(node));
    return id;
  }

  void AddCopy(int g, BufferId src, BufferId dst, const Step* step) {
    const int64_t bytes = program_.buffers[static_cast<size_t>(dst)].bytes;
    src = Renamed(src);
    dst = Renamed(dst);
    if (src == dst || bytes == 0) return;
    GraphNode n;
    n.kind = NodeKind::kMemcpy;
    n.step = step;
    n.src = src;
    n.dst = dst;
    n.bytes = bytes;
    n.reads = {src};
    n.writes = {dst};
    AddNode(g, std::move(n));
  }

  BufferId Renamed(BufferId id) const {
    for (const auto& [from, to] : rename_) {
      if (from == id) return to;
    }
    return id;
  }

  // The node's step buffers as this unrolled iteration binds them.
  void ApplyRenaming(GraphNode& n) const {
    if (rename_.empty()) return;
    // The renamings of the buffers it touches.
    for (const auto& r : rename_) {
      const auto touches = [&](const std::vector<BufferId>& ids) {
        return std::find(ids.begin(), ids.end(), r.first) != ids.end();
      };
      if (touches(n.reads) || touches(n.writes) || n.dst == r.first) n.renamed.push_back(r);
    }
    for (BufferId& id : n.reads) id = Renamed(id);
    for (BufferId& id : n.writes) id = Renamed(id);
    for (BufferId& id : n.early_reads) id = Renamed(id);
    if (n.dst >= 0) n.dst = Renamed(n.dst);
  }

  void Lower(const Sequence& seq, int g) {
    for (const Step& step : seq.steps) Lower(step, g);
  }

  void Lower(const Step& step, int g) {
    GraphNode n;
    n.step = &step;
    n.reads = StepReads(step);
    n.writes = StepWrites(step);
    if (const auto* kernel = std::get_if<KernelStep>(&step.action)) {
      n.kind = NodeKind::kKernel;
      const Fusion& f = program_.fusions[static_cast<size_t>(kernel->fusion)];
      for (int i : f.early_inputs) n.early_reads.push_back(kernel->inputs[static_cast<size_t>(i)]);
      n.dependents_at_start = f.dependents_at_start;
    } else if (const auto* gemm = std::get_if<GemmStep>(&step.action)) {
      const GemmConfig& c = gemm->config;
      if (c.batch * c.m * c.n == 0) return;
      n.kind = c.k == 0 ? NodeKind::kMemset : NodeKind::kGemm;
      n.workspace = c.k != 0;
      if (c.k == 0) {
        n.dst = gemm->out;
        n.bytes = program_.buffers[static_cast<size_t>(gemm->out)].bytes;
        n.reads.clear();
      }
    } else if (std::holds_alternative<ConvolutionStep>(step.action)) {
      n.kind = NodeKind::kConvolution;
      n.workspace = true;
    } else if (std::holds_alternative<FftStep>(step.action)) {
      n.kind = NodeKind::kFft;
      n.workspace = true;
    } else if (std::holds_alternative<CollectiveStep>(step.action)) {
      n.kind = NodeKind::kCollective;
      n.collective = true;
    } else if (const auto* copy = std::get_if<CopyStep>(&step.action)) {
      AddCopy(g, copy->src, copy->dst, &step);
      return;
    } else if (const auto* w = std::get_if<WhileStep>(&step.action)) {
      LowerWhile(step, *w, g);
      return;
    } else if (const auto* c = std::get_if<CaseStep>(&step.action)) {
      LowerCase(step, *c, g);
      return;
    } else {
      return;  // host steps never reach a graph (Build keeps them outside)
    }
    ApplyRenaming(n);
    AddNode(g, std::move(n));
  }

  // Drops the nodes of each segment's graph whose results nothing reads: a
  // counter that only counted the iterations of a loop now unrolled, say.
  // What other segments touch, and everything but temps, stays wanted.
  void DropDeadNodes() {
    std::set<BufferId> elsewhere;
    for (const GraphSegment& segment : plan_.segments) {
      if (segment.outside != nullptr) CollectBuffers(*segment.outside, elsewhere);
    }
    elsewhere.insert(program_.results.begin(), program_.results.end());
    for (const GraphSegment& segment : plan_.segments) {
      if (segment.graph < 0) continue;
      std::set<BufferId> wanted = elsewhere;
      for (const GraphSegment& other : plan_.segments) {
        if (other.graph < 0 || other.graph == segment.graph) continue;
        for (const GraphNode& n : plan_.graphs[static_cast<size_t>(other.graph)].nodes) {
          wanted.insert(n.reads.begin(), n.reads.end());
        }
      }
      DropDeadNodes(segment.graph, std::move(wanted));
    }
  }

  // Marks the nodes at least kOffChainSlack shorter than a longest path
  // through `g` (each node counting one) off the chain, and drops the early
  // launch into them.
  static void MarkOffChain(Graph& g) {
    std::vector<GraphNode>& nodes = g.nodes;
    const size_t n = nodes.size();
    std::vector<int> from_start(n, 1), to_end(n, 1);  // longest paths, in nodes, including the node
    for (size_t i = 0; i < n; ++i) {
      for (int d : nodes[i].deps) from_start[i] = std::max(from_start[i], from_start[static_cast<size_t>(d)] + 1);
    }
    for (size_t i = n; i-- > 0;) {
      for (int d : nodes[i].deps) to_end[static_cast<size_t>(d)] = std::max(to_end[static_cast<size_t>(d)], to_end[i] + 1);
    }
    int& longest = g.longest_path;
    for (size_t i = 0; i < n; ++i) longest = std::max(longest, from_start[i] + to_end[i] - 1);
    for (size_t i = 0; i < n; ++i) {
      nodes[i].off_chain = longest - (from_start[i] + to_end[i] - 1) >= kOffChainSlack;
      if (nodes[i].off_chain) nodes[i].programmatic.clear();
    }
  }

  // Temps in graph memory: graph 0 becomes alloc, one zero fill over the
  // zero-at-rest temps (the temps between them are written before they are
  // read, so zeroing them too is harmless), the nodes it had (those that
  // waited for nothing now wait for the allocation and fill), free (after
  // every node nothing waits for).
  void PlaceTemps() {
    TempPlacement& t = plan_.temps;
    t.bytes = program_.arena_bytes;
    const TempsPolicy policy = options_.temps;
    if (plan_.segments.size() != 1 || plan_.segments[0].graph != 0) {
      t.why = "the program is " + std::to_string(plan_.segments.size()) +
              " segments (graphs and steps outside them share the temps)";
      return;
    }
    if (t.bytes == 0) {
      t.why = "the program has no temps";
      return;
    }
    t.graph_memory_possible = true;
    const std::string size = std::to_string(t.bytes) + " bytes";
    if (policy == TempsPolicy::kArena) {
      t.why = "asked for (HLOGRAPH_GPU_TEMPS=arena)";
      return;
    }
    if (policy == TempsPolicy::kAuto) {
      const bool large = t.bytes > options_.memory_budget / kTempsShareOfBudget;
      const std::string share = "1/" + std::to_string(kTempsShareOfBudget) + " of the memory budget" +
                                (options_.memory_budget == INT64_MAX
                                     ? std::string(" (unlimited)")
                                     : " (" + std::to_string(options_.memory_budget) + " bytes)");
      if (!large) {
        t.why = size + " of temps, at most " + share +
                ": held so that launches allocate nothing; in graph memory once the budget takes the arena";
        return;
      }
      t.why = size + " of temps, more than " + share;
    } else {
      t.why = "asked for (HLOGRAPH_GPU_TEMPS=graph)";
    }
    t.in_graph = true;
    std::vector<GraphNode>& nodes = plan_.graphs[0].nodes;
    std::vector<GraphNode> prologue(1);
    prologue[0].kind = NodeKind::kAllocTemps;
    prologue[0].bytes = t.bytes;
    GraphNode fill;
    fill.kind = NodeKind::kMemset;
    int64_t end = 0;
    for (size_t i = 0; i < program_.buffers.size(); ++i) {
      const Buffer& b = program_.buffers[i];
      if (b.kind != BufferKind::kTemp || !b.zero_at_rest || b.bytes == 0 || b.offset < 0) continue;
      if (fill.dst < 0 || b.offset < program_.buffers[static_cast<size_t>(fill.dst)].offset) {
        fill.dst = static_cast<BufferId>(i);
      }
      end = std::max(end, b.offset + b.bytes);
    }
    if (fill.dst >= 0) {
      fill.bytes = end - program_.buffers[static_cast<size_t>(fill.dst)].offset;
      fill.writes = {fill.dst};
      fill.deps = {0};
      prologue.push_back(std::move(fill));
    }
    const int shift = static_cast<int>(prologue.size());
    std::vector<int> ready;  // what the program's first nodes wait for
    for (int i = shift == 1 ? 0 : 1; i < shift; ++i) ready.push_back(i);
    std::vector<bool> waited_for(nodes.size(), false);
    for (GraphNode& n : nodes) {
      for (int& d : n.deps) {
        waited_for[static_cast<size_t>(d)] = true;
        d += shift;
      }
      for (int& d : n.programmatic) d += shift;
      if (n.deps.empty()) n.deps = ready;
    }
    GraphNode release;
    release.kind = NodeKind::kFreeTemps;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!waited_for[i]) release.deps.push_back(static_cast<int>(i) + shift);
    }
    if (release.deps.empty()) release.deps = ready;
    prologue.insert(prologue.end(), std::make_move_iterator(nodes.begin()), std::make_move_iterator(nodes.end()));
    prologue.push_back(std::move(release));
    nodes = std::move(prologue);
  }

  void DropDeadNodes(int g, std::set<BufferId> wanted) {
    std::vector<GraphNode>& nodes = plan_.graphs[static_cast<size_t>(g)].nodes;
    std::vector<bool> needed(nodes.size(), false);
    // Backwards: a node is needed if it writes something wanted (or memory
    // the caller sees, or is control flow); what it reads is then wanted.
    // A write does not end a value's wanting: an earlier writer of the same
    // buffer may fill what an in-place update leaves untouched. A node
    // writing memory that is zero between calls always runs: kernels
    // after it rely on that (a scatter's slot table).
    for (size_t i = nodes.size(); i-- > 0;) {
      const GraphNode& n = nodes[i];
      // Collectives always run: the other devices of their groups wait for them.
      bool need = n.kind == NodeKind::kWhile || n.kind == NodeKind::kSwitch || n.kind == NodeKind::kSetCondition ||
                  n.collective;
      for (BufferId id : n.writes) {
        const Buffer& b = program_.buffers[static_cast<size_t>(id)];
        need = need || wanted.count(id) || b.kind != BufferKind::kTemp || b.zero_at_rest;
      }
      if (!need) continue;
      needed[i] = true;
      wanted.insert(n.reads.begin(), n.reads.end());
    }
    if (std::all_of(needed.begin(), needed.end(), [](bool b) { return b; })) return;
    // The graph again from the nodes kept; edges are recomputed.
    std::vector<GraphNode> old = std::move(nodes);
    nodes.clear();
    ancestors_[static_cast<size_t>(g)].clear();
    behind_[static_cast<size_t>(g)].clear();
    std::vector<int> renumbered(old.size(), -1);
    for (size_t i = 0; i < old.size(); ++i) {
      if (!needed[i]) continue;
      GraphNode n = std::move(old[i]);
      int set = -1;  // a conditional node keeps following its set-condition node
      for (int d : n.deps) {
        const GraphNode& dep = old[static_cast<size_t>(d)];
        if ((n.kind == NodeKind::kWhile || n.kind == NodeKind::kSwitch) && dep.kind == NodeKind::kSetCondition &&
            dep.condition == n.condition) {
          set = renumbered[static_cast<size_t>(d)];
        }
      }
      n.deps.clear();
      n.programmatic.clear();
      renumbered[i] = AddNode(g, std::move(n), set);
    }
  }

  // Nodes one pass over `seq` adds to its graph.
  int64_t CountNodes(const Sequence& seq) const {
    int64_t n = 0;
    for (const Step& step : seq.steps) {
      if (const auto* w = std::get_if<WhileStep>(&step.action)) {
        const int64_t per_iteration = CountNodes(w->body) + StateCopies(*w);
        n += FullyUnrolled(*w) ? w->known_trip_count * per_iteration : CountNodes(w->cond) + 2;
      } else if (std::holds_alternative<CaseStep>(step.action)) {
        n += 2;
      } else if (const auto* copy = std::get_if<CopyStep>(&step.action)) {
        n += copy->src != copy->dst && copy->bytes > 0;
      } else {
        n += 1;
      }
    }
    return n;
  }

  // Graphs one pass over `seq` adds below its own: a case's branches, a
  // WHILE node's body (an inner loop unrolled in full adds its iterations').
  int64_t CountGraphs(const Sequence& seq) const {
    int64_t n = 0;
    for (const Step& step : seq.steps) {
      if (const auto* w = std::get_if<WhileStep>(&step.action)) {
        const int64_t per_iteration = CountGraphs(w->body);
        n += FullyUnrolled(*w) ? w->known_trip_count * per_iteration : 1 + per_iteration;
      } else if (const auto* c = std::get_if<CaseStep>(&step.action)) {
        for (const Sequence& b : c->branches) n += 1 + CountGraphs(b);
      }
    }
    return n;
  }

  // A loop with a known trip count whose iterations all fit the node and
  // conditional graph budgets: no WHILE node.
  // Decided once per loop: the counts above ask it again for every loop
  // they pass through.
  bool FullyUnrolled(const WhileStep& w) const {
    const auto known = fully_unrolled_.find(&w);
    if (known != fully_unrolled_.end()) return known->second;
    const int64_t trips = w.known_trip_count;
    const int64_t graphs = CountGraphs(w.body);
    const bool full = trips >= 0 &&
                      trips * std::max<int64_t>(1, CountNodes(w.body) + StateCopies(w)) <= options_.node_budget &&
                      (graphs == 0 || trips <= options_.conditional_graph_budget / graphs);
    fully_unrolled_.emplace(&w, full);
    return full;
  }

  // Copies per iteration: of the loop values that change and do not swap.
  int64_t StateCopies(const WhileStep& w) const {
    const std::vector<bool> swap = Swappable(w);
    int64_t n = 0;
    for (size_t i = 0; i < w.state.size(); ++i) {
      n += !swap[i] && w.next[i] != w.state[i] && program_.buffers[static_cast<size_t>(w.state[i])].bytes > 0;
    }
    return n;
  }

  // The loop values whose next and state buffers may swap roles between
  // unrolled iterations: a next value in a temp of its own (held for the
  // whole loop by the buffer plan), in a body with no nested control flow.
  std::vector<bool> Swappable(const WhileStep& w) const {
    std::vector<bool> swap(w.state.size(), false);
    for (const Step& s : w.body.steps) {
      if (std::holds_alternative<WhileStep>(s.action) || std::holds_alternative<CaseStep>(s.action) ||
          std::holds_alternative<HostStep>(s.action)) {
        return swap;
      }
    }
    for (size_t i = 0; i < w.state.size(); ++i) {
      const BufferId n = w.next[i];
      const bool temp = program_.buffers[static_cast<size_t>(n)].kind == BufferKind::kTemp &&
                        program_.buffers[static_cast<size_t>(w.state[i])].kind != BufferKind::kConstant;
      swap[i] = n != w.state[i] && temp && std::count(w.next.begin(), w.next.end(), n) == 1 &&
                std::find(w.state.begin(), w.state.end(), n) == w.state.end();
    }
    return swap;
  }

  // One iteration of the body; each swappable value's buffers then trade
  // roles, the others are copied. `iteration` >= 0: the iteration of a
  // fully unrolled loop, whose counter it may read from its constant.
  void LowerIteration(const WhileStep& w, const Step& step, int g, const std::vector<bool>& swap,
                      int64_t iteration = -1) {
    if (CounterFromConstant(w, swap, iteration)) {
      // Only reads of the state are redirected: the body writes the next
      // value into the state's partner buffer (swapped), never into it.
      const std::vector<std::pair<BufferId, BufferId>> roles = rename_;
      const BufferId state = w.state[w.counter];
      const auto it = std::find_if(rename_.begin(), rename_.end(), [&](const auto& r) { return r.first == state; });
      if (it != rename_.end()) rename_.erase(it);
      rename_.insert(rename_.begin(), {state, w.counter_values[static_cast<size_t>(iteration)]});
      Lower(w.body, g);
      rename_ = roles;
    } else {
      Lower(w.body, g);
    }
    std::vector<std::pair<BufferId, BufferId>> next_roles;
    for (size_t i = 0; i < w.state.size(); ++i) {
      if (!swap[i]) {
        AddCopy(g, w.next[i], w.state[i], &step);
        continue;
      }
      next_roles.emplace_back(w.state[i], Renamed(w.next[i]));
      next_roles.emplace_back(w.next[i], Renamed(w.state[i]));
    }
    for (const auto& role : next_roles) {
      const BufferId from = role.first, to = role.second;  // (lambdas capture no structured binding in clang 14)
      const auto it = std::find_if(rename_.begin(), rename_.end(), [&](const auto& r) { return r.first == from; });
      if (it != rename_.end()) rename_.erase(it);
      if (from != to) rename_.emplace_back(from, to);
    }
  }

  bool CounterFromConstant(const WhileStep& w, const std::vector<bool>& swap, int64_t iteration) const {
    return options_.counters_from_constants && iteration >= 0 &&
           iteration < static_cast<int64_t>(w.counter_values.size()) && w.counter < swap.size() && swap[w.counter];
  }

  // After the unrolled iterations: each state whose value sits in its next
  // buffer is copied home.
  void RestoreRoles(const WhileStep& w, const Step& step, int g) {
    std::vector<std::pair<BufferId, BufferId>> copies;
    for (BufferId s : w.state) {
      if (Renamed(s) != s) copies.emplace_back(Renamed(s), s);
    }
    rename_.clear();
    for (const auto& [from, to] : copies) AddCopy(g, from, to, &step);
  }

  int AddSetCondition(int g, const Step& step, BufferId from, int condition, int branches) {
    GraphNode set;
    set.kind = NodeKind::kSetCondition;
    set.step = &step;
    set.condition = condition;
    set.branches = branches;
    set.reads = {from};
    return AddNode(g, std::move(set));
  }

  // The union of what the nodes of `graph` touch.
  void Touches(int graph, GraphNode& into) const {
    std::set<BufferId> reads(into.reads.begin(), into.reads.end()), writes(into.writes.begin(), into.writes.end());
    for (const GraphNode& n : plan_.graphs[static_cast<size_t>(graph)].nodes) {
      reads.insert(n.reads.begin(), n.reads.end());
      writes.insert(n.writes.begin(), n.writes.end());
      into.workspace = into.workspace || n.workspace;
      into.collective = into.collective || n.collective;
    }
    into.reads.assign(reads.begin(), reads.end());
    into.writes.assign(writes.begin(), writes.end());
  }

  void LowerWhile(const Step& step, const WhileStep& w, int g) {
    LoopLayout layout;
    layout.step = &step;
    layout.trip_count = w.known_trip_count;
    const int64_t per_iteration = std::max<int64_t>(1, CountNodes(w.body) + StateCopies(w));
    const int64_t graphs_per_iteration = CountGraphs(w.body);
    const int64_t budget = options_.node_budget, graph_budget = options_.conditional_graph_budget;
    const int64_t trips = w.known_trip_count;
    const std::vector<bool> swap = Swappable(w);
    layout.swapped = static_cast<int>(std::count(swap.begin(), swap.end(), true));
    const std::string graph_limit = graph_budget == std::numeric_limits<int64_t>::max()
                                        ? std::string("unlimited")
                                        : std::to_string(graph_budget);
    const std::string graphs = graphs_per_iteration == 0
                                   ? ""
                                   : " and " + std::to_string(trips) + " x " + std::to_string(graphs_per_iteration) +
                                         " conditional graphs";
    if (FullyUnrolled(w)) {
      // The trip count is proven: no predicate to compute at all.
      layout.fully_unrolled = true;
      layout.unroll = trips;
      layout.why = std::to_string(trips) + " x " + std::to_string(per_iteration) + " nodes" + graphs +
                   (graphs.empty() ? " fit the budget of " + std::to_string(budget)
                                   : " fit the budgets of " + std::to_string(budget) + " and " + graph_limit);
      for (int64_t i = 0; i < trips; ++i) LowerIteration(w, step, g, swap, i);
      layout.counter_constants = CounterFromConstant(w, swap, 0);
      RestoreRoles(w, step, g);
      plan_.loops.push_back(std::move(layout));
      return;
    }
    if (trips > 0) {
      // k iterations per WHILE iteration, k dividing the trip count so the
      // predicate, evaluated every k, stops the loop exactly.
      int64_t room = std::max<int64_t>(1, (budget - CountNodes(w.cond) - 1) / per_iteration);
      if (graphs_per_iteration > 0) room = std::min(room, std::max<int64_t>(1, graph_budget / graphs_per_iteration));
      for (int64_t k = std::min(room, trips); k >= 1; --k) {
        if (trips % k == 0) {
          layout.unroll = k;
          break;
        }
      }
      layout.why = std::to_string(trips) + " x " + std::to_string(per_iteration) + " nodes" + graphs +
                   (graphs.empty() ? " exceed the budget of " + std::to_string(budget)
                                   : " exceed the budgets of " + std::to_string(budget) + " and " + graph_limit) +
                   ": " +
                   std::to_string(layout.unroll) + " per WHILE iteration, " + std::to_string(trips / layout.unroll) +
                   " iterations";
    } else {
      layout.why = "trip count not known at compile time: one iteration per WHILE iteration, the predicate "
                   "computed on the device";
    }
    const int condition = plan_.conditions++;
    Lower(w.cond, g);
    const int set = AddSetCondition(g, step, w.pred, condition, 0);
    const int body = NewGraph("while body (graph " + std::to_string(g) + ", node " +
                              std::to_string(plan_.graphs[static_cast<size_t>(g)].nodes.size()) + ")");
    // The state is back in place at the end of each pass (for an even
    // unroll the swaps cancel out and nothing is copied).
    for (int64_t i = 0; i < layout.unroll; ++i) LowerIteration(w, step, body, swap);
    RestoreRoles(w, step, body);
    Lower(w.cond, body);
    AddSetCondition(body, step, w.pred, condition, 0);
    GraphNode loop;
    loop.kind = NodeKind::kWhile;
    loop.step = &step;
    loop.condition = condition;
    loop.children = {body};
    Touches(body, loop);
    AddNode(g, std::move(loop), set);
    plan_.loops.push_back(std::move(layout));
  }

  void LowerCase(const Step& step, const CaseStep& c, int g) {
    const int condition = plan_.conditions++;
    const int branches = static_cast<int>(c.branches.size());
    const int set = AddSetCondition(g, step, c.index, condition, branches);
    GraphNode node;
    node.kind = NodeKind::kSwitch;
    node.step = &step;
    node.condition = condition;
    const size_t at = plan_.graphs[static_cast<size_t>(g)].nodes.size();
    for (size_t b = 0; b < c.branches.size(); ++b) {
      const int branch = NewGraph("branch " + std::to_string(b) + " (graph " + std::to_string(g) + ", node " +
                                  std::to_string(at) + ")");
      Lower(c.branches[b], branch);
      for (size_t i = 0; i < c.results.size(); ++i) AddCopy(branch, c.branch_results[b][i], c.results[i], &step);
      node.children.push_back(branch);
      Touches(branch, node);
    }
    AddNode(g, std::move(node), set);
  }

  const GpuProgram& program_;
  const GraphOptions& options_;
  GraphPlan plan_;
  std::vector<std::vector<std::vector<bool>>> ancestors_;  // per graph, per node: which earlier nodes it waits for
  std::vector<std::vector<std::vector<BufferId>>> behind_;  // per graph, per node: WritesRunningBehind
  // Inside an unrolled loop body: step buffers bound elsewhere (from, to).
  std::vector<std::pair<BufferId, BufferId>> rename_;
  mutable std::map<const WhileStep*, bool> fully_unrolled_;  // FullyUnrolled's answers
};

std::string Ids(const std::vector<int>& ids, const char* prefix) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + std::string(prefix) + std::to_string(ids[i]);
  return s;
}

}  // namespace

std::string NodeLabel(const GpuProgram& program, const GraphNode& n) {
  switch (n.kind) {
    case NodeKind::kKernel: {
      const auto& k = std::get<KernelStep>(n.step->action);
      return "kernel " + program.fusions[static_cast<size_t>(k.fusion)].name;
    }
    case NodeKind::kGemm: return std::get<GemmStep>(n.step->action).config.ToString() + " (cuBLASLt child graph)";
    case NodeKind::kConvolution:
      return std::get<ConvolutionStep>(n.step->action).config.ToString() + " (cuDNN child graph)";
    case NodeKind::kFft: return std::get<FftStep>(n.step->action).config.ToString() + " (cuFFT child graph)";
    case NodeKind::kCollective:
      return std::get<CollectiveStep>(n.step->action).config.ToString() + " (NCCL child graph)";
    case NodeKind::kMemcpy:
      return "memcpy b" + std::to_string(n.src) + " -> b" + std::to_string(n.dst) + " (" + std::to_string(n.bytes) +
             " bytes)";
    case NodeKind::kMemset: return "memset b" + std::to_string(n.dst) + " (" + std::to_string(n.bytes) + " bytes)";
    case NodeKind::kSetCondition:
      return "set-condition c" + std::to_string(n.condition) + " from b" + std::to_string(n.reads[0]) +
             (n.branches > 0 ? " (index of " + std::to_string(n.branches) + " branches)" : " (predicate)");
    case NodeKind::kWhile: return "while c" + std::to_string(n.condition) + ": body " + Ids(n.children, "graph ");
    case NodeKind::kSwitch: return "switch c" + std::to_string(n.condition) + ": " + Ids(n.children, "graph ");
    case NodeKind::kAllocTemps: return "alloc-temps " + std::to_string(n.bytes) + " bytes (graph memory)";
    case NodeKind::kFreeTemps: return "free-temps";
  }
  return "?";
}

const char* TempsPolicyName(TempsPolicy p) {
  switch (p) {
    case TempsPolicy::kAuto: return "auto";
    case TempsPolicy::kArena: return "arena";
    case TempsPolicy::kGraphMemory: return "graph";
  }
  return "?";
}

GraphOptions WithEnvironment(GraphOptions options) {
  const auto text = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  if (text("HLOGRAPH_GPU_PROGRAMMATIC_LAUNCH") == "0") options.programmatic_launch = false;
  if (text("HLOGRAPH_GPU_EARLY_EDGES") == "one") options.one_early_edge = true;
  if (text("HLOGRAPH_GPU_CHAIN_PRIORITY") == "0") options.prioritize_chain = false;
  if (text("HLOGRAPH_GPU_LOOP_COUNTERS") == "0") options.counters_from_constants = false;
  const std::string temps = text("HLOGRAPH_GPU_TEMPS");
  if (temps == "graph") options.temps = TempsPolicy::kGraphMemory;
  if (temps == "arena") options.temps = TempsPolicy::kArena;
  if (temps == "auto") options.temps = TempsPolicy::kAuto;
  const std::string budget = text("HLOGRAPH_GPU_CONDITIONAL_GRAPHS");
  if (!budget.empty()) {
    char* end = nullptr;
    const long long v = std::strtoll(budget.c_str(), &end, 10);
    if (*end == '\0' && v >= 0) options.conditional_graph_budget = v;
  }
  return options;
}

GraphPlan BuildGraphPlan(const GpuProgram& program, const GraphOptions& options) {
  return Builder(program, options).Build();
}

int64_t GraphPlan::node_count() const {
  int64_t n = 0;
  for (const Graph& g : graphs) n += static_cast<int64_t>(g.nodes.size());
  return n;
}

std::string GraphPlan::ToString(const GpuProgram& program) const {
  std::ostringstream os;
  os << "graph plan: " << graphs.size() << " graphs, " << node_count() << " nodes, " << conditions
     << " conditional handles\n";
  for (size_t g = 0; g < graphs.size(); ++g) {
    const auto& nodes = graphs[g].nodes;
    os << "  graph " << g << " " << graphs[g].name << " (" << nodes.size() << " nodes";
    if (graphs[g].longest_path > 0) {
      const auto off = std::count_if(nodes.begin(), nodes.end(), [](const GraphNode& n) { return n.off_chain; });
      os << "; longest path " << graphs[g].longest_path << " nodes, " << off << " off it";
    }
    os << "):\n";
    for (size_t i = 0; i < graphs[g].nodes.size(); ++i) {
      const GraphNode& n = graphs[g].nodes[i];
      os << "    n" << i << " " << NodeLabel(program, n);
      if (!n.deps.empty()) os << " <- " << Ids(n.deps, "n");
      if (!n.programmatic.empty()) os << " (launched early behind " << Ids(n.programmatic, "n") << ")";
      if (n.off_chain && LaunchesKernel(n)) os << " [off the chain: lowest priority]";
      os << "\n";
    }
  }
  for (const LoopLayout& l : loops) {
    os << "  loop " << Where(*l.step) << ": "
       << (l.fully_unrolled ? "fully unrolled" : "WHILE node, " + std::to_string(l.unroll) + " per iteration") << " ("
       << l.why << ")";
    if (l.swapped > 0) os << "; " << l.swapped << " loop values swap buffers instead of being copied";
    if (l.counter_constants) os << "; each iteration reads its counter from a constant (no kernel counts)";
    os << "\n";
  }
  for (const GraphSegment& s : segments) {
    if (s.outside) os << "  outside the graphs: " << Where(*s.outside) << ": " << s.why << "\n";
  }
  if (temps.in_graph) {
    os << "  temps: " << temps.bytes << " bytes allocated in graph 0 (graph memory nodes), not held between calls: "
       << temps.why << "\n";
  } else if (!temps.why.empty()) {
    os << "  temps: in the arena, not in graph memory: " << temps.why << "\n";
  }
  return os.str();
}

Status GraphPlan::Verify() const {
  for (size_t g = 0; g < graphs.size(); ++g) {
    const auto& nodes = graphs[g].nodes;
    std::vector<std::vector<BufferId>> behind;  // WritesRunningBehind of the nodes checked
    for (size_t i = 0; i < nodes.size(); ++i) {
      const GraphNode& n = nodes[i];
      const std::string where = "graph " + std::to_string(g) + " node " + std::to_string(i);
      for (int d : n.deps) {
        if (d < 0 || static_cast<size_t>(d) >= i) return Status::Error("invalid graph plan: " + where + " waits for a later node");
      }
      if (n.off_chain && !n.programmatic.empty()) {
        return Status::Error("invalid graph plan: " + where + " is off the chain but launches early");
      }
      for (int d : n.programmatic) {
        const bool listed = std::count(n.deps.begin(), n.deps.end(), d) > 0;
        if (!listed || !LaunchesKernel(n) || !LaunchesKernel(nodes[static_cast<size_t>(d)])) {
          return Status::Error("invalid graph plan: " + where + " has a programmatic edge that does not join kernels");
        }
        for (BufferId id : behind[static_cast<size_t>(d)]) {
          if (std::count(n.early_reads.begin(), n.early_reads.end(), id) > 0) {
            return Status::Error("invalid graph plan: " + where + " launches early behind node " + std::to_string(d) +
                                 ", while it or a kernel running behind it may still write buffer " +
                                 std::to_string(id) + " that it reads before waiting");
          }
        }
      }
      behind.push_back(WritesRunningBehind(n, behind));
      for (int c : n.children) {
        if (c <= static_cast<int>(g) || static_cast<size_t>(c) >= graphs.size()) {
          return Status::Error("invalid graph plan: " + where + " has no child graph " + std::to_string(c));
        }
      }
      if (n.kind == NodeKind::kWhile || n.kind == NodeKind::kSwitch) {
        const bool set = std::any_of(n.deps.begin(), n.deps.end(), [&](int d) {
          const GraphNode& s = nodes[static_cast<size_t>(d)];
          return s.kind == NodeKind::kSetCondition && s.condition == n.condition;
        });
        if (!set || n.children.empty() || (n.kind == NodeKind::kWhile && n.children.size() != 1)) {
          return Status::Error("invalid graph plan: " + where + " is a conditional node without its condition");
        }
      }
      if (n.condition >= conditions) return Status::Error("invalid graph plan: " + where + " names no condition");
      const bool memory = n.kind == NodeKind::kAllocTemps || n.kind == NodeKind::kFreeTemps;
      const bool placed = temps.in_graph && g == 0 &&
                          (n.kind == NodeKind::kAllocTemps ? i == 0 : i + 1 == nodes.size() && i > 0);
      if (memory && !placed) return Status::Error("invalid graph plan: " + where + " allocates or frees temps out of place");
    }
  }
  if (temps.in_graph) {
    // Every node after the allocation waits for something; every node
    // before the free is waited for.
    if (graphs.empty() || graphs[0].nodes.size() < 2 || graphs[0].nodes[0].kind != NodeKind::kAllocTemps ||
        graphs[0].nodes.back().kind != NodeKind::kFreeTemps || graphs[0].nodes[0].bytes != temps.bytes) {
      return Status::Error("invalid graph plan: temps in graph memory without their allocation and free");
    }
    const auto& nodes = graphs[0].nodes;
    std::vector<bool> waited_for(nodes.size(), false);
    for (size_t i = 1; i < nodes.size(); ++i) {
      if (nodes[i].deps.empty()) {
        return Status::Error("invalid graph plan: graph 0 node " + std::to_string(i) + " may run before the temps exist");
      }
      for (int d : nodes[i].deps) waited_for[static_cast<size_t>(d)] = true;
    }
    for (size_t i = 0; i + 1 < nodes.size(); ++i) {
      if (!waited_for[i]) {
        return Status::Error("invalid graph plan: graph 0 node " + std::to_string(i) + " may run after the temps are freed");
      }
    }
  }
  return Status::Ok();
}

}  // namespace hlograph::gpu

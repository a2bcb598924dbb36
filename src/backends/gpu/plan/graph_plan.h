// The CUDA graph a program becomes, as plain data: built from a GpuProgram
// before any CUDA call, printed by `hlograph explain` (and as Graphviz by
// `explain --dot`, plan/graph_dot.h), and unit-tested without a GPU. Instantiation turns each
// node into its CUDA graph node one for one.
//
//   Graph 0 is the program. A while loop is a conditional WHILE node whose
//   body is another graph; a case/if is a SWITCH node with a graph per
//   branch. A loop whose trip count is known is unrolled, fully or k
//   iterations per WHILE iteration, within a node budget and a budget of
//   conditional graphs (each costs host time at every launch). Unrolled
//   iterations of a loop whose body has no nested control flow do not copy
//   each next value into its state: the two buffers swap roles from one
//   iteration to the next (a node reads its step's buffer b at `renamed`'s
//   replacement), and one copy at the end puts the last values in place.
//
//   Edges come from memory: a node waits for the earlier nodes of its graph
//   that write memory it reads or writes, or read memory it writes (temps
//   sharing arena memory and donated arguments count as the same memory;
//   library calls all write the one workspace). Collectives also wait for
//   the collective before them: all devices must meet them in one order.
//
//   Steps the device cannot run (host ops) stay outside: the program is then
//   a sequence of segments, graphs and host steps in between; a loop or
//   case containing a host op runs in stream mode as a whole.
//
//   On a GPU with programmatic dependent launch (sm_90), an edge between
//   two kernels lets the later one launch while the earlier one finishes:
//   a generated kernel waits for its producers (griddepcontrol.wait) in its
//   first instruction, or, a product, once it has loaded its weights
//   (Fusion::early_inputs), so the launch latency and the weight loads of a
//   chain of dependent kernels overlap the work before them. A kernel lets
//   its dependents launch once it has waited, or, with big weights of its
//   own (Fusion::dependents_at_start), as it starts: then the kernels it
//   launched early behind may still run beside them too. No such edge
//   comes from a kernel when it, or a kernel that may still run then,
//   writes what its successor reads before waiting.
//
//   Nodes whose results nothing reads are dropped (an unrolled loop's
//   counter feeds only its own increments).
//
//   Temps live in the executable's arena, held across calls. With
//   GraphOptions::temps (graph memory) a program that is one graph
//   allocates them in that graph instead: a memory allocation node first
//   (its address fixed when the graph is built, so nodes are bound to it as
//   to the arena), zero-at-rest temps zeroed after it, a free node last.
//   CUDA's graph memory pool then holds the memory only while a graph runs
//   and lends it to the next one.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "backends/gpu/plan/program.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

enum class NodeKind {
  kKernel,        // a generated kernel (KernelStep)
  kGemm,          // cuBLASLt, captured into a child graph
  kConvolution,   // cuDNN, captured into a child graph
  kFft,           // cuFFT (and its scaling kernel), captured into a child graph
  kCollective,    // NCCL (CollectiveStep), captured into a child graph
  kMemcpy,        // device-to-device copy
  kMemset,        // zero fill (an empty sum)
  kSetCondition,  // a small kernel: a loop's predicate or a case's index into its conditional handle
  kWhile,         // conditional WHILE node: runs `children[0]` while its handle is set
  kSwitch,        // conditional SWITCH node: runs `children[handle]`
  kAllocTemps,    // graph memory allocation of the temps' `bytes` (GraphPlan::temps)
  kFreeTemps,     // its free, after everything else
};
const char* NodeKindName(NodeKind kind);

struct GraphNode {
  NodeKind kind = NodeKind::kKernel;
  const Step* step = nullptr;       // what it runs (for the copies a loop adds: the while step)
  BufferId src = -1, dst = -1;      // kMemcpy / kMemset
  int64_t bytes = 0;                // kMemcpy / kMemset / kAllocTemps
  int condition = -1;               // kSetCondition, kWhile, kSwitch: which conditional handle
  int branches = 0;                 // kSetCondition of a case: its number of branches
  std::vector<int> children;        // kWhile: its body graph; kSwitch: one graph per branch
  std::vector<int> deps;            // nodes of the same graph it waits for
  // The deps it may launch behind before they finish (kernels after
  // kernels, GraphOptions::programmatic_launch): it waits for them inside.
  std::vector<int> programmatic;
  std::vector<BufferId> reads, writes;  // memory it touches (a conditional node: all its graphs do)
  // What a kernel reads before it waits for its producers
  // (Fusion::early_inputs): no programmatic edge comes from a writer of it.
  std::vector<BufferId> early_reads;
  // A kernel that lets its dependents launch as it starts
  // (Fusion::dependents_at_start), before it waits for its own producers:
  // a kernel launched early behind it may then run beside those too.
  bool dependents_at_start = false;
  // Step buffers bound elsewhere for this node (from, to): the unrolled
  // iterations' swapped state. reads/writes/src/dst are already renamed.
  std::vector<std::pair<BufferId, BufferId>> renamed;
  // It uses the executable's one library workspace (GEMMs, convolutions; a
  // conditional node whose graphs hold one): such nodes never overlap.
  bool workspace = false;
  // It runs collectives (a conditional node: its graphs do). Every device
  // must issue its collectives in one order, so such nodes never overlap:
  // each waits for the one before.
  bool collective = false;
  // At least kOffChainSlack nodes shorter than a longest path of its graph
  // (counted in nodes): a kernel that runs at the lowest priority and never
  // launches early, so that it fills the SMs the chain leaves idle instead
  // of taking them from it (GraphOptions::prioritize_chain).
  bool off_chain = false;
};

struct Graph {
  std::string name;  // "main", "while body of n3 (graph 0)"
  std::vector<GraphNode> nodes;
  int longest_path = 0;  // in nodes (GraphOptions::prioritize_chain; else 0)
};

// How a while loop was laid out, for explain.
struct LoopLayout {
  const Step* step = nullptr;
  int64_t trip_count = -1;          // known trip count, -1 if not known
  int64_t unroll = 1;               // iterations per WHILE iteration (or all of them)
  bool fully_unrolled = false;      // no WHILE node at all
  int swapped = 0;                  // loop values whose buffers swap roles instead of being copied
  bool counter_constants = false;   // its iterations read the counter from constants (WhileStep::counter_values)
  std::string why;
};

struct GraphSegment {
  int graph = -1;               // a graph of GraphPlan::graphs, or
  const Step* outside = nullptr;  // a step run outside any graph, in stream mode
  std::string why;              // why it is outside
};

// The slack, in nodes, below which a node off every longest path still
// runs at the chain's priority: the lowest priority may hold a kernel back
// until the chain's kernels leave room, longer than one kernel's time
// (measured on the H200: gpt_decode's mask, needed by the first layer's
// attention one node later, started 5 us after the first product ended).
constexpr int kOffChainSlack = 2;

// Where a program's temps live between and during calls.
enum class TempsPolicy {
  kAuto,         // chosen from their size and the memory budget
  kArena,        // an arena the executable holds: addresses never move
  kGraphMemory,  // graph memory nodes: allocated and freed by each launch
};
const char* TempsPolicyName(TempsPolicy p);
// A kAuto program's temps go to graph memory above this share of the budget.
inline constexpr int64_t kTempsShareOfBudget = 16;

struct GraphOptions {
  // Nodes a loop may be unrolled into (per loop, counting one iteration's
  // nodes times the iterations unrolled).
  int64_t node_budget = 2048;
  // Kernel-to-kernel edges are programmatic (sm_90 only; the executable
  // checks): products then load their weights while their producers
  // finish (docs/PERF.md, "Programmatic dependent launch").
  bool programmatic_launch = true;
  // At most one programmatic edge into a kernel: from its latest
  // dependency (the chain's kernel before it); the others are full edges.
  // Opt-in (WithEnvironment: HLOGRAPH_GPU_EARLY_EDGES=one): gpt_decode's
  // first attention, launched early behind the first product and the
  // mask's kernel, started only after both had finished, but one edge
  // gained nothing measurable (docs/PERF.md).
  bool one_early_edge = false;
  // Kernels on a longest path of their graph run at the highest priority,
  // the others (off_chain) at the lowest and without early launch. Measured
  // on the H200 (docs/PERF.md): gpt_decode's KV-cache copies, launched
  // early behind the layer's first product, took the SMs the attention
  // after it needed and added about 8 us a layer.
  bool prioritize_chain = true;
  // Where the temps live (TempPlacement says what was chosen and why):
  // kAuto takes graph memory nodes where the program is one graph and its
  // temps are more than 1/kTempsShareOfBudget of memory_budget (a held
  // arena that size would crowd out other executables; a launch that
  // allocates its temps costs about 7 us of host time, measured on the
  // H200: docs/PERF.md), else the arena; the executable moves to graph
  // memory later if the budget takes its arena (GpuExecutable::Execute).
  // WithEnvironment reads HLOGRAPH_GPU_TEMPS=arena|graph|auto.
  TempsPolicy temps = TempsPolicy::kAuto;
  // The process's memory budget in bytes (runtime/memory_budget.h's limit),
  // for kAuto; the planner, being data, does not read it itself.
  int64_t memory_budget = INT64_MAX;
  // Conditional bodies (case branches, inner loops' bodies) a loop may be
  // unrolled into: each is a graph of its own, and a launch costs host time
  // per graph (a loop of 64 cases fully unrolled into 193 graphs spent
  // more host time launching than its device work). Beyond it a loop runs
  // k iterations per WHILE iteration, each adding a WHILE pass's device
  // time; 24 balances the two (docs/PERF.md, "Conditional graph budget").
  // WithEnvironment reads HLOGRAPH_GPU_CONDITIONAL_GRAPHS.
  int64_t conditional_graph_budget = 24;
  // A fully unrolled loop's iteration i reads its counter from a constant
  // of its value then (WhileStep::counter_values), not from the state a
  // kernel increments: a kernel indexing stacked weights by it before it
  // waits (gpt_decode's first qkv product) launches early behind anything,
  // and the kernels counting are dropped as dead.
  // HLOGRAPH_GPU_LOOP_COUNTERS=0 reads the state.
  bool counters_from_constants = true;
};

// `options` as the environment amends them (what the executable and
// `explain` both plan with): HLOGRAPH_GPU_PROGRAMMATIC_LAUNCH=0 turns
// programmatic edges off, HLOGRAPH_GPU_EARLY_EDGES=one leaves one per
// kernel, HLOGRAPH_GPU_CHAIN_PRIORITY=0 turns priorities off,
// HLOGRAPH_GPU_LOOP_COUNTERS=0 has unrolled loops read their counter state,
// HLOGRAPH_GPU_TEMPS=arena|graph|auto chooses where temps live,
// HLOGRAPH_GPU_CONDITIONAL_GRAPHS=N sets the conditional graph budget.
GraphOptions WithEnvironment(GraphOptions options);

// Where the temps live.
struct TempPlacement {
  bool in_graph = false;  // graph 0 allocates and frees them (kAllocTemps, kFreeTemps)
  int64_t bytes = 0;      // the arena's size
  // Whether graph memory could take them (one graph, some temps): a kAuto
  // executable whose arena the budget takes moves there.
  bool graph_memory_possible = false;
  std::string why;        // why they are where they are
};

struct GraphPlan {
  std::vector<Graph> graphs;
  std::vector<GraphSegment> segments;  // in program order
  std::vector<LoopLayout> loops;
  int conditions = 0;                  // conditional handles
  TempPlacement temps;

  int64_t node_count() const;
  std::string ToString(const GpuProgram& program) const;  // as explain prints it (Graphviz: plan/graph_dot.h)
  // Edges point backwards within their graph, children exist, conditional
  // nodes follow their set-condition node, programmatic edges join kernels,
  // none comes from a writer of what its kernel reads early and none leads
  // to a node off the chain, temps in graph memory are allocated before
  // every node and freed after.
  Status Verify() const;
};

GraphPlan BuildGraphPlan(const GpuProgram& program, const GraphOptions& options = {});

// What a node runs, on one line: "kernel fusion_3", "memcpy b4 -> b7 (64
// bytes)", "while c0: body graph 1".
std::string NodeLabel(const GpuProgram& program, const GraphNode& node);

}  // namespace hlograph::gpu

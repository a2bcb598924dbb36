#include "backends/gpu/plan/graph_dot.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "backends/gpu/plan/step_cost.h"

namespace hlograph::gpu {
namespace {

// How each kind of node looks; the legend shows the same.
enum class Look { kKernel, kLibrary, kCopy, kSetCondition, kConditional, kGraphMemory };

Look LookOf(NodeKind kind) {
  switch (kind) {
    case NodeKind::kKernel: return Look::kKernel;
    case NodeKind::kGemm:
    case NodeKind::kConvolution:
    case NodeKind::kFft:
    case NodeKind::kCollective: return Look::kLibrary;
    case NodeKind::kMemcpy:
    case NodeKind::kMemset: return Look::kCopy;
    case NodeKind::kSetCondition: return Look::kSetCondition;
    case NodeKind::kWhile:
    case NodeKind::kSwitch: return Look::kConditional;
    case NodeKind::kAllocTemps:
    case NodeKind::kFreeTemps: return Look::kGraphMemory;
  }
  return Look::kKernel;
}

struct LookSpec {
  Look look;
  const char* attributes;  // after the label; nodes are boxes unless they say otherwise
  const char* meaning;     // the legend's label
};

constexpr LookSpec kLooks[] = {
    {Look::kKernel, "", "generated kernel\nits fusion and the ops it fuses"},
    {Look::kLibrary, ", style=filled, fillcolor=lightblue", "library call (captured child graph)\ncuBLASLt GEMM, cuDNN convolution, cuFFT, NCCL collective"},
    {Look::kCopy, ", shape=ellipse", "memcpy, memset"},
    {Look::kSetCondition, ", style=dashed", "set-condition kernel\na loop's predicate, a case's index"},
    {Look::kConditional, ", shape=diamond", "conditional node\nwhile, switch"},
    {Look::kGraphMemory, ", shape=cylinder", "graph memory\ntemps allocated, freed"},
};
constexpr const char* kOffChain = ", color=gray, fontcolor=gray";

const LookSpec& SpecOf(Look look) {
  return *std::find_if(std::begin(kLooks), std::end(kLooks), [&](const LookSpec& s) { return s.look == look; });
}

// What the node runs: its first line names it, the second says what it computes.
std::string NodeText(const GpuProgram& program, const GraphNode& n) {
  switch (n.kind) {
    case NodeKind::kKernel: return StepName(program, *n.step) + "\n" + StepSummary(program, *n.step);
    case NodeKind::kGemm: return "cuBLASLt GEMM\n" + StepSummary(program, *n.step);
    case NodeKind::kConvolution: return "cuDNN convolution\n" + StepSummary(program, *n.step);
    case NodeKind::kFft: return "cuFFT\n" + StepSummary(program, *n.step);
    case NodeKind::kCollective: return "NCCL collective\n" + StepSummary(program, *n.step);
    default: return NodeLabel(program, n);
  }
}

std::string Id(size_t graph, size_t node) { return "g" + std::to_string(graph) + "n" + std::to_string(node); }

// The legend: the looks of the nodes present, and the edge styles used.
std::string Legend(const GraphPlan& plan) {
  std::vector<bool> used(std::size(kLooks), false);
  bool off_chain = false, early = false, children = false;
  for (const Graph& g : plan.graphs) {
    for (const GraphNode& n : g.nodes) {
      used[static_cast<size_t>(LookOf(n.kind))] = true;
      off_chain |= n.off_chain;
      early |= !n.programmatic.empty();
      children |= !n.children.empty();
    }
  }
  std::ostringstream os;
  os << "  subgraph cluster_legend {\n    label=\"legend\";\n    style=dashed;\n";
  // Its entries in one column, in order: each a node, or an edge between
  // two points.
  struct Entry {
    std::string top, bottom;
  };
  std::vector<Entry> column;
  const auto node = [&](const std::string& meaning, const char* attributes) {
    const std::string id = "legend" + std::to_string(column.size());
    os << "    " << id << " [label=" << DotQuoted(meaning) << attributes << "];\n";
    column.push_back({id, id});
  };
  const auto edge = [&](const std::string& meaning, const char* attributes) {
    const std::string from = "legend" + std::to_string(column.size()), to = from + "_end";
    os << "    " << from << " [shape=point];\n    " << to << " [shape=point];\n";
    os << "    " << from << " -> " << to << " [label=" << DotQuoted(meaning) << attributes << "];\n";
    column.push_back({from, to});
  };
  for (const LookSpec& s : kLooks) {
    if (used[static_cast<size_t>(s.look)]) node(s.meaning, s.attributes);
  }
  if (off_chain) node("gray: off the longest path\nlowest priority, no early launch", kOffChain);
  edge("the lower node waits for the upper", "");
  if (early) edge("launched early behind it (programmatic launch)", ", style=bold");
  if (children) edge("runs that graph (loop body, case branch)", ", style=dashed");
  for (size_t i = 0; i + 1 < column.size(); ++i) {
    os << "    " << column[i].bottom << " -> " << column[i + 1].top << " [style=invis];\n";
  }
  os << "  }\n";
  return os.str();
}

}  // namespace

std::string DotQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string GraphPlanDot(const GraphPlan& plan, const GpuProgram& program) {
  std::ostringstream os;
  os << "digraph hlograph {\n  compound=true;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
     << "  edge [fontname=\"monospace\", fontsize=9];\n";
  for (size_t g = 0; g < plan.graphs.size(); ++g) {
    const Graph& graph = plan.graphs[g];
    os << "  subgraph cluster_" << g << " {\n    label=" << DotQuoted("graph " + std::to_string(g) + ": " + graph.name)
       << ";\n";
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const GraphNode& n = graph.nodes[i];
      os << "    " << Id(g, i) << " [label=" << DotQuoted("n" + std::to_string(i) + " " + NodeText(program, n))
         << SpecOf(LookOf(n.kind)).attributes << (n.off_chain ? kOffChain : "") << "];\n";
    }
    if (graph.nodes.empty()) os << "    " << Id(g, 0) << " [label=\"(empty)\", shape=plaintext];\n";
    os << "  }\n";
  }
  for (size_t g = 0; g < plan.graphs.size(); ++g) {
    for (size_t i = 0; i < plan.graphs[g].nodes.size(); ++i) {
      const GraphNode& n = plan.graphs[g].nodes[i];
      for (int d : n.deps) {
        const bool early = std::count(n.programmatic.begin(), n.programmatic.end(), d) > 0;
        os << "  " << Id(g, static_cast<size_t>(d)) << " -> " << Id(g, i) << (early ? " [style=bold]" : "") << ";\n";
      }
      for (int c : n.children) {
        os << "  " << Id(g, i) << " -> " << Id(static_cast<size_t>(c), 0) << " [style=dashed, lhead=cluster_" << c
           << "];\n";
      }
    }
  }
  os << Legend(plan) << "}\n";
  return os.str();
}

}  // namespace hlograph::gpu

#include "backends/gpu/explain.h"

#include <sstream>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/runtime/binding_policy.h"
#include "backends/gpu/runtime/graph_exec_set.h"
#include "backends/gpu/runtime/memory_budget.h"

namespace hlograph::gpu {
namespace {

// How graph mode binds arguments and holds memory, as the environment sets
// it (the executable reports what it chose at run time).
std::string RuntimePolicies(const GpuProgram& program, const GraphPlan& graph) {
  std::ostringstream os;
  os << "graph instances (HLOGRAPH_GPU_GRAPH_INSTANCES): up to "
     << GraphInstancesFromEnvironment(kDefaultGraphInstances)
     << " per graph, each bound to its own calls' addresses (calls that alternate between that "
        "many sets of buffers update no nodes)\n";
  os << "binding (HLOGRAPH_GPU_BINDING): ";
  switch (BindingChooser::ModeFromEnvironment()) {
    case BindingChooser::Mode::kUpdate: os << "update the nodes that touch a moved buffer\n"; break;
    case BindingChooser::Mode::kCopy: os << "stable copies (arguments copied in, results out)\n"; break;
    case BindingChooser::Mode::kAuto:
      os << "auto (the default): update nodes, stable copies once addresses keep moving in the first calls\n";
      break;
  }
  os << "programmatic launch (" << (WithEnvironment(GraphOptions{}).programmatic_launch ? "on; HLOGRAPH_GPU_PROGRAMMATIC_LAUNCH=0 turns it off"
                                                                      : "off")
     << "): on sm_90, a kernel after a kernel launches while its producer finishes and waits for it inside "
        "(edges marked \"launched early\"); a product first loads its weights, unless its producer writes them\n";
  const int64_t budget = MemoryBudget::Global().limit();
  if (graph.temps.in_graph) {
    os << "memory: temps (" << program.arena_bytes << " bytes) in graph memory, allocated at the start of each "
          "launch and freed at its end (HLOGRAPH_GPU_TEMPS=graph); budget ";
  } else {
    os << "memory: arena of " << program.arena_bytes << " bytes held across calls (temps never move"
       << (graph.temps.why.empty() ? "; HLOGRAPH_GPU_TEMPS=graph puts them in graph memory nodes instead"
                                   : "; not in graph memory: " + graph.temps.why)
       << "); budget ";
  }
  os << (budget == MemoryBudget::kUnlimited ? std::string("unlimited")
                                            : std::to_string(budget) + " bytes, least recently used idle "
                                                                       "executables give theirs back")
     << " (HLOGRAPH_GPU_MEMORY_BUDGET)\n";
  return os.str();
}

}  // namespace

StatusOr<Explanation> ExplainModule(const ir::Module& module, const ExplainOptions& options) {
  HLOGRAPH_ASSIGN(GpuProgram program, PlanProgram(module));
  HLOGRAPH_TRY(PlanBuffersWithClusters(program).status());  // as on the H200 (sm_90)
  const GraphPlan graph = BuildGraphPlan(program, WithEnvironment(GraphOptions{}));
  HLOGRAPH_TRY(graph.Verify());
  std::ostringstream os;
  os << program.ToString();
  os << graph.ToString(program);
  os << RuntimePolicies(program, graph);
  os << "kernel launches (H200: 132 SMs):\n";
  std::string sources;
  for (const Fusion& f : program.fusions) {
    HLOGRAPH_ASSIGN(KernelSource k, EmitKernel(f));
    os << "  " << k.name << ": " << k.strategy << ", " << k.launch.ToString() << "\n";
    if (options.kernel_source) sources += "// ---- " + k.name + "\n" + k.code + "\n";
  }
  return Explanation{os.str() + sources, graph.ToDot(program)};
}

}  // namespace hlograph::gpu

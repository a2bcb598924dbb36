#include "backends/gpu/explain.h"

#include <cstdio>
#include <iterator>
#include <map>
#include <sstream>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/graph_dot.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/step_cost.h"
#include "backends/gpu/plan/tile_product.h"
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
  const MemoryBudget& budget = MemoryBudget::Global();
  os << "memory: temps (" << program.arena_bytes << " bytes) "
     << (graph.temps.in_graph ? "in graph memory nodes (allocated at the start of each launch and freed at its end"
                              : "in an arena held across calls (their addresses never move")
     << "; HLOGRAPH_GPU_TEMPS=arena|graph|auto chooses; why: the graph plan's temps line)\n";
  os << "memory budget: "
     << (budget.limit() == MemoryBudget::kUnlimited ? std::string("unlimited")
                                                    : std::to_string(budget.limit()) + " bytes")
     << " (" << budget.source()
     << "; HLOGRAPH_GPU_MEMORY_BUDGET or --memory-budget sets it) for what executables hold between calls: "
        "arenas, library workspaces, stable copies; least recently used idle executables give theirs back, "
        "and an allocation that fails makes every idle one give its memory back before it is tried again\n";
  return os.str();
}

// 1.5 kB, 2.25 GFLOP: three significant digits and a decimal prefix.
std::string Scaled(double v, const char* unit) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  size_t p = 0;
  while (v >= 1000 && p + 1 < std::size(kPrefixes)) v /= 1000, ++p;
  char text[48];
  std::snprintf(text, sizeof text, "%.3g %s%s", v, kPrefixes[p], unit);
  return text;
}

// Each step's bytes and FLOPs from the plan and the time they take at
// least on the H200 (plan/step_cost.h), per execution of the step.
std::string StepFloors(const GpuProgram& program) {
  const DeviceLimits limits = DeviceLimits::H200();
  std::ostringstream os;
  os << "step floors (per run, at the limits of the " << limits.name
     << "; each buffer read and written once):\n";
  char line[256];
  ForEachStep(program.main, [&](const Step& step, int depth) {
    const std::string indent(static_cast<size_t>(2 + 2 * depth), ' ');
    if (std::holds_alternative<WhileStep>(step.action) || std::holds_alternative<CaseStep>(step.action)) {
      os << indent << StepName(program, step) << ":\n";
      return;
    }
    const StepCost cost = CostOfStep(program, step);
    std::snprintf(line, sizeof line, "%s, %s %s, floor %.3g us (%s)", Scaled(static_cast<double>(cost.bytes), "B").c_str(),
                  Scaled(cost.total_flops(), "FLOP").c_str(), ComputeUnitName(cost.unit(limits)),
                  cost.floor_seconds(limits) * 1e6,
                  cost.memory_seconds(limits) >= cost.compute_seconds(limits) ? "memory" : "compute");
    os << indent << StepName(program, step) << " (" << StepSummary(program, step) << "): " << line << "\n";
  });
  return os.str();
}

// Which kernel computes each fft, and why (plan/fft_config.h).
std::string FftChoices(const GpuProgram& program) {
  std::ostringstream os;
  const auto show = [&](const ir::Operation& op) {
    const auto config = FftConfigOf(op);
    if (!config.ok()) return;
    os << "  " << config->ToString() << ": " << ChooseFft(*config, DeviceLimits::H200()).why << "\n";
  };
  ForEachStep(program.main, [&](const Step& step, int) {
    if (std::holds_alternative<FftStep>(step.action) && step.op != nullptr) show(*step.op);
  });
  for (const Fusion& f : program.fusions) {
    if (f.kind == FusionKind::kFft && !f.ops.empty()) show(*f.ops.back());
  }
  const std::string lines = os.str();
  return lines.empty() ? "" : "ffts (HLOGRAPH_GPU_FFT pins the choice):\n" + lines;
}

// Which products are tile kernels and which cuBLASLt calls, and why
// (plan/tile_product.h): those the estimate was made for.
std::string ProductChoices(const GpuProgram& program) {
  std::vector<std::string> lines;  // each once, in the order first met
  std::map<std::string, int> times;
  const auto show = [&](const ir::Operation& dot) {
    const TileProductChoice choice = ChooseTileProduct(dot, DeviceLimits::H200());
    if (choice.why.empty()) return;
    const DotDims& d = choice.tiling.dims;
    std::ostringstream line;
    line << "product " << d.batch << "x" << d.m << "x" << d.n << "x" << d.k << " (batch x m x n x k): "
         << (choice.generated ? "tiles" : "cuBLASLt") << ", " << choice.why;
    if (times[line.str()]++ == 0) lines.push_back(line.str());
  };
  ForEachStep(program.main, [&](const Step& step, int) {
    if (std::holds_alternative<GemmStep>(step.action) && step.op != nullptr && step.op->id() == ir::OpId::kDotGeneral) {
      show(*step.op);
    }
  });
  for (const Fusion& f : program.fusions) {
    if (f.kind != FusionKind::kDot || f.tiling.lanes != DotTiling::Lanes::kTensorTiles) continue;
    for (const ir::Operation* op : f.ops) {
      if (op->id() == ir::OpId::kDotGeneral) show(*op);
    }
  }
  if (lines.empty()) return "";
  std::string s = "products (HLOGRAPH_GPU_TILE_PRODUCT pins the choice):\n";
  for (const std::string& line : lines) {
    s += "  " + line + (times[line] > 1 ? " (x" + std::to_string(times[line]) + ")" : "") + "\n";
  }
  return s;
}

}  // namespace

StatusOr<Explanation> ExplainModule(const ir::Module& module, const ExplainOptions& options) {
  HLOGRAPH_ASSIGN(GpuProgram program, PlanProgram(module));
  const ScopedPlanOptions planned(program.options);  // for all that reads the plan
  HLOGRAPH_TRY(PlanBuffersWithClusters(program).status());  // as on the H200 (sm_90)
  GraphOptions graph_options = WithEnvironment(GraphOptions{});
  graph_options.memory_budget = MemoryBudget::Global().limit();
  const GraphPlan graph = BuildGraphPlan(program, graph_options);
  HLOGRAPH_TRY(graph.Verify());
  std::ostringstream os;
  os << program.ToString();
  os << graph.ToString(program);
  os << RuntimePolicies(program, graph);
  os << StepFloors(program);
  os << FftChoices(program);
  os << ProductChoices(program);
  os << "kernel launches (H200: 132 SMs):\n";
  std::string sources;
  for (const Fusion& f : program.fusions) {
    HLOGRAPH_ASSIGN(KernelSource k, EmitKernel(f));
    os << "  " << k.name << ": " << k.strategy << ", " << k.launch.ToString() << "\n";
    if (options.kernel_source) sources += "// ---- " + k.name + "\n" + k.code + "\n";
  }
  return Explanation{os.str() + sources, GraphPlanDot(graph, program)};
}

}  // namespace hlograph::gpu

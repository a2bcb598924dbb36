#include "backends/gpu/explain.h"

#include <sstream>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"

namespace hlograph::gpu {

StatusOr<Explanation> ExplainModule(const ir::Module& module, const ExplainOptions& options) {
  HLOGRAPH_ASSIGN(GpuProgram program, PlanProgram(module));
  const GraphPlan graph = BuildGraphPlan(program);
  HLOGRAPH_TRY(graph.Verify());
  std::ostringstream os;
  os << program.ToString();
  os << graph.ToString(program);
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

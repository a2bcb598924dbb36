// The graph plan (plan/graph_plan.h) as Graphviz, for `hlograph explain
// --dot`: a cluster per graph, a node per graph node labelled with what it
// runs (a kernel's fusion and the ops it fuses, a library call's
// configuration, a copy's buffers), the plan's edges, and a legend of the
// shapes, colors and edge styles the graph uses.
#pragma once

#include <string>
#include <string_view>

#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/program.h"

namespace hlograph::gpu {

// One digraph.
std::string GraphPlanDot(const GraphPlan& plan, const GpuProgram& program);

// `text` as a DOT string, quotes included: quotes and backslashes escaped,
// each line break as DOT's "\n" (a centered line of a label).
std::string DotQuoted(std::string_view text);

}  // namespace hlograph::gpu

// The CUDA graph plan (plan/graph_plan.h) and the trip counts it unrolls by
// (plan/trip_count.h), without a GPU: node kinds, memory-ordering edges over
// the whole corpus, conditional nodes, unrolling by the node budget, what
// stays outside, and `explain --dot` (plan/graph_dot.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/gpu/plan/graph_dot.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/trip_count.h"
#include "cli_util.h"
#include "frontend/parser.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Planned {
  std::vector<std::unique_ptr<ir::Module>> modules;
  GpuProgram program;
};

Planned PlanFile(const std::string& path) {
  Planned p;
  auto parsed = frontend::ParseFile(path);
  EXPECT_TRUE(parsed.ok()) << path;
  if (!parsed.ok()) return p;
  p.modules = std::move(parsed->modules);
  auto program = PlanProgram(*p.modules[0]);
  EXPECT_TRUE(program.ok()) << path << ": " << program.status().message();
  if (program.ok()) p.program = std::move(*program);
  return p;
}

Planned PlanText(const std::string& text) {
  Planned p;
  p.modules = testing::ParseOrDie(text);
  auto program = PlanProgram(*p.modules[0]);
  EXPECT_TRUE(program.ok()) << program.status().message();
  if (program.ok()) p.program = std::move(*program);
  return p;
}

// `p`'s graph plan with programmatic edges.
GraphPlan PlanWithProgrammaticLaunch(const Planned& p) {
  GraphOptions options;
  options.programmatic_launch = true;
  return BuildGraphPlan(p.program, options);
}

// Memory of a buffer as the runtime lays it out, computed here from the
// program alone: temps by arena offset, everything else its own allocation
// (a result written in place of a donated argument is that argument).
struct Span {
  std::string space;
  int64_t begin = 0, end = 0;
};
Span SpanOf(const GpuProgram& p, BufferId id) {
  const Buffer& b = p.buffers[static_cast<size_t>(id)];
  if (b.kind == BufferKind::kTemp) return {"arena", b.offset, b.offset + b.bytes};
  if (b.kind == BufferKind::kOutput) {
    for (const Donation& d : p.donations) {
      if (d.in_place && d.result == b.index) return {"param" + std::to_string(d.parameter), 0, b.bytes};
    }
  }
  return {std::string(BufferKindName(b.kind)) + std::to_string(b.kind == BufferKind::kConstant ? id : b.index), 0,
          b.bytes};
}
bool Touch(const GpuProgram& p, const std::vector<BufferId>& a, const std::vector<BufferId>& b) {
  for (BufferId x : a) {
    for (BufferId y : b) {
      const Span s = SpanOf(p, x), t = SpanOf(p, y);
      if (s.space == t.space && s.begin < t.end && t.begin < s.end) return true;
    }
  }
  return false;
}

// Every pair of nodes of a graph that touch the same memory, one of them
// writing (library calls all write their workspace), is ordered by a path
// of edges.
std::string CheckOrdering(const GpuProgram& p, const GraphPlan& plan) {
  for (size_t g = 0; g < plan.graphs.size(); ++g) {
    const auto& nodes = plan.graphs[g].nodes;
    std::vector<std::vector<bool>> reach(nodes.size(), std::vector<bool>(nodes.size(), false));
    for (size_t j = 0; j < nodes.size(); ++j) {
      for (int d : nodes[j].deps) {
        reach[j][static_cast<size_t>(d)] = true;
        for (size_t k = 0; k < nodes.size(); ++k) reach[j][k] = reach[j][k] || reach[static_cast<size_t>(d)][k];
      }
      for (size_t i = 0; i < j; ++i) {
        const GraphNode &a = nodes[i], &b = nodes[j];
        const bool conflict = (a.workspace && b.workspace) || Touch(p, a.writes, b.reads) ||
                              Touch(p, a.writes, b.writes) || Touch(p, a.reads, b.writes);
        if (conflict && !reach[j][i]) {
          return "graph " + std::to_string(g) + ": n" + std::to_string(j) + " does not wait for n" + std::to_string(i);
        }
      }
    }
  }
  return "";
}

TEST(GpuGraphPlan, EveryCorpusProgramIsOrderedByItsMemory) {
  int checked = 0;
  for (const std::string& path : testing::MlirFiles(testing::SourceDir() + "/tests/corpus")) {
    if (path.find("/debug/") != std::string::npos) continue;
    auto parsed = frontend::ParseFile(path);
    ASSERT_TRUE(parsed.ok()) << path;
    if (parsed->modules.size() != 1) continue;
    auto program = PlanProgram(*parsed->modules[0]);
    if (!program.ok()) continue;  // ops the GPU does not run
    for (int64_t budget : {2048, 16, -1}) {  // -1: 2048 with temps in graph memory
      GraphOptions options{budget < 0 ? 2048 : budget};
      options.temps = budget < 0 ? TempsPolicy::kGraphMemory : TempsPolicy::kArena;
      const GraphPlan plan = BuildGraphPlan(*program, options);
      const Status verified = plan.Verify();
      ASSERT_TRUE(verified.ok()) << path << ": " << verified.message();
      const std::string problem = CheckOrdering(*program, plan);
      EXPECT_TRUE(problem.empty()) << path << " (budget " << budget << "): " << problem << "\n"
                                   << plan.ToString(*program);
    }
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

TEST(GpuGraphPlan, IndependentWorkRunsInParallel) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  Planned p = PlanText(R"(
func.func @main(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.dot_general %y, %y, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = stablehlo.add %0, %1 : tensor<64x64xf32>
  %3 = stablehlo.tanh %y : tensor<64x64xf32>
  return %2, %3 : tensor<64x64xf32>, tensor<64x64xf32>
})");
  const GraphPlan plan = BuildGraphPlan(p.program);
  ASSERT_EQ(plan.graphs.size(), 1u);
  const auto& nodes = plan.graphs[0].nodes;
  ASSERT_EQ(nodes.size(), 4u) << plan.ToString(p.program);
  EXPECT_EQ(nodes[0].kind, NodeKind::kGemm);
  EXPECT_EQ(nodes[1].kind, NodeKind::kGemm);
  // The products share the library workspace: one after the other.
  EXPECT_EQ(nodes[1].deps, (std::vector<int>{0}));
  EXPECT_EQ(nodes[2].kind, NodeKind::kKernel);
  EXPECT_EQ(nodes[2].deps, (std::vector<int>{1}));
  // A kernel after a library call waits for it to finish: programmatic
  // edges join kernels only.
  EXPECT_TRUE(nodes[2].programmatic.empty());
  // The tanh reads only an argument: it waits for nothing.
  EXPECT_EQ(nodes[3].kind, NodeKind::kKernel);
  EXPECT_TRUE(nodes[3].deps.empty()) << plan.ToString(p.program);
  EXPECT_EQ(plan.conditions, 0);
}

TEST(GpuGraphPlan, TripCountsOfCountedLoops) {
  const auto loop = [](const std::string& init, const std::string& cmp, const std::string& bound,
                       const std::string& step, bool bound_first = false) {
    const std::string compare = bound_first ? "stablehlo.compare " + cmp + ", %b, %i, SIGNED"
                                            : "stablehlo.compare " + cmp + ", %i, %b, SIGNED";
    return R"(
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %c = stablehlo.constant dense<)" + init + R"(> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<f32>
  cond {
    %b = stablehlo.constant dense<)" + bound + R"(> : tensor<i32>
    %p = )" + compare + R"( : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<)" + step + R"(> : tensor<i32>
    %n = stablehlo.add %i, %s : tensor<i32>
    %w = stablehlo.sine %v : tensor<f32>
    stablehlo.return %n, %w : tensor<i32>, tensor<f32>
  }
  return %0#1 : tensor<f32>
})";
  };
  const auto trips = [](const std::string& text) {
    auto modules = testing::ParseOrDie(text);
    const ir::Operation* found = nullptr;
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "stablehlo.while") found = op.get();
    }
    return found ? KnownTripCount(*found) : -2;
  };
  EXPECT_EQ(trips(loop("0", "LT", "200", "1")), 200);
  EXPECT_EQ(trips(loop("0", "LT", "10", "3")), 4);  // 0, 3, 6, 9
  EXPECT_EQ(trips(loop("1", "LE", "10", "3")), 4);  // 1, 4, 7, 10
  EXPECT_EQ(trips(loop("10", "GT", "0", "-2")), 5);
  EXPECT_EQ(trips(loop("10", "GE", "0", "-5")), 3);  // 10, 5, 0
  EXPECT_EQ(trips(loop("0", "NE", "12", "4")), 3);
  EXPECT_EQ(trips(loop("0", "NE", "10", "4")), -1);  // never equal: not proven
  EXPECT_EQ(trips(loop("5", "LT", "5", "1")), 0);
  EXPECT_EQ(trips(loop("0", "GT", "200", "1", true)), 200);  // 200 > i
  EXPECT_EQ(trips(loop("0", "LT", "200", "-1")), -1);        // counts away from the bound
  EXPECT_EQ(trips(loop("0", "LT", "2147483647", "1")), -1);  // could wrap
}

// A scan's stacked output: loop value 1 starts as a fill, and each
// iteration writes one window at the counter. `start`, `bound`, `step`, the
// window's rows and the extra op in the body vary what is proven.
std::string StackedOutputLoop(const std::string& start, const std::string& bound, const std::string& step,
                              int rows = 1, const std::string& extra_read = "", const std::string& cond_read = "") {
  const std::string r = std::to_string(rows);
  return R"(
func.func @main(%x: tensor<)" + r + R"(x3xf32>) -> tensor<4x3xf32> {
  %c = stablehlo.constant dense<)" + start + R"(> : tensor<i32>
  %f = stablehlo.constant dense<7.0> : tensor<f32>
  %init = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %0:2 = stablehlo.while(%i = %c, %ys = %init) : tensor<i32>, tensor<4x3xf32>
  cond {
    %b = stablehlo.constant dense<)" + bound + R"(> : tensor<i32>
    %p = stablehlo.compare LT, %i, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    )" + cond_read + R"(
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.constant dense<)" + step + R"(> : tensor<i32>
    %n = stablehlo.add %i, %s : tensor<i32>
    %y = stablehlo.sine %x : tensor<)" + r + R"(x3xf32>
    )" + extra_read + R"(
    %u = stablehlo.dynamic_update_slice %ys, %y, %i, %z : (tensor<4x3xf32>, tensor<)" + r + R"(x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
    stablehlo.return %n, %u : tensor<i32>, tensor<4x3xf32>
  }
  return %0#1 : tensor<4x3xf32>
})";
}

TEST(GpuGraphPlan, ScanOutputsOverwrittenInFullStartFromNothing) {
  const auto overwritten = [](const std::string& text) {
    auto modules = testing::ParseOrDie(text);
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "stablehlo.while") return InitialValueOverwritten(*op, 1);
    }
    return false;
  };
  EXPECT_TRUE(overwritten(StackedOutputLoop("0", "4", "1")));
  EXPECT_TRUE(overwritten(StackedOutputLoop("0", "4", "2", 2)));    // windows of two rows, stepping by two
  EXPECT_FALSE(overwritten(StackedOutputLoop("0", "3", "1")));      // the last row keeps the fill
  EXPECT_FALSE(overwritten(StackedOutputLoop("1", "4", "1")));      // so does the first
  EXPECT_FALSE(overwritten(StackedOutputLoop("0", "4", "1", 2)));   // overlapping windows, the last clamped
  EXPECT_FALSE(overwritten(StackedOutputLoop("0", "2", "2")));      // rows 1 and 3 keep it
  EXPECT_FALSE(overwritten(StackedOutputLoop(
      "0", "4", "1", 1, "%r = stablehlo.slice %ys [0:1, 0:3] : (tensor<4x3xf32>) -> tensor<1x3xf32>")));
  EXPECT_FALSE(overwritten(StackedOutputLoop(
      "0", "4", "1", 1, "", "%r = stablehlo.slice %ys [0:1, 0:3] : (tensor<4x3xf32>) -> tensor<1x3xf32>")));

  // Planned: no kernel computes the fill, and nothing copies it.
  const auto plan = [](const std::string& text) {
    auto modules = testing::ParseOrDie(text);
    auto program = PlanProgram(*modules[0]);
    EXPECT_TRUE(program.ok()) << program.status().message();
    int top_level_kernels = 0, copies = 0;
    for (const Step& step : program->main.steps) {
      top_level_kernels += std::holds_alternative<KernelStep>(step.action);
      copies += std::holds_alternative<CopyStep>(step.action);
    }
    return std::make_pair(top_level_kernels, copies);
  };
  const auto dead = plan(StackedOutputLoop("0", "4", "1"));
  const auto live = plan(StackedOutputLoop("0", "3", "1"));
  EXPECT_EQ(dead.second, 0);
  EXPECT_EQ(live.second, 0);  // computed into the loop's state instead
  EXPECT_EQ(dead.first + 1, live.first);

  // gpt_decode: its two stacked KV caches (37.7 MB each) start from nothing.
  Planned gpt = PlanFile(testing::SourceDir() + "/bench/programs/gpt_decode.mlir");
  for (const Fusion& f : gpt.program.fusions) {
    if (f.kind != FusionKind::kLoop) continue;
    for (const ir::Type& t : f.output_types) EXPECT_LT(t.NumElements(), 1000000) << f.name;
  }
}

// A counted loop's counter value at each iteration is a constant of the
// counter's width; unrolled, every iteration reads its own, the counter's
// state is read by no node and the kernel counting is dropped.
TEST(GpuGraphPlan, UnrolledIterationsReadTheirCounterFromConstants) {
  auto modules = testing::ParseOrDie(StackedOutputLoop("1", "9", "2"));
  auto program = PlanProgram(*modules[0]);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const WhileStep* loop = nullptr;
  ForEachStep(program->main, [&](const Step& s, int) {
    if (const auto* w = std::get_if<WhileStep>(&s.action)) loop = w;
  });
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->counter, 0u);
  ASSERT_EQ(loop->counter_values.size(), 4u);  // 1, 3, 5, 7
  for (size_t i = 0; i < loop->counter_values.size(); ++i) {
    const Buffer& b = program->buffers[static_cast<size_t>(loop->counter_values[i])];
    EXPECT_EQ(b.kind, BufferKind::kConstant);
    ASSERT_EQ(b.value.size(), 4u);
    int32_t v = 0;
    std::memcpy(&v, b.value.data(), 4);
    EXPECT_EQ(v, static_cast<int32_t>(1 + 2 * i));
  }
  const BufferId state = loop->state[loop->counter];
  const auto count = [&](const GraphPlan& plan, BufferId id) {
    int readers = 0;
    for (const GraphNode& n : plan.graphs[0].nodes) readers += std::count(n.reads.begin(), n.reads.end(), id) > 0;
    return readers;
  };
  const GraphPlan constants = BuildGraphPlan(*program, GraphOptions{});
  ASSERT_EQ(constants.loops.size(), 1u);
  EXPECT_TRUE(constants.loops[0].counter_constants);
  EXPECT_EQ(count(constants, state), 0) << constants.ToString(*program);
  for (BufferId c : loop->counter_values) EXPECT_EQ(count(constants, c), 1) << constants.ToString(*program);
  EXPECT_TRUE(testing::HasSubstr(constants.ToString(*program), "reads its counter from a constant"));

  GraphOptions off;
  off.counters_from_constants = false;
  const GraphPlan counted = BuildGraphPlan(*program, off);
  EXPECT_FALSE(counted.loops[0].counter_constants);
  EXPECT_GT(count(counted, state), 0);
  EXPECT_GT(counted.graphs[0].nodes.size(), constants.graphs[0].nodes.size());  // the kernels counting
}

TEST(GpuGraphPlan, KnownTripCountsUnrollWithinTheBudget) {
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/fori_tanh.mlir");
  const WhileStep* loop = nullptr;
  ForEachStep(p.program.main, [&](const Step& s, int) {
    if (const auto* w = std::get_if<WhileStep>(&s.action)) loop = w;
  });
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->known_trip_count, 200);

  const GraphPlan full = BuildGraphPlan(p.program, GraphOptions{100000});
  ASSERT_EQ(full.loops.size(), 1u);
  EXPECT_TRUE(full.loops[0].fully_unrolled);
  EXPECT_EQ(full.graphs.size(), 1u);
  EXPECT_EQ(full.conditions, 0);
  // The counter and the activations swap buffers between iterations (200
  // iterations, even: the values end where they belong). Nothing reads the
  // counter once the loop is unrolled, so its kernels are dropped: what is
  // left is the copy setting up the activations and one kernel per
  // iteration (the 8-row product with its bias and tanh), every other
  // iteration on the swapped buffers.
  EXPECT_EQ(full.loops[0].swapped, 2);
  int copies = 0, renamed = 0, gemms = 0, kernels = 0;
  for (const GraphNode& n : full.graphs[0].nodes) {
    copies += n.kind == NodeKind::kMemcpy;
    gemms += n.kind == NodeKind::kGemm;
    kernels += n.kind == NodeKind::kKernel;
    renamed += !n.renamed.empty();
  }
  EXPECT_EQ(copies, 1) << full.ToString(p.program);
  EXPECT_EQ(gemms, 0);
  EXPECT_EQ(kernels, 200);
  EXPECT_EQ(renamed, 100);  // the odd iterations' kernels

  // 20 nodes cannot hold all 200 iterations: a WHILE node running k
  // iterations per pass, k dividing 200.
  const GraphPlan partial = BuildGraphPlan(p.program, GraphOptions{40});
  ASSERT_EQ(partial.loops.size(), 1u) << partial.ToString(p.program);
  const LoopLayout& l = partial.loops[0];
  EXPECT_FALSE(l.fully_unrolled);
  EXPECT_GT(l.unroll, 1);
  EXPECT_EQ(200 % l.unroll, 0);
  EXPECT_EQ(partial.graphs.size(), 2u);
  EXPECT_LE(static_cast<int64_t>(partial.graphs[1].nodes.size()), 40);
  EXPECT_TRUE(testing::HasSubstr(partial.ToString(p.program), "per WHILE iteration"));
}

TEST(GpuGraphPlan, DependentKernelsLaunchEarlyBehindEachOther) {
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/fori_tanh.mlir");
  GraphOptions options{100000, /*programmatic_launch=*/true};
  const GraphPlan plan = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(plan.Verify().ok());
  // 200 unrolled iterations, each kernel reading the one before: every
  // kernel but the first launches behind its predecessor.
  int kernels = 0, early = 0;
  const auto& nodes = plan.graphs[0].nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != NodeKind::kKernel) continue;
    ++kernels;
    for (int d : nodes[i].programmatic) {
      EXPECT_EQ(nodes[static_cast<size_t>(d)].kind, NodeKind::kKernel);
      EXPECT_NE(std::find(nodes[i].deps.begin(), nodes[i].deps.end(), d), nodes[i].deps.end());
    }
    early += !nodes[i].programmatic.empty();
  }
  EXPECT_EQ(kernels, 200);
  EXPECT_EQ(early, 199) << plan.ToString(p.program);
  EXPECT_TRUE(testing::HasSubstr(plan.ToString(p.program), "launched early behind"));

  options.programmatic_launch = false;
  const GraphPlan plain = BuildGraphPlan(p.program, options);
  for (const GraphNode& n : plain.graphs[0].nodes) EXPECT_TRUE(n.programmatic.empty());
  EXPECT_FALSE(testing::HasSubstr(plain.ToString(p.program), "launched early"));

  // A loop's predicate: its set-condition kernel launches behind the kernel
  // computing it; the WHILE node waits for the set-condition node in full.
  Planned newton = PlanFile(testing::Corpus("while_loop_newton_sqrt.mlir"));
  const GraphPlan loop = BuildGraphPlan(newton.program, GraphOptions{2048, true});
  ASSERT_TRUE(loop.Verify().ok());
  for (const Graph& g : loop.graphs) {
    for (const GraphNode& n : g.nodes) {
      if (n.kind == NodeKind::kWhile || n.kind == NodeKind::kSwitch) {
        EXPECT_TRUE(n.programmatic.empty());
      }
    }
  }
  const GraphNode& set = loop.graphs[1].nodes.back();
  ASSERT_EQ(set.kind, NodeKind::kSetCondition);
  if (!set.deps.empty() && loop.graphs[1].nodes[static_cast<size_t>(set.deps.back())].kind == NodeKind::kKernel) {
    EXPECT_FALSE(set.programmatic.empty()) << loop.ToString(newton.program);
  }
}

TEST(GpuGraphPlan, NoKernelLaunchesEarlyBehindTheWriterOfWhatItReadsEarly) {
  // Products read their rhs before waiting: the second's rhs is the first's
  // result, so it waits for the first in full; the third reads its weights
  // from an argument and launches early behind the second.
  Planned p = PlanText(R"(
func.func @main(%x: tensor<1x256xf32>, %w: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  %1 = stablehlo.reshape %0 : (tensor<1x256xf32>) -> tensor<256x1xf32>
  %2 = stablehlo.dot_general %x, %1, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x1xf32>) -> tensor<1x1xf32>
  %3 = stablehlo.reshape %2 : (tensor<1x1xf32>) -> tensor<1xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<1xf32>) -> tensor<1x256xf32>
  %5 = stablehlo.multiply %x, %4 : tensor<1x256xf32>
  %6 = stablehlo.dot_general %5, %w, contracting_dims = [1] x [0] : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  return %6 : tensor<1x256xf32>
})");
  const GraphPlan plan = PlanWithProgrammaticLaunch(p);
  ASSERT_TRUE(plan.Verify().ok()) << plan.Verify().message();
  const auto& nodes = plan.graphs[0].nodes;
  ASSERT_EQ(nodes.size(), 3u) << plan.ToString(p.program);
  for (const GraphNode& n : nodes) ASSERT_EQ(n.kind, NodeKind::kKernel);
  EXPECT_EQ(nodes[0].early_reads, std::vector<BufferId>{p.program.parameters[1]});
  ASSERT_EQ(nodes[1].early_reads.size(), 1u);
  EXPECT_EQ(nodes[1].early_reads[0], nodes[0].writes[0]);  // the product (then its scratch)
  EXPECT_EQ(nodes[1].deps, std::vector<int>{0});
  EXPECT_TRUE(nodes[1].programmatic.empty()) << plan.ToString(p.program);
  EXPECT_EQ(nodes[2].deps, std::vector<int>{1});
  EXPECT_EQ(nodes[2].programmatic, std::vector<int>{1}) << plan.ToString(p.program);
  // Verify catches the edge the planner must not make.
  GraphPlan broken = plan;
  broken.graphs[0].nodes[1].programmatic = {0};
  EXPECT_FALSE(broken.Verify().ok());
}

TEST(GpuGraphPlan, NoKernelLaunchesEarlyWhileAWriterOfWhatItReadsEarlyMayRun) {
  // The first two products load 4 MB of weights each and let their
  // dependents launch as they start; the third reads the first's result as
  // its rhs before waiting. It waits only for the second (the first is an
  // ancestor of that), but the first may still run when the second has
  // started: the third waits for the second in full.
  const std::string text = R"(
func.func @main(%x: tensor<1x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<1x1xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x1024xf32>, tensor<1024x1024xf32>) -> tensor<1x1024xf32>
  %1 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] : (tensor<1x1024xf32>, tensor<1024x1024xf32>) -> tensor<1x1024xf32>
  %2 = stablehlo.reshape %0 : (tensor<1x1024xf32>) -> tensor<1024x1xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<1x1024xf32>, tensor<1024x1xf32>) -> tensor<1x1xf32>
  return %3 : tensor<1x1xf32>
})";
  Planned p = PlanText(text);
  const GraphPlan plan = PlanWithProgrammaticLaunch(p);
  ASSERT_TRUE(plan.Verify().ok()) << plan.Verify().message();
  const auto& nodes = plan.graphs[0].nodes;
  ASSERT_EQ(nodes.size(), 3u) << plan.ToString(p.program);
  EXPECT_TRUE(nodes[0].dependents_at_start);
  EXPECT_TRUE(nodes[1].dependents_at_start);
  EXPECT_FALSE(nodes[2].dependents_at_start);  // 4 KB of weights
  EXPECT_EQ(nodes[1].programmatic, std::vector<int>{0}) << plan.ToString(p.program);
  ASSERT_EQ(nodes[2].early_reads.size(), 1u);
  EXPECT_EQ(nodes[2].early_reads[0], nodes[0].writes[0]);
  EXPECT_EQ(nodes[2].deps, std::vector<int>{1});
  EXPECT_TRUE(nodes[2].programmatic.empty()) << plan.ToString(p.program);
  // Verify catches the edge the planner must not make.
  GraphPlan broken = plan;
  broken.graphs[0].nodes[2].programmatic = {1};
  EXPECT_FALSE(broken.Verify().ok());
  // Where the second lets its dependents launch only once it has waited
  // for the first, the first is done by then.
  GraphPlan waits = plan;
  waits.graphs[0].nodes[1].dependents_at_start = false;
  waits.graphs[0].nodes[2].programmatic = {1};
  EXPECT_TRUE(waits.Verify().ok()) << waits.Verify().message();
}

TEST(GpuGraphPlan, KernelsOffTheLongestPathRunAtLowPriorityAndNeverLaunchEarly) {
  // gpt_decode: each layer's chain of products and reductions is the
  // longest path; the KV-cache copies beside it (each waits for the layer's
  // first product, the next layer's first product waits for it) are not.
  // (By default the attention kernel stores the caches: no copies.)
  const testing::ScopedEnv copies_apart("HLOGRAPH_GPU_ATTENTION_STORES", "0");
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/gpt_decode.mlir");
  const GraphPlan plan = PlanWithProgrammaticLaunch(p);
  ASSERT_TRUE(plan.Verify().ok()) << plan.Verify().message();
  int copies = 0, products = 0, attention = 0;
  for (const GraphNode& n : plan.graphs[0].nodes) {
    if (n.off_chain) {
      EXPECT_TRUE(n.programmatic.empty());
    }
    if (n.kind != NodeKind::kKernel) continue;
    const Fusion& f = p.program.fusions[static_cast<size_t>(std::get<KernelStep>(n.step->action).fusion)];
    if (f.kind == FusionKind::kUpdateSliceInPlace) {
      ++copies;
      EXPECT_TRUE(n.off_chain) << f.name;
    }
    if (f.kind == FusionKind::kDot || f.kind == FusionKind::kAttention) {
      ++(f.kind == FusionKind::kDot ? products : attention);
      EXPECT_FALSE(n.off_chain) << f.name;
    }
  }
  EXPECT_EQ(copies, 24);
  EXPECT_EQ(products, 12 * 4 + 1);  // qkv, output projection, up, down; the logits
  EXPECT_EQ(attention, 12);
  EXPECT_TRUE(testing::HasSubstr(plan.ToString(p.program), "[off the chain: lowest priority]"));
  // The longest path: each layer's 5 kernels in a chain, 12 layers, plus
  // the kernels before and after the loop; explain says how many nodes are off it.
  const auto& nodes = plan.graphs[0].nodes;
  const int off = static_cast<int>(std::count_if(nodes.begin(), nodes.end(), [](const GraphNode& n) { return n.off_chain; }));
  EXPECT_GT(plan.graphs[0].longest_path, 12 * 5);
  EXPECT_LT(plan.graphs[0].longest_path, static_cast<int>(nodes.size()) - off + 1);
  EXPECT_TRUE(testing::HasSubstr(plan.ToString(p.program), "longest path " + std::to_string(plan.graphs[0].longest_path) +
                                                               " nodes, " + std::to_string(off) + " off it"))
      << plan.ToString(p.program);

  // The mask the first attention reads is one node shorter than the
  // chain: it keeps the chain's priority. The loop counter's increments
  // (three nodes shorter) do not.
  for (const GraphNode& n : plan.graphs[0].nodes) {
    if (n.kind != NodeKind::kKernel) continue;
    const Fusion& f = p.program.fusions[static_cast<size_t>(std::get<KernelStep>(n.step->action).fusion)];
    if (f.kind != FusionKind::kLoop || f.output_types.empty()) continue;
    const bool mask = f.output_types[0].element() == ir::ElementType::kI1 && f.output_types[0].NumElements() == 1024;
    const bool counter = f.output_types[0].element() == ir::ElementType::kI32 && !f.input_types.empty();
    if (mask) {
      EXPECT_FALSE(n.off_chain) << f.name;
    }
    if (counter) {
      EXPECT_TRUE(n.off_chain) << f.name;
    }
  }

  GraphOptions options;
  options.programmatic_launch = true;
  options.prioritize_chain = false;
  const GraphPlan flat = BuildGraphPlan(p.program, options);
  for (const GraphNode& n : flat.graphs[0].nodes) EXPECT_FALSE(n.off_chain);
  EXPECT_EQ(flat.graphs[0].longest_path, 0);
  // Verify catches an early launch into a node off the chain.
  GraphPlan broken = plan;
  for (GraphNode& n : broken.graphs[0].nodes) {
    if (n.off_chain && !n.deps.empty() && n.kind == NodeKind::kKernel &&
        broken.graphs[0].nodes[static_cast<size_t>(n.deps.back())].kind == NodeKind::kKernel) {
      n.programmatic = {n.deps.back()};
      break;
    }
  }
  EXPECT_FALSE(broken.Verify().ok());
}

TEST(GpuGraphPlan, OneEarlyEdgeIntoAKernelComesFromItsLatestDependency) {
  // gpt_decode's first attention waits for the first product and the
  // mask's kernel: both edges are programmatic by default, one with the
  // option (the product's, the later node). Side by side, the mask's
  // kernel would be the product's ancestor: the first steps stay apart.
  Planned p = [] {
    const testing::ScopedEnv apart("HLOGRAPH_GPU_SIDE_BY_SIDE", "0");
    return PlanFile(testing::SourceDir() + "/bench/programs/gpt_decode.mlir");
  }();
  GraphOptions options;
  options.programmatic_launch = true;
  const GraphPlan both = BuildGraphPlan(p.program, options);
  options.one_early_edge = true;
  const GraphPlan one = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(one.Verify().ok()) << one.Verify().message();
  ASSERT_EQ(both.graphs[0].nodes.size(), one.graphs[0].nodes.size());
  int several = 0;
  for (size_t i = 0; i < one.graphs[0].nodes.size(); ++i) {
    const GraphNode& a = both.graphs[0].nodes[i];
    const GraphNode& b = one.graphs[0].nodes[i];
    EXPECT_LE(b.programmatic.size(), 1u);
    if (a.programmatic.size() > 1) {
      ++several;
      EXPECT_EQ(b.programmatic, std::vector<int>{a.programmatic.back()});
      EXPECT_EQ(b.deps, a.deps);
    } else {
      EXPECT_EQ(b.programmatic, a.programmatic);
    }
  }
  EXPECT_GE(several, 1) << both.ToString(p.program);
  const testing::ScopedEnv setting("HLOGRAPH_GPU_EARLY_EDGES", "one");
  EXPECT_TRUE(WithEnvironment(GraphOptions{}).one_early_edge);
}

TEST(GpuGraphPlan, DataDependentLoopIsAWhileNodeSetOnTheDevice) {
  Planned p = PlanFile(testing::Corpus("while_loop_newton_sqrt.mlir"));
  const GraphPlan plan = BuildGraphPlan(p.program);
  ASSERT_TRUE(plan.Verify().ok());
  ASSERT_EQ(plan.conditions, 1);
  ASSERT_EQ(plan.graphs.size(), 2u);
  const auto& main = plan.graphs[0].nodes;
  ASSERT_GE(main.size(), 2u);
  EXPECT_EQ(main.back().kind, NodeKind::kWhile);
  EXPECT_EQ(main[main.size() - 2].kind, NodeKind::kSetCondition);
  // The body ends by computing the next predicate into the same handle.
  EXPECT_EQ(plan.graphs[1].nodes.back().kind, NodeKind::kSetCondition);
  EXPECT_EQ(plan.graphs[1].nodes.back().condition, main.back().condition);
}

TEST(GpuGraphPlan, CaseIsASwitchNodeWithAGraphPerBranch) {
  Planned p = PlanFile(testing::Corpus("switch_four_branches.mlir"));
  const GraphPlan plan = BuildGraphPlan(p.program);
  ASSERT_TRUE(plan.Verify().ok());
  const auto& main = plan.graphs[0].nodes;
  ASSERT_FALSE(main.empty());
  EXPECT_EQ(main.back().kind, NodeKind::kSwitch);
  EXPECT_EQ(main.back().children.size(), 4u);
  EXPECT_EQ(plan.graphs.size(), 5u);
}

TEST(GpuGraphPlan, HostOpsSplitTheGraph) {
  Planned p = PlanFile(testing::Corpus("cholesky_solve_triangular.mlir"));
  const GraphPlan plan = BuildGraphPlan(p.program);
  int outside = 0;
  for (const GraphSegment& s : plan.segments) outside += s.outside != nullptr;
  EXPECT_GE(outside, 1);
  EXPECT_TRUE(testing::HasSubstr(plan.ToString(p.program), "outside the graphs:")) << plan.ToString(p.program);
}

TEST(GpuGraphPlan, ConditionalGraphsLimitTheUnrolling) {
  // 64 iterations of a three-way case: fully unrolled they would be 192
  // branch graphs, each costing host time at every launch.
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/switch_in_loop.mlir");
  GraphOptions options;
  EXPECT_EQ(options.conditional_graph_budget, 24);  // the default
  const GraphPlan plan = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(plan.Verify().ok());
  ASSERT_EQ(plan.loops.size(), 1u);
  EXPECT_FALSE(plan.loops[0].fully_unrolled);
  EXPECT_EQ(plan.loops[0].unroll, 8);  // 8 x 3 graphs fit the budget of 24; 8 divides 64
  EXPECT_TRUE(testing::HasSubstr(plan.loops[0].why, "64 x 3 conditional graphs")) << plan.loops[0].why;
  EXPECT_EQ(plan.graphs.size(), 1u + 1u + 8u * 3u);  // main, the WHILE body, the branches
  options.conditional_graph_budget = 1000;
  const GraphPlan full = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(full.Verify().ok());
  EXPECT_TRUE(full.loops[0].fully_unrolled);
  EXPECT_EQ(full.graphs.size(), 1u + 64u * 3u);
  options.conditional_graph_budget = 2;  // fewer than one iteration's: one iteration per pass
  const GraphPlan one = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(one.Verify().ok());
  EXPECT_EQ(one.loops[0].unroll, 1);
  // Loops without conditional bodies are not limited by it.
  Planned fori = PlanFile(testing::SourceDir() + "/bench/programs/fori_tanh.mlir");
  const GraphPlan straight = BuildGraphPlan(fori.program, options);
  EXPECT_TRUE(straight.loops[0].fully_unrolled) << straight.loops[0].why;
}

TEST(GpuGraphPlan, TempsInGraphMemoryAreAllocatedFirstAndFreedLast) {
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/mlp_chain.mlir");
  GraphOptions options;
  options.temps = TempsPolicy::kArena;
  const GraphPlan arena = BuildGraphPlan(p.program, options);
  EXPECT_FALSE(arena.temps.in_graph);
  EXPECT_TRUE(arena.temps.graph_memory_possible);
  EXPECT_TRUE(testing::HasSubstr(arena.temps.why, "asked for")) << arena.temps.why;
  options.temps = TempsPolicy::kGraphMemory;
  const GraphPlan plan = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(plan.Verify().ok()) << plan.Verify().message();
  ASSERT_TRUE(plan.temps.in_graph) << plan.temps.why;
  EXPECT_EQ(plan.temps.bytes, p.program.arena_bytes);
  const auto& nodes = plan.graphs[0].nodes;
  ASSERT_EQ(nodes.size(), arena.graphs[0].nodes.size() + 3);  // alloc, one fill, free
  EXPECT_EQ(nodes.front().kind, NodeKind::kAllocTemps);
  EXPECT_EQ(nodes.front().bytes, p.program.arena_bytes);
  EXPECT_EQ(nodes.back().kind, NodeKind::kFreeTemps);
  // The fill covers every zero-at-rest temp (the split products' counters).
  const GraphNode& fill = nodes[1];
  ASSERT_EQ(fill.kind, NodeKind::kMemset);
  EXPECT_EQ(fill.deps, std::vector<int>{0});
  const int64_t begin = p.program.buffers[static_cast<size_t>(fill.dst)].offset;
  int counters = 0;
  for (const Buffer& b : p.program.buffers) {
    if (b.kind != BufferKind::kTemp || !b.zero_at_rest) continue;
    ++counters;
    EXPECT_GE(b.offset, begin);
    EXPECT_LE(b.offset + b.bytes, begin + fill.bytes);
  }
  EXPECT_EQ(counters, 24);
  // The first kernel waits for the fill; the free waits for the last kernel.
  EXPECT_EQ(nodes[2].deps, std::vector<int>{1});
  EXPECT_EQ(nodes.back().deps, std::vector<int>{static_cast<int>(nodes.size()) - 2});
  const std::string text = plan.ToString(p.program);
  EXPECT_TRUE(testing::HasSubstr(text, "alloc-temps " + std::to_string(p.program.arena_bytes) + " bytes")) << text;
  EXPECT_TRUE(testing::HasSubstr(text, "free-temps <- n")) << text;

  // Misplaced memory nodes are caught.
  GraphPlan broken = plan;
  std::swap(broken.graphs[0].nodes.front(), broken.graphs[0].nodes.back());
  EXPECT_FALSE(broken.Verify().ok());
  GraphPlan loose = plan;
  loose.graphs[0].nodes[2].deps.clear();  // a kernel that could run before the allocation
  EXPECT_FALSE(loose.Verify().ok());

  // Programs split around host steps keep their temps in the arena, and say why.
  Planned split = PlanFile(testing::Corpus("cholesky_solve_triangular.mlir"));
  const GraphPlan kept = BuildGraphPlan(split.program, options);
  ASSERT_TRUE(kept.Verify().ok());
  EXPECT_FALSE(kept.temps.in_graph);
  EXPECT_TRUE(testing::HasSubstr(kept.temps.why, "segments")) << kept.temps.why;
  EXPECT_TRUE(testing::HasSubstr(kept.ToString(split.program), "not in graph memory"));
}

// The default policy: an arena for temps small against the memory budget,
// graph memory for those above 1/kTempsShareOfBudget of it.
TEST(GpuGraphPlan, TempsPlacementFollowsTheirShareOfTheBudget) {
  Planned p = PlanFile(testing::SourceDir() + "/bench/programs/mlp_chain.mlir");
  const int64_t temps = p.program.arena_bytes;
  ASSERT_GT(temps, 0);
  GraphOptions options;
  EXPECT_EQ(options.temps, TempsPolicy::kAuto);
  const GraphPlan unlimited = BuildGraphPlan(p.program, options);
  EXPECT_FALSE(unlimited.temps.in_graph);
  EXPECT_TRUE(testing::HasSubstr(unlimited.temps.why, "at most 1/16 of the memory budget (unlimited)"))
      << unlimited.temps.why;
  options.memory_budget = temps * kTempsShareOfBudget;  // exactly at the share: still the arena
  EXPECT_FALSE(BuildGraphPlan(p.program, options).temps.in_graph);
  options.memory_budget = temps * kTempsShareOfBudget - 1;
  const GraphPlan tight = BuildGraphPlan(p.program, options);
  ASSERT_TRUE(tight.Verify().ok()) << tight.Verify().message();
  EXPECT_TRUE(tight.temps.in_graph);
  EXPECT_TRUE(testing::HasSubstr(tight.temps.why, "more than 1/16 of the memory budget (" +
                                                      std::to_string(options.memory_budget) + " bytes)"))
      << tight.temps.why;
  EXPECT_TRUE(testing::HasSubstr(tight.ToString(p.program), "not held between calls: " + tight.temps.why));
  // A program split around host steps keeps the arena whatever the budget.
  Planned split = PlanFile(testing::Corpus("cholesky_solve_triangular.mlir"));
  options.memory_budget = 1;
  const GraphPlan kept = BuildGraphPlan(split.program, options);
  EXPECT_FALSE(kept.temps.in_graph);
  EXPECT_FALSE(kept.temps.graph_memory_possible);
}

TEST(GpuGraphPlan, ExplainWritesGraphviz) {
  const std::string dot = testing::WriteScratch("plan.dot", "");
  std::filesystem::remove(dot);
  testing::CliResult r = testing::Hlograph("explain " + testing::Quote(testing::Corpus("while_loop_newton_sqrt.mlir")) +
                                           " --dot " + testing::Quote(dot));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(testing::HasSubstr(r.out, "graph plan:"));
  EXPECT_TRUE(testing::HasSubstr(r.out, "binding (HLOGRAPH_GPU_BINDING): auto (the default)")) << r.out;
  // Where the temps are, and why said once: in the graph plan's temps line.
  EXPECT_TRUE(testing::HasSubstr(r.out, "in an arena held across calls (their addresses never move; HLOGRAPH_GPU_TEMPS=arena|graph|auto chooses; why: the graph plan's temps line)")) << r.out;
  const std::string head = "  temps: in the arena, not in graph memory: ";
  const size_t why = r.out.find(head);
  ASSERT_NE(why, std::string::npos) << r.out;
  const size_t from = why + head.size();
  const std::string reason = r.out.substr(from, r.out.find('\n', from) - from);
  ASSERT_GT(reason.size(), 10u) << r.out;
  EXPECT_EQ(r.out.find(reason), r.out.rfind(reason)) << "the reason twice: " << reason;
  std::ifstream in(dot);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().rfind("digraph hlograph {", 0), 0u) << text.str();
  EXPECT_TRUE(testing::HasSubstr(text.str(), "[style=dashed, lhead=cluster_1]")) << text.str();  // the WHILE node's body
  // Kernels named with the ops they fuse, and a legend of what is there.
  EXPECT_TRUE(testing::HasSubstr(text.str(), "\\nloop: subtract abs compare")) << text.str();
  EXPECT_TRUE(testing::HasSubstr(text.str(), "subgraph cluster_legend {")) << text.str();
  EXPECT_TRUE(testing::HasSubstr(text.str(), "[label=\"conditional node\\nwhile, switch\", shape=diamond]"))
      << text.str();
  EXPECT_TRUE(testing::HasSubstr(text.str(), "runs that graph (loop body, case branch)")) << text.str();
  testing::CliResult bad = testing::Hlograph("explain " + testing::Quote(testing::Corpus("softmax.mlir")) +
                                             " --dot /nonexistent-dir/plan.dot");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(testing::HasSubstr(bad.err, "/nonexistent-dir/plan.dot")) << bad.err;
}

// A GEMM node shows its configuration and the kernel after it the ops it
// fuses; both looks are in the legend.
TEST(GpuGraphPlan, GraphvizNodesNameWhatTheyRun) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  Planned p = PlanText(R"(
func.func @main(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %m = stablehlo.multiply %p, %x : tensor<64x256xf32>
  %a = stablehlo.add %m, %x : tensor<64x256xf32>
  %z = stablehlo.maximum %a, %m : tensor<64x256xf32>
  return %z : tensor<64x256xf32>
})");
  const std::string dot = GraphPlanDot(BuildGraphPlan(p.program), p.program);
  EXPECT_TRUE(testing::HasSubstr(dot, "g0n0 [label=\"n0 cuBLASLt GEMM\\ngemm f32xf32->f32 ")) << dot;
  EXPECT_TRUE(testing::HasSubstr(dot, "style=filled, fillcolor=lightblue];")) << dot;
  EXPECT_TRUE(testing::HasSubstr(dot, "g0n1 [label=\"n1 fusion_0\\nloop: multiply add maximum\"];")) << dot;
  EXPECT_TRUE(testing::HasSubstr(dot, "g0n0 -> g0n1")) << dot;
  EXPECT_TRUE(testing::HasSubstr(dot, "[label=\"generated kernel\\nits fusion and the ops it fuses\"]")) << dot;
  EXPECT_TRUE(testing::HasSubstr(dot, "cuBLASLt GEMM, cuDNN convolution, cuFFT, NCCL collective\", style=filled")) << dot;
  EXPECT_FALSE(testing::HasSubstr(dot, "shape=diamond")) << dot;  // no conditional node, none in the legend
}

TEST(GpuGraphPlan, DotStringsAreEscaped) {
  EXPECT_EQ(DotQuoted("plain"), "\"plain\"");
  EXPECT_EQ(DotQuoted("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(DotQuoted("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(DotQuoted("two\nlines"), "\"two\\nlines\"");
}

}  // namespace
}  // namespace hlograph::gpu

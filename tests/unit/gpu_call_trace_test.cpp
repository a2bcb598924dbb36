// One call as a Chrome trace (gpu/call_trace.h), from profiler records made
// up here (no GPU): the later of two calls taken, activities named by their
// step (tagged, or a generated kernel by its fusion), overlapping work on
// lanes of its own, and a graph launch's runtime and driver calls one launch.
#include <gtest/gtest.h>

#include <string>

#include "backends/gpu/call_trace.h"
#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/step_cost.h"
#include "io/trace_json.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

// A GEMM (cuBLASLt) and a kernel fusing the three ops after it.
constexpr const char* kProductThenKernel = R"(
func.func @main(%x: tensor<64x256xf32>, %w: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %m = stablehlo.multiply %p, %x : tensor<64x256xf32>
  %a = stablehlo.add %m, %x : tensor<64x256xf32>
  %z = stablehlo.maximum %a, %m : tensor<64x256xf32>
  return %z : tensor<64x256xf32>
})";
constexpr const char* kKernelName = "fusion_0 loop: multiply add maximum";

struct Planned {
  std::vector<std::unique_ptr<ir::Module>> modules;
  GpuProgram program;
  const Step* gemm = nullptr;
  const Step* kernel = nullptr;
};

Planned Plan() {
  Planned p;
  p.modules = testing::ParseOrDie(kProductThenKernel);
  auto program = PlanProgram(*p.modules[0]);
  EXPECT_TRUE(program.ok()) << program.status().message();
  if (!program.ok()) return p;
  p.program = std::move(*program);
  for (const Step& s : p.program.main.steps) {
    if (std::holds_alternative<GemmStep>(s.action)) p.gemm = &s;
    if (std::holds_alternative<KernelStep>(s.action)) p.kernel = &s;
  }
  EXPECT_NE(p.gemm, nullptr);
  EXPECT_NE(p.kernel, nullptr);
  return p;
}

uint64_t Tag(const Step* step) { return reinterpret_cast<uintptr_t>(step); }

KernelTotals::Interval Activity(const std::string& name, double start_us, double end_us, uint32_t correlation,
                                uint64_t step = 0, int64_t bytes = 0) {
  return {name, start_us * 1e-6, end_us * 1e-6, correlation, step, bytes};
}

const io::TraceEvent* Find(const io::Trace& trace, const std::string& name, int track) {
  for (const io::TraceEvent& e : trace.events) {
    if (e.name == name && e.track == track) return &e;
  }
  return nullptr;
}

std::string Arg(const io::TraceEvent& e, const std::string& key) {
  for (const auto& [k, v] : e.args) {
    if (k == key) return v;
  }
  return "(none)";
}

TEST(GpuCallTrace, StepLabelsNameTheOpsAndTheConfiguration) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  const Planned p = Plan();
  ASSERT_NE(p.kernel, nullptr);
  EXPECT_EQ(StepLabel(p.program, *p.kernel), kKernelName);
  EXPECT_EQ(StepLabel(p.program, *p.gemm), StepSummary(p.program, *p.gemm));
  EXPECT_EQ(StepLabel(p.program, *p.gemm).rfind("gemm f32xf32->f32", 0), 0u) << StepLabel(p.program, *p.gemm);
}

// Graph mode: both calls launch graph 0, the runtime's cudaGraphLaunch
// around the driver's cuGraphLaunch; the device work carries the driver's
// id. The second call's kernel launches early, beside the GEMM's end; a
// binding copy follows the launch.
TEST(GpuCallTrace, GraphModeShowsTheLaterCallsLaunchAndKernels) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  const Planned p = Plan();
  ASSERT_NE(p.kernel, nullptr);
  const GraphPlan plan = BuildGraphPlan(p.program);
  KernelTotals t;
  t.graph_launches = {{"cudaGraphLaunch", 0, 5e-6, 10},   {"cuGraphLaunch", 1e-6, 4e-6, 11},
                      {"cudaGraphLaunch", 8e-6, 13e-6, 20}, {"cuGraphLaunch", 9e-6, 12e-6, 21}};
  t.timeline = {Activity("sm90_gemm_kernel", 6, 10, 11), Activity("fusion_0", 10.5, 12, 11),
                Activity("sm90_gemm_kernel", 14, 20, 21), Activity("fusion_0", 19, 22, 21),
                Activity("memcpy DtoD", 23, 24, 25, 0, 128)};
  const io::Trace trace = CallTrace(t, p.program, plan, "one call");
  EXPECT_EQ(trace.process, "one call");

  ASSERT_EQ(trace.tracks.size(), 4u);  // host launches, device launches, two lanes
  EXPECT_EQ(trace.tracks[0].name, "host: graph launches (API calls)");
  EXPECT_EQ(trace.tracks[1].name, "device: graph launches");
  EXPECT_EQ(trace.tracks[2].name, "device: kernels, copies, fills");
  EXPECT_EQ(trace.tracks[3].name, "device: overlapping (lane 1)");
  ASSERT_EQ(trace.events.size(), 5u) << io::TraceJson(trace);  // the earlier call left out

  const io::TraceEvent* host = Find(trace, "launch graph 0 (main)", trace.tracks[0].id);
  ASSERT_NE(host, nullptr) << io::TraceJson(trace);
  EXPECT_EQ(host->category, "graph launch");
  EXPECT_NEAR(host->start_us, 0, 1e-6);  // times from the later call's first event
  EXPECT_NEAR(host->duration_us, 5, 1e-6);
  EXPECT_EQ(Arg(*host, "API calls"), "cudaGraphLaunch, cuGraphLaunch");
  EXPECT_EQ(Arg(*host, "correlation"), "20, 21");
  EXPECT_EQ(Arg(*host, "activities"), "2");

  const io::TraceEvent* span = Find(trace, "launch graph 0 (main)", trace.tracks[1].id);
  ASSERT_NE(span, nullptr);
  EXPECT_NEAR(span->start_us, 6, 1e-6);
  EXPECT_NEAR(span->duration_us, 8, 1e-6);

  // No step tags in graph mode: the library's kernel keeps its own name,
  // the generated one is named by its fusion, beside it on lane 1.
  const io::TraceEvent* gemm = Find(trace, "sm90_gemm_kernel", trace.tracks[2].id);
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->category, "kernel");
  EXPECT_EQ(Arg(*gemm, "graph launch"), "launch graph 0 (main)");
  const io::TraceEvent* kernel = Find(trace, kKernelName, trace.tracks[3].id);
  ASSERT_NE(kernel, nullptr) << io::TraceJson(trace);
  EXPECT_EQ(Arg(*kernel, "activity"), "fusion_0");
  EXPECT_NEAR(kernel->start_us, 11, 1e-6);
  EXPECT_NEAR(kernel->duration_us, 3, 1e-6);

  const io::TraceEvent* copy = Find(trace, "memcpy DtoD", trace.tracks[2].id);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->category, "memcpy");
  EXPECT_EQ(Arg(*copy, "bytes"), "128");
  EXPECT_EQ(Arg(*copy, "graph launch"), "(none)");

  const std::string json = io::TraceJson(trace);
  EXPECT_NE(json.find("\"name\": \"fusion_0 loop: multiply add maximum\", \"cat\": \"kernel\""), std::string::npos)
      << json;
}

// Stream mode: every activity tagged with its step; a tag that is no step
// of the program is not trusted, and a name with quotes and backslashes
// reaches the JSON escaped.
TEST(GpuCallTrace, StreamModeNamesEveryActivityByItsStep) {
  const testing::ScopedEnv library("HLOGRAPH_GPU_TILE_PRODUCT", "library");  // its products cuBLASLt steps
  const Planned p = Plan();
  ASSERT_NE(p.kernel, nullptr);
  KernelTotals t;
  t.timeline = {Activity("sm90_gemm_kernel", 0, 4, 1, Tag(p.gemm)), Activity("fusion_0", 5, 6, 2, Tag(p.kernel)),
                Activity("memset", 6, 7, 3, 0, 64),
                Activity("sm90_gemm_kernel", 10, 14, 4, Tag(p.gemm)), Activity("fusion_0", 15, 16, 5, Tag(p.kernel)),
                Activity("memset", 16, 17, 6, 0, 64)};
  const io::Trace trace = CallTrace(t, p.program, GraphPlan{}, "one call");
  ASSERT_EQ(trace.tracks.size(), 1u);  // no launches, nothing overlaps
  ASSERT_EQ(trace.events.size(), 3u) << io::TraceJson(trace);
  EXPECT_EQ(trace.events[0].name, StepLabel(p.program, *p.gemm));
  EXPECT_EQ(Arg(trace.events[0], "activity"), "sm90_gemm_kernel");
  EXPECT_NEAR(trace.events[0].start_us, 0, 1e-6);
  EXPECT_EQ(trace.events[1].name, kKernelName);
  EXPECT_EQ(trace.events[2].name, "memset");
  EXPECT_EQ(trace.events[2].category, "memset");

  KernelTotals odd;
  odd.timeline = {Activity("x", 0, 1, 1), Activity("lib<\"a\\b\">", 2, 3, 2, Tag(p.gemm) + 1)};
  const io::Trace escaped = CallTrace(odd, p.program, GraphPlan{}, "one call");
  ASSERT_EQ(escaped.events.size(), 1u);
  EXPECT_EQ(escaped.events[0].name, "lib<\"a\\b\">");
  EXPECT_NE(io::TraceJson(escaped).find("\"name\": \"lib<\\\"a\\\\b\\\">\""), std::string::npos)
      << io::TraceJson(escaped);
}

}  // namespace
}  // namespace hlograph::gpu

// Graph mode (runtime/graph_exec.h) against stream mode: the same results
// bit for bit on every corpus program the GPU plans, loops and cases run
// without reading anything back on the host, and thousands of calls with
// arguments and results at changing addresses all right. The GPU parts
// skip without a device; the set-condition kernel compiles without one.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <sstream>

#include "backends/cpu/random_tensor.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/runtime/device_memory.h"
#include "frontend/parser.h"
#include "cli_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

GpuCompileOptions Mode(ExecutionMode mode) {
  GpuCompileOptions o;
  o.mode = mode;
  return o;
}

std::string Differs(const std::vector<cpu::Tensor>& want, const std::vector<cpu::Tensor>& got) {
  if (want.size() != got.size()) return "result count differs";
  for (size_t r = 0; r < want.size(); ++r) {
    if (want[r].byte_size() != got[r].byte_size() ||
        std::memcmp(want[r].bytes(), got[r].bytes(), want[r].byte_size()) != 0) {
      return "result " + std::to_string(r) + " differs";
    }
  }
  return "";
}

// Random arguments (from `seed`) and stream mode's results for them: what
// graph mode is compared with.
struct Reference {
  std::vector<cpu::Tensor> args, want;
};
::testing::AssertionResult StreamReference(const ir::Module& module, uint64_t seed, Reference& out) {
  auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
  if (!stream.ok()) return ::testing::AssertionFailure() << stream.status().message();
  auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, seed);
  if (!args.ok()) return ::testing::AssertionFailure() << args.status().message();
  auto want = (*stream)->Run(*args);
  if (!want.ok()) return ::testing::AssertionFailure() << want.status().message();
  out.args = std::move(*args);
  out.want = std::move(*want);
  return ::testing::AssertionSuccess();
}

bool HasHostSteps(const GpuProgram& p) {
  bool found = false;
  ForEachStep(p.main, [&](const Step& s, int) { found = found || std::holds_alternative<HostStep>(s.action); });
  return found;
}

// The programs of `paths` the GPU plans (one module each; the debug ones
// and collatz left out), parsed.
struct Program {
  std::string path;
  std::vector<std::unique_ptr<ir::Module>> modules;
  const ir::Module& module() const { return *modules[0]; }
};
std::vector<Program> PlannedPrograms(const std::vector<std::string>& paths) {
  std::vector<Program> out;
  for (const std::string& path : paths) {
    if (path.find("/debug/") != std::string::npos || path.find("collatz") != std::string::npos) continue;
    auto parsed = frontend::ParseFile(path);
    EXPECT_TRUE(parsed.ok()) << path;
    if (!parsed.ok() || parsed->modules.size() != 1 || !PlanProgram(*parsed->modules[0]).ok()) continue;
    out.push_back(Program{path, std::move(parsed->modules)});
  }
  return out;
}

TEST(GpuGraphMode, SetConditionKernelCompiles) {
  auto cubin = CompileToCubin(SetConditionKernelSource(), kSetConditionKernelName, CompileOptions{});
  ASSERT_TRUE(cubin.ok()) << cubin.status().message();
  EXPECT_FALSE(cubin->cubin.empty());
}

TEST(GpuGraphMode, CorpusMatchesStreamModeBitForBit) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  // The same GEMM algorithms on both sides: timing could pick different
  // ones for the two executables, which round differently.
  const testing::ScopedEnv no_autotune("HLOGRAPH_GPU_AUTOTUNE", "0");
  int ran = 0, with_control_flow = 0;
  for (const Program& program : PlannedPrograms(testing::MlirFiles(testing::SourceDir() + "/tests/corpus"))) {
    const std::string& path = program.path;
    const ir::Module& module = program.module();
    auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
    auto graph = GpuExecutable::Compile(module, Mode(ExecutionMode::kGraph));
    ASSERT_TRUE(stream.ok()) << path << ": " << stream.status().message();
    ASSERT_TRUE(graph.ok()) << path << ": " << graph.status().message();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, 11);
    ASSERT_TRUE(args.ok());
    auto want = (*stream)->Run(*args);
    auto got = (*graph)->Run(*args);
    ASSERT_TRUE(want.ok()) << path << ": " << want.status().message();
    ASSERT_TRUE(got.ok()) << path << ": " << got.status().message();
    EXPECT_EQ(Differs(*want, *got), "") << path;
    const ExecutionStats s = (*graph)->stats();
    EXPECT_GE(s.graph_launches, 1) << path;
    if (!HasHostSteps((*graph)->program())) {
      EXPECT_EQ(s.host_syncs, 0) << path << ": graph mode read something back on the host";
    }
    with_control_flow += (*graph)->graph_plan().conditions > 0;
    ++ran;
  }
  std::cout << "graph mode: " << ran << " corpus programs identical to stream mode, " << with_control_flow
            << " with conditional nodes\n";
  EXPECT_GT(ran, 60);
  EXPECT_GT(with_control_flow, 3);
}

// The workloads in graph mode, with their chains at high priority and the
// kernels beside them (gpt_decode's KV-cache copies) at low priority and
// launched only once their producers finish: the same bits as stream mode.
TEST(GpuGraphMode, WorkloadsMatchStreamModeBitForBit) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv no_autotune("HLOGRAPH_GPU_AUTOTUNE", "0");
  std::vector<std::string> paths;
  for (const char* w : {"mlp_chain", "fori_tanh", "scan_layers", "gpt_decode"}) {
    paths.push_back(testing::SourceDir() + "/bench/programs/" + w + ".mlir");
  }
  int off_chain = 0;
  for (const Program& program : PlannedPrograms(paths)) {
    const ir::Module& module = program.module();
    auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
    ASSERT_TRUE(stream.ok()) << program.path;
    auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, 5);
    ASSERT_TRUE(args.ok());
    auto want = (*stream)->Run(*args);
    ASSERT_TRUE(want.ok()) << program.path << ": " << want.status().message();
    // Unrolled loops read their counters from constants by default; reading
    // the state, the kernels counting run off the chain.
    for (bool counters_from_constants : {true, false}) {
      GpuCompileOptions o = Mode(ExecutionMode::kGraph);
      o.graph.counters_from_constants = counters_from_constants;
      auto graph = GpuExecutable::Compile(module, o);
      ASSERT_TRUE(graph.ok()) << program.path;
      for (const Graph& g : (*graph)->graph_plan().graphs) {
        for (const GraphNode& n : g.nodes) off_chain += n.off_chain && !counters_from_constants;
      }
      for (int call = 0; call < 3; ++call) {
        auto got = (*graph)->Run(*args);
        ASSERT_TRUE(got.ok()) << program.path << ": " << got.status().message();
        EXPECT_EQ(Differs(*want, *got), "") << program.path << ", call " << call;
      }
    }
  }
  EXPECT_GT(off_chain, 0);
}

// `bench --timeline`: one call's kernels, as many as the profile counts per
// call, in order of start, each ending after it starts and starting after
// the call queued before it has ended (the stream runs them in order: a
// kernel of the earlier call taken for the later's would start before).
TEST(GpuGraphMode, BenchTimelineListsOneCallsKernels) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::CliResult r = testing::Hlograph(
      "bench " + testing::Quote(testing::SourceDir() + "/bench/programs/mlp_chain.mlir") +
      " --iters 3 --warmup 1 --profile --timeline");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  double kernels = -1, last_start = -1;
  int rows = 0;
  bool in_timeline = false;
  while (std::getline(lines, line)) {
    if (line.rfind("  device busy", 0) == 0) {
      const size_t open = line.find('(');
      ASSERT_NE(open, std::string::npos) << line;
      kernels = std::stod(line.substr(open + 1));
    }
    if (line.find("timeline of one call") != std::string::npos) {
      in_timeline = true;
      std::getline(lines, line);  // the column names
      continue;
    }
    if (!in_timeline) continue;
    std::istringstream row(line);
    double start = 0, end = 0, duration = 0, later = 0;
    std::string name;
    ASSERT_TRUE(static_cast<bool>(row >> start >> end >> duration >> later >> name)) << line;
    EXPECT_GE(start, 0.0) << line;
    EXPECT_GE(start, last_start) << line;
    EXPECT_GE(end, start) << line;
    EXPECT_EQ(name.rfind("fusion_", 0), 0u) << line;
    last_start = start;
    ++rows;
  }
  EXPECT_GT(rows, 1) << r.out;
  EXPECT_EQ(rows, static_cast<int>(kernels + 0.5)) << r.out;
}

// `bench --trace`: one call as a Chrome trace. Graph mode: the graph's
// launch (host call and device span) and each kernel named by its fusion
// and the ops it fuses; stream mode: no launches, every kernel named by
// the step that queued it.
TEST(GpuGraphMode, BenchTraceWritesOneCallsKernelsAndLaunches) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const std::string program = testing::Quote(testing::SourceDir() + "/bench/programs/mlp_chain.mlir");
  const std::string trace = testing::Scratch().path() + "/trace.json";
  for (const std::string mode : {"graph", "stream"}) {
    std::filesystem::remove(trace);
    const testing::CliResult r = testing::Hlograph("bench " + program + " --iters 3 --warmup 1 --mode " + mode +
                                                   " --trace " + testing::Quote(trace));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = testing::ReadFile(trace);
    EXPECT_EQ(json.rfind("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", 0), 0u) << json;
    EXPECT_EQ(json.substr(json.size() - 3), "]}\n") << json;
    EXPECT_TRUE(testing::HasSubstr(json, "\"name\": \"fusion_0 product: dot_general")) << mode << ": " << json;
    EXPECT_TRUE(testing::HasSubstr(json, "\"args\": {\"activity\": \"fusion_0\"")) << mode << ": " << json;
    EXPECT_EQ(testing::HasSubstr(json, "\"name\": \"launch graph 0 (main)\", \"cat\": \"graph launch\""),
              mode == "graph")
        << mode << ": " << json;
  }
}

// Temps in graph memory nodes (HLOGRAPH_GPU_TEMPS=graph): the same bits as
// stream mode on every corpus program that is one graph with temps, call
// after call with fresh arguments (the zero-at-rest counters of split
// products are zeroed by the graph each time), and the executable holds no
// arena between calls.
TEST(GpuGraphMode, TempsInGraphMemoryMatchStreamMode) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv no_autotune("HLOGRAPH_GPU_AUTOTUNE", "0");
  std::vector<std::string> paths = testing::MlirFiles(testing::SourceDir() + "/tests/corpus");
  paths.push_back(testing::SourceDir() + "/bench/programs/mlp_chain.mlir");
  int ran = 0, with_counters = 0;
  for (const Program& program : PlannedPrograms(paths)) {
    const std::string& path = program.path;
    const ir::Module& module = program.module();
    GpuCompileOptions o = Mode(ExecutionMode::kGraph);
    o.graph.temps = TempsPolicy::kGraphMemory;
    auto graph = GpuExecutable::Compile(module, o);
    ASSERT_TRUE(graph.ok()) << path << ": " << graph.status().message();
    if (!(*graph)->temps_in_graph_memory()) continue;  // several segments, or no temps
    auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
    ASSERT_TRUE(stream.ok()) << path << ": " << stream.status().message();
    EXPECT_LT((*graph)->resident_bytes(), (*stream)->resident_bytes()) << path << ": the arena is still held";
    for (uint64_t seed : {5u, 6u, 7u}) {
      auto args = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, seed);
      ASSERT_TRUE(args.ok());
      auto want = (*stream)->Run(*args);
      auto got = (*graph)->Run(*args);
      ASSERT_TRUE(want.ok()) << path << ": " << want.status().message();
      ASSERT_TRUE(got.ok()) << path << ": " << got.status().message();
      EXPECT_EQ(Differs(*want, *got), "") << path << " seed " << seed;
    }
    const auto& nodes = (*graph)->graph_plan().graphs[0].nodes;
    with_counters += nodes.size() > 1 && nodes[1].kind == NodeKind::kMemset;
    ++ran;
  }
  std::cout << "temps in graph memory: " << ran << " programs identical to stream mode, " << with_counters
            << " with zero-at-rest temps\n";
  EXPECT_GT(ran, 30);
  EXPECT_GT(with_counters, 0);
}

// A loop of cases under a budget of conditional graphs: k iterations, each
// with its SWITCH node, per WHILE pass; the same bits as stream mode.
TEST(GpuGraphMode, CasesInALoopUnderTheGraphBudgetMatchStreamMode) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const testing::ScopedEnv no_autotune("HLOGRAPH_GPU_AUTOTUNE", "0");
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/bench/programs/switch_in_loop.mlir");
  ASSERT_TRUE(parsed.ok());
  const ir::Module& module = *parsed->modules[0];
  Reference ref;
  ASSERT_TRUE(StreamReference(module, 4, ref));
  for (int64_t budget : {24, 2}) {  // 8 iterations per WHILE pass; 1
    GpuCompileOptions o = Mode(ExecutionMode::kGraph);
    o.graph.conditional_graph_budget = budget;
    auto graph = GpuExecutable::Compile(module, o);
    ASSERT_TRUE(graph.ok()) << graph.status().message();
    ASSERT_EQ((*graph)->graph_plan().loops.size(), 1u);
    EXPECT_FALSE((*graph)->graph_plan().loops[0].fully_unrolled);
    for (int call = 0; call < 2; ++call) {
      auto got = (*graph)->Run(ref.args);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(Differs(ref.want, *got), "") << "budget " << budget << " call " << call;
    }
    EXPECT_EQ((*graph)->stats().host_syncs, 0);
  }
}

// Unrolled loops whose values swap buffers: an odd trip count leaves them
// in the other buffer until the final copy; a WHILE node running 3
// iterations per pass copies them back at the end of each pass.
TEST(GpuGraphMode, SwappedLoopValuesEndInPlace) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto modules = testing::ParseOrDie(R"(
func.func @main(%w: tensor<32x32xf32>, %x: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4x32xf32>
  cond {
    %n = stablehlo.constant dense<9> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %d = stablehlo.dot_general %v, %w, contracting_dims = [1] x [0] : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
    %t = stablehlo.tanh %d : tensor<4x32xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %t : tensor<i32>, tensor<4x32xf32>
  }
  return %0#1, %0#0 : tensor<4x32xf32>, tensor<i32>
})");
  const ir::Module& module = *modules[0];
  Reference ref;
  ASSERT_TRUE(StreamReference(module, 3, ref));
  for (int64_t budget : {2048, 12}) {  // fully unrolled (9 iterations); 3 per WHILE pass
    GpuCompileOptions o = Mode(ExecutionMode::kGraph);
    o.graph.node_budget = budget;
    auto graph = GpuExecutable::Compile(module, o);
    ASSERT_TRUE(graph.ok()) << graph.status().message();
    ASSERT_EQ((*graph)->graph_plan().loops.size(), 1u);
    EXPECT_EQ((*graph)->graph_plan().loops[0].swapped, 2);
    EXPECT_EQ((*graph)->graph_plan().loops[0].fully_unrolled, budget == 2048);
    for (int call = 0; call < 3; ++call) {
      auto got = (*graph)->Run(ref.args);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(Differs(ref.want, *got), "") << "budget " << budget << " call " << call;
    }
  }
}

// A counter stepping down from 7 by 2, read by the body's arithmetic and
// as a slice index: unrolled, each iteration reads it from a constant, and
// the results are stream mode's bit for bit (and with the counter read
// from its state, HLOGRAPH_GPU_LOOP_COUNTERS=0's plan).
TEST(GpuGraphMode, UnrolledCountersFromConstantsMatchStreamMode) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto modules = testing::ParseOrDie(R"(
func.func @main(%w: tensor<8x32xf32>, %x: tensor<32xf32>) -> tensor<32xf32> {
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c7, %v = %x) : tensor<i32>, tensor<32xf32>
  cond {
    %n = stablehlo.constant dense<-5> : tensor<i32>
    %p = stablehlo.compare GT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %step = stablehlo.constant dense<-2> : tensor<i32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %row = stablehlo.dynamic_slice %w, %i, %z, sizes = [1, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<1x32xf32>
    %r = stablehlo.reshape %row : (tensor<1x32xf32>) -> tensor<32xf32>
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %fb = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %a = stablehlo.multiply %v, %r : tensor<32xf32>
    %b = stablehlo.add %a, %fb : tensor<32xf32>
    %t = stablehlo.tanh %b : tensor<32xf32>
    %i1 = stablehlo.add %i, %step : tensor<i32>
    stablehlo.return %i1, %t : tensor<i32>, tensor<32xf32>
  }
  return %0#1 : tensor<32xf32>
})");
  const ir::Module& module = *modules[0];
  Reference ref;
  ASSERT_TRUE(StreamReference(module, 5, ref));
  for (bool constants : {true, false}) {
    GpuCompileOptions o = Mode(ExecutionMode::kGraph);
    o.graph.counters_from_constants = constants;
    auto graph = GpuExecutable::Compile(module, o);
    ASSERT_TRUE(graph.ok()) << graph.status().message();
    ASSERT_EQ((*graph)->graph_plan().loops.size(), 1u);
    EXPECT_TRUE((*graph)->graph_plan().loops[0].fully_unrolled);
    EXPECT_EQ((*graph)->graph_plan().loops[0].counter_constants, constants);
    for (int call = 0; call < 2; ++call) {
      auto got = (*graph)->Run(ref.args);
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(Differs(ref.want, *got), "") << "constants " << constants << " call " << call;
    }
  }
}

// Arguments and results at changing addresses, thousands of calls: every
// result is checked against stream mode's for the same inputs. `binding`:
// HLOGRAPH_GPU_BINDING for the graph-mode executable; its counters go to
// `stats`.
void PointerChurn(const char* binding, ExecutionStats* stats_out) {
  // A data-dependent loop around a case and a GEMM reading an argument
  // inside the loop body: moved arguments must reach nodes in conditional
  // bodies too.
  auto modules = testing::ParseOrDie(R"(
func.func @main(%w: tensor<16x16xf32>, %x: tensor<4x16xf32>, %k: tensor<i32>) -> (tensor<4x16xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<4x16xf32>
  cond {
    %p = stablehlo.compare LT, %i, %k, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %three = stablehlo.constant dense<3> : tensor<i32>
    %r = stablehlo.remainder %i, %three : tensor<i32>
    %d = stablehlo.dot_general %v, %w, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %n = "stablehlo.case"(%r) ({
      %t = stablehlo.tanh %d : tensor<4x16xf32>
      stablehlo.return %t : tensor<4x16xf32>
    }, {
      %s = stablehlo.sine %d : tensor<4x16xf32>
      stablehlo.return %s : tensor<4x16xf32>
    }, {
      %a = stablehlo.add %d, %v : tensor<4x16xf32>
      %b = stablehlo.tanh %a : tensor<4x16xf32>
      stablehlo.return %b : tensor<4x16xf32>
    }) : (tensor<i32>) -> tensor<4x16xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %n : tensor<i32>, tensor<4x16xf32>
  }
  return %0#1, %0#0 : tensor<4x16xf32>, tensor<i32>
})");
  const ir::Module& module = *modules[0];
  auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
  auto graph = [&] {
    const testing::ScopedEnv env("HLOGRAPH_GPU_BINDING", binding);
    return GpuExecutable::Compile(module, Mode(ExecutionMode::kGraph));
  }();
  ASSERT_TRUE(stream.ok()) << stream.status().message();
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  ASSERT_EQ((*graph)->graph_plan().conditions, 2);

  // Three input sets (trip counts 5, 7, 2), each in two copies on the
  // device; results land in one of three slots.
  constexpr int kSets = 3, kCopies = 2, kSlots = 3, kCalls = 2000;
  const auto types = ir::FunctionSignature(*module.EntryFunction()).inputs;
  std::vector<std::vector<cpu::Tensor>> inputs, want;
  for (int s = 0; s < kSets; ++s) {
    auto a = cpu::RandomTensors(types, 500 + s);
    ASSERT_TRUE(a.ok());
    const int32_t trips[kSets] = {5, 7, 2};
    std::memcpy((*a)[2].mutable_bytes(), &trips[s], 4);
    auto w = (*stream)->Run(*a);
    ASSERT_TRUE(w.ok()) << w.status().message();
    inputs.push_back(std::move(*a));
    want.push_back(std::move(*w));
  }
  auto device = Stream::Create();
  ASSERT_TRUE(device.ok());
  std::vector<std::vector<DeviceBuffer>> args(kSets * kCopies);
  for (int s = 0; s < kSets; ++s) {
    for (int c = 0; c < kCopies; ++c) {
      for (const cpu::Tensor& t : inputs[static_cast<size_t>(s)]) {
        auto b = DeviceBuffer::Allocate(static_cast<int64_t>(t.byte_size()));
        ASSERT_TRUE(b.ok());
        ASSERT_TRUE(CopyHostToDevice(b->data(), t.bytes(), static_cast<int64_t>(t.byte_size()), device->get()).ok());
        args[static_cast<size_t>(s * kCopies + c)].push_back(std::move(*b));
      }
    }
  }
  std::vector<std::vector<DeviceBuffer>> results(kSlots);
  for (auto& slot : results) {
    for (const cpu::Tensor& t : want[0]) {
      auto b = DeviceBuffer::Allocate(static_cast<int64_t>(t.byte_size()));
      ASSERT_TRUE(b.ok());
      slot.push_back(std::move(*b));
    }
  }
  int wrong = 0;
  for (int call = 0; call < kCalls && wrong < 5; ++call) {
    const int s = call % kSets;
    const auto& a = args[static_cast<size_t>(s * kCopies + (call / kSets) % kCopies)];
    const auto& r = results[static_cast<size_t>(call % kSlots)];
    std::vector<const void*> arg_ptrs;
    for (const DeviceBuffer& b : a) arg_ptrs.push_back(b.data());
    std::vector<void*> result_ptrs;
    for (const DeviceBuffer& b : r) result_ptrs.push_back(b.data());
    ASSERT_TRUE((*graph)->Execute(arg_ptrs, result_ptrs, device->get()).ok());
    std::vector<cpu::Tensor> got;
    for (size_t i = 0; i < r.size(); ++i) {
      got.emplace_back(want[static_cast<size_t>(s)][i].type());
      ASSERT_TRUE(CopyDeviceToHost(got.back().mutable_bytes(), r[i].data(), static_cast<int64_t>(got.back().byte_size()),
                                   device->get())
                      .ok());
    }
    ASSERT_TRUE(device->Synchronize().ok());
    const std::string problem = Differs(want[static_cast<size_t>(s)], got);
    if (!problem.empty()) {
      ++wrong;
      ADD_FAILURE() << "call " << call << " (input set " << s << "): " << problem;
    }
  }
  const ExecutionStats stats = (*graph)->stats();
  std::cout << "pointer churn (" << binding << "): " << stats.executions << " calls, " << stats.binding.reuses
            << " reuses, " << stats.binding.node_updates << " node updates, " << stats.binding.instantiations
            << " instantiations, " << stats.binding.copies << " copies; " << BindingPolicyName(stats.binding_policy)
            << "\n";
  EXPECT_EQ(stats.host_syncs, 0);
  *stats_out = stats;
}

TEST(GpuGraphMode, PointerChurnUpdatingNodes) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExecutionStats s;
  PointerChurn("update", &s);
  if (HasFatalFailure()) return;
  EXPECT_GT(s.binding.node_updates, 0);
  EXPECT_EQ(s.binding.copies, 0);
  EXPECT_EQ(s.binding_policy, BindingPolicy::kUpdateNodes);
}

TEST(GpuGraphMode, PointerChurnThroughStableCopies) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExecutionStats s;
  PointerChurn("copy", &s);
  if (HasFatalFailure()) return;
  EXPECT_EQ(s.binding.node_updates, 0);  // bound once, to the stable buffers
  EXPECT_GT(s.binding.copies, 0);
  EXPECT_EQ(s.binding_policy, BindingPolicy::kStableCopies);
}

TEST(GpuGraphMode, PointerChurnChoosesStableCopies) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ExecutionStats s;
  PointerChurn("auto", &s);
  if (HasFatalFailure()) return;
  EXPECT_EQ(s.binding_policy, BindingPolicy::kStableCopies);
  EXPECT_GT(s.binding.copies, 0);
  EXPECT_GT(s.binding.node_updates, 0);  // during the calls it watched
}

// Several threads, each with its own buffers (so addresses move between
// calls), on one graph-mode executable: all results as stream mode's.
TEST(GpuGraphMode, ConcurrentCallsFromSeveralThreads) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  auto parsed = frontend::ParseFile(testing::SourceDir() + "/tests/corpus/while_loop_newton_sqrt.mlir");
  ASSERT_TRUE(parsed.ok());
  const ir::Module& module = *parsed->modules[0];
  auto stream = GpuExecutable::Compile(module, Mode(ExecutionMode::kStream));
  auto graph = GpuExecutable::Compile(module, Mode(ExecutionMode::kGraph));
  ASSERT_TRUE(stream.ok() && graph.ok());
  constexpr size_t kThreads = 6, kCalls = 20;
  std::vector<std::vector<cpu::Tensor>> args, want;
  for (size_t i = 0; i < kThreads * kCalls; ++i) {
    auto a = cpu::RandomTensors(ir::FunctionSignature(*module.EntryFunction()).inputs, 900 + i);
    ASSERT_TRUE(a.ok());
    auto w = (*stream)->Run(*a);
    ASSERT_TRUE(w.ok()) << w.status().message();
    args.push_back(std::move(*a));
    want.push_back(std::move(*w));
  }
  const std::vector<std::string> problems = testing::OnThreads(kThreads, [&](size_t t) -> std::string {
    for (size_t call = 0; call < kCalls; ++call) {
      const size_t i = t * kCalls + call;
      auto got = (*graph)->Run(args[i]);
      const std::string problem = got.ok() ? Differs(want[i], *got) : got.status().message();
      if (!problem.empty()) return "call " + std::to_string(call) + ": " + problem;
    }
    return "";
  });
  for (size_t t = 0; t < kThreads; ++t) EXPECT_TRUE(problems[t].empty()) << "thread " << t << ": " << problems[t];
}

}  // namespace
}  // namespace hlograph::gpu

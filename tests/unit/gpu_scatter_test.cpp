// Scatter on the GPU: how each form is planned (plan/scatter_plan.h), that
// every kernel compiles, and, on a GPU, that results match the interpreter.
#include <gtest/gtest.h>

#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/scatter_plan.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

struct ScatterCase {
  std::string type = "f32";
  std::string body = "add";  // add, minimum, maximum, multiply, replace, or, ...
  bool unique = false, sorted = false;
  // Rows of a [rows, width] operand updated by `count` rows of updates.
  int64_t rows = 64, width = 16, count = 200;
};

// x.at[idx].op(upd) over rows, as JAX writes it (indices [count, 1]).
std::string ScatterProgram(const ScatterCase& c) {
  const std::string t = c.type;
  const std::string operand = "tensor<" + std::to_string(c.rows) + "x" + std::to_string(c.width) + "x" + t + ">";
  const std::string upd = "tensor<" + std::to_string(c.count) + "x" + std::to_string(c.width) + "x" + t + ">";
  const std::string idx = "tensor<" + std::to_string(c.count) + "x1xi32>";
  const std::string ids = "tensor<" + std::to_string(c.count) + "xi32>";
  const std::string body = c.body == "replace"
                               ? "      stablehlo.return %b : tensor<" + t + ">\n"
                               : "      %r = stablehlo." + c.body + " %a, %b : tensor<" + t + ">\n" +
                                     "      stablehlo.return %r : tensor<" + t + ">\n";
  return "func.func @main(%x: " + operand + ", %i: tensor<" + std::to_string(c.count) + "xi32>, %u: " + upd +
         ") -> " + operand + " {\n" +
         // Unique indices count up; sorted ones repeat each index three times.
         (c.unique || c.sorted ? "  %k = stablehlo.iota dim = 0 : " + ids + "\n" : "") +
         (c.sorted ? "  %three = stablehlo.constant dense<3> : " + ids + "\n  %j = stablehlo.divide %k, %three : " + ids + "\n"
                   : "") +
         "  %idx = stablehlo.reshape " + (c.sorted ? "%j" : c.unique ? "%k" : "%i") + " : (" + ids + ") -> " + idx + "\n" +
         "  %s = \"stablehlo.scatter\"(%x, %idx, %u) <{indices_are_sorted = " + (c.sorted ? "true" : "false") +
         ", scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
         "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = " +
         (c.unique ? "true" : "false") + "}> ({\n" + "    ^bb0(%a: tensor<" + t + ">, %b: tensor<" + t + ">):\n" +
         body + "    }) : (" + operand + ", " + idx + ", " + upd + ") -> " + operand + "\n" + "  return %s : " +
         operand + "\n}\n";
}

const ir::Operation* FindScatter(const ir::Module& m) {
  const ir::Operation* found = nullptr;
  for (const auto& op : m.EntryFunction()->region(0).front().operations()) {
    if (op->name() == "stablehlo.scatter") found = op.get();
  }
  return found;
}

ScatterPlan PlanOf(const std::string& text) {
  auto modules = testing::ParseOrDie(text);
  const ir::Operation* op = FindScatter(*modules[0]);
  EXPECT_NE(op, nullptr);
  auto plan = PlanScatter(*op);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? *plan : ScatterPlan{};
}

// Two results scattered together (a variadic scatter of value and index).
constexpr const char* kVariadicScatter = R"(
func.func @main(%x: tensor<16xf32>, %y: tensor<16xi32>, %i: tensor<40x1xi32>, %u: tensor<40xf32>, %v: tensor<40xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %s:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
      %gt = stablehlo.compare GT, %c, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %gt, %c, %a : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %d, %b : tensor<i1>, tensor<i32>
      stablehlo.return %m, %k : tensor<f32>, tensor<i32>
    }) : (tensor<16xf32>, tensor<16xi32>, tensor<40x1xi32>, tensor<40xf32>, tensor<40xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %s#0, %s#1 : tensor<16xf32>, tensor<16xi32>
}
)";

// A segment sum whose operand is zeros made for it, and whose updates are
// computed from an argument (relu): both fuse (no copy, no update buffer).
constexpr const char* kSegmentSum = R"(
func.func @main(%m: tensor<300x8xf32>, %dst: tensor<300xi32>) -> tensor<50x8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zeros = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<50x8xf32>
  %zm = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<300x8xf32>
  %relu = stablehlo.maximum %m, %zm : tensor<300x8xf32>
  %idx = stablehlo.reshape %dst : (tensor<300xi32>) -> tensor<300x1xi32>
  %s = "stablehlo.scatter"(%zeros, %idx, %relu) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<50x8xf32>, tensor<300x1xi32>, tensor<300x8xf32>) -> tensor<50x8xf32>
  return %s : tensor<50x8xf32>
}
)";

// The gradient of take_along_axis (a cross-entropy's): one update per
// row, picked by the batching dim, consumed by a subtraction.
constexpr const char* kOneHotRows = R"(
func.func @main(%p: tensor<6x40xf32>, %labels: tensor<6x1x1xi32>, %g: tensor<6x1xf32>) -> tensor<6x40xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zeros = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<6x40xf32>
  %s = "stablehlo.scatter"(%zeros, %labels, %g) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<6x40xf32>, tensor<6x1x1xi32>, tensor<6x1xf32>) -> tensor<6x40xf32>
  %d = stablehlo.subtract %p, %s : tensor<6x40xf32>
  return %d : tensor<6x40xf32>
}
)";

TEST(GpuScatterPlan, WindowsPickedByBatchingDimsAloneFuseIntoTheConsumer) {
  auto modules = testing::ParseOrDie(kOneHotRows);
  const ir::Operation* op = FindScatter(*modules[0]);
  ASSERT_NE(op, nullptr);
  EXPECT_TRUE(IsElementMapScatter(*op));
  EXPECT_FALSE(IsElementMapScatter(*FindScatter(*testing::ParseOrDie(kSegmentSum)[0])));
  Planned p = Plan(kOneHotRows);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 1u) << p.program->ToString();
  EXPECT_EQ(p.program->fusions[0].kind, FusionKind::kLoop);
  ExpectEveryKernelCompiles("one-hot rows", kOneHotRows);
}

TEST(GpuScatterPlan, OrderFollowsTheBodyTheTypeAndTheFlags) {
  struct Want {
    ScatterCase c;
    ScatterCombiner combiner;
    ScatterOrder order;
  };
  const std::vector<Want> cases = {
      {{"f32", "add"}, ScatterCombiner::kAdd, ScatterOrder::kAtomic},
      {{"bf16", "add"}, ScatterCombiner::kAdd, ScatterOrder::kAtomic},
      {{"i64", "add"}, ScatterCombiner::kAdd, ScatterOrder::kAtomic},
      {{"i8", "add"}, ScatterCombiner::kAdd, ScatterOrder::kCompareSwap},
      {{"i32", "maximum"}, ScatterCombiner::kMax, ScatterOrder::kAtomic},
      {{"f32", "maximum"}, ScatterCombiner::kMax, ScatterOrder::kCompareSwap},
      {{"ui32", "minimum"}, ScatterCombiner::kMin, ScatterOrder::kAtomic},
      {{"f64", "multiply"}, ScatterCombiner::kOther, ScatterOrder::kCompareSwap},
      {{"f32", "replace"}, ScatterCombiner::kReplace, ScatterOrder::kLastWins},
      {{"f32", "multiply", true}, ScatterCombiner::kOther, ScatterOrder::kUnique},
      {{"f32", "add", false, true}, ScatterCombiner::kAdd, ScatterOrder::kSortedRuns},
      {{"complex<f64>", "multiply"}, ScatterCombiner::kOther, ScatterOrder::kSerial},
  };
  for (const Want& w : cases) {
    const ScatterPlan p = PlanOf(ScatterProgram(w.c));
    EXPECT_EQ(p.combiner, w.combiner) << w.c.type << " " << w.c.body << ": " << p.ToString();
    EXPECT_EQ(p.order, w.order) << w.c.type << " " << w.c.body << ": " << p.ToString();
    EXPECT_EQ(p.windows, 200);
    EXPECT_EQ(p.window_elements, 16);
  }
  const ScatterPlan variadic = PlanOf(kVariadicScatter);
  EXPECT_EQ(variadic.results, 2u);
  EXPECT_EQ(variadic.order, ScatterOrder::kSerial) << variadic.ToString();
  EXPECT_EQ(PlanOf(ScatterProgram({"f32", "add"})).ToString(), "add, atomic x4: 200 windows of 16");
}

TEST(GpuScatterPlan, VectorAtomicsWhereRowsSplitEvenly) {
  ScatterCase c{"f32", "add"};
  EXPECT_EQ(PlanOf(ScatterProgram(c)).vector, 4);
  c.type = "bf16";
  EXPECT_EQ(PlanOf(ScatterProgram(c)).vector, 2);
  c.type = "i32";
  EXPECT_EQ(PlanOf(ScatterProgram(c)).vector, 1);
  c = {"f32", "add"};
  c.width = 6;  // rows of 6: pairs would do, fours would not
  EXPECT_EQ(PlanOf(ScatterProgram(c)).vector, 1);
  c.width = 33;
  EXPECT_EQ(PlanOf(ScatterProgram(c)).vector, 1);
  c = {"f16", "add"};
  c.width = 6;
  const ScatterPlan p = PlanOf(ScatterProgram(c));
  EXPECT_EQ(p.vector, 2);
  EXPECT_EQ(p.threads(), 200 * 3);
}

TEST(GpuScatterPlan, SortedIndicesWithWideWindowsAlongTheIndexedDimAreAtomic) {
  // Windows two rows tall at sorted starts overlap: runs of equal starts
  // would not own their elements.
  const std::string text = R"(
func.func @main(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x2x4xf32>) -> tensor<10x4xf32> {
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x2x4xf32>) -> tensor<10x4xf32>
  return %s : tensor<10x4xf32>
})";
  const ScatterPlan p = PlanOf(text);
  EXPECT_EQ(p.order, ScatterOrder::kAtomic) << p.ToString();
  EXPECT_EQ(p.extent, (std::vector<int64_t>{2, 4}));
}

TEST(GpuScatterPlan, ReplaceWithDuplicatesClaimsUpdatesAndReleases) {
  Planned p = Plan(ScatterProgram({"f32", "replace"}));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // The copy of the operand, then claim, update and release sharing one
  // table of the 64 row slots, which is zero between calls.
  const auto& steps = p.program->main.steps;
  ASSERT_EQ(steps.size(), 4u) << p.program->ToString();
  std::vector<ScatterPass> passes;
  for (size_t i = 1; i < 4; ++i) {
    const auto& k = std::get<KernelStep>(steps[i].action);
    passes.push_back(p.program->fusions[static_cast<size_t>(k.fusion)].scatter_pass);
    ASSERT_EQ(k.scratch.size(), 1u);
    const Buffer& table = p.program->buffers[static_cast<size_t>(k.scratch[0])];
    EXPECT_TRUE(table.zero_at_rest);
    EXPECT_EQ(table.bytes, 64 * 4);
    auto kernel = EmitKernel(p.program->fusions[static_cast<size_t>(k.fusion)]);
    ASSERT_TRUE(kernel.ok()) << kernel.status().message();
    EXPECT_NE(kernel->strategy.find("last wins"), std::string::npos) << kernel->strategy;
  }
  EXPECT_EQ(passes, (std::vector<ScatterPass>{ScatterPass::kClaim, ScatterPass::kUpdate, ScatterPass::kRelease}));
  // The graph keeps the release although nothing reads what it writes.
  const GraphPlan graph = BuildGraphPlan(*p.program);
  ASSERT_EQ(graph.graphs.size(), 1u);
  EXPECT_EQ(graph.graphs[0].nodes.size(), 4u) << graph.ToString(*p.program);
}

TEST(GpuScatterPlan, ReplaceIntoAHugeArrayByElementsStoresWithoutATable) {
  const std::string text = R"(
func.func @main(%x: tensor<100000000xf32>, %i: tensor<1000x1xi32>, %u: tensor<1000xf32>) -> tensor<100000000xf32> {
  %s = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      stablehlo.return %b : tensor<f32>
    }) : (tensor<100000000xf32>, tensor<1000x1xi32>, tensor<1000xf32>) -> tensor<100000000xf32>
  return %s : tensor<100000000xf32>
})";
  const ScatterPlan p = PlanOf(text);
  EXPECT_EQ(p.order, ScatterOrder::kAtomic) << p.ToString();
  EXPECT_EQ(p.combiner, ScatterCombiner::kReplace);
}

TEST(GpuScatterPlan, OperandComputedIntoTheResultAndUpdatesFused) {
  Planned p = Plan(kSegmentSum);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  // The zeros' loop kernel writes the scatter's result; the scatter kernel
  // computes relu itself; nothing is copied.
  ASSERT_EQ(p.program->main.steps.size(), 2u) << p.program->ToString();
  const auto* fill = std::get_if<KernelStep>(&p.program->main.steps[0].action);
  const auto* scatter = std::get_if<KernelStep>(&p.program->main.steps[1].action);
  ASSERT_TRUE(fill && scatter);
  EXPECT_EQ(fill->outputs, scatter->outputs);
  const Fusion& f = p.program->fusions[static_cast<size_t>(scatter->fusion)];
  EXPECT_EQ(f.kind, FusionKind::kScatter);
  EXPECT_EQ(f.inputs.size(), 2u);  // the messages and the indices, not the zeros
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_NE(k->strategy.find("atomic"), std::string::npos) << k->strategy;
  EXPECT_GT(k->launch.grid[0], 1u);
}

TEST(GpuScatterPlan, ArgumentOperandIsCopiedFirst) {
  Planned p = Plan(ScatterProgram({"f32", "add"}));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->main.steps.size(), 2u) << p.program->ToString();
  const auto* copy = std::get_if<CopyStep>(&p.program->main.steps[0].action);
  const auto* scatter = std::get_if<KernelStep>(&p.program->main.steps[1].action);
  ASSERT_TRUE(copy && scatter);
  EXPECT_EQ(copy->dst, scatter->outputs[0]);
}

std::vector<ScatterCase> KernelCases() {
  std::vector<ScatterCase> cases;
  for (const char* t : {"f32", "f16", "bf16", "f64", "i32", "i64", "ui32", "i8", "ui16", "complex<f32>"}) {
    for (const char* body : {"add", "multiply", "maximum", "minimum", "replace"}) {
      const std::string type = t;
      if (type.rfind("complex", 0) == 0 && (std::string(body) == "maximum" || std::string(body) == "minimum")) continue;
      cases.push_back({type, body});
    }
  }
  cases.push_back({"i1", "or"});
  cases.push_back({"i1", "and"});
  cases.push_back({"f32", "add", true});
  cases.push_back({"f32", "multiply", false, true});
  cases.push_back({"bf16", "add", false, true});
  cases.push_back({"complex<f64>", "multiply"});
  return cases;
}

TEST(GpuScatterKernels, EveryFormCompiles) {
  for (const ScatterCase& c : KernelCases()) {
    ExpectEveryKernelCompiles(c.type + " " + c.body, ScatterProgram(c));
  }
  ExpectEveryKernelCompiles("variadic", kVariadicScatter);
  ExpectEveryKernelCompiles("segment sum", kSegmentSum);
}

TEST(GpuScatter, MatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  // Random indices are in [0, 8): many duplicates, all in bounds. Float
  // adds and multiplies combine duplicates in any order.
  uint64_t seed = 1;
  for (const ScatterCase& c : KernelCases()) {
    const bool any_order = (c.body == "add" || c.body == "multiply") && !c.sorted && !c.unique &&
                           (c.type[0] == 'f' || c.type[0] == 'b' || c.type[0] == 'c');
    ExpectMatchesInterpreterAndRepeats(c.type + " " + c.body, ScatterProgram(c), seed++,
                                       any_order ? Repeats::kWithinTolerance : Repeats::kBitwise);
  }
  ExpectMatchesInterpreterAndRepeats("variadic", kVariadicScatter, 5);
  ExpectMatchesInterpreterAndRepeats("segment sum", kSegmentSum, 6, Repeats::kWithinTolerance);
  ExpectMatchesInterpreterAndRepeats("one-hot rows", kOneHotRows, 7);
}

// A second call with other indices: the slot table was zeroed by the
// first call's release (a stale claim would pick an earlier window).
TEST(GpuScatter, ReplaceIsTheLastWriteOnEveryCall) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  const std::string text = ScatterProgram({"i32", "replace"});
  auto modules = testing::ParseOrDie(text);
  const ir::Operation* entry = modules[0]->EntryFunction();
  auto exe = GpuExecutable::Compile(*modules[0], Mode(ExecutionMode::kGraph));
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  for (uint64_t seed : {11, 12, 13}) {
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, seed);
    ASSERT_TRUE(args.ok());
    // Indices 0..7 only in the first 100 updates on even seeds, so that
    // the last claimant moves between calls.
    int32_t* idx = (*args)[1].mutable_data<int32_t>();
    for (int64_t k = 100; k < 200; ++k) idx[k] = seed % 2 ? idx[k] : 8 + static_cast<int32_t>(k % 50);
    auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
    ASSERT_TRUE(want.ok());
    auto got = (*exe)->Run(*args);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(Compare((*want)[0], (*got)[0], 0), "") << "seed " << seed;
  }
}

TEST(GpuScatter, LargeAddMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  ScatterCase c{"f32", "add"};
  c.rows = 1000;
  c.width = 33;
  c.count = 20000;
  ExpectMatchesInterpreterAndRepeats("large add", ScatterProgram(c), 7, Repeats::kWithinTolerance);
  c.type = "i32";
  ExpectMatchesInterpreterAndRepeats("large i32 add", ScatterProgram(c), 8);
}

}  // namespace
}  // namespace hlograph::gpu

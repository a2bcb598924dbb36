// Reductions on the GPU (plan/reduction_layout.h, codegen/reduction_kernel.cpp):
// the layout chosen for each shape, the scratch a split one gets, every
// kernel compiling with NVRTC, and (on a GPU) every layout and element type
// matching the interpreter and repeating bit for bit.
#include <gtest/gtest.h>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/reduction_layout.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

using Lanes = ReductionLayout::Lanes;

std::string TensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::vector<int64_t> Kept(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (std::count(dims.begin(), dims.end(), static_cast<int64_t>(d)) == 0) out.push_back(shape[d]);
  }
  return out;
}

std::string DimList(const std::vector<int64_t>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s;
}

// x of `shape` and `element` reduced over `dims` by `op` from `init`; with
// `accumulate` (as JAX sums bf16): converted to it first, the result back;
// with `producer` (an elementwise op): of that op of x, computed inline.
std::string ReduceText(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims, const std::string& element,
                       const std::string& op, const std::string& init, const std::string& accumulate = "",
                       const std::string& producer = "") {
  const std::string acc = accumulate.empty() ? element : accumulate;
  const std::string in = TensorType(shape, element), in_acc = TensorType(shape, acc);
  const std::string out = TensorType(Kept(shape, dims), element), out_acc = TensorType(Kept(shape, dims), acc);
  std::string s = "func.func @main(%x: " + in + ") -> " + out + " {\n";
  s += "  %init = stablehlo.constant dense<" + init + "> : tensor<" + acc + ">\n";
  std::string operand = "%x";
  if (!accumulate.empty()) {
    s += "  %c = stablehlo.convert %x : (" + in + ") -> " + in_acc + "\n";
    operand = "%c";
  }
  if (!producer.empty()) {
    s += "  %p = stablehlo." + producer + " " + operand + " : " + in_acc + "\n";
    operand = "%p";
  }
  s += "  %r = stablehlo.reduce(" + operand + " init: %init) applies stablehlo." + op + " across dimensions = [" +
       DimList(dims) + "] : (" + in_acc + ", tensor<" + acc + ">) -> " + out_acc + "\n";
  if (!accumulate.empty()) {
    s += "  %o = stablehlo.convert %r : (" + out_acc + ") -> " + out + "\n";
    s += "  return %o : " + out + "\n}\n";
  } else {
    s += "  return %r : " + out + "\n}\n";
  }
  return s;
}

// jnp.argmax (or argmin) of f32 x over `dim`, as JAX emits it: a variadic
// reduce of (x, iota) whose body keeps the larger value (NaN first), the
// lower index on ties.
std::string ArgText(const std::vector<int64_t>& shape, int64_t dim, bool max) {
  const std::string in = TensorType(shape, "f32"), idx = TensorType(shape, "i32");
  const std::string out = TensorType(Kept(shape, {dim}), "f32"), out_idx = TensorType(Kept(shape, {dim}), "i32");
  return "func.func @main(%x: " + in + ") -> " + out_idx + " {\n"
         "  %c = stablehlo.constant dense<0> : tensor<i32>\n"
         "  %cst = stablehlo.constant dense<" + std::string(max ? "0xFF800000" : "0x7F800000") + "> : tensor<f32>\n"
         "  %0 = stablehlo.iota dim = " + std::to_string(dim) + " : " + idx + "\n"
         "  %1:2 = stablehlo.reduce(%x init: %cst), (%0 init: %c) across dimensions = [" + std::to_string(dim) +
         "] : (" + in + ", " + idx + ", tensor<f32>, tensor<i32>) -> (" + out + ", " + out_idx + ")\n"
         "   reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {\n"
         "    %2 = stablehlo.compare " + std::string(max ? "GT" : "LT") +
         ", %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
         "    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
         "    %4 = stablehlo.or %2, %3 : tensor<i1>\n"
         "    %5 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
         "    %6 = stablehlo.compare LT, %i, %j, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
         "    %7 = stablehlo.and %5, %6 : tensor<i1>\n"
         "    %8 = stablehlo.or %4, %7 : tensor<i1>\n"
         "    %9 = stablehlo.select %4, %a, %b : tensor<i1>, tensor<f32>\n"
         "    %10 = stablehlo.select %8, %i, %j : tensor<i1>, tensor<i32>\n"
         "    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>\n"
         "  }\n"
         "  return %1#1 : " + out_idx + "\n}\n";
}

// jnp.var over `dims` as JAX emits it (mean by a first reduce, then the
// sum of squared differences computed inline in the second).
std::string VarianceText(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  const std::string in = TensorType(shape, "f32"), out = TensorType(Kept(shape, dims), "f32");
  int64_t count = 1;
  for (int64_t d : dims) count *= shape[static_cast<size_t>(d)];
  std::vector<int64_t> kept_dims;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t dim = static_cast<int64_t>(d);
    if (std::count(dims.begin(), dims.end(), dim) == 0) kept_dims.push_back(dim);
  }
  return "func.func @main(%x: " + in + ") -> " + out + " {\n"
         "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
         "  %n = stablehlo.constant dense<" + std::to_string(count) + ".0> : " + out + "\n"
         "  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [" + DimList(dims) + "] : (" +
         in + ", tensor<f32>) -> " + out + "\n"
         "  %1 = stablehlo.divide %0, %n : " + out + "\n"
         "  %2 = stablehlo.broadcast_in_dim %1, dims = [" + DimList(kept_dims) + "] : (" + out + ") -> " + in + "\n"
         "  %3 = stablehlo.subtract %x, %2 : " + in + "\n"
         "  %4 = stablehlo.multiply %3, %3 : " + in + "\n"
         "  %5 = stablehlo.reduce(%4 init: %z) applies stablehlo.add across dimensions = [" + DimList(dims) + "] : (" +
         in + ", tensor<f32>) -> " + out + "\n"
         "  %6 = stablehlo.divide %5, %n : " + out + "\n"
         "  return %6 : " + out + "\n}\n";
}

// Sums of |x| and of its squares, and the max of x over `dims` (a layer
// norm's statistics), and the max of x over `other` dims.
std::string SiblingsText(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims,
                         const std::vector<int64_t>& other = {}) {
  const std::string in = TensorType(shape, "f32"), out = TensorType(Kept(shape, dims), "f32");
  const std::string out_other = TensorType(Kept(shape, other), "f32");
  const auto reduce = [&](const std::string& name, const std::string& x, const std::string& op,
                          const std::string& init, const std::vector<int64_t>& d, const std::string& result) {
    return "  " + name + " = stablehlo.reduce(" + x + " init: " + init + ") applies stablehlo." + op +
           " across dimensions = [" + DimList(d) + "] : (" + in + ", tensor<f32>) -> " + result + "\n";
  };
  std::string s = "func.func @main(%x: " + in + ") -> (" + out + ", " + out + ", " + out +
                  (other.empty() ? "" : ", " + out_other) + ") {\n"
                  "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
                  "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n";
  s += "  %abs = stablehlo.abs %x : " + in + "\n";
  s += reduce("%0", "%abs", "add", "%z", dims, out);
  s += "  %sq = stablehlo.multiply %x, %x : " + in + "\n";
  s += reduce("%1", "%sq", "add", "%z", dims, out);
  s += reduce("%2", "%x", "maximum", "%ninf", dims, out);
  if (!other.empty()) s += reduce("%3", "%x", "maximum", "%ninf", other, out_other);
  s += "  return %0, %1, %2" + std::string(other.empty() ? "" : ", %3") + " : " + out + ", " + out + ", " + out +
       (other.empty() ? "" : ", " + out_other) + "\n}\n";
  return s;
}

// The layouts of the reductions of a program, in order.
std::vector<ReductionLayout> Layouts(const std::string& text) {
  std::vector<ReductionLayout> layouts;
  Planned p = Plan(text);
  EXPECT_TRUE(p.program.ok()) << p.program.status().message();
  if (!p.program.ok()) return layouts;
  for (const Fusion& f : p.program->fusions) {
    if (f.kind == FusionKind::kReduction) layouts.push_back(f.reduction);
  }
  return layouts;
}

TEST(GpuReductionLayout, ReduceEveryAxisOfTheZoo) {
  const std::vector<int64_t> x = {256, 512, 1024};
  // Sum over axis 0 and mean over axis 1: the innermost dim kept, a warp's
  // lanes on 32 neighbouring outputs, 8 slices of the reduced extent.
  for (const std::vector<int64_t>& dims : {std::vector<int64_t>{0}, std::vector<int64_t>{1}}) {
    const ReductionLayout l = PlanReductionLayout(x, dims, 4, 132);
    EXPECT_EQ(l.lanes, Lanes::kAlongOutputs);
    EXPECT_EQ(l.outputs_per_block, 32);
    EXPECT_EQ(l.lanes_per_output, 8);
    EXPECT_EQ(l.splits, 1);
  }
  // Max over the rows of 1024: a warp per row, four at a time.
  const ReductionLayout rows = PlanReductionLayout(x, {2}, 4, 132);
  EXPECT_EQ(rows.lanes, Lanes::kAlongReduced);
  EXPECT_EQ(rows.lanes_per_output, 32);
  EXPECT_TRUE(rows.vector_loads);
  EXPECT_EQ(rows.ToString(true), "row reduction (warp per output, 4-element vector loads)");
  // The variance over (0, 2): 512 outputs of 256K elements each, mixed
  // (a reduced dim outside the kept one): a block per output, and two
  // blocks each to fill 4 blocks an SM.
  const ReductionLayout mixed = PlanReductionLayout(x, {0, 2}, 4, 132);
  EXPECT_EQ(mixed.lanes, Lanes::kAlongReduced);
  EXPECT_EQ(mixed.lanes_per_output, 256);
  EXPECT_EQ(mixed.outputs, 512);
  EXPECT_EQ(mixed.reduced, 256 * 1024);
  EXPECT_EQ(mixed.splits, 2);
  EXPECT_EQ(mixed.chunk, 128 * 1024);
  EXPECT_EQ(mixed.ToString(), "row reduction (block per output, reduced extent split over 2 blocks, the last to "
                              "arrive folds them)");
}

TEST(GpuReductionLayout, AScalarOfManyElementsIsSplitOverTheDevice) {
  // newton_kepler's max |delta| over 16M elements: 4 blocks an SM.
  const ReductionLayout l = PlanReductionLayout({1 << 24}, {0}, 8, 132);
  EXPECT_EQ(l.lanes, Lanes::kAlongReduced);
  EXPECT_EQ(l.lanes_per_output, 256);
  EXPECT_EQ(l.splits, 4 * 132);
  EXPECT_EQ(l.chunk % 4, 0);  // vector loads start at multiples of 4
  EXPECT_GE(l.chunk * l.splits, int64_t{1} << 24);
  EXPECT_LT(l.chunk * (l.splits - 1), int64_t{1} << 24);  // no empty split
  EXPECT_EQ(l.counter_bytes(), 4);
  // Fewer SMs, fewer splits.
  EXPECT_EQ(PlanReductionLayout({1 << 24}, {0}, 8, 16).splits, 4 * 16);
  // Too few elements to be worth a split: one block.
  EXPECT_EQ(PlanReductionLayout({4096}, {0}, 4, 132).splits, 1);
  // Splits stop where each lane would read less than 64 bytes.
  const ReductionLayout mid = PlanReductionLayout({1 << 16}, {0}, 4, 132);
  EXPECT_EQ(mid.splits, (int64_t{1} << 16) * 4 / (256 * kReductionMinBytesPerLane));
}

TEST(GpuReductionLayout, ColumnsFollowTheInnermostKeptRun) {
  // A bias gradient: 512 columns of 4096 rows. 16 groups of 32 columns
  // are split 32 ways (each lane 16 rows of a split).
  const ReductionLayout bias = PlanReductionLayout({4096, 512}, {0}, 4, 132);
  EXPECT_EQ(bias.lanes, Lanes::kAlongOutputs);
  EXPECT_EQ(bias.outputs_per_block, 32);
  EXPECT_EQ(bias.lanes_per_output, 8);
  EXPECT_EQ(bias.splits, 32);
  EXPECT_EQ(bias.chunk, 128);
  // Three columns: a warp reads 8 rows of 4 columns (one lane idle in 4).
  const ReductionLayout three = PlanReductionLayout({1000000, 3}, {0}, 4, 132);
  EXPECT_EQ(three.outputs_per_block, 4);
  EXPECT_EQ(three.lanes_per_output, 64);
  EXPECT_GT(three.splits, 100);
  // A kept run outside the reduced one, outer kept dims too.
  const ReductionLayout outer = PlanReductionLayout({8, 64, 1000}, {1}, 4, 132);
  EXPECT_EQ(outer.lanes, Lanes::kAlongOutputs);
  EXPECT_EQ(outer.outputs, 8000);
  EXPECT_EQ(outer.lanes_per_output, 8);
  // Dims of size 1 do not count: [N, 1, 3] over (1, 2)... rows of 3: short
  // runs, a thread per output.
  const ReductionLayout short_rows = PlanReductionLayout({100000, 1, 3}, {1, 2}, 4, 132);
  EXPECT_EQ(short_rows.lanes, Lanes::kAlongOutputs);
  EXPECT_EQ(short_rows.lanes_per_output, 1);
  EXPECT_EQ(short_rows.ToString(), "reduction (thread per output)");
  // [N, 64, 1] over 1: the trailing 1 is no kept run, the rows are rows.
  EXPECT_EQ(PlanReductionLayout({1000, 64, 1}, {1}, 4, 132).lanes, Lanes::kAlongReduced);
  // Short reduced runs inside, long outside (sum over (0, 2) of 300x17x5):
  // lanes on outputs, slices of the reduced extent, split.
  const ReductionLayout mixed = PlanReductionLayout({300, 17, 5}, {0, 2}, 4, 132);
  EXPECT_EQ(mixed.lanes, Lanes::kAlongOutputs);
  EXPECT_EQ(mixed.lanes_per_output, 8);
  EXPECT_GT(mixed.splits, 1);
}

TEST(GpuReductionLayout, EmptyAndSingleElementExtents) {
  // Nothing to fold: each output is the init value, a thread each.
  const ReductionLayout empty = PlanReductionLayout({0, 5}, {0}, 4, 132);
  EXPECT_EQ(empty.reduced, 0);
  EXPECT_EQ(empty.outputs, 5);
  EXPECT_EQ(empty.lanes_per_output, 1);
  EXPECT_EQ(empty.splits, 1);
  EXPECT_EQ(PlanReductionLayout({5, 0}, {0}, 4, 132).blocks(), 0);  // no outputs
  const ReductionLayout scalar = PlanReductionLayout({}, {}, 4, 132);
  EXPECT_EQ(scalar.outputs, 1);
  EXPECT_EQ(scalar.reduced, 1);
  EXPECT_EQ(scalar.blocks(), 1);
}

TEST(GpuReductionLayout, PartialsHoldEachAccumulatorInItsOwnType) {
  ReductionLayout l = PlanReductionLayout({1 << 22}, {0}, 8, 132);
  ASSERT_GT(l.splits, 1);
  // argmax: f32 values then i32 indices, each 16-aligned.
  const std::vector<int64_t> offsets = ReductionPartialOffsets(l, {ir::ElementType::kF32, ir::ElementType::kI32});
  ASSERT_EQ(offsets.size(), 3u);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], (l.splits * 4 + 15) / 16 * 16);
  EXPECT_EQ(offsets[2], offsets[1] + (l.splits * 4 + 15) / 16 * 16);
  EXPECT_EQ(ReductionAccumulatorBytes(ir::ElementType::kBF16), 4);  // folds as float
  EXPECT_EQ(ReductionAccumulatorBytes(ir::ElementType::kI1), 1);
  EXPECT_EQ(ReductionAccumulatorBytes(ir::ElementType::kC128), 16);
}

TEST(GpuReductionPlan, ASplitReductionGetsPartialsAndCountersZeroAtRest) {
  Planned p = Plan(ArgText({1 << 20}, 0, true));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.fusions.size(), 1u) << g.ToString();
  const Fusion& f = g.fusions[0];
  ASSERT_EQ(f.kind, FusionKind::kReduction);
  ASSERT_GT(f.reduction.splits, 1);
  ASSERT_EQ(f.scratch_bytes.size(), 2u);
  EXPECT_EQ(f.scratch_bytes[0],
            ReductionPartialOffsets(f.reduction, {ir::ElementType::kF32, ir::ElementType::kI32}).back());
  EXPECT_EQ(f.scratch_bytes[1], f.reduction.groups() * 4);
  const auto& k = std::get<KernelStep>(g.main.steps[0].action);
  ASSERT_EQ(k.scratch.size(), 2u);
  EXPECT_FALSE(g.buffers[static_cast<size_t>(k.scratch[0])].zero_at_rest);
  EXPECT_TRUE(g.buffers[static_cast<size_t>(k.scratch[1])].zero_at_rest);
  auto kernel = EmitKernel(f);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  EXPECT_EQ(kernel->launch.grid[0], static_cast<uint32_t>(f.reduction.blocks()));
  EXPECT_NE(kernel->strategy.find("split over"), std::string::npos) << kernel->strategy;
  EXPECT_NE(kernel->code.find("arrivals[g] = 0u"), std::string::npos);  // zero again for the next call
  // A device with fewer SMs splits less, within the planned scratch; one
  // with more keeps the planned splits (more would not fit).
  EmitOptions few, many;
  few.sm_count = 16;
  many.sm_count = 200;
  auto on_few = EmitKernel(f, few), on_many = EmitKernel(f, many);
  ASSERT_TRUE(on_few.ok() && on_many.ok());
  EXPECT_EQ(on_few->launch.grid[0], 4u * 16);
  EXPECT_EQ(on_many->launch.grid[0], static_cast<uint32_t>(f.reduction.blocks()));
  // Enough outputs to fill the device: no scratch.
  Planned wide = Plan(ReduceText({8192, 1024}, {1}, "f32", "add", "0.0"));
  ASSERT_TRUE(wide.program.ok());
  EXPECT_TRUE(wide.program->fusions[0].scratch_bytes.empty());
  EXPECT_EQ(wide.program->fusions[0].reduction.splits, 1);
}

TEST(GpuReductionPlan, TheKernelSaysItsLayout) {
  struct Expect {
    std::string text, strategy;
  };
  const Expect cases[] = {
      {ReduceText({8192, 1024}, {1}, "f32", "add", "0.0"), "row reduction (warp per output, 4-element vector loads)"},
      {ReduceText({64, 8192}, {1}, "f32", "maximum", "0xFF800000"),
       "row reduction (block per output, 4-element vector loads, reduced extent split over 2 blocks, the last to "
       "arrive folds them)"},
      {ReduceText({100003}, {0}, "f32", "add", "0.0"),
       "row reduction (block per output, reduced extent split over 24 blocks, the last to arrive folds them)"},
      {ReduceText({256, 32768}, {0}, "f32", "add", "0.0"), "column reduction (32 outputs x 8 slices a block)"},
      {ReduceText({100000, 2}, {1}, "f32", "add", "0.0"), "reduction (thread per output)"},
  };
  for (const Expect& c : cases) {
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << p.program.status().message();
    auto k = EmitKernel(p.program->fusions.back());
    ASSERT_TRUE(k.ok()) << k.status().message();
    EXPECT_EQ(k->strategy, c.strategy) << c.text;
  }
}

TEST(GpuReductionPlan, OnlyInputsReadAtTheFoldedElementAreLoadedFourAtATime) {
  // y is shaped like the operand but read transposed: loaded element by
  // element only (four at a time as well would read it twice).
  const std::string text = R"(
func.func @main(%y: tensor<256x256xf32>, %x: tensor<256x256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [1] : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
  %s = stablehlo.add %x, %t : tensor<256x256xf32>
  %1 = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1] : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
  return %0, %1 : tensor<256xf32>, tensor<256xf32>
})";
  const testing::ScopedEnv apart("HLOGRAPH_GPU_SIBLING_REDUCTIONS", "0");
  Planned p = Plan(text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 2u);
  auto transposed = EmitKernel(p.program->fusions[0]);
  ASSERT_TRUE(transposed.ok()) << transposed.status().message();
  EXPECT_EQ(transposed->strategy.find("vector loads"), std::string::npos) << transposed->strategy;
  EXPECT_EQ(transposed->code.find("hlo_vec4<float> q"), std::string::npos);
  // x is read at the folded element: x four at a time, y not.
  auto both = EmitKernel(p.program->fusions[1]);
  ASSERT_TRUE(both.ok()) << both.status().message();
  EXPECT_NE(both->strategy.find("vector loads"), std::string::npos) << both->strategy;
  const Fusion& f = p.program->fusions[1];
  for (size_t i = 0; i < f.inputs.size(); ++i) {
    const bool is_x = f.inputs[i] == p.program->module->EntryFunction()->region(0).front().argument(1);
    EXPECT_EQ(both->code.find("hlo_vec4<float> q" + std::to_string(i)) != std::string::npos, is_x) << i;
  }
  ExpectEveryKernelCompiles("transposed", text);
}

TEST(GpuReductionPlan, TheZoosVarianceReadsItsMeanInline) {
  // The variance's second reduce computes (x - mean)^2 in its kernel: two
  // reduction kernels, nothing stored between them but the sums.
  Planned p = Plan(VarianceText({64, 33, 256}, {0, 2}));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  int reductions = 0;
  for (const Fusion& f : p.program->fusions) reductions += f.kind == FusionKind::kReduction;
  EXPECT_EQ(reductions, 2) << p.program->ToString();
  const std::vector<ReductionLayout> layouts = Layouts(VarianceText({64, 33, 256}, {0, 2}));
  ASSERT_EQ(layouts.size(), 2u);
  for (const ReductionLayout& l : layouts) {
    EXPECT_EQ(l.lanes, Lanes::kAlongReduced);
    EXPECT_EQ(l.outputs, 33);
  }
}

TEST(GpuReductionPlan, SiblingReductionsOfOneArrayShareAKernel) {
  // x.sum(), (x * x).sum() and x.max() over the rows: one kernel reading x
  // once, three outputs; the max over the columns is a kernel of its own.
  const std::string text = SiblingsText({64, 1000}, {1}, {0});
  Planned p = Plan(text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  ASSERT_EQ(g.fusions.size(), 2u) << g.ToString();
  EXPECT_EQ(g.fusions[0].kind, FusionKind::kReduction);
  EXPECT_EQ(g.fusions[0].outputs.size(), 3u);
  EXPECT_EQ(g.fusions[0].inputs.size(), 1u);  // x, once
  EXPECT_EQ(g.fusions[1].outputs.size(), 1u);
  EXPECT_EQ(g.main.steps.size(), 2u);
  auto k = EmitKernel(g.fusions[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  for (const char* store : {"o0[out]", "o1[out]", "o2[out]"}) {
    EXPECT_NE(k->code.find(store), std::string::npos) << store;
  }
  // Turned off: a kernel per reduce.
  {
    const testing::ScopedEnv off("HLOGRAPH_GPU_SIBLING_REDUCTIONS", "0");
    Planned apart = Plan(text);
    ASSERT_TRUE(apart.program.ok());
    EXPECT_EQ(apart.program->fusions.size(), 4u);
  }
  // A reduce reading another's result (the variance's sum of squared
  // differences from the mean) waits for it: two kernels.
  EXPECT_EQ(Layouts(VarianceText({64, 1000}, {1})).size(), 2u);
}

// Programs for every layout and element type: (name, text). The GPU test
// runs them all; the NVRTC test compiles them all. Long float sums of few
// outputs fold |x|: the interpreter's sum in order errs by about
// eps * n * |x|, more than the normwise tolerance where the terms cancel.
std::vector<std::pair<std::string, std::string>> Programs() {
  std::vector<std::pair<std::string, std::string>> p = {
      // rows: a warp, a block, split, odd lengths (no vector loads)
      {"rows_warp_f32", ReduceText({1000, 100}, {1}, "f32", "add", "0.0")},
      {"rows_warp_odd", ReduceText({300, 77}, {1}, "f32", "maximum", "0xFF800000")},
      {"rows_block_odd", ReduceText({3, 100003}, {1}, "f32", "add", "0.0", "", "abs")},
      {"rows_block_split", ReduceText({4, 1 << 18}, {1}, "f32", "add", "0.0", "", "abs")},
      {"scalar_split_odd", ReduceText({100003}, {0}, "f32", "add", "0.0", "", "abs")},
      {"scalar_split_vector", ReduceText({1 << 20}, {0}, "f32", "add", "0.0", "", "abs")},
      {"scalar_all_dims", ReduceText({7, 1000, 36}, {0, 1, 2}, "f32", "minimum", "0x7F800000")},
      // mixed: reduced dims outside and inside a kept one
      {"mixed_rows", ReduceText({64, 33, 256}, {0, 2}, "f32", "add", "0.0")},
      {"variance_0_2", VarianceText({64, 33, 256}, {0, 2})},
      {"mixed_short_inner", ReduceText({300, 17, 5}, {0, 2}, "f32", "add", "0.0")},
      // columns
      {"columns_7", ReduceText({1000, 7}, {0}, "f32", "add", "0.0")},
      {"columns_bias_split", ReduceText({4096, 512}, {0}, "f32", "add", "0.0")},
      {"columns_3_split", ReduceText({100003, 3}, {0}, "f32", "add", "0.0", "", "abs")},
      {"columns_outer_kept", ReduceText({8, 64, 1000}, {1}, "f32", "add", "0.0")},
      {"columns_two_reduced", ReduceText({16, 40, 8, 96}, {0, 2}, "f32", "maximum", "0xFF800000")},
      {"rows_transposed_input", R"(
func.func @main(%y: tensor<200x300xf32>, %x: tensor<300x200xf32>) -> tensor<300xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.transpose %y, dims = [1, 0] : (tensor<200x300xf32>) -> tensor<300x200xf32>
  %s = stablehlo.multiply %x, %t : tensor<300x200xf32>
  %0 = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1] : (tensor<300x200xf32>, tensor<f32>) -> tensor<300xf32>
  return %0 : tensor<300xf32>
})"},
      {"columns_short_128", ReduceText({16, 1000}, {0}, "f32", "add", "0.0")},  // 128 outputs x 2 slices a block
      {"columns_short_64_pred", ReduceText({40, 3000}, {0}, "i1", "or", "false")},  // 64 outputs x 4 slices
      {"thread_per_output", ReduceText({100003, 2}, {1}, "f32", "add", "0.0")},
      // sizes 1 and 7, a scalar, nothing to fold
      {"one_element", ReduceText({1}, {0}, "f32", "add", "0.0")},
      {"seven_elements", ReduceText({7}, {0}, "f32", "add", "0.0")},
      {"scalar_input", ReduceText({}, {}, "f32", "add", "0.0")},
      {"empty_extent", ReduceText({0, 5}, {0}, "f32", "add", "0.0")},
      {"empty_rows", ReduceText({5, 0}, {1}, "i32", "maximum", "-2147483648")},
      // bf16 and f16 folded in f32 (as JAX emits their sums), bf16 max in bf16
      {"bf16_rows_f32_sum", ReduceText({256, 1000}, {1}, "bf16", "add", "0.0", "f32")},
      {"bf16_columns_f32_sum", ReduceText({2048, 384}, {0}, "bf16", "add", "0.0", "f32")},
      {"bf16_scalar_max", ReduceText({100003}, {0}, "bf16", "maximum", "0xFF80")},
      {"f16_rows_f32_sum", ReduceText({64, 4096}, {1}, "f16", "add", "0.0", "f32")},
      // integers and bools
      {"i32_rows_sum", ReduceText({1000, 100}, {1}, "i32", "add", "0")},
      {"i32_columns_max", ReduceText({1000, 7}, {0}, "i32", "maximum", "-2147483648")},
      {"i32_scalar_split", ReduceText({1 << 20}, {0}, "i32", "add", "0")},
      {"i64_scalar_split", ReduceText({100003}, {0}, "i64", "add", "0")},
      {"pred_any_rows", ReduceText({500, 1000}, {1}, "i1", "or", "false")},
      {"pred_all_scalar", ReduceText({100003}, {0}, "i1", "and", "true")},
      {"pred_any_columns", ReduceText({1000, 33}, {0}, "i1", "or", "false")},
      {"f64_columns_sum", ReduceText({1000, 7}, {0}, "f64", "add", "0.0")},
      // argmax / argmin: (value, index) pairs
      {"argmax_rows", ArgText({100, 1000}, 1, true)},
      {"argmin_columns", ArgText({1000, 40}, 0, false)},
      {"argmax_scalar_split", ArgText({100003}, 0, true)},
      {"argmin_mixed", ArgText({16, 300, 33}, 1, false)},
      // siblings: several reduces of x in one kernel, rows and split columns
      {"siblings_rows", SiblingsText({300, 1000}, {1}, {0})},
      {"siblings_columns_split", SiblingsText({4096, 100}, {0})},
      {"siblings_scalar_split", SiblingsText({100003}, {0})},
  };
  return p;
}

TEST(GpuReductionKernels, EveryProgramCompiles) {
  for (const auto& [name, text] : Programs()) ExpectEveryKernelCompiles(name, text);
}

TEST(GpuReductionKernels, EveryProgramMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const auto& [name, text] : Programs()) ExpectMatchesInterpreterAndRepeats(name, text, 5);
}

}  // namespace
}  // namespace hlograph::gpu

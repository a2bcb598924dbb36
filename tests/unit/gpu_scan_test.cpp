// Scans on the GPU (plan/prefix_scan.h, plan/scan_layout.h,
// codegen/scan_kernel.cpp): which ops are scans, the layout chosen for each
// shape, the scratch a chunked one gets, every form compiling with NVRTC,
// and (on a GPU) every layout, direction and element type matching the
// interpreter and repeating bit for bit.
#include <gtest/gtest.h>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/planner.h"
#include "backends/gpu/plan/prefix_scan.h"
#include "backends/gpu/plan/scan_layout.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

std::string TensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::vector<int64_t> Without(std::vector<int64_t> shape, int64_t axis) {
  shape.erase(shape.begin() + axis);
  return shape;
}

// chlo.scan of x along `axis` by `op` (add, multiply, maximum, ...) from a
// splat `init`, returning the outputs and the final carry.
std::string ChloScanText(const std::vector<int64_t>& shape, int64_t axis, const std::string& element, bool reverse,
                         const std::string& op = "add", const std::string& init = "0", bool associative = true) {
  const std::string t = TensorType(shape, element), s = TensorType(Without(shape, axis), element);
  std::string text = "func.func @main(%x: " + t + ") -> (" + t + ", " + s + ") {\n";
  text += "  %init = stablehlo.constant dense<" + init + "> : " + s + "\n";
  text += "  %r:2 = chlo.scan(%x) inits (%init) dimension=" + std::to_string(axis) +
          "  attributes {is_associative = " + (associative ? "true" : "false") +
          ", is_reverse = " + (reverse ? "true" : "false") + "} {\n";
  text += "  ^bb0(%input: " + s + ", %carry: " + s + "):\n";
  text += "    %y = stablehlo." + op + " %input, %carry : " + s + "\n";
  text += "    stablehlo.return %y, %y : " + s + ", " + s + "\n";
  text += "  } : (" + t + ", " + s + ") -> (" + t + ", " + s + ")\n";
  text += "  return %r#0, %r#1 : " + t + ", " + s + "\n}\n";
  return text;
}

// The body of JAX's cumlogsumexp (logaddexp, NaN-safe where both are -inf).
std::string LogAddExpBody(const std::string& e) {
  const std::string s = "tensor<" + e + ">";
  return "    %m = stablehlo.maximum %a, %b : " + s + "\n" +
         "    %d = stablehlo.subtract %a, %b : " + s + "\n" +
         "    %nan = stablehlo.compare NE, %d, %d, FLOAT : (" + s + ", " + s + ") -> tensor<i1>\n" +
         "    %sum = stablehlo.add %a, %b : " + s + "\n" +
         "    %ad = stablehlo.abs %d : " + s + "\n" +
         "    %nd = stablehlo.negate %ad : " + s + "\n" +
         "    %ex = stablehlo.exponential %nd : " + s + "\n" +
         "    %lp = stablehlo.log_plus_one %ex : " + s + "\n" +
         "    %l = stablehlo.add %m, %lp : " + s + "\n" +
         "    %y = stablehlo.select %nan, %sum, %l : tensor<i1>, " + s + "\n";
}

// reduce_window of x: windows `window` padded by `padding` ([low, high] per
// dim), the body `op` (or "logaddexp") from `init`: JAX's cumulative ops on
// platforms other than CUDA when the window spans an axis.
std::string WindowText(const std::vector<int64_t>& shape, const std::string& element,
                       const std::vector<int64_t>& window, const std::vector<std::pair<int64_t, int64_t>>& padding,
                       const std::string& op, const std::string& init) {
  std::vector<int64_t> out_shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    out_shape.push_back(shape[d] + padding[d].first + padding[d].second - window[d] + 1);
  }
  const std::string t = TensorType(shape, element), o = TensorType(out_shape, element), s = "tensor<" + element + ">";
  std::string pads, dims;
  for (size_t d = 0; d < shape.size(); ++d) {
    pads += std::string(d ? ", " : "") + "[" + std::to_string(padding[d].first) + ", " +
            std::to_string(padding[d].second) + "]";
    dims += std::string(d ? ", " : "") + std::to_string(window[d]);
  }
  std::string text = "func.func @main(%x: " + t + ") -> " + o + " {\n";
  text += "  %init = stablehlo.constant dense<" + init + "> : " + s + "\n";
  text += "  %r = \"stablehlo.reduce_window\"(%x, %init) <{padding = dense<[" + pads + "]> : tensor<" +
          std::to_string(shape.size()) + "x2xi64>, window_dimensions = array<i64: " + dims + ">}> ({\n";
  text += "  ^bb0(%a: " + s + ", %b: " + s + "):\n";
  text += op == "logaddexp" ? LogAddExpBody(element) : "    %y = stablehlo." + op + " %a, %b : " + s + "\n";
  text += "    stablehlo.return %y : " + s + "\n";
  text += "  }) : (" + t + ", " + s + ") -> " + o + "\n";
  text += "  return %r : " + o + "\n}\n";
  return text;
}

// A cumulative op along `axis` as reduce_window (reverse: padded after).
std::string CumulativeText(const std::vector<int64_t>& shape, int64_t axis, const std::string& element, bool reverse,
                           const std::string& op, const std::string& init) {
  std::vector<int64_t> window(shape.size(), 1);
  std::vector<std::pair<int64_t, int64_t>> padding(shape.size(), {0, 0});
  const int64_t n = shape[static_cast<size_t>(axis)];
  window[static_cast<size_t>(axis)] = n;
  padding[static_cast<size_t>(axis)] = reverse ? std::pair<int64_t, int64_t>{0, n - 1}
                                               : std::pair<int64_t, int64_t>{n - 1, 0};
  return WindowText(shape, element, window, padding, op, init);
}

// The one kernel of a single-op program.
const Fusion& OnlyFusion(Planned& p) {
  EXPECT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(p.program->fusions.size(), 1u);
  return p.program->fusions.at(0);
}

TEST(GpuScanMatch, ReduceWindowsThatArePrefixScans) {
  struct Case {
    std::string text;
    bool scan;
    const char* why;
  };
  const std::vector<Case> cases = {
      {CumulativeText({6, 5}, 0, "f32", false, "add", "0.0"), true, "cumsum along axis 0"},
      {CumulativeText({6, 5}, 1, "f32", true, "add", "0.0"), true, "reverse cumsum along axis 1"},
      {CumulativeText({6, 5}, 1, "f32", false, "multiply", "1.0"), true, "cumprod"},
      {CumulativeText({6, 5}, 0, "f32", false, "maximum", "0xFF800000"), true, "cummax from -inf"},
      {CumulativeText({6, 5}, 0, "i32", false, "maximum", "5"), true, "a maximum folds any init into itself"},
      {CumulativeText({6, 5}, 1, "f32", false, "logaddexp", "0xFF800000"), true, "cumlogsumexp"},
      {CumulativeText({6, 5}, 1, "f32", false, "add", "1.0"), false, "a sum from 1 counts the padding"},
      {CumulativeText({6, 5}, 1, "f32", false, "logaddexp", "0.0"), false, "logaddexp(0, 0) is not 0"},
      {WindowText({6, 5}, "f32", {3, 1}, {{1, 1}, {0, 0}}, "add", "0.0"), false, "a sliding window"},
      {WindowText({6, 5}, "f32", {6, 5}, {{5, 0}, {4, 0}}, "add", "0.0"), false, "windows along two axes"},
      {WindowText({6, 5}, "f32", {6, 1}, {{0, 0}, {0, 0}}, "add", "0.0"), false, "a whole-axis window unpadded"},
      {WindowText({6, 5}, "f32", {6, 1}, {{5, 5}, {0, 0}}, "add", "0.0"), false, "padded on both sides"},
  };
  for (const Case& c : cases) {
    auto modules = testing::ParseOrDie(c.text);
    const ir::Operation* window = nullptr;
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "stablehlo.reduce_window") window = op.get();
    }
    ASSERT_NE(window, nullptr) << c.why;
    const std::optional<PrefixScan> s = MatchPrefixScan(*window);
    EXPECT_EQ(s.has_value(), c.scan) << c.why;
    Planned p = Plan(c.text);
    const Fusion& f = OnlyFusion(p);
    EXPECT_EQ(f.kind, c.scan ? FusionKind::kScan : FusionKind::kLoop) << c.why;
  }
  auto reversed = testing::ParseOrDie(CumulativeText({6, 5}, 1, "f32", true, "add", "0.0"));
  const std::optional<PrefixScan> reverse =
      MatchPrefixScan(*reversed.at(0)->EntryFunction()->region(0).front().operations()[1]);
  ASSERT_TRUE(reverse.has_value());
  EXPECT_EQ(reverse->axis, 1);
  EXPECT_TRUE(reverse->reverse);
  EXPECT_TRUE(reverse->carry_first);
  EXPECT_FALSE(reverse->final_carry);
}

TEST(GpuScanMatch, ChloScansAndWhenTheyRunInParallel) {
  auto first_scan = [](const std::string& text) {
    auto modules = testing::ParseOrDie(text);
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "chlo.scan") return MatchPrefixScan(*op);
    }
    return std::optional<PrefixScan>{};
  };
  const auto sum = first_scan(ChloScanText({8, 3}, 0, "f32", true));
  ASSERT_TRUE(sum.has_value());
  EXPECT_TRUE(sum->associative);
  EXPECT_TRUE(sum->reverse);
  EXPECT_FALSE(sum->carry_first);
  EXPECT_TRUE(sum->final_carry);
  const auto serial = first_scan(ChloScanText({8, 3}, 0, "f32", false, "add", "0", /*associative=*/false));
  ASSERT_TRUE(serial.has_value());
  EXPECT_FALSE(serial->associative);
}

TEST(GpuScanLayout, TheShapeDecidesTheLayout) {
  struct Case {
    std::vector<int64_t> shape;
    int64_t axis;
    bool associative;
    int bytes;
    std::string strategy;
  };
  const std::vector<Case> cases = {
      // Rows plentiful, the axis innermost: a warp per row.
      {{4096, 1024}, 1, true, 4, "scan (warp per row, 32-element tiles, carried prefix)"},
      // A mixture-of-experts router's cumsum over 8192 tokens of 8 experts:
      // 8 columns of 4-byte elements, one sector a row, split along the axis.
      {{8192, 8}, 0, true, 4,
       "scan (warp tiles of 8 columns x 4 positions, carried prefix, axis in 128 chunks of 64 joined by a look-back)"},
      // A 1-D cumsum: one row, split into chunks of 32 tiles.
      {{1 << 20}, 0, true, 4,
       "scan (warp per row, 32-element tiles, carried prefix, axis in 1024 chunks of 1024 joined by a look-back)"},
      // Many columns: 32 a warp, no split.
      {{64, 512, 4096}, 1, true, 4, "scan (warp tiles of 32 columns x 1 positions, carried prefix)"},
      // Too few 32-wide groups: a sector (8 f32, 16 bf16) a warp row, then a split.
      {{1024, 4096}, 0, true, 4,
       "scan (warp tiles of 8 columns x 4 positions, carried prefix, axis in 9 chunks of 116 joined by a look-back)"},
      {{1024, 4096}, 0, true, 2,
       "scan (warp tiles of 16 columns x 2 positions, carried prefix, axis in 17 chunks of 62 joined by a look-back)"},
      // Short rows: a lane per row.
      {{8192, 8}, 1, true, 4, "serial scan (a lane per line, 32 lines a warp)"},
      // Not associative: in order, whatever the shape.
      {{1 << 20}, 0, false, 4, "serial scan (a lane per line, 32 lines a warp)"},
  };
  for (const Case& c : cases) {
    const ScanLayout l = PlanScanLayout(c.shape, c.axis, c.associative, c.bytes, kPlannedSmCount);
    EXPECT_EQ(l.ToString(), c.strategy) << ::testing::PrintToString(c.shape) << " axis " << c.axis;
    EXPECT_GE(l.chunks, 1);
    EXPECT_GE(l.chunk * l.chunks, l.length);
    EXPECT_LT(l.chunk * (l.chunks - 1), l.length) << "no empty chunk";
    if (!l.serial) {
      EXPECT_EQ(l.chunk % l.rows, 0);
      EXPECT_LE(l.columns * l.rows, 32);
      EXPECT_LE((l.chunks + l.rows - 1) / l.rows, kScanMaxLookBackPerLane);
    }
  }
  // The odd inner extent takes all its columns in one tile (3 x 10 lanes).
  const ScanLayout odd = PlanScanLayout({5000, 3}, 0, true, 4, kPlannedSmCount);
  EXPECT_EQ(odd.columns, 3);
  EXPECT_EQ(odd.rows, 10);
}

TEST(GpuScanPlan, AChunkedScanGetsTotalsAndCountersZeroAtRest) {
  Planned p = Plan(ChloScanText({8192, 8}, 0, "f32", false));
  const Fusion& f = OnlyFusion(p);
  EXPECT_EQ(f.kind, FusionKind::kScan);
  EXPECT_EQ(f.scan.chunks, 128);
  ASSERT_EQ(f.scratch_bytes.size(), 2u);
  EXPECT_EQ(f.scratch_bytes[0], 128 * 8 * ScanLayout::kSlotBytes);
  EXPECT_EQ(f.scratch_bytes[1], (2 + 128) * 4);
  const auto* k = std::get_if<KernelStep>(&p.program->main.steps.at(0).action);
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->scratch.size(), 2u);
  EXPECT_FALSE(p.program->buffers[static_cast<size_t>(k->scratch[0])].zero_at_rest);
  EXPECT_TRUE(p.program->buffers[static_cast<size_t>(k->scratch[1])].zero_at_rest);
  auto kernel = EmitKernel(f);
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  EXPECT_EQ(kernel->strategy, f.scan.ToString());
  EXPECT_EQ(kernel->launch.grid[0], 16u);  // 128 warps, 8 a block
  EXPECT_NE(p.program->ToString().find("scan (warp tiles of 8 columns x 4 positions"), std::string::npos);
  // Unsplit: no scratch.
  Planned rows = Plan(ChloScanText({4096, 64}, 1, "f32", false));
  EXPECT_TRUE(OnlyFusion(rows).scratch_bytes.empty());
}

TEST(GpuScanPlan, OperandsAreComputedInsideTheScan) {
  // A one-hot's cumsum (a router's expert positions): compare, convert and
  // the scan in one kernel, the one-hot never stored.
  const std::string text = R"(
func.func @main(%e: tensor<4096x1xi32>) -> tensor<4096x8xi32> {
  %iota = stablehlo.iota dim = 1 : tensor<4096x8xi32>
  %b = stablehlo.broadcast_in_dim %e, dims = [0, 1] : (tensor<4096x1xi32>) -> tensor<4096x8xi32>
  %eq = stablehlo.compare EQ, %b, %iota : (tensor<4096x8xi32>, tensor<4096x8xi32>) -> tensor<4096x8xi1>
  %onehot = stablehlo.convert %eq : (tensor<4096x8xi1>) -> tensor<4096x8xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%onehot, %zero) <{padding = dense<[[4095, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 4096, 1>}> ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4096x8xi32>, tensor<i32>) -> tensor<4096x8xi32>
  return %r : tensor<4096x8xi32>
})";
  Planned p = Plan(text);
  const Fusion& f = OnlyFusion(p);
  EXPECT_EQ(f.kind, FusionKind::kScan);
  EXPECT_EQ(f.inputs.size(), 1u);  // the expert ids alone
  EXPECT_GT(f.scan.chunks, 1);
  ExpectEveryKernelCompiles("one-hot cumsum", text);
}

TEST(GpuScanPlan, JaxsExportedCumsumIsOneScanKernel) {
  // jnp.cumsum as jax.export writes it for CUDA: a composite holding the
  // scan's body, a while loop as its decomposition.
  const std::string text = R"(
module @jit_cumsum {
  func.func public @main(%arg0: tensor<64x33xf32>) -> tensor<64x33xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<33xf32>
    %1:2 = stablehlo.composite "chlo.scan" %arg0, %0 ({
    ^bb0(%arg1: tensor<33xf32>, %arg2: tensor<33xf32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<33xf32>
      stablehlo.return %2, %2 : tensor<33xf32>, tensor<33xf32>
    }) {composite_attributes = {dimension = 0 : i64, is_associative = true, is_reverse = false, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}, decomposition = @chlo.scan.impl, version = 1 : i32} : (tensor<64x33xf32>, tensor<33xf32>) -> (tensor<64x33xf32>, tensor<33xf32>)
    return %1#0 : tensor<64x33xf32>
  }
  func.func private @chlo.scan.impl(%arg0: tensor<64x33xf32>, %arg1: tensor<33xf32>) -> (tensor<64x33xf32>, tensor<33xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<64x33xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x33xf32>
    %3:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %arg1, %iterArg_2 = %2) : tensor<i64>, tensor<33xf32>, tensor<64x33xf32>
    cond {
      %4 = stablehlo.compare LT, %iterArg, %1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.dynamic_slice %arg0, %iterArg, %c_0, sizes = [1, 33] : (tensor<64x33xf32>, tensor<i64>, tensor<i64>) -> tensor<1x33xf32>
      %5 = stablehlo.reshape %4 : (tensor<1x33xf32>) -> tensor<33xf32>
      %6 = stablehlo.add %5, %iterArg_1 : tensor<33xf32>
      %7 = stablehlo.reshape %6 : (tensor<33xf32>) -> tensor<1x33xf32>
      %8 = stablehlo.dynamic_update_slice %iterArg_2, %7, %iterArg, %c_0 : (tensor<64x33xf32>, tensor<1x33xf32>, tensor<i64>, tensor<i64>) -> tensor<64x33xf32>
      %9 = stablehlo.add %iterArg, %c : tensor<i64>
      stablehlo.return %9, %6, %8 : tensor<i64>, tensor<33xf32>, tensor<64x33xf32>
    }
    return %3#2, %3#1 : tensor<64x33xf32>, tensor<33xf32>
  }
})";
  Planned p = Plan(text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  ASSERT_EQ(p.program->fusions.size(), 1u);
  EXPECT_EQ(p.program->fusions[0].kind, FusionKind::kScan);
  EXPECT_EQ(p.program->main.steps.size(), 1u) << "no while loop";
  ExpectEveryKernelCompiles("exported cumsum", text);
  // On a GPU: the scan kernel against the interpreter running JAX's own
  // decomposition.
  if (GpuAvailable()) ExpectMatchesInterpreterAndRepeats("exported cumsum", text, 11);
}

// The maximum's identity in `element`.
std::string NegInf(const std::string& element) {
  if (element == "i32") return "-2147483648";
  return element == "bf16" ? "0xFF80" : "0xFF800000";
}

// Every form of every layout, small: the scans of the GPU tests below.
std::vector<std::pair<std::string, std::string>> Programs() {
  std::vector<std::pair<std::string, std::string>> p;
  for (const char* e : {"f32", "bf16", "i32"}) {
    const std::string el = e;
    for (bool reverse : {false, true}) {
      const std::string tag = el + (reverse ? " reverse" : "");
      // bf16 sums round at every step, so the interpreter's serial sum and
      // the GPU's tiles differ by about sqrt(length) half-ulps: beyond the
      // normwise tolerance from ~50 terms (measured on the H200: 77 terms
      // off by 0.31 where 0.30 was allowed). bf16 sums take short axes;
      // its long axes take maximum, which is exact in any order.
      const bool rounds = el == "bf16";
      p.push_back({"chlo rows " + tag, ChloScanText({300, rounds ? 12 : 77}, 1, el, reverse)});
      if (!rounds) p.push_back({"chlo router " + tag, ChloScanText({8192, 8}, 0, el, reverse)});
      p.push_back({"chlo columns " + tag, ChloScanText({3, rounds ? 12 : 129, 70}, 1, el, reverse)});
      if (rounds) {
        p.push_back({"chlo rows max " + tag, ChloScanText({300, 77}, 1, el, reverse, "maximum", NegInf(el))});
        p.push_back({"chlo router max " + tag, ChloScanText({8192, 8}, 0, el, reverse, "maximum", NegInf(el))});
        p.push_back({"chlo columns max " + tag, ChloScanText({3, 129, 70}, 1, el, reverse, "maximum", NegInf(el))});
      }
      p.push_back({"window cumsum " + tag, CumulativeText({37, 45}, 0, el, reverse, "add", el == "i32" ? "0" : "0.0")});
      p.push_back({"window cummax " + tag,
                   CumulativeText({9, 200}, 1, el, reverse, "maximum", NegInf(el))});
    }
  }
  p.push_back({"chlo 1-d f32", ChloScanText({100003}, 0, "f32", false)});
  p.push_back({"chlo 1-d i32 reverse", ChloScanText({65536}, 0, "i32", true)});
  p.push_back({"chlo odd columns", ChloScanText({2000, 3}, 0, "f32", false, "maximum", "0xFF800000")});
  p.push_back({"chlo short rows", ChloScanText({1000, 5}, 1, "f32", true, "multiply", "1.0")});
  p.push_back({"chlo not associative", ChloScanText({4, 3000}, 1, "f32", false, "subtract", "0.0", false)});
  p.push_back({"chlo f64", ChloScanText({50, 40}, 0, "f64", false)});
  p.push_back({"chlo no lines", ChloScanText({0, 40}, 1, "f32", false)});
  p.push_back({"chlo empty axis", ChloScanText({4, 0}, 1, "f32", false, "add", "2.5")});
  p.push_back({"window cumprod", CumulativeText({20, 33}, 1, "f32", false, "multiply", "1.0")});
  p.push_back({"window cumlogsumexp", CumulativeText({70, 9}, 0, "f32", false, "logaddexp", "0xFF800000")});
  p.push_back({"window cumlogsumexp reverse", CumulativeText({3, 300}, 1, "f32", true, "logaddexp", "0xFF800000")});
  p.push_back({"window complex cumsum", CumulativeText({40, 6}, 0, "complex<f32>", false, "add", "(0.0,0.0)")});
  return p;
}

TEST(GpuScanKernels, EveryFormCompiles) {
  // A representative of each layout and type (compiling every program
  // would take NVRTC a minute).
  for (const auto& [name, text] : Programs()) {
    if (name.find(" reverse") != std::string::npos && name.find("chlo router") == std::string::npos &&
        name.find("cumlogsumexp") == std::string::npos && name.find("1-d") == std::string::npos) {
      continue;
    }
    ExpectEveryKernelCompiles(name, text);
  }
}

TEST(GpuScan, EveryProgramMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  uint64_t seed = 1;
  for (const auto& [name, text] : Programs()) ExpectMatchesInterpreterAndRepeats(name, text, seed++);
}

}  // namespace
}  // namespace hlograph::gpu

// Sort, argsort and top_k on the GPU (plan/sort_plan.h): the plan's
// choice and its cost rule, the block sort's network simulated on the
// host, the planner's passes and temps, every pass kernel compiled by
// NVRTC, and (on a GPU) results equal to the interpreter's bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "backends/gpu/codegen/sort_network.h"
#include "backends/gpu/explain.h"
#include "backends/gpu/plan/sort_lowering.h"
#include "backends/gpu/plan/sort_plan.h"
#include "gpu_test_util.h"

namespace hlograph::gpu {
namespace {

constexpr int kSms = 132;

// ---- Programs ---------------------------------------------------------

std::string Tensor(const std::vector<int64_t>& shape, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::string Scalar(const std::string& element) { return "tensor<" + element + ">"; }

// JAX's jnp.sort comparator of floats: -0 as +0, every NaN as one NaN, then
// a total order; `nan` is the element's canonical NaN in hex.
std::string JaxFloatLess(const std::string& e, const std::string& nan, int operand = 0,
                         const std::string& direction = "LT") {
  const std::string t = Scalar(e), a = "%a" + std::to_string(operand), b = "%b" + std::to_string(operand);
  const std::string cmp = " : (" + t + ", " + t + ") -> tensor<i1>\n";
  return "    %nan = stablehlo.constant dense<" + nan + "> : " + t + "\n" +
         "    %zero = stablehlo.constant dense<0.0> : " + t + "\n" +
         "    %az = stablehlo.compare EQ, " + a + ", %zero, FLOAT" + cmp +
         "    %a1c = stablehlo.select %az, %zero, " + a + " : tensor<i1>, " + t + "\n" +
         "    %an = stablehlo.compare NE, " + a + ", " + a + ", FLOAT" + cmp +
         "    %ak = stablehlo.select %an, %nan, %a1c : tensor<i1>, " + t + "\n" +
         "    %bz = stablehlo.compare EQ, " + b + ", %zero, FLOAT" + cmp +
         "    %b1c = stablehlo.select %bz, %zero, " + b + " : tensor<i1>, " + t + "\n" +
         "    %bn = stablehlo.compare NE, " + b + ", " + b + ", FLOAT" + cmp +
         "    %bk = stablehlo.select %bn, %nan, %b1c : tensor<i1>, " + t + "\n" +
         "    %less = stablehlo.compare " + direction + ", %ak, %bk, TOTALORDER" + cmp;
}

// compare DIRECTION of operand j's pair, of type TYPE (SIGNED, TOTALORDER...).
std::string PlainLess(const std::string& e, const std::string& direction, const std::string& type, int operand = 0) {
  const std::string t = Scalar(e);
  return "    %less = stablehlo.compare " + direction + ", %a" + std::to_string(operand) + ", %b" +
         std::to_string(operand) + ", " + type + " : (" + t + ", " + t + ") -> tensor<i1>\n";
}

// Lexicographic, JAX's lexsort of two keys: operand 0 (i32) first, then
// operand 1 (f32, canonicalised).
std::string LexLess() {
  const std::string f = JaxFloatLess("f32", "0x7FC00000", 1);
  const std::string first = f.substr(0, f.rfind("    %less"));
  return first +
         "    %flt = stablehlo.compare LT, %ak, %bk, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
         "    %ilt = stablehlo.compare LT, %a0, %b0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
         "    %ieq = stablehlo.compare EQ, %a0, %b0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
         "    %tie = stablehlo.and %ieq, %flt : tensor<i1>\n"
         "    %less = stablehlo.or %ilt, %tie : tensor<i1>\n";
}

// A sort of `shape` along `dim`. Operands: "f32" etc. are arguments; "iota"
// is an i32 iota along `dim`; "special" is an f32 argument with NaNs of
// both signs, infinities and zeros of both signs mixed in (chosen by a
// second, i32 argument). `comparator` defines %less from %a<j>, %b<j>.
// With `slice_k` > 0 the results are returned through slices of their
// first k along `dim`; `returned` picks the results returned (all: empty).
struct SortCase {
  std::vector<int64_t> shape;
  int64_t dim = 0;
  std::vector<std::string> operands;
  std::string comparator;
  int64_t slice_k = 0;
  std::vector<int> returned;
};

std::string ElementOf(const std::string& operand) {
  return operand == "iota" ? "i32" : operand == "special" ? "f32" : operand;
}

std::string SortText(const SortCase& c) {
  std::string args, prelude, sort_operands, types, region_args, results;
  int arg = 0;
  for (size_t j = 0; j < c.operands.size(); ++j) {
    const std::string& o = c.operands[j];
    const std::string e = ElementOf(o), t = Tensor(c.shape, e), v = "%v" + std::to_string(j);
    if (o == "iota") {
      prelude += "  " + v + " = stablehlo.iota dim = " + std::to_string(c.dim) + " : " + t + "\n";
    } else if (o == "special") {
      const std::string x = "%x" + std::to_string(arg++), s = "%x" + std::to_string(arg++);
      const std::string ti = Tensor(c.shape, "i32"), tb = Tensor(c.shape, "i1");
      args += std::string(args.empty() ? "" : ", ") + x + ": " + t + ", " + s + ": " + ti;
      const char* values[] = {"0x7FC00000", "0xFFC00001", "-0.0", "0x7F800000", "0xFF800000", "0.0"};
      std::string chain = x;
      for (int k = 5; k >= 0; --k) {
        const std::string id = std::to_string(j) + "_" + std::to_string(k);
        prelude += "  %k" + id + " = stablehlo.constant dense<" + std::to_string(k) + "> : " + ti + "\n" +
                   "  %c" + id + " = stablehlo.constant dense<" + values[k] + "> : " + t + "\n" +
                   "  %p" + id + " = stablehlo.compare EQ, " + s + ", %k" + id + ", SIGNED : (" + ti + ", " + ti +
                   ") -> " + tb + "\n" +
                   "  %s" + id + " = stablehlo.select %p" + id + ", %c" + id + ", " + chain + " : " + tb + ", " + t + "\n";
        chain = "%s" + id;
      }
      sort_operands += (j ? ", " : "") + chain;  // computed in the kernel
      types += (j ? ", " : "") + t;
      region_args += std::string(j ? ", " : "") + "%a" + std::to_string(j) + ": " + Scalar(e) + ", %b" +
                     std::to_string(j) + ": " + Scalar(e);
      continue;
    } else {
      const std::string x = "%x" + std::to_string(arg++);
      args += std::string(args.empty() ? "" : ", ") + x + ": " + t;
      prelude += "  " + v + " = stablehlo.add " + x + ", " + x + " : " + t + "\n";
      if (e == "i1") prelude.replace(prelude.rfind("stablehlo.add"), 13, "stablehlo.or");
    }
    sort_operands += (j ? ", " : "") + v;
    types += (j ? ", " : "") + t;
    region_args += std::string(j ? ", " : "") + "%a" + std::to_string(j) + ": " + Scalar(e) + ", %b" + std::to_string(j) +
                   ": " + Scalar(e);
  }
  std::vector<int> returned = c.returned;
  if (returned.empty()) {
    returned.resize(c.operands.size());
    std::iota(returned.begin(), returned.end(), 0);
  }
  std::vector<int64_t> out_shape = c.shape;
  if (c.slice_k > 0) out_shape[static_cast<size_t>(c.dim)] = c.slice_k;
  std::string ret_values, ret_types, slices;
  for (size_t i = 0; i < returned.size(); ++i) {
    const std::string e = ElementOf(c.operands[static_cast<size_t>(returned[i])]);
    std::string v = "%r#" + std::to_string(returned[i]);
    if (c.slice_k > 0) {
      std::string ranges;
      for (size_t d = 0; d < c.shape.size(); ++d) {
        ranges += (d ? ", 0:" : "0:") + std::to_string(out_shape[d]);
      }
      slices += "  %sl" + std::to_string(i) + " = stablehlo.slice " + v + " [" + ranges + "] : (" + Tensor(c.shape, e) +
                ") -> " + Tensor(out_shape, e) + "\n";
      v = "%sl" + std::to_string(i);
    }
    ret_values += (i ? ", " : "") + v;
    ret_types += (i ? ", " : "") + Tensor(out_shape, e);
  }
  const std::string n_results = c.operands.size() > 1 ? ":" + std::to_string(c.operands.size()) : "";
  return "func.func @main(" + args + ") -> (" + ret_types + ") {\n" + prelude + "  %r" + n_results +
         " = \"stablehlo.sort\"(" + sort_operands + ") <{dimension = " + std::to_string(c.dim) +
         " : i64, is_stable = true}> ({\n  ^bb0(" + region_args + "):\n" + c.comparator +
         "    stablehlo.return %less : tensor<i1>\n  }) : (" + types + ") -> (" + types + ")\n" + slices + "  return " +
         ret_values + " : " + ret_types + "\n}\n";
}

// chlo.top_k of `k` along the last dimension of an argument of `shape`
// (plus one: the argument is added to itself first, so the kernel computes
// its operand).
std::string TopKText(const std::vector<int64_t>& shape, const std::string& e, int64_t k) {
  std::vector<int64_t> out = shape;
  out.back() = k;
  const std::string t = Tensor(shape, e);
  return "func.func @main(%x: " + t + ") -> (" + Tensor(out, e) + ", " + Tensor(out, "i32") + ") {\n" +
         "  %y = stablehlo.add %x, %x : " + t + "\n" +
         "  %values, %indices = chlo.top_k(%y, k = " + std::to_string(k) + ") : " + t + " -> (" + Tensor(out, e) + ", " +
         Tensor(out, "i32") + ")\n" +
         "  return %values, %indices : " + Tensor(out, e) + ", " + Tensor(out, "i32") + "\n}\n";
}

std::vector<const Fusion*> SortKernels(const GpuProgram& p) {
  std::vector<const Fusion*> kernels;
  ForEachStep(p.main, [&](const Step& s, int) {
    if (const auto* k = std::get_if<KernelStep>(&s.action)) {
      const Fusion& f = p.fusions[static_cast<size_t>(k->fusion)];
      if (f.kind == FusionKind::kSort || f.kind == FusionKind::kTopK) kernels.push_back(&f);
    }
  });
  return kernels;
}

std::vector<SortStage> Stages(const GpuProgram& p) {
  std::vector<SortStage> stages;
  for (const Fusion* f : SortKernels(p)) stages.push_back(f->sort.stage);
  return stages;
}

// ---- The plan and its cost rule -------------------------------------

SortShape Shape(int64_t rows, int64_t n, int64_t keep, bool packed = true, int64_t item_bytes = 8) {
  SortShape s;
  s.rows = rows;
  s.n = n;
  s.keep = keep;
  s.packed = packed;
  s.selectable = packed && keep <= kMaxSelectK;
  s.item_bytes = item_bytes;
  s.staged_bytes = 4;
  s.read_bytes = 4;
  s.write_bytes = 4;
  return s;
}

TEST(GpuSortPlan, ShortRowsAreSortedSeveralToABlockInOnePass) {
  // sort_rows: 16384 rows of 1024 f32.
  const SortPlan plan = PlanSort(Shape(16384, 1024, 1024), kSms);
  ASSERT_EQ(plan.passes.size(), 1u) << plan.strategy;
  const SortPass& p = plan.passes[0];
  EXPECT_EQ(p.stage, SortStage::kBlockSort);
  EXPECT_EQ(p.width, 1024);
  EXPECT_EQ(p.log2_items, 5);  // 32 items a thread: a run is one warp
  EXPECT_GE(p.rows_per_block, 2);
  EXPECT_EQ(p.threads, p.rows_per_block * 32);
  EXPECT_TRUE(p.last());
  // Tiny rows: many a block, all of a row in one thread's registers.
  const SortPlan tiny = PlanSort(Shape(100000, 8, 8), kSms);
  ASSERT_EQ(tiny.passes.size(), 1u);
  EXPECT_EQ(tiny.passes[0].width, 8);
  EXPECT_EQ(tiny.passes[0].log2_items, 3);
  EXPECT_GE(tiny.passes[0].rows_per_block, 32);
}

TEST(GpuSortPlan, LongRowsAreTiledThenMergedPassByPass) {
  // argsort_large: 16 rows of 65536.
  const SortPlan plan = PlanSort(Shape(16, 65536, 65536), kSms);
  ASSERT_GE(plan.passes.size(), 2u) << plan.strategy;
  const SortPass& tiles = plan.passes[0];
  EXPECT_EQ(tiles.stage, SortStage::kBlockSort);
  EXPECT_LT(tiles.width, 65536);
  EXPECT_EQ(tiles.ItemsOut(), 65536);
  int64_t width = tiles.width;
  for (size_t i = 1; i < plan.passes.size(); ++i) {
    EXPECT_EQ(plan.passes[i].stage, SortStage::kMerge);
    EXPECT_EQ(plan.passes[i].width_in, width);
    EXPECT_EQ(plan.passes[i].ItemsIn(), 65536);
    width *= 2;
  }
  EXPECT_GE(width, 65536);
  EXPECT_TRUE(plan.passes.back().last());
  // Blocks over rows x tiles: at least one a SM in every pass.
  for (const SortPass& p : plan.passes) EXPECT_GE(p.Units() / p.rows_per_block, kSms / 2) << p.ToString();
  // A row too long for a block is never sorted in one.
  EXPECT_FALSE(BlockSortPlan(Shape(16, 65536, 65536), kSms).has_value());
}

TEST(GpuSortPlan, SmallKSelectsWithoutSorting) {
  // top_k_vocab: k = 50 of 256 rows of 131072.
  const SortPlan plan = PlanSort(Shape(256, 131072, 50), kSms);
  ASSERT_EQ(plan.passes.size(), 2u) << plan.strategy;
  EXPECT_EQ(plan.passes[0].stage, SortStage::kSelect);
  EXPECT_EQ(plan.passes[0].list, 0);  // from the operands
  EXPECT_EQ(plan.passes[0].ItemsOut(), 131072 / plan.passes[0].chunk * 50);
  EXPECT_EQ(plan.passes[1].stage, SortStage::kSelect);
  EXPECT_EQ(plan.passes[1].list, plan.passes[0].ItemsOut());
  EXPECT_LE(plan.passes[1].list, plan.passes[1].chunk);  // one chunk a row: the last
  // Many candidates: more select passes, each shrinking the list.
  const SortPlan deep = PlanSort(Shape(2, 1 << 20, 256), kSms);
  ASSERT_EQ(deep.passes.size(), 3u) << deep.strategy;
  for (const SortPass& p : deep.passes) EXPECT_EQ(p.stage, SortStage::kSelect);
  // Selecting beats sorting by far there; a full sort costs more.
  const auto merge = MergeSortPlan(Shape(256, 131072, 50), 8192, kSms);
  ASSERT_TRUE(merge.has_value());
  EXPECT_LT(plan.estimated_us * 4, merge->estimated_us);
}

TEST(GpuSortPlan, LargeKOrAGeneralComparatorSortsKeepingK) {
  // k beyond what a select block ranks: merges of runs kept to k items.
  const SortPlan large = PlanSort(Shape(8, 131072, 1000), kSms);
  ASSERT_GE(large.passes.size(), 2u);
  EXPECT_NE(large.passes[0].stage, SortStage::kSelect);
  for (const SortPass& p : large.passes) {
    if (p.stage == SortStage::kMerge) {
      EXPECT_LE(p.ItemsIn(), RunCount(131072, p.width_in) * 1000);
    }
  }
  EXPECT_FALSE(SelectPlan(Shape(8, 131072, 1000), kSms).has_value());
  // A general comparator (items of 12 bytes) never selects.
  const SortPlan general = PlanSort(Shape(8, 131072, 10, false, 12), kSms);
  for (const SortPass& p : general.passes) EXPECT_NE(p.stage, SortStage::kSelect);
  EXPECT_EQ(general.passes.back().ItemsIn(), 10 * 2);  // the last merge reads two runs of 10
  // k = n is a sort.
  EXPECT_FALSE(SelectPlan(Shape(8, 100, 100), kSms).has_value());
}

TEST(GpuSortPlan, TheCostRuleWeighsBytesWorkAndFill) {
  // More rows cost more; a general comparator costs more than packed keys.
  const auto a = BlockSortPlan(Shape(1024, 1024, 1024), kSms);
  const auto b = BlockSortPlan(Shape(16384, 1024, 1024), kSms);
  const auto g = BlockSortPlan(Shape(16384, 1024, 1024, false, 8), kSms);
  ASSERT_TRUE(a && b && g);
  EXPECT_LT(a->estimated_us, b->estimated_us);
  EXPECT_LT(b->estimated_us, g->estimated_us);
  // Every pass costs at least a launch.
  EXPECT_GE(MergeSortPlan(Shape(1, 4096, 4096), 1024, kSms)->estimated_us, 2.0 * 3);
  // One row of 4096: a block sort runs on one SM; smaller runs and merges
  // give more blocks, and the rule weighs that.
  const SortPlan one_row = PlanSort(Shape(1, 4096, 4096), kSms);
  EXPECT_GT(one_row.estimated_us, 0);
  EXPECT_FALSE(one_row.strategy.empty());
}

TEST(GpuSortPlan, RunsKeepAtMostKeepItems) {
  EXPECT_EQ(RunCount(70000, 8192), 9);
  EXPECT_EQ(RunItems(70000, 8192, 70000, 8), 70000 - 8 * 8192);
  EXPECT_EQ(RowItems(70000, 8192, 70000), 70000);
  EXPECT_EQ(RowItems(70000, 8192, 50), 9 * 50);
  EXPECT_EQ(RowItems(70000, 65536, 50), 100);
  EXPECT_EQ(RunItems(70000, 65536, 50, 1), 50);
  EXPECT_EQ(RowItems(10, 4, 3), 3 + 3 + 2);
  EXPECT_EQ(RunCount(0, 8), 0);
}

// ---- The block sort's network, run on the host -------------------------

// Sorts `data` (2^l values) as the block sort kernel does: per round, each
// thread's registers hold the positions of its layout; compare-exchanges
// in the round's steps, ascending where the direction bit is 0.
void RunNetwork(std::vector<int>& data, int l, int log2_items, const emit::Swizzle& swizzle) {
  const int e = std::min(log2_items, l);
  const int threads = 1 << (l - e);
  for (const emit::BitonicRound& round : emit::BitonicRounds(l, log2_items, swizzle)) {
    ASSERT_EQ(static_cast<int>(round.register_bits.size()), e);
    ASSERT_EQ(static_cast<int>(round.thread_bits.size()), l - e);
    for (int t = 0; t < threads; ++t) {
      int tv = 0;
      for (size_t k = 0; k < round.thread_bits.size(); ++k) tv |= ((t >> k) & 1) << round.thread_bits[k];
      std::vector<int> position(size_t{1} << e), reg(size_t{1} << e);
      for (int r = 0; r < (1 << e); ++r) {
        int v = tv;
        for (size_t i = 0; i < round.register_bits.size(); ++i) v |= ((r >> i) & 1) << round.register_bits[i];
        position[static_cast<size_t>(r)] = v;
        reg[static_cast<size_t>(r)] = data[static_cast<size_t>(v)];
      }
      for (const emit::BitonicStep& s : round.steps) {
        const auto b = std::find(round.register_bits.begin(), round.register_bits.end(), s.bit);
        ASSERT_NE(b, round.register_bits.end());
        const int ib = static_cast<int>(b - round.register_bits.begin());
        for (int lo = 0; lo < (1 << e); ++lo) {
          if ((lo >> ib) & 1) continue;
          const int hi = lo | (1 << ib);
          const bool up = s.direction_bit >= l || ((position[static_cast<size_t>(lo)] >> s.direction_bit) & 1) == 0;
          int& x = reg[static_cast<size_t>(lo)];
          int& y = reg[static_cast<size_t>(hi)];
          if ((y < x) == up) std::swap(x, y);
        }
      }
      for (int r = 0; r < (1 << e); ++r) data[static_cast<size_t>(position[static_cast<size_t>(r)])] = reg[static_cast<size_t>(r)];
    }
  }
}

TEST(GpuSortNetwork, RoundsCoverTheBitonicStepsInOrderAndSort) {
  std::mt19937 rng(7);
  for (int l = 0; l <= 11; ++l) {
    for (int e = 1; e <= 5; ++e) {
      const emit::Swizzle swizzle = emit::ChooseSwizzle(l, e, 2, 4);
      std::vector<emit::BitonicStep> all;
      for (const auto& r : emit::BitonicRounds(l, e, swizzle)) all.insert(all.end(), r.steps.begin(), r.steps.end());
      const auto want = emit::BitonicSteps(l);
      ASSERT_EQ(all.size(), want.size());
      EXPECT_EQ(static_cast<int>(want.size()), l * (l + 1) / 2);
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(all[i].bit, want[i].bit);
        EXPECT_EQ(all[i].direction_bit, want[i].direction_bit);
      }
      std::vector<int> data(size_t{1} << l);
      for (int& x : data) x = static_cast<int>(rng() % 17);  // many ties
      std::vector<int> sorted = data;
      std::sort(sorted.begin(), sorted.end());
      RunNetwork(data, l, e, swizzle);
      EXPECT_EQ(data, sorted) << "l " << l << " e " << e;
    }
  }
}

TEST(GpuSortNetwork, SwizzleIsABijectionAndKeepsLanesOnDistinctBanks) {
  for (int g : {3, 4}) {
    emit::Swizzle s;
    s.bits = g;
    s.rotations = {1, 3, 2, 0};
    for (int k = g; k <= 14; k += 5) {
      std::vector<char> seen(size_t{1} << k, 0);
      for (int64_t v = 0; v < (int64_t{1} << k); ++v) {
        const int64_t slot = s.Slot(v);
        ASSERT_LT(slot, int64_t{1} << k);
        ASSERT_FALSE(seen[static_cast<size_t>(slot)]++);
      }
    }
    for (int b = g; b < 16; ++b) EXPECT_EQ(s.Slot(int64_t{1} << b) ^ (int64_t{1} << b), int64_t{1} << s.Class(b));
  }
  // sort_rows' network (runs of 1024, 32 items a thread, 4 runs a block)
  // and argsort_large's tiles (8192, one run a block): the lanes served
  // together hit distinct banks in (nearly) every round, checked on the
  // slots themselves.
  for (const auto& [l, row_bits, allowed] : std::vector<std::tuple<int, int, int>>{{10, 2, 1}, {13, 0, 0}}) {
    const emit::Swizzle s = emit::ChooseSwizzle(l, 5, row_bits, 4);
    int conflicted = 0;
    for (const emit::BitonicRound& round : emit::BitonicRounds(l, 5, s)) {
      std::set<int64_t> banks;
      const int threads = 1 << (l - 5);
      for (int lane = 0; lane < 16; ++lane) {
        const int t = lane % threads, run = lane / threads;
        int64_t v = int64_t{run} << l;
        for (size_t k = 0; k < round.thread_bits.size(); ++k) v |= int64_t{(t >> k) & 1} << round.thread_bits[k];
        banks.insert(s.Slot(v) % 16);  // 16 items of 8 bytes a 128-byte row of banks
      }
      EXPECT_EQ(banks.size() == 16, emit::ConflictFree(round, l, s));
      conflicted += banks.size() != 16;
    }
    EXPECT_LE(conflicted, allowed) << "l " << l;
  }
}

// ---- The merge path and the select threshold, on the host ----------------

// hlo_warp_merge_split's search: 32 probes a round.
int WarpSplit(const std::vector<int>& a, const std::vector<int>& b, int d) {
  const int la = static_cast<int>(a.size()), lb = static_cast<int>(b.size());
  const auto before = [](int x, int y) { return x < y; };
  int lo = std::max(0, d - lb), hi = std::min(d, la);
  while (lo < hi) {
    const int step = (hi - lo + 31) >> 5;
    unsigned ball = 0;
    for (int lane = 0; lane < 32; ++lane) {
      const int x = lo + step * lane;
      const bool past = x >= hi || before(b[static_cast<size_t>(d - 1 - x)], a[static_cast<size_t>(x)]);
      ball |= unsigned{past} << lane;
    }
    if (ball == 0) {
      lo = lo + step * 31 + 1;
      continue;
    }
    const int first = __builtin_ctz(ball);
    hi = std::min(hi, lo + step * first);
    if (first > 0) lo = lo + step * (first - 1) + 1;
  }
  return lo;
}

TEST(GpuSortMerge, WarpSearchFindsTheMergePathSplit) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    // Distinct items (positions break ties): even numbers in A, odd in B.
    std::vector<int> a(rng() % 3000), b(rng() % 3000);
    for (int& x : a) x = static_cast<int>(rng() % 100000) * 2;
    for (int& x : b) x = static_cast<int>(rng() % 100000) * 2 + 1;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<int> merged;
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged));
    for (int d : {0, 1, static_cast<int>(merged.size()) / 3, static_cast<int>(merged.size())}) {
      const int from_a = static_cast<int>(std::count_if(merged.begin(), merged.begin() + d, [](int x) { return x % 2 == 0; }));
      EXPECT_EQ(WarpSplit(a, b, d), from_a) << "d " << d;
    }
  }
}

TEST(GpuSortSelect, WarpThresholdKeepsTheFirstKAmongFewCandidates) {
  // A chunk of 256 threads x 16 items: the threshold (largest of each
  // warp's ceil(k/8)-th smallest thread minimum) has every one of the
  // chunk's k smallest at or below it.
  std::mt19937_64 rng(11);
  for (int k : {1, 7, 50, 256}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint64_t> items(4096);
      for (size_t i = 0; i < items.size(); ++i) items[i] = (rng() % 5000) << 32 | i;  // ties broken by position
      if (trial == 1) std::sort(items.begin(), items.end());  // adversarial: the smallest in few threads
      std::vector<uint64_t> least(256, ~0ull);
      for (int t = 0; t < 256; ++t) {
        for (int r = 0; r < 16; ++r) least[static_cast<size_t>(t)] = std::min(least[static_cast<size_t>(t)], items[static_cast<size_t>(r * 256 + t)]);
      }
      const int offers = (k + 7) / 8;
      uint64_t threshold = 0;
      for (int w = 0; w < 8; ++w) {
        std::vector<uint64_t> lanes(least.begin() + w * 32, least.begin() + w * 32 + 32);
        std::sort(lanes.begin(), lanes.end());
        threshold = std::max(threshold, lanes[static_cast<size_t>(offers - 1)]);
      }
      std::vector<uint64_t> sorted = items;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_LE(sorted[static_cast<size_t>(k - 1)], threshold);
      const auto candidates = std::count_if(items.begin(), items.end(), [&](uint64_t x) { return x <= threshold; });
      if (trial > 1) {
        EXPECT_LT(candidates, 8 * k + 64) << "k " << k;  // random data: few candidates
      }
    }
  }
}

// ---- The planner's passes ---------------------------------------------

TEST(GpuSortLowering, ShortRowsAreOneKernelWithPackedKeys) {
  SortCase c;
  c.shape = {16384, 1024};
  c.dim = 1;
  c.operands = {"f32"};
  c.comparator = JaxFloatLess("f32", "0x7FC00000");
  Planned p = Plan(SortText(c));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_TRUE(p.program->Verify().ok());
  ASSERT_EQ(SortKernels(*p.program).size(), 1u);
  const Fusion& f = *SortKernels(*p.program)[0];
  EXPECT_EQ(f.sort.stage, SortStage::kBlockSort);
  EXPECT_TRUE(f.sort.packed);  // JAX's canonicalised total order is one key
  EXPECT_EQ(f.sort.rows, 16384);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_NE(k->strategy.find("block sort of whole rows"), std::string::npos) << k->strategy;
  EXPECT_NE(k->strategy.find("kept in shared memory"), std::string::npos) << k->strategy;
  EXPECT_GT(k->launch.shared_bytes, 48u * 1024 / 2);
}

TEST(GpuSortLowering, LongRowsBecomeKernelPassesThroughTemps) {
  // argsort_large: the keys (result 0) are not returned, so not written.
  SortCase c;
  c.shape = {16, 65536};
  c.dim = 1;
  c.operands = {"f32", "iota"};
  c.comparator = JaxFloatLess("f32", "0x7FC00000");
  c.returned = {1};
  Planned p = Plan(SortText(c));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  EXPECT_TRUE(g.Verify().ok());
  const auto stages = Stages(g);
  ASSERT_GE(stages.size(), 3u) << g.ToString();
  EXPECT_EQ(stages.front(), SortStage::kBlockSort);
  for (size_t i = 1; i < stages.size(); ++i) EXPECT_EQ(stages[i], SortStage::kMerge);
  const auto kernels = SortKernels(g);
  // Passes hand items over in temps of 8 bytes an element; only the last
  // writes results, and it leaves the unread keys alone.
  for (size_t i = 0; i + 1 < kernels.size(); ++i) {
    ASSERT_EQ(kernels[i]->output_types.size(), 1u);
    EXPECT_EQ(kernels[i]->output_types[0], ir::Type::Tensor(ir::ElementType::kU64, {16, 65536}));
  }
  EXPECT_EQ(kernels.back()->output_types.size(), 2u);
  ASSERT_EQ(kernels.back()->sort.skip_results.size(), 2u);
  EXPECT_TRUE(kernels.back()->sort.skip_results[0]);
  EXPECT_FALSE(kernels.back()->sort.skip_results[1]);
  const std::string listing = g.ToString();
  EXPECT_NE(listing.find("pass 1/" + std::to_string(stages.size()) + ": block sort of runs of"), std::string::npos) << listing;
  EXPECT_NE(listing.find("merge runs of"), std::string::npos);
  EXPECT_NE(listing.find("items after pass 1/"), std::string::npos);
  // The temps between passes share memory two apart (ping-pong), next to
  // the unread keys' buffer.
  EXPECT_LE(g.arena_bytes, 2 * 16 * 65536 * 8 + 16 * 65536 * 4) << listing;
  // explain shows every pass's kernel and strategy.
  auto explained = ExplainModule(*p.modules[0]);
  ASSERT_TRUE(explained.ok()) << explained.status().message();
  for (const Fusion* f : kernels) EXPECT_NE(explained->text.find("  " + f->name + ": sort pass"), std::string::npos);
}

TEST(GpuSortLowering, SortReadThroughSlicesOfItsFirstKIsATopKSelect) {
  // lax.top_k's decomposition: a sort by GT with an iota, then slices.
  SortCase c;
  c.shape = {256, 131072};
  c.dim = 1;
  c.operands = {"f32", "iota"};
  c.comparator = PlainLess("f32", "GT", "TOTALORDER");
  c.slice_k = 50;
  Planned p = Plan(SortText(c));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const GpuProgram& g = *p.program;
  EXPECT_TRUE(g.Verify().ok());
  EXPECT_EQ(Stages(g), (std::vector<SortStage>{SortStage::kSelect, SortStage::kSelect})) << g.ToString();
  EXPECT_EQ(SortKernels(g).size(), g.fusions.size());  // no kernel for the slices
  const Fusion& last = *SortKernels(g).back();
  EXPECT_EQ(last.output_types[0], ir::Type::Tensor(ir::ElementType::kF32, {256, 50}));
  EXPECT_EQ(last.output_types[1], ir::Type::Tensor(ir::ElementType::kI32, {256, 50}));
  for (BufferId r : g.results) EXPECT_EQ(g.buffers[static_cast<size_t>(r)].bytes, 256 * 50 * 4);
}

TEST(GpuSortLowering, TopKAndGeneralComparatorsPlanTheirItems) {
  Planned top = Plan(TopKText({64, 30000}, "f32", 20));
  ASSERT_TRUE(top.program.ok()) << top.program.status().message();
  EXPECT_EQ(Stages(*top.program).front(), SortStage::kSelect);
  // 64-bit keys: general items (the value and the position: 16 bytes).
  Planned wide = Plan(TopKText({4, 1000}, "f64", 5));
  ASSERT_TRUE(wide.program.ok()) << wide.program.status().message();
  EXPECT_FALSE(SortKernels(*wide.program)[0]->sort.packed);
  EXPECT_EQ(SortKernels(*wide.program)[0]->sort.item_bytes, 16);
  // Two keys (lexsort): both in the item, then the position.
  SortCase c;
  c.shape = {2, 20000};
  c.dim = 1;
  c.operands = {"i32", "f32", "iota"};
  c.comparator = LexLess();
  Planned lex = Plan(SortText(c));
  ASSERT_TRUE(lex.program.ok()) << lex.program.status().message();
  const Fusion& f = *SortKernels(*lex.program)[0];
  EXPECT_FALSE(f.sort.packed);
  EXPECT_EQ(f.sort.item_bytes, 12);
  EXPECT_TRUE(lex.program->Verify().ok());
}

TEST(GpuSortLowering, ComparatorsOfOneKeyAreRecognised) {
  const auto order = [](const std::string& comparator, const std::string& e) {
    SortCase c;
    c.shape = {4, 8};
    c.dim = 1;
    c.operands = {e, "iota"};
    c.comparator = comparator;
    auto modules = testing::ParseOrDie(SortText(c));
    const ir::Operation* sort = nullptr;
    for (const auto& op : modules[0]->EntryFunction()->region(0).front().operations()) {
      if (op->name() == "stablehlo.sort") sort = op.get();
    }
    return AnalyzeSortComparator(sort->region(0).front());
  };
  const SortOrder jax = order(JaxFloatLess("f32", "0x7FC00000"), "f32");
  EXPECT_TRUE(jax.single_key);
  EXPECT_FALSE(jax.descending);
  EXPECT_NE(jax.key_of_lhs, jax.key_argument);  // the canonicalisation is the key's function
  const SortOrder desc = order(JaxFloatLess("bf16", "0x7FC0", 0, "GT"), "bf16");
  EXPECT_TRUE(desc.single_key && desc.descending);
  EXPECT_TRUE(order(PlainLess("i32", "LT", "SIGNED"), "i32").single_key);
  // compare(b, a): descending.
  SortOrder swapped = order("    %less = stablehlo.compare LT, %b0, %a0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n", "i32");
  EXPECT_TRUE(swapped.single_key && swapped.descending);
  // IEEE compares leave NaNs unordered: a general comparator.
  EXPECT_FALSE(order(PlainLess("f32", "LT", "FLOAT"), "f32").single_key);
  // A key of 64 bits does not pack with a 32-bit position.
  EXPECT_FALSE(order(PlainLess("f64", "LT", "TOTALORDER"), "f64").single_key);
  // The payload's pair as the key.
  const SortOrder by_iota = order(PlainLess("i32", "GT", "SIGNED", 1), "f32");
  EXPECT_TRUE(by_iota.single_key);
  EXPECT_EQ(by_iota.key_operand, 1);
}

TEST(GpuSortLowering, RowsBeyondThirtyBitPositionsAreRefusedByName) {
  SortCase c;
  c.shape = {int64_t{1} << 31};
  c.dim = 0;
  c.operands = {"f32"};
  c.comparator = PlainLess("f32", "LT", "TOTALORDER");
  Planned p = Plan(SortText(c));
  ASSERT_FALSE(p.program.ok());
  EXPECT_NE(p.program.status().message().find("stablehlo.sort"), std::string::npos) << p.program.status().message();
  EXPECT_NE(p.program.status().message().find("rows of"), std::string::npos) << p.program.status().message();
}

// ---- Every pass kernel compiles -----------------------------------------

TEST(GpuSortKernels, EveryPassCompilesForEachItemAndOrder) {
  // The zoo's shapes (their kernels as the H200 runs them), then small
  // shapes of every other kind of item, order and layout (NVRTC takes
  // seconds for a large block sort's straight-line network).
  std::vector<std::pair<std::string, std::string>> programs;
  const auto add = [&](const std::string& name, const SortCase& c) { programs.emplace_back(name, SortText(c)); };
  SortCase c;
  c.shape = {64, 1024};
  c.dim = 1;
  c.operands = {"special"};
  c.comparator = JaxFloatLess("f32", "0x7FC00000");
  add("sort_rows: one pass, the value kept in shared memory", c);
  c.shape = {16, 65536};
  c.operands = {"f32", "iota"};
  c.returned = {1};
  add("argsort_large: tiles of 8192, merges", c);
  c.shape = {256, 131072};
  c.comparator = PlainLess("f32", "GT", "TOTALORDER");
  c.returned = {};
  c.slice_k = 50;
  add("top_k_vocab: select passes through slices", c);
  c.shape = {2, 300, 3};
  c.slice_k = 0;
  c.operands = {"bf16"};
  c.comparator = JaxFloatLess("bf16", "0x7FC0", 0, "GT");
  add("bf16 descending along a middle dimension", c);
  c.shape = {100, 37};
  c.dim = 0;
  c.operands = {"i8", "ui16"};
  c.comparator = PlainLess("i8", "LT", "SIGNED");
  add("i8 keys with a ui16 payload along dimension 0", c);
  c.shape = {1, 3000};
  c.dim = 1;
  c.operands = {"i32", "f32", "iota"};
  c.comparator = LexLess();
  add("lexsort: general items through merges", c);
  programs.emplace_back("chlo.top_k of i32", TopKText({2, 3000}, "i32", 7));
  programs.emplace_back("chlo.top_k of f64: general items", TopKText({2, 300}, "f64", 5));
  for (const auto& [name, text] : programs) ExpectEveryKernelCompiles(name, text);
  // The lexsort's plan merges (so its merge kernels compiled above).
  Planned lex = Plan(programs[5].second);
  ASSERT_TRUE(lex.program.ok());
  EXPECT_EQ(Stages(*lex.program).back(), SortStage::kMerge) << lex.program->ToString();
}

// ---- On a GPU: the interpreter's bits -----------------------------------

// Graph and stream mode give exactly the interpreter's results (a sort
// moves bits: no tolerance, NaN payloads and signed zeros included),
// twice.
void ExpectTheInterpretersBits(const std::string& name, const std::string& text, uint64_t seed = 1) {
  std::vector<std::unique_ptr<ir::Module>> modules = testing::ParseOrDie(text);
  const ir::Operation* entry = modules[0]->EntryFunction();
  auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, seed);
  ASSERT_TRUE(args.ok()) << name;
  auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
  ASSERT_TRUE(want.ok()) << name << ": " << want.status().message();
  for (ExecutionMode mode : {ExecutionMode::kGraph, ExecutionMode::kStream}) {
    auto exe = GpuExecutable::Compile(*modules[0], Mode(mode));
    ASSERT_TRUE(exe.ok()) << name << ": " << exe.status().message();
    for (int call = 0; call < 2; ++call) {
      auto got = (*exe)->Run(*args);
      ASSERT_TRUE(got.ok()) << name << ": " << got.status().message();
      ASSERT_EQ(got->size(), want->size()) << name;
      for (size_t i = 0; i < want->size(); ++i) {
        const cpu::Tensor& w = (*want)[i];
        const cpu::Tensor& g = (*got)[i];
        ASSERT_EQ(g.byte_size(), w.byte_size()) << name;
        if (std::memcmp(g.bytes(), w.bytes(), w.byte_size()) == 0) continue;
        const std::string problem = Compare(w, g, 0);
        ADD_FAILURE() << name << ": result " << i << " differs from the interpreter's ("
                      << ExecutionModeName(mode) << " mode, call " << call << ")"
                      << (problem.empty() ? ": -0/+0 or NaN bits" : ": " + problem);
        break;
      }
    }
  }
}

// The plan of `text` has a pass of `stage` (so the test covers it).
void ExpectStage(const std::string& text, SortStage stage) {
  Planned p = Plan(text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto stages = Stages(*p.program);
  EXPECT_NE(std::find(stages.begin(), stages.end(), stage), stages.end()) << p.program->ToString();
}

TEST(GpuSortRun, RowsOfEveryLengthWithNaNsZerosAndInfinities) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const auto& [rows, n] : std::vector<std::pair<int64_t, int64_t>>{
           {64, 1}, {50, 3}, {4096, 64}, {16, 1000}, {7, 5000}, {3, 70000}, {1, 70000}}) {
    SortCase c;
    c.shape = {rows, n};
    c.dim = 1;
    c.operands = {"special"};
    c.comparator = JaxFloatLess("f32", "0x7FC00000");
    const std::string text = SortText(c);
    if (n == 70000) ExpectStage(text, SortStage::kMerge);
    ExpectTheInterpretersBits(std::to_string(rows) + "x" + std::to_string(n), text);
  }
}

TEST(GpuSortRun, SortAlongADimensionOtherThanTheLast) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const auto& [shape, dim] : std::vector<std::pair<std::vector<int64_t>, int64_t>>{
           {{1000, 6}, 0}, {{3, 3000, 5}, 1}, {{70000, 2}, 0}}) {
    SortCase c;
    c.shape = shape;
    c.dim = dim;
    c.operands = {"special", "iota"};
    c.comparator = JaxFloatLess("f32", "0x7FC00000");
    ExpectTheInterpretersBits("along dimension " + std::to_string(dim), SortText(c));
  }
}

TEST(GpuSortRun, Bf16AndSmallIntegersAndF64) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  SortCase c;
  c.shape = {8, 3000};
  c.dim = 1;
  c.operands = {"bf16"};
  c.comparator = JaxFloatLess("bf16", "0x7FC0");
  ExpectTheInterpretersBits("bf16", SortText(c));
  c.operands = {"i8", "ui16"};
  c.comparator = PlainLess("i8", "LT", "SIGNED");
  ExpectTheInterpretersBits("i8 with a u16 payload", SortText(c));
  c.operands = {"ui8"};
  c.comparator = PlainLess("ui8", "GT", "UNSIGNED");
  ExpectTheInterpretersBits("u8 descending", SortText(c));
  c.shape = {4, 20000};
  c.operands = {"f64"};
  c.comparator = JaxFloatLess("f64", "0x7FF8000000000000");
  ExpectStage(SortText(c), SortStage::kMerge);
  ExpectTheInterpretersBits("f64 (general items through merges)", SortText(c));
}

TEST(GpuSortRun, IntegerKeysWithManyTiesSortStably) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  // Keys in [0, 8): the iota's result shows every tie kept in order.
  for (int64_t n : {1000, 5000, 70000}) {
    SortCase c;
    c.shape = {3, n};
    c.dim = 1;
    c.operands = {"i32", "iota"};
    c.comparator = PlainLess("i32", "LT", "SIGNED");
    ExpectTheInterpretersBits("argsort of ties, n " + std::to_string(n), SortText(c));
  }
}

TEST(GpuSortRun, OperandsMoveAlongWithTheKeys) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (int64_t n : {1000, 70000}) {
    SortCase c;
    c.shape = {4, n};
    c.dim = 1;
    c.operands = {"special", "f32", "i32", "iota"};
    c.comparator = JaxFloatLess("f32", "0x7FC00000");
    ExpectTheInterpretersBits("keys with payloads, n " + std::to_string(n), SortText(c));
    c.comparator = JaxFloatLess("f32", "0x7FC00000", 0, "GT");
    ExpectTheInterpretersBits("descending with payloads, n " + std::to_string(n), SortText(c));
  }
}

TEST(GpuSortRun, GeneralComparators) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (int64_t n : {1000, 20000}) {
    SortCase c;
    c.shape = {3, n};
    c.dim = 1;
    c.operands = {"i32", "special", "iota"};
    c.comparator = LexLess();
    ExpectTheInterpretersBits("lexsort, n " + std::to_string(n), SortText(c));
  }
}

TEST(GpuSortRun, TopKOfSmallAndLargeK) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (int64_t k : {1, 5, 50, 256, 300, 20000}) {
    const std::string text = TopKText({8, 20000}, "f32", k);
    if (k <= kMaxSelectK) ExpectStage(text, SortStage::kSelect);
    ExpectTheInterpretersBits("top_k " + std::to_string(k), text);
  }
  // Ties go to the lower index.
  ExpectTheInterpretersBits("top_k of i32 ties", TopKText({8, 20000}, "i32", 50));
  // Three select passes: the candidates of 49 chunks need two more.
  const std::string deep = TopKText({2, 200000}, "f32", 256);
  Planned p = Plan(deep);
  ASSERT_TRUE(p.program.ok());
  EXPECT_EQ(Stages(*p.program).size(), 3u);
  ExpectTheInterpretersBits("top_k of 256 of 200000", deep);
  ExpectTheInterpretersBits("top_k of f64", TopKText({4, 3000}, "f64", 9));
}

TEST(GpuSortRun, TopKThroughSlicesOfASort) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  SortCase c;
  c.shape = {4, 70000};
  c.dim = 1;
  c.operands = {"special", "iota"};
  c.comparator = JaxFloatLess("f32", "0x7FC00000", 0, "GT");
  c.slice_k = 50;
  ExpectStage(SortText(c), SortStage::kSelect);
  ExpectTheInterpretersBits("top 50 through slices", SortText(c));
  c.comparator = LexLess();
  c.operands = {"i32", "special", "iota"};
  ExpectTheInterpretersBits("first 50 of a lexsort", SortText(c));
}

}  // namespace
}  // namespace hlograph::gpu

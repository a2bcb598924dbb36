// stablehlo.sort and chlo.top_k: the kernel of each pass of the op's plan
// (plan/sort_plan.h), and here the block sort pass: a block sorts
// rows_per_block runs of `width` positions (whole rows, or the tiles a
// merge sort starts from) with a bitonic network whose steps run in
// registers (codegen/sort_network.h):
//   1. the block loads its runs' items into shared memory (padding past the
//      row's end sorts last), with the operand values the results fetch by
//      position (one pass only: written from there, not read again);
//   2. per round, each thread reads its 2^log2_items items of the round's
//      layout into registers, compare-exchanges them for the round's steps
//      and writes them back; a run of at most 32 threads syncs its warp
//      only;
//   3. the block writes the kept items: the results (one pass) or the
//      sorted runs into the temp the merges read.
#include <set>

#include "backends/gpu/codegen/sort_items.h"
#include "backends/gpu/codegen/sort_network.h"

namespace hlograph::gpu::emit {
namespace {

// hlo_slot(v): the shared memory slot of item v (Swizzle::Slot), for v of
// `bits` bits.
std::string SlotFunction(const Swizzle& swizzle, int bits) {
  std::ostringstream os;
  os << "__device__ __forceinline__ int hlo_slot(int v) {\n";
  if (swizzle.bits == 0) {
    os << "  return v;\n}\n";
    return os.str();
  }
  const int g = swizzle.bits, mask = (1 << g) - 1;
  os << "  int h = 0;\n";
  for (int j = 1; g * j < bits; ++j) {
    const size_t group = static_cast<size_t>(j - 1);
    const int s = group < swizzle.rotations.size() ? swizzle.rotations[group] % g : 0;
    os << "  { const int x = (v >> " << g * j << ") & " << mask << "; h ^= ";
    if (s == 0) {
      os << "x";
    } else {
      os << "((x << " << s << ") | (x >> " << g - s << ")) & " << mask;
    }
    os << "; }\n";
  }
  os << "  return v ^ h;\n}\n";
  return os.str();
}

int64_t AlignUp16(int64_t x) { return (x + 15) / 16 * 16; }

}  // namespace

StatusOr<KernelSource> EmitBlockSortPass(const Fusion& f, const SortItems& items) {
  const SortPass& p = f.sort;
  const SortGeometry& g = items.geometry();
  const int l = Log2Of(p.width);
  if ((int64_t{1} << l) != p.width) return Status::Error("a block sort of runs of " + std::to_string(p.width));
  const int log2_items = std::min(p.log2_items, l);
  const int per_run = 1 << (l - log2_items), rows = p.rows_per_block;
  const int threads = per_run * rows;
  if (threads != p.threads || rows != (1 << Log2Of(rows)) || threads > 1024) {
    return Status::Error("internal error: a block sort of " + std::to_string(threads) + " threads planned as " +
                         std::to_string(p.threads));
  }
  const int64_t width = p.width, runs = RunCount(g.n, width), units = p.Units();
  const int64_t ib = items.item_bytes();
  const int row_bits = Log2Of(rows);
  const Swizzle swizzle = ChooseSwizzle(l, log2_items, row_bits, SwizzleBitsFor(ib));
  const std::vector<int> fetched = p.last() ? items.FetchedOperands(f) : std::vector<int>{};
  if (p.last() && runs > 1) return Status::Error("internal error: a block sort of tiles writing results");

  std::ostringstream body;
  BodyEmitter e(f, body);
  const std::string P = std::to_string(width), RB = std::to_string(rows), T = std::to_string(threads);
  const std::string N = std::to_string(g.n) + "LL", UNITS = std::to_string(units) + "LL";
  e.Line("extern __shared__ __align__(16) unsigned char hlo_smem[];");
  e.Line("hlo_sort_item* const items = (hlo_sort_item*)hlo_smem;");
  int64_t shared = AlignUp16(rows * width * ib);
  std::map<int, std::string> kept;
  for (int j : fetched) {
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(items.op().operand(static_cast<size_t>(j))->type().element()));
    kept[j] = "kept" + std::to_string(j);
    e.Line(ct + "* const " + kept[j] + " = (" + ct + "*)(hlo_smem + " + std::to_string(shared) + ");");
    shared = AlignUp16(shared + rows * width * ComputeBytes(items.op().operand(static_cast<size_t>(j))->type().element()));
  }
  e.Line("const int run_in_block = threadIdx.x >> " + std::to_string(l - log2_items) + ", t = threadIdx.x & " +
         std::to_string(per_run - 1) + ";");
  e.Line("(void)t;");
  // Rows along an inner dimension: consecutive threads take consecutive
  // rows as they load and write (coalesced), one row after the other else.
  const bool rows_inner = g.dim != static_cast<int64_t>(g.row_shape.size()) && runs == 1 && rows > 1;
  const std::string split = rows_inner ? "const int rb = l & " + std::to_string(rows - 1) + ", i = l >> " +
                                             std::to_string(row_bits) + ";"
                                       : "const int rb = l >> " + std::to_string(l) + ", i = l & " +
                                             std::to_string(width - 1) + ";";
  e.Open("for (long long first = (long long)blockIdx.x * " + RB + "; first < " + UNITS + "; first += (long long)gridDim.x * " +
         RB + ")");
  // 1. Load.
  e.Line("#pragma unroll 8  // loads in flight");
  e.Open("for (int l = threadIdx.x; l < " + std::to_string(rows * width) + "; l += " + T + ")");
  e.Line(split);
  e.Line("const long long unit = first + rb;");
  e.Line(items.PaddingItem("it", N + " + i"));
  e.Open("if (unit < " + UNITS + ")");
  e.Line("const long long row = unit / " + std::to_string(runs) + "LL, pos = (unit % " + std::to_string(runs) +
         "LL) * " + P + "LL + i;");
  e.Open("if (pos < " + N + ")");
  const Index idx = items.ElementIndex(e, "row", "pos");
  HLOGRAPH_TRY(items.LoadItem(e, "loaded", idx, "pos"));
  e.Line("it = loaded;");
  for (int j : fetched) {
    HLOGRAPH_ASSIGN(std::string v, items.OperandAt(e, j, idx));
    e.Line(kept[j] + "[rb * " + P + " + i] = " + v + ";");
  }
  e.Close();
  e.Close();
  e.Line("items[hlo_slot(rb * " + P + " + i)] = it;");
  e.Close();
  e.Line("__syncthreads();");
  // 2. The network, round by round.
  const std::vector<BitonicRound> rounds = BitonicRounds(l, log2_items, swizzle);
  int conflicted = 0;
  for (const BitonicRound& round : rounds) conflicted += !ConflictFree(round, l, swizzle);
  const int items_a_thread = 1 << log2_items;
  for (size_t ri = 0; ri < rounds.size(); ++ri) {
    const BitonicRound& round = rounds[ri];
    e.Open("");
    std::string tv = "(run_in_block << " + std::to_string(l) + ")";
    for (size_t k = 0; k < round.thread_bits.size(); ++k) {
      tv += " | (((t >> " + std::to_string(k) + ") & 1) << " + std::to_string(round.thread_bits[k]) + ")";
    }
    // Opaque to the compiler: else it hoists every round's addresses out
    // of the loop over runs and spills them.
    e.Line("int tv = " + tv + ";");
    e.Line("asm volatile(\"\" : \"+r\"(tv));");
    e.Line("const int ts = hlo_slot(tv);");
    const auto reg_index = [&](int bit) {
      const auto at = std::find(round.register_bits.begin(), round.register_bits.end(), bit);
      return at == round.register_bits.end() ? -1 : static_cast<int>(at - round.register_bits.begin());
    };
    std::vector<int64_t> slot(static_cast<size_t>(items_a_thread));
    for (int r = 0; r < items_a_thread; ++r) {
      int64_t v = 0;
      for (size_t i = 0; i < round.register_bits.size(); ++i) {
        if ((r >> i) & 1) v |= int64_t{1} << round.register_bits[i];
      }
      slot[static_cast<size_t>(r)] = swizzle.Slot(v);
      e.Line("hlo_sort_item reg" + std::to_string(r) + " = items[ts ^ " + std::to_string(slot[static_cast<size_t>(r)]) + "];");
    }
    std::set<int> runtime_directions;
    for (const BitonicStep& s : round.steps) {
      if (s.direction_bit < l && reg_index(s.direction_bit) < 0) runtime_directions.insert(s.direction_bit);
    }
    for (int d : runtime_directions) {
      e.Line("const bool up" + std::to_string(d) + " = ((tv >> " + std::to_string(d) + ") & 1) == 0;");
    }
    for (const BitonicStep& s : round.steps) {
      const int b = reg_index(s.bit);
      const int d = reg_index(s.direction_bit);
      for (int lo = 0; lo < items_a_thread; ++lo) {
        if ((lo >> b) & 1) continue;
        const int hi = lo | (1 << b);
        std::string up;
        if (s.direction_bit >= l) {
          up = "true";
        } else if (d >= 0) {
          up = ((lo >> d) & 1) == 0 ? "true" : "false";
        } else {
          up = "up" + std::to_string(s.direction_bit);
        }
        e.Line("hlo_sort_exchange(reg" + std::to_string(lo) + ", reg" + std::to_string(hi) + ", " + up + ");");
      }
    }
    for (int r = 0; r < items_a_thread; ++r) {
      e.Line("items[ts ^ " + std::to_string(slot[static_cast<size_t>(r)]) + "] = reg" + std::to_string(r) + ";");
    }
    e.Close();
    // The next round reads what other threads of the run wrote; the writes
    // below read every run of the block.
    e.Line(ri + 1 < rounds.size() && per_run <= 32 ? "__syncwarp();" : "__syncthreads();");
  }
  // 3. Write the kept items.
  const int64_t slots = RunSlots(width, g.keep), row_items = RowItems(g.n, width, g.keep);
  e.Line("#pragma unroll 8  // loads in flight");
  e.Open("for (int l = threadIdx.x; l < " + std::to_string(rows * width) + "; l += " + T + ")");
  e.Line(split);
  e.Line("const long long unit = first + rb;");
  e.Open("if (unit < " + UNITS + ")");
  e.Line("const long long row = unit / " + std::to_string(runs) + "LL, run = unit % " + std::to_string(runs) + "LL;");
  e.Line("const long long start = run * " + P + "LL;");
  e.Line("const long long kept_items = min(" + std::to_string(g.keep) + "LL, min(" + N + ", start + " + P +
         "LL) - start);");
  e.Open("if (i < kept_items)");
  e.Line("const hlo_sort_item it = items[hlo_slot(rb * " + P + " + i)];");
  if (p.last()) {
    HLOGRAPH_TRY(items.WriteResults(e, f, "row", "(long long)i", "it", [&](int j, const std::string& pos) {
      const auto k = kept.find(j);
      return k == kept.end() ? std::string() : k->second + "[rb * " + P + " + " + pos + "]";
    }));
  } else {
    e.Line(ItemsOut() + "[row * " + std::to_string(row_items) + "LL + run * " + std::to_string(slots) + "LL + i] = it;");
  }
  e.Close();
  e.Close();
  e.Close();
  e.Line("__syncthreads();  // the next runs reuse the shared memory");
  e.Close();

  HLOGRAPH_ASSIGN(std::string decls, items.Declarations(f));
  // At most 168 registers a thread (32 packed items take 64 of them, a
  // round about 160): left alone, the compiler takes up to 255, and an SM
  // keeps fewer warps.
  const int min_blocks = std::max(1, 65536 / (threads * 168));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, threads, 0, min_blocks));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {GridFor((units + rows - 1) / rows), 1, 1};
  launch.shared_bytes = static_cast<uint32_t>(shared);
  std::string strategy = "sort " + p.ToString() + ": " + std::to_string(threads) + " threads, " +
                         std::to_string(rounds.size()) + " rounds of register steps through shared memory" +
                         (swizzle.bits > 0 ? " (" + std::to_string(conflicted) + " with bank conflicts)" : "");
  if (!fetched.empty()) strategy += ", " + std::to_string(fetched.size()) + " operand(s) kept in shared memory";
  return KernelSource{f.name, decls + SlotFunction(swizzle, l + row_bits) + head + body.str() + "}\n", launch, strategy};
}

StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options) {
  (void)options;
  HLOGRAPH_ASSIGN(const SortItems items, SortItems::For(f));
  switch (f.sort.stage) {
    case SortStage::kBlockSort: return EmitBlockSortPass(f, items);
    case SortStage::kMerge: return EmitMergePass(f, items);
    case SortStage::kSelect: return EmitSelectPass(f, items);
  }
  return Status::Error("unknown sort pass");
}

StatusOr<KernelSource> EmitTopK(const Fusion& f, const EmitOptions& options) { return EmitSort(f, options); }

}  // namespace hlograph::gpu::emit

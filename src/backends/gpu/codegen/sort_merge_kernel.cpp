// A sort's merge pass (plan/sort_plan.h): runs of width_in positions,
// sorted and kept to their first `keep` items, merged pairwise into runs of
// 2 * width_in. A block takes `threads * merge_items` consecutive outputs of
// one merged run:
//   1. two warps find where the block's first and last outputs split
//      between the two runs (merge path: the number i of outputs taken from
//      the first run A is the least i with B[d - 1 - i] before A[i]), 32
//      probes a round;
//   2. the block loads its share of A and B (exactly as many items as it
//      writes) into shared memory;
//   3. each thread finds its own split there by binary search and merges
//      its merge_items outputs into registers (ties: A first; items never
//      tie, positions break them);
//   4. the outputs go through shared memory to coalesced writes: the next
//      pass's items, or the results.
// Shared memory slots are padded by one every 128 bytes so that threads
// writing merge_items consecutive outputs hit distinct banks.
#include "backends/gpu/codegen/sort_items.h"

namespace hlograph::gpu::emit {

StatusOr<KernelSource> EmitMergePass(const Fusion& f, const SortItems& items) {
  const SortPass& p = f.sort;
  const SortGeometry& g = items.geometry();
  const int64_t w = p.width_in, keep = g.keep, n = g.n;
  const int threads = p.threads, per_thread = p.merge_items;
  const int64_t tile = int64_t{threads} * per_thread;
  if (threads < 64 || threads % 32 != 0) return Status::Error("internal error: a merge of fewer than two warps");
  const int64_t runs_out = RunCount(n, 2 * w), slots_in = RunSlots(w, keep), slots_out = RunSlots(2 * w, keep);
  const int64_t chunks = (slots_out + tile - 1) / tile;
  const int64_t units = p.Units();
  const int64_t ib = items.item_bytes();
  const int pad_shift = ib <= 8 ? 4 : ib <= 16 ? 3 : 2;  // one slot of padding per 128 bytes
  const int64_t shared = (tile + (tile >> pad_shift) + 1) * ib;
  const std::string N = std::to_string(n) + "LL", KEEP = std::to_string(keep) + "LL", W = std::to_string(w) + "LL";
  const std::string TILE = std::to_string(tile), T = std::to_string(threads);

  std::ostringstream decl;
  decl << "__device__ __forceinline__ int hlo_padded(int i) { return i + (i >> " << pad_shift << "); }\n";
  // Merge path: the least i in [max(0, d - lb), min(d, la)] with
  // B[d - 1 - i] before A[i] (the upper end when none), `at(k)` reading A
  // then B as one array (k < la: A).
  decl << "template <typename At>\n"
          "__device__ __forceinline__ int hlo_merge_split(const At& at, int la, int lb, int d) {\n"
          "  int lo = max(0, d - lb), hi = min(d, la);\n"
          "  while (lo < hi) {\n"
          "    const int mid = (lo + hi) >> 1;\n"
          "    if (hlo_sort_before(at(la + d - 1 - mid), at(mid))) hi = mid; else lo = mid + 1;\n"
          "  }\n"
          "  return lo;\n"
          "}\n";
  // The same by a warp, 32 probes a round (device memory: fewer round trips).
  decl << "template <typename At>\n"
          "__device__ __forceinline__ int hlo_warp_merge_split(const At& at, int la, int lb, int d) {\n"
          "  const int lane = threadIdx.x & 31;\n"
          "  int lo = max(0, d - lb), hi = min(d, la);\n"
          "  while (lo < hi) {\n"
          "    const int step = (hi - lo + 31) >> 5;\n"
          "    const int x = lo + step * lane;\n"
          "    const bool past = x >= hi || hlo_sort_before(at(la + d - 1 - x), at(x));\n"
          "    const unsigned ball = __ballot_sync(0xffffffffu, past);\n"
          "    if (ball == 0) {\n"
          "      lo = lo + step * 31 + 1;\n"
          "      continue;\n"
          "    }\n"
          "    const int first = __ffs(ball) - 1;\n"
          "    hi = min(hi, lo + step * first);\n"
          "    if (first > 0) lo = lo + step * (first - 1) + 1;\n"
          "  }\n"
          "  return lo;\n"
          "}\n";

  std::ostringstream body;
  BodyEmitter e(f, body);
  e.Line("extern __shared__ __align__(16) unsigned char hlo_smem[];");
  e.Line("hlo_sort_item* const sm = (hlo_sort_item*)hlo_smem;");
  e.Line("__shared__ int split[2];");
  e.Line("const hlo_sort_item* const in = " + ItemsIn(f) + ";");
  e.Open("for (long long unit = blockIdx.x; unit < " + std::to_string(units) + "LL; unit += gridDim.x)");
  e.Line("const long long row = unit / " + std::to_string(runs_out * chunks) + "LL;");
  e.Line("const int rest = (int)(unit % " + std::to_string(runs_out * chunks) + "LL);");
  e.Line("const int run = rest / " + std::to_string(chunks) + ", chunk = rest % " + std::to_string(chunks) + ";");
  e.Line("const long long a_start = (long long)(2 * run) * " + W + ", b_start = a_start + " + W + ";");
  e.Line("const int la = (int)min(" + KEEP + ", min(" + N + ", a_start + " + W + ") - a_start);");
  e.Line("const int lb = b_start < " + N + " ? (int)min(" + KEEP + ", min(" + N + ", b_start + " + W +
         ") - b_start) : 0;");
  e.Line("const int total = (int)min(" + KEEP + ", (long long)(la + lb));");
  e.Line("const int out_begin = chunk * " + TILE + ";");
  e.Line("if (out_begin >= total) continue;  // a short last run: the same for the whole block");
  e.Line("const int out_end = min(out_begin + " + TILE + ", total);");
  e.Line("const hlo_sort_item* const a = in + row * " + std::to_string(RowItems(n, w, keep)) + "LL + (long long)(2 * run) * " +
         std::to_string(slots_in) + "LL;");
  e.Line("const auto global_at = [a](int k) { return a[k]; };  // B follows A: A is a full run when B exists");
  e.Open("if (threadIdx.x < 64)");
  e.Line("const int found = hlo_warp_merge_split(global_at, la, lb, threadIdx.x < 32 ? out_begin : out_end);");
  e.Line("if ((threadIdx.x & 31) == 0) split[threadIdx.x >> 5] = found;");
  e.Close();
  e.Line("__syncthreads();");
  e.Line("const int i0 = split[0], i1 = split[1];");
  e.Line("const int na = i1 - i0, nb = (out_end - i1) - (out_begin - i0), count = na + nb;");
  e.Line("const hlo_sort_item* const b = a + la + (out_begin - i0);");
  e.Line("#pragma unroll 8  // loads in flight");
  e.Open("for (int k = threadIdx.x; k < count; k += " + T + ")");
  e.Line("sm[hlo_padded(k)] = k < na ? a[i0 + k] : b[k - na];");
  e.Close();
  e.Line("__syncthreads();");
  e.Line("const auto shared_at = [sm](int k) { return sm[hlo_padded(k)]; };");
  e.Line("const int d = min((int)threadIdx.x * " + std::to_string(per_thread) + ", count);");
  e.Line("int ia = hlo_merge_split(shared_at, na, nb, d), ib = d - ia;");
  for (int r = 0; r < per_thread; ++r) {
    const std::string v = "merged" + std::to_string(r);
    e.Line("hlo_sort_item " + v + ";");
    e.Open("if (d + " + std::to_string(r) + " < count)");
    e.Line("const bool take_b = ia >= na || (ib < nb && hlo_sort_before(sm[hlo_padded(na + ib)], sm[hlo_padded(ia)]));");
    e.Line(v + " = take_b ? sm[hlo_padded(na + ib++)] : sm[hlo_padded(ia++)];");
    e.Close();
  }
  e.Line("__syncthreads();");
  for (int r = 0; r < per_thread; ++r) {
    e.Line("if (d + " + std::to_string(r) + " < count) sm[hlo_padded(d + " + std::to_string(r) + ")] = merged" +
           std::to_string(r) + ";");
  }
  e.Line("__syncthreads();");
  e.Open("for (int k = threadIdx.x; k < count; k += " + T + ")");
  e.Line("const hlo_sort_item it = sm[hlo_padded(k)];");
  if (p.last()) {
    HLOGRAPH_TRY(items.WriteResults(e, f, "row", "(long long)(out_begin + k)", "it"));
  } else {
    e.Line(ItemsOut() + "[row * " + std::to_string(RowItems(n, 2 * w, keep)) + "LL + (long long)run * " +
           std::to_string(slots_out) + "LL + out_begin + k] = it;");
  }
  e.Close();
  e.Line("__syncthreads();  // the next unit reuses the shared memory");
  e.Close();

  HLOGRAPH_ASSIGN(std::string item_decls, items.Declarations(f));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, threads));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {GridFor(units), 1, 1};
  launch.shared_bytes = static_cast<uint32_t>(shared);
  const std::string strategy = "sort " + p.ToString() + ": merge path, " + std::to_string(units) + " blocks";
  return KernelSource{f.name, item_decls + decl.str() + head + body.str() + "}\n", launch, strategy};
}

}  // namespace hlograph::gpu::emit

// A select pass (plan/sort_plan.h): the first `keep` items of each chunk of
// a row, without sorting the chunk. Packed items only (distinct 64-bit
// integers; all ones is padding). A block of T threads takes a chunk of
// T * 2^log2_items items, each thread 2^log2_items of them in registers:
//   1. each thread's minimum; in each warp, the lanes rank their minimums
//      (32 shuffles) and the lane of rank ceil(keep / warps) - 1 offers its
//      minimum; the threshold is the largest offer. Every warp then has
//      ceil(keep / warps) minimums at or below it, so at least `keep` items
//      of the chunk are (or the chunk has fewer, all of them padding-free
//      items then count), and the chunk's first `keep` are among them;
//   2. the items at or below the threshold go to shared memory (a ballot
//      and one atomic a warp), typically a little more than `keep`; at
//      worst (adversarial orders) the whole chunk, which still fits;
//   3. a bitonic sort of the candidates in shared memory (by one warp when
//      they are at most 256), and the first `keep` are written: to the
//      candidate list the next pass selects from (padding where the chunk
//      had fewer), or the results.
#include "backends/gpu/codegen/sort_items.h"

namespace hlograph::gpu::emit {

StatusOr<KernelSource> EmitSelectPass(const Fusion& f, const SortItems& items) {
  const SortPass& p = f.sort;
  const SortGeometry& g = items.geometry();
  if (!p.packed) return Status::Error("internal error: a select pass of general items");
  const int threads = p.threads, warps = threads / 32, per_thread = 1 << p.log2_items;
  const int64_t chunk = int64_t{threads} * per_thread;
  const int64_t keep = g.keep;
  const int64_t in = p.list > 0 ? p.list : g.n;
  const int64_t chunks = (in + chunk - 1) / chunk;
  const int64_t units = p.Units();
  const int64_t offers = (keep + warps - 1) / warps;
  if (chunk != p.chunk || threads % 32 != 0 || keep < 1 || offers > 32) {
    return Status::Error("internal error: a select pass planned as " + p.ToString());
  }
  const std::string T = std::to_string(threads), IN = std::to_string(in) + "LL";

  std::ostringstream body;
  BodyEmitter e(f, body);
  e.Line("extern __shared__ __align__(16) unsigned char hlo_smem[];");
  e.Line("hlo_sort_item* const candidates = (hlo_sort_item*)hlo_smem;");
  e.Line("__shared__ hlo_sort_item offered[" + std::to_string(warps) + "];");
  e.Line("__shared__ unsigned count;");
  e.Line("const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;");
  e.Open("for (long long unit = blockIdx.x; unit < " + std::to_string(units) + "LL; unit += gridDim.x)");
  e.Line("const long long row = unit / " + std::to_string(chunks) + "LL, base = (unit % " + std::to_string(chunks) +
         "LL) * " + std::to_string(chunk) + "LL;");
  e.Line("const int len = (int)min(" + std::to_string(chunk) + "LL, " + IN + " - base);");
  e.Line("if (threadIdx.x == 0) count = 0;");
  // 1. Load, and each thread's minimum.
  e.Line("hlo_sort_item least = ~0ull;");
  for (int r = 0; r < per_thread; ++r) {
    const std::string v = "held" + std::to_string(r);
    e.Line("hlo_sort_item " + v + " = ~0ull;");
    e.Open("");
    e.Line("const int i = " + std::to_string(r) + " * " + T + " + threadIdx.x;");
    e.Open("if (i < len)");
    if (p.list > 0) {
      e.Line(v + " = " + ItemsIn(f) + "[row * " + IN + " + base + i];");
    } else {
      e.Line("const long long pos = base + i;");
      const Index idx = items.ElementIndex(e, "row", "pos");
      HLOGRAPH_TRY(items.LoadItem(e, "loaded", idx, "pos"));
      e.Line(v + " = loaded;");
    }
    e.Close();
    e.Close();
    e.Line("least = min(least, " + v + ");");
  }
  e.Line("int rank = 0;");
  e.Open("for (int u = 0; u < 32; ++u)");
  e.Line("const hlo_sort_item other = __shfl_sync(0xffffffffu, least, u);");
  e.Line("rank += other < least || (other == least && u < lane);");
  e.Close();
  e.Line("if (rank == " + std::to_string(offers - 1) + ") offered[warp] = least;");
  e.Line("__syncthreads();");
  e.Line("hlo_sort_item threshold = offered[0];");
  e.Line("for (int w = 1; w < " + std::to_string(warps) + "; ++w) threshold = max(threshold, offered[w]);");
  // 2. The candidates.
  for (int r = 0; r < per_thread; ++r) {
    const std::string v = "held" + std::to_string(r);
    e.Open("");
    e.Line("const bool take = " + v + " <= threshold && " + v + " != ~0ull;");
    e.Line("const unsigned ball = __ballot_sync(0xffffffffu, take);");
    e.Open("if (ball != 0)");
    e.Line("const int leader = __ffs(ball) - 1;");
    e.Line("unsigned slot = 0;");
    e.Line("if (lane == leader) slot = atomicAdd(&count, (unsigned)__popc(ball));");
    e.Line("slot = __shfl_sync(0xffffffffu, slot, leader);");
    e.Line("if (take) candidates[slot + __popc(ball & ((1u << lane) - 1u))] = " + v + ";");
    e.Close();
    e.Close();
  }
  e.Line("__syncthreads();");
  // 3. Sort them; write the first `keep`.
  e.Line("const int found = (int)count;");
  e.Line("int padded = 1;");
  e.Line("while (padded < found) padded <<= 1;");
  e.Line("for (int i = found + threadIdx.x; i < padded; i += " + T + ") candidates[i] = ~0ull;");
  e.Line("__syncthreads();");
  // Few candidates (the usual case): one warp sorts them, syncing the
  // warp alone between steps; else the block.
  const auto bitonic = [&](const std::string& first, const std::string& stride, const std::string& sync) {
    e.Open("for (int k = 2; k <= padded; k <<= 1)");
    e.Open("for (int j = k >> 1; j > 0; j >>= 1)");
    e.Open("for (int i = " + first + "; i < padded; i += " + stride + ")");
    e.Line("const int partner = i ^ j;");
    e.Open("if (partner > i)");
    e.Line("const hlo_sort_item x = candidates[i], y = candidates[partner];");
    e.Line("if ((x > y) == ((i & k) == 0)) { candidates[i] = y; candidates[partner] = x; }");
    e.Close();
    e.Close();
    e.Line(sync);
    e.Close();
    e.Close();
  };
  e.Open("if (padded <= 256)");
  e.Open("if (warp == 0)");
  bitonic("lane", "32", "__syncwarp();");
  e.Close();
  e.Close();
  e.Open("else");
  bitonic("(int)threadIdx.x", T, "__syncthreads();");
  e.Close();
  e.Line("__syncthreads();");
  e.Open("for (int j = threadIdx.x; j < " + std::to_string(keep) + "; j += " + T + ")");
  e.Line("const hlo_sort_item it = j < found ? candidates[j] : ~0ull;");
  if (p.last()) {
    e.Line("if (it == ~0ull) continue;  // not reached: a row has at least keep items");
    HLOGRAPH_TRY(items.WriteResults(e, f, "row", "(long long)j", "it"));
  } else {
    e.Line(ItemsOut() + "[unit * " + std::to_string(keep) + "LL + j] = it;");
  }
  e.Close();
  e.Line("__syncthreads();  // the next unit reuses the shared memory");
  e.Close();

  HLOGRAPH_ASSIGN(std::string decls, items.Declarations(f));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, threads));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {GridFor(units), 1, 1};
  launch.shared_bytes = static_cast<uint32_t>(chunk * 8);
  const std::string strategy = "top_k " + p.ToString() + ": threshold from warp minimums, " + std::to_string(units) +
                               " blocks";
  return KernelSource{f.name, decls + head + body.str() + "}\n", launch, strategy};
}

}  // namespace hlograph::gpu::emit

// chlo.scan and prefix-scan reduce_windows (plan/prefix_scan.h) in the
// layout plan/scan_layout.h chose. Warps work alone on their lines:
//
//   tiles   lane (r, w) holds axis position r of inner column w of a tile;
//           shuffles scan each column up the rows (Hillis-Steele, the
//           earlier value on the left of the body), the carried prefix is
//           folded in, the tile stored, and the last valid row's value
//           becomes the carry. Several tiles are loaded before any is
//           scanned, so that loads overlap.
//   serial  a lane per line applies the body along it in order.
//   chunks  see scan_layout.h: totals, flags, tickets, a look-back in chunk
//           order, and the last warp zeroing the counters.
//
// Lanes past the array's end (a last partial tile, columns past the inner
// extent) load a clamped element and store nothing: every lane reaches
// every shuffle, and a clamped value only flows to later rows, which are
// out of range too.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/prefix_scan.h"
#include "backends/gpu/plan/scan_layout.h"

namespace hlograph::gpu::emit {
namespace {

// Shuffles, slot stores and loads (skipping L1, where other SMs' totals may
// be stale) for any compute type, a 32-bit word at a time; and the wait
// for a chunk's flag.
const char* const kScanHelpers = R"(
__device__ __forceinline__ void hlo_scan_copy(void* to, const void* from, int bytes) {
#pragma unroll
  for (int b = 0; b < bytes; ++b) ((unsigned char*)to)[b] = ((const unsigned char*)from)[b];
}
template <typename T>
__device__ __forceinline__ T hlo_scan_shfl(T v, int src) {
  constexpr int kWords = (int)((sizeof(T) + 3) / 4);
  unsigned int w[kWords];
  w[kWords - 1] = 0u;
  hlo_scan_copy(w, &v, (int)sizeof(T));
#pragma unroll
  for (int k = 0; k < kWords; ++k) w[k] = __shfl_sync(0xffffffffu, w[k], src);
  T r;
  hlo_scan_copy(&r, w, (int)sizeof(T));
  return r;
}
template <typename T>
__device__ __forceinline__ void hlo_scan_put(char* slot, T v) {
  static_assert(sizeof(T) <= 16, "a slot holds 16 bytes");
  unsigned int w[4] = {0u, 0u, 0u, 0u};
  hlo_scan_copy(w, &v, (int)sizeof(T));
  *(uint4*)slot = make_uint4(w[0], w[1], w[2], w[3]);
}
template <typename T>
__device__ __forceinline__ T hlo_scan_get(const char* slot) {
  const uint4 b = __ldcg((const uint4*)slot);
  const unsigned int w[4] = {b.x, b.y, b.z, b.w};
  T r;
  hlo_scan_copy(&r, w, (int)sizeof(T));
  return r;
}
__device__ __forceinline__ void hlo_scan_wait(const unsigned int* flag) {
  while (*(const volatile unsigned int*)flag == 0u) {
#if __CUDA_ARCH__ >= 700
    __nanosleep(32);
#endif
  }
}
)";

// Tiles loaded before the first of them is scanned.
constexpr int kBatch = 4;

std::string Ll(int64_t v) { return std::to_string(v) + "LL"; }

class ScanEmitter {
 public:
  ScanEmitter(const Fusion& f, const ScanLayout& l, const PrefixScan& s) : f_(f), l_(l), s_(s), e_(f, body_) {}

  StatusOr<KernelSource> Emit() {
    KernelSource k;
    k.name = f_.name;
    k.strategy = l_.ToString();
    k.launch.block = {static_cast<uint32_t>(ScanLayout::kThreads), 1, 1};
    k.launch.grid = {0, 1, 1};
    HLOGRAPH_ASSIGN(std::string head, KernelOpening(f_, ScanLayout::kThreads));
    if (l_.warps() == 0) {  // no lines: nothing to compute
      k.code = head + "}\n";
      return k;
    }
    const ir::Type& x = s_.input->type();
    shape_ = x.shape();
    const auto at = [&](int64_t d) { return shape_.begin() + static_cast<std::ptrdiff_t>(d); };
    outer_shape_.assign(shape_.begin(), at(s_.axis));
    inner_shape_.assign(at(s_.axis + 1), shape_.end());
    HLOGRAPH_ASSIGN(x_type_, ComputeType(x.element()));
    HLOGRAPH_ASSIGN(carry_type_, ComputeType(s_.init->type().element()));
    out_element_ = f_.output_types[0].element();
    const bool chunked = l_.chunks > 1;

    e_.Line("const long long LENGTH = " + Ll(l_.length) + ", INNER = " + Ll(l_.inner) + ", GROUPS = " +
            Ll(l_.groups) + ", CHUNK = " + Ll(l_.chunk) + ", WARPS = " + Ll(l_.warps()) + ";");
    e_.Line("const int lane = threadIdx.x % 32;");
    e_.Line("const long long warp_id = (long long)blockIdx.x * " + std::to_string(ScanLayout::kWarpsPerBlock) +
            " + threadIdx.x / 32;");
    e_.Line("if (warp_id >= WARPS) return;  // the whole warp: no barrier follows");
    if (chunked) {
      e_.Line("unsigned int* const counters = (unsigned int*)s1;  // tickets, finished warps, a flag per chunk");
      e_.Line("unsigned int* const flags = counters + 2;");
      e_.Line("char* const totals = (char*)s0;");
      // Chunks in ticket order: those before this one have started.
      e_.Line("unsigned int ticket = 0u;");
      e_.Line("if (lane == 0) ticket = atomicAdd(&counters[0], 1u);");
      e_.Line("const long long item = __shfl_sync(0xffffffffu, ticket, 0);");
    } else {
      e_.Line("const long long item = warp_id;");
    }
    e_.Line("const long long g = item % GROUPS, c = item / GROUPS;");
    e_.Line("const long long pbeg = c * CHUNK, pend = min(LENGTH, pbeg + CHUNK);");
    if (l_.serial) {
      e_.Line("const long long line_raw = g * 32 + lane;");
      e_.Line("const bool valid = line_raw < " + Ll(l_.lines()) + ";");
      e_.Line("const long long line = min(line_raw, " + Ll(l_.lines() - 1) + ");");
      e_.Line("const long long o = line / INNER, i = line % INNER;");
    } else {
      const std::string cols = std::to_string(l_.columns);
      e_.Line("const int r = lane / " + cols + ", w = lane % " + cols + ";");
      e_.Line("const long long o = g / " + Ll(l_.column_blocks()) + ";");
      e_.Line("const long long i_raw = (g % " + Ll(l_.column_blocks()) + ") * " + cols + " + w;");
      e_.Line("const bool valid = r < " + std::to_string(l_.rows) + " && i_raw < INNER;");
      e_.Line("const long long i = min(i_raw, INNER - 1);");
    }
    outer_idx_ = e_.Delinearize("o", outer_shape_);
    inner_idx_ = e_.Delinearize("i", inner_shape_);
    Index init_idx = outer_idx_;
    init_idx.insert(init_idx.end(), inner_idx_.begin(), inner_idx_.end());
    HLOGRAPH_ASSIGN(const std::string init, e_.Emit(s_.init, s_.final_carry ? init_idx : Index{}));
    e_.Line(carry_type_ + " carry = " + init + ";");
    if (l_.serial) {
      HLOGRAPH_TRY(SerialPass());
    } else {
      if (chunked) {
        HLOGRAPH_TRY(TilePass(/*store=*/false));
        Publish();
        HLOGRAPH_TRY(LookBack(init));
      }
      HLOGRAPH_TRY(TilePass(/*store=*/true));
    }
    if (s_.final_carry && f_.outputs.size() > 1) {
      const std::string who = l_.serial ? "valid" : "c == " + Ll(l_.chunks - 1) + " && r == 0 && valid";
      e_.Line("if (" + who + ") o1[o * INNER + i] = " + StoreExpr(f_.output_types[1].element(), "carry") + ";");
    }
    if (chunked) ZeroCountersWhenLast();

    k.code = std::string(kScanHelpers) + head + body_.str() + "}\n";
    k.launch.grid = {static_cast<uint32_t>(std::min<int64_t>(l_.blocks(), int64_t{1} << 30)), 1, 1};
    return k;
  }

 private:
  // The input's index at axis position `k` of the thread's line.
  Index At(const std::string& k) const {
    Index idx = outer_idx_;
    idx.push_back(k);
    idx.insert(idx.end(), inner_idx_.begin(), inner_idx_.end());
    return idx;
  }

  // The axis position of processing position `p` (the scan's order).
  std::string Position(const std::string& p) const { return s_.reverse ? "LENGTH - 1 - (" + p + ")" : p; }

  // The body applied to `earlier` (folded first) and `later`; the variable
  // holding the next carry (which is the output, for associative scans).
  StatusOr<std::string> Combine(const std::string& earlier, const std::string& later) {
    const std::vector<std::string> args =
        s_.carry_first ? std::vector<std::string>{earlier, later} : std::vector<std::string>{later, earlier};
    HLOGRAPH_ASSIGN(std::vector<std::string> r, e_.EmitRegion(*s_.body, args));
    return r[s_.next_carry];
  }

  // acc = have ? Combine(earlier, later) : the other one, then `have`: a
  // fold with no value of its own before its first element (`acc` is
  // `earlier` or `later`).
  Status FoldFirstOrCombine(const std::string& acc, const std::string& earlier, const std::string& later) {
    const std::string& x = acc == earlier ? later : earlier;
    e_.Open("if (have)");
    HLOGRAPH_ASSIGN(const std::string folded, Combine(earlier, later));
    e_.Line(acc + " = " + folded + ";");
    e_.Close();
    e_.Line("else " + acc + " = " + x + ";");
    e_.Line("have = true;");
    return Status::Ok();
  }

  // `var` = Combine(earlier, var) in a scope of its own.
  Status FoldInto(const std::string& var, const std::string& earlier, const std::string& guard = "") {
    e_.Open(guard.empty() ? "" : "if (" + guard + ")");
    HLOGRAPH_ASSIGN(const std::string next, Combine(earlier, var));
    e_.Line(var + " = " + next + ";");
    e_.Close();
    return Status::Ok();
  }

  std::string Store(const std::string& k, const std::string& value) const {
    return "o0[(o * LENGTH + (" + k + ")) * INNER + i] = " + StoreExpr(out_element_, value) + ";";
  }

  // serial: the body along the line, in order.
  Status SerialPass() {
    e_.Line("#pragma unroll 4");
    e_.Open("for (long long p = pbeg; p < pend; ++p)");
    e_.Line("const long long k = " + Position("p") + ";");
    HLOGRAPH_ASSIGN(const std::string x, e_.Emit(s_.input, At("k")));
    const std::vector<std::string> args =
        s_.carry_first ? std::vector<std::string>{"carry", x} : std::vector<std::string>{x, "carry"};
    HLOGRAPH_ASSIGN(std::vector<std::string> r, e_.EmitRegion(*s_.body, args));
    e_.Line("if (valid) " + Store("k", r[s_.output]));
    e_.Line("carry = " + r[s_.next_carry] + ";");
    e_.Close();
    return Status::Ok();
  }

  // tiles over [pbeg, pend): with `store`, each tile is scanned with the carry
  // and stored, the carry following; without, the chunk's total per
  // column is folded into `total` (the first tile starts it).
  Status TilePass(bool store) {
    const int rows = l_.rows, cols = l_.columns;
    if (!store) {
      e_.Line(x_type_ + " total{};");
      e_.Line("bool have = false;");
    }
    e_.Line("#pragma unroll 1");
    e_.Open("for (long long t0 = pbeg; t0 < pend; t0 += " + Ll(int64_t{rows} * kBatch) + ")");
    // Per tile of the batch: its lane's processing position, axis
    // position and loaded element.
    struct Loaded {
      std::string p, k, x;
    };
    std::vector<Loaded> batch;
    for (int b = 0; b < kBatch; ++b) {
      Loaded t{e_.Fresh("pb"), e_.Fresh("k"), ""};
      e_.Line("const long long " + t.p + " = t0 + " + Ll(int64_t{b} * rows) + " + r;");
      e_.Line("const long long " + t.k + " = " + Position("min(" + t.p + ", pend - 1)") + ";");
      HLOGRAPH_ASSIGN(t.x, e_.Emit(s_.input, At(t.k)));
      batch.push_back(std::move(t));
    }
    for (int b = 0; b < kBatch; ++b) {
      const std::string start = "t0 + " + Ll(int64_t{b} * rows);
      const std::string& pb = batch[static_cast<size_t>(b)].p;
      const std::string& k = batch[static_cast<size_t>(b)].k;
      const std::string& x = batch[static_cast<size_t>(b)].x;
      e_.Open("if (" + start + " < pend)");  // the same for the whole warp
      e_.Line(x_type_ + " v = " + x + ";");
      for (int off = 1; off < rows; off *= 2) {
        const std::string step = std::to_string(off * cols);
        e_.Open("");
        e_.Line("const " + x_type_ + " u = hlo_scan_shfl(v, lane >= " + step + " ? lane - " + step + " : lane);");
        HLOGRAPH_TRY(FoldInto("v", "u", "r >= " + std::to_string(off)));
        e_.Close();
      }
      e_.Line("const int last = (int)min(" + Ll(rows) + ", pend - (" + start + ")) - 1;");
      if (store) {
        HLOGRAPH_TRY(FoldInto("v", "carry"));
        e_.Line("if (valid && " + pb + " < pend) " + Store(k, "v"));
        e_.Line("carry = hlo_scan_shfl(v, last * " + std::to_string(cols) + " + w);");
      } else {
        e_.Line("const " + x_type_ + " tile = hlo_scan_shfl(v, last * " + std::to_string(cols) + " + w);");
        HLOGRAPH_TRY(FoldFirstOrCombine("total", "total", "tile"));
      }
      e_.Close();
    }
    e_.Close();
    return Status::Ok();
  }

  // The chunk's totals to their slots, then its flag.
  void Publish() {
    e_.Line("if (r == 0) hlo_scan_put(totals + (item * " + std::to_string(l_.columns) + " + w) * " +
            std::to_string(ScanLayout::kSlotBytes) + "LL, total);");
    e_.Line("__threadfence();  // the totals are visible before the flag");
    e_.Line("__syncwarp();");
    e_.Line("if (lane == 0) atomicExch(&flags[item], 1u);");
  }

  // carry = init folded with the totals of the chunks before this one,
  // in chunk order: each row of lanes folds a run of them, then the runs
  // are folded up the rows by shuffles.
  Status LookBack(const std::string& init) {
    const int rows = l_.rows, cols = l_.columns;
    const std::string slot = std::to_string(ScanLayout::kSlotBytes);
    e_.Open("if (c > 0)");
    e_.Line("const long long q = (c + " + Ll(rows - 1) + ") / " + Ll(rows) + ";");
    e_.Line("const long long run0 = min(c, (long long)r * q), run1 = min(c, run0 + q);");
    e_.Line("for (long long j = run0; j < run1; ++j) hlo_scan_wait(&flags[j * GROUPS + g]);");
    e_.Line("__threadfence();  // the totals are read after their flags");
    e_.Line(x_type_ + " part{};");
    e_.Line("bool have = false;");
    e_.Open("for (long long j = run0; j < run1; ++j)");
    e_.Line("const " + x_type_ + " a = hlo_scan_get<" + x_type_ + ">(totals + ((j * GROUPS + g) * " +
            std::to_string(cols) + " + w) * " + slot + "LL);");
    HLOGRAPH_TRY(FoldFirstOrCombine("part", "part", "a"));
    e_.Close();
    for (int off = 1; off < rows; off *= 2) {
      const std::string step = std::to_string(off * cols);
      e_.Open("");
      e_.Line("const int src = lane >= " + step + " ? lane - " + step + " : lane;");
      e_.Line("const " + x_type_ + " u = hlo_scan_shfl(part, src);");
      e_.Line("const bool u_have = hlo_scan_shfl(have, src);");
      e_.Open("if (r >= " + std::to_string(off) + " && u_have)");
      HLOGRAPH_TRY(FoldFirstOrCombine("part", "u", "part"));
      e_.Close();
      e_.Close();
    }
    e_.Line("const " + x_type_ + " before = hlo_scan_shfl(part, " + std::to_string((rows - 1) * cols) + " + w);");
    HLOGRAPH_ASSIGN(const std::string carried, Combine(init, "before"));
    e_.Line("carry = " + carried + ";");
    e_.Close();
    return Status::Ok();
  }

  // Every warp counts itself finished once it has read its flags; the
  // last zeroes the flags and counters for the next call.
  void ZeroCountersWhenLast() {
    e_.Line("__syncwarp();");
    e_.Line("unsigned int finished = 0u;");
    e_.Open("if (lane == 0)");
    e_.Line("__threadfence();");
    e_.Line("finished = atomicAdd(&counters[1], 1u) + 1u;");
    e_.Close();
    e_.Line("finished = __shfl_sync(0xffffffffu, finished, 0);");
    e_.Open("if (finished == (unsigned int)WARPS)");
    e_.Line("for (long long j = lane; j < WARPS; j += 32) flags[j] = 0u;");
    e_.Line("if (lane == 0) { counters[0] = 0u; counters[1] = 0u; }");
    e_.Close();
  }

  const Fusion& f_;
  const ScanLayout l_;
  const PrefixScan s_;
  std::ostringstream body_;  // declared before e_, which writes into it
  BodyEmitter e_;
  std::vector<int64_t> shape_, outer_shape_, inner_shape_;
  Index outer_idx_, inner_idx_;
  std::string x_type_, carry_type_;
  ir::ElementType out_element_ = ir::ElementType::kF32;
};

}  // namespace

StatusOr<KernelSource> EmitScan(const Fusion& f, const EmitOptions& options) {
  if (f.outputs.empty() || f.outputs[0]->defining_op() == nullptr) {
    return Status::Error("a scan kernel without the scan it stores");
  }
  const ir::Operation& op = *f.outputs[0]->defining_op();
  const std::optional<PrefixScan> scan = MatchPrefixScan(op);
  if (!scan) return Status::Error("'" + op.name() + "' op is not a scan the GPU backend runs");
  ScanLayout layout = f.scan;
  if (!layout.planned) {
    const ir::Type& x = scan->input->type();
    layout = PlanScanLayout(x.shape(), scan->axis, scan->associative, ir::StorageBytes(x.element()), options.sm_count);
  }
  // Chunks need the scratch the planner gives them.
  if (layout.chunks > 1 && f.scratch_bytes.size() != 2) {
    layout.chunks = 1;
    layout.chunk = layout.length;
  }
  return ScanEmitter(f, layout, *scan).Emit();
}

}  // namespace hlograph::gpu::emit

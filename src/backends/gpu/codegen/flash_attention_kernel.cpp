// Attention of many queries as one kernel (plan/flash_attention.h).
//
//   block     a batch element (a head) and a tile of 64 queries (the
//             tiles of a head in neighbouring blocks, the longest first,
//             so that its keys stay in L2 and a causal mask's short tiles
//             fill the end); 4 warps of 16 queries each.
//   queries   copied into shared memory once (cp.async).
//   keys      in tiles of 64, with their values, double-buffered: the
//             next tile's copy is in flight while this one is computed.
//             With a key window (a causal mask), only the tiles some
//             query of the block sees.
//   scores    S = Q K^T on the tensor cores (mma.sync m16n8k16, f32
//             sums), then S's ops of the program (a scale, a mask) per
//             element, keys past the end -inf.
//   softmax   online, per query: the running maximum m (the program's
//             maximum), earlier sums and weighted values rescaled by
//             exp(m_old - m_new) when it grows, weights exp(s - m).
//   values    the weights rounded to the operands' 16-bit float, as the
//             program rounds P, times the value tile on the tensor cores
//             (ldmatrix.trans reads V as the product's column operand);
//             f32 operands: TF32 products (m16n8k8), P in f32.
//   splits    few (query tile, head) pairs for the GPU: the keys split
//             among blocks (FlashKeyChunk), the last of a pair to arrive
//             combining their maxima, sums and weighted values.
//   end       X and Y of the program from the maximum and the sum, the
//             sums rescaled by exp(m - X) / Y, stored.
// The exponentials are ex2.approx: each weight is rounded to 16 bits
// before it is summed, far coarser than their error.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/codegen/tensor_core_helpers.h"
#include "backends/gpu/plan/flash_attention.h"

namespace hlograph::gpu::emit {

namespace {

constexpr int kFlashThreads = 32 * kFlashWarps;

// A device function `name` loading four 8x8 matrices of 16-bit elements
// from shared memory (ldmatrix; `trans`: ".trans", each transposed).
std::string LoadMatrices(const std::string& name, const std::string& trans) {
  return "static __device__ __forceinline__ void " + name +
         "(unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3, const void* smem) {\n"
         "  const unsigned at = (unsigned)__cvta_generic_to_shared(smem);\n"
         "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4" + trans +
         ".shared.b16 {%0, %1, %2, %3}, [%4];\" : \"=r\"(r0), \"=r\"(r1), \"=r\"(r2), \"=r\"(r3) : \"r\"(at));\n"
         "}\n";
}

std::string Helpers(ir::ElementType t) {
  const std::string type = t == ir::ElementType::kBF16 ? "bf16" : "f16";
  const std::string common = R"(static __device__ __forceinline__ void hlo_fa_copy16(void* smem, const void* global) {
  const unsigned at = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(at), "l"(global) : "memory");
}
static __device__ __forceinline__ void hlo_fa_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
static __device__ __forceinline__ void hlo_fa_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }
static __device__ __forceinline__ float hlo_fa_exp(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
  return y;
}
static __device__ __forceinline__ float hlo_fa_max(float a, float b) {
  float y;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b));
  return y;
}
)";
  if (t == ir::ElementType::kF32) return common + MmaFunction("hlo_fa_mma", "m16n8k8", "tf32");
  return common + MmaFunction("hlo_fa_mma", "m16n8k16", type) + LoadMatrices("hlo_fa_load4", "") +
         LoadMatrices("hlo_fa_load_t4", ".trans") + PackFunction("hlo_fa_pack", type);
}

std::string N(int64_t x) { return std::to_string(x) + "LL"; }

class FlashEmitter {
 public:
  FlashEmitter(const Fusion& f, const FlashAttention& a, std::ostringstream& body)
      : f_(f), a_(a), e_(f, body), tf32_(a.operand_type == ir::ElementType::kF32) {
    elem_ = tf32_ ? "float" : "unsigned short";
    per_copy_ = tf32_ ? 4 : 8;
  }

  int64_t tiles() const { return (a_.queries + kFlashQueryTile - 1) / kFlashQueryTile; }
  int64_t blocks() const { return FlashTilePairs(a_) * splits(); }
  // Blocks sharing a (query tile, head) pair, each taking key_chunk keys.
  int64_t splits() const { return FlashSplits(a_, f_.key_chunk); }
  int64_t chunk_tiles() const { return f_.key_chunk > 0 ? f_.key_chunk / kFlashKeyTile : FlashKeyTiles(a_); }

  Status Emit() {
    const SoftmaxAttention& sm = a_.softmax;
    const ir::Operation& dot1 = *sm.scores;
    HLOGRAPH_ASSIGN(const std::string q, InputOf(dot1.operand(static_cast<size_t>(a_.q_operand))));
    HLOGRAPH_ASSIGN(const std::string k, InputOf(dot1.operand(static_cast<size_t>(1 - a_.q_operand))));
    HLOGRAPH_ASSIGN(const std::string v, InputOf(sm.values->operand(static_cast<size_t>(1 - a_.p_operand))));
    if (f_.outputs.size() != 1) {
      return Status::Error("internal error: a flash attention kernel storing more than its values product");
    }
    const int64_t D = a_.depth, W = a_.width, QP = D + FlashRowPad(a_), VP = W + FlashRowPad(a_);
    e_.Line("extern __shared__ __align__(16) unsigned char hlo_smem[];");
    e_.Line(elem_ + "* const q_s = (" + elem_ + "*)hlo_smem;");
    e_.Line(elem_ + "* const k_s = q_s + " + N(kFlashQueryTile * QP) + ";");
    e_.Line(elem_ + "* const v_s = k_s + " + N(2 * kFlashKeyTile * QP) + ";");
    e_.Line("const " + elem_ + "* const q_g = (const " + elem_ + "*)" + q + ";");
    e_.Line("const " + elem_ + "* const k_g = (const " + elem_ + "*)" + k + ";");
    e_.Line("const " + elem_ + "* const v_g = (const " + elem_ + "*)" + v + ";");
    e_.Line("const float neg_inf = __int_as_float(0xff800000);");
    e_.Line("const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, tq = lane & 3;");
    e_.Line("const long long NQ = " + N(a_.queries) + ", NK = " + N(sm.keys) + ", tiles = " + N(tiles()) + ";");
    e_.Line("const long long pair = blockIdx.x / " + N(splits()) + ", split = blockIdx.x % " + N(splits()) + ";");
    e_.Line("const long long bh = pair / tiles, q0 = (tiles - 1 - pair % tiles) * " + N(kFlashQueryTile) + ";");
    b_ = e_.Delinearize("bh", sm.batch_shape);
    e_.Line("const long long q_base = " + Offset(b_, a_.q.batch) + ", k_base = " + Offset(b_, a_.k.batch) +
            ", v_base = " + Offset(b_, a_.v.batch) + ", o_base = " + Offset(b_, a_.out.batch) + ";");
    // The queries' tile.
    e_.Open("for (int c = threadIdx.x; c < " + std::to_string(kFlashQueryTile * D / per_copy_) + "; c += " +
            std::to_string(kFlashThreads) + ")");
    e_.Line(CopyColumn(D));
    e_.Line("const long long qr = min(q0 + row, NQ - 1);");
    const Index qr = e_.Delinearize("qr", a_.query_shape);
    e_.Line("hlo_fa_copy16(q_s + row * " + N(QP) + " + col, q_g + q_base + " + Offset(qr, a_.q.query) + " + col);");
    e_.Close();
    e_.Line("hlo_fa_commit();");
    KeyTiles();
    if (splits() > 1) {
      e_.Line("kt_begin = max(kt_begin, split * " + N(chunk_tiles()) + ");");
      e_.Line("kt_end = min(kt_end, split * " + N(chunk_tiles()) + " + " + N(chunk_tiles()) + ");");
    }
    // A tile of keys and their values into stage st.
    e_.Open("auto load_keys = [&](long long kt, int st)");
    CopyKeyRows("k", D, QP, a_.k.key);
    CopyKeyRows("v", W, VP, a_.v.key);
    e_.Line("hlo_fa_commit();");
    e_.Close(";");
    // The two queries this thread holds: rows g and g + 8 of its warp's 16.
    e_.Line("const long long r0 = q0 + warp * 16 + g, r1 = r0 + 8;");
    e_.Line("const long long rc0 = min(r0, NQ - 1), rc1 = min(r1, NQ - 1);");
    rows_[0] = e_.Delinearize("rc0", a_.query_shape);
    rows_[1] = e_.Delinearize("rc1", a_.query_shape);
    e_.Line("float m0 = neg_inf, m1 = neg_inf, l0 = 0.f, l1 = 0.f;");
    e_.Line("float acc[" + std::to_string(W / 8) + "][4];");
    e_.Line("#pragma unroll");
    e_.Line("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n) acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;");
    e_.Line("if (kt_begin < kt_end) load_keys(kt_begin, 0);");
    e_.Open("for (long long kt = kt_begin; kt < kt_end; ++kt)");
    e_.Line("const int st = (int)((kt - kt_begin) & 1);");
    e_.Line("if (kt + 1 < kt_end) { load_keys(kt + 1, st ^ 1); hlo_fa_wait<1>(); } else { hlo_fa_wait<0>(); }");
    e_.Line("__syncthreads();");
    Scores(D, QP);
    HLOGRAPH_TRY(ScoreOps());
    HLOGRAPH_TRY(OnlineSoftmax(W));
    WeightedValues(W, VP);
    e_.Line("__syncthreads();  // before the next copy overwrites this stage");
    e_.Close();
    e_.Line("hlo_fa_wait<0>();");
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h);
      e_.Line("l" + H + " += __shfl_xor_sync(0xffffffffu, l" + H + ", 1);");
      e_.Line("l" + H + " += __shfl_xor_sync(0xffffffffu, l" + H + ", 2);");
    }
    if (splits() > 1) Combine(W);
    return Finish(W);
  }

 private:
  // The input holding `v`'s bytes: `v` itself or what it reshapes.
  StatusOr<std::string> InputOf(const ir::Value* v) const {
    const ir::Value* bytes = ReshapedFrom(v);
    for (size_t i = 0; i < f_.inputs.size(); ++i) {
      if (f_.inputs[i] == v || f_.inputs[i] == bytes) return "p" + std::to_string(i);
    }
    return Status::Error("internal error: a flash attention kernel whose operands are not in memory");
  }

  // Copies keys kt * 64 ... of `t` ("k" or "v": t_g from t_base, `stride`
  // apart, `dims` wide) into stage st of t_s (rows `pitch` apart); keys
  // past the end repeat the last.
  void CopyKeyRows(const std::string& t, int64_t dims, int64_t pitch, int64_t stride) {
    e_.Open("for (int c = threadIdx.x; c < " + std::to_string(kFlashKeyTile * dims / per_copy_) + "; c += " +
            std::to_string(kFlashThreads) + ")");
    e_.Line(CopyColumn(dims));
    e_.Line("const long long key = min(kt * " + N(kFlashKeyTile) + " + row, NK - 1);");
    e_.Line("hlo_fa_copy16(" + t + "_s + st * " + N(kFlashKeyTile * pitch) + " + row * " + N(pitch) + " + col, " + t +
            "_g + " + t + "_base + key * " + N(stride) + " + col);");
    e_.Close();
  }

  // A copy's row and first column of a tile `dims` wide (16 bytes each).
  std::string CopyColumn(int64_t dims) const {
    const std::string per_row = std::to_string(dims / per_copy_);
    return "const int row = c / " + per_row + ", col = c % " + per_row + " * " + std::to_string(per_copy_) + ";";
  }

  static std::string Offset(const Index& idx, const std::vector<int64_t>& strides) {
    std::string s = "0LL";
    for (size_t i = 0; i < idx.size() && i < strides.size(); ++i) {
      if (idx[i] != "0") s += " + " + idx[i] + " * " + N(strides[i]);
    }
    return s;
  }

  // kt_begin and kt_end: the key tiles the block visits. With a key
  // window, those holding a key some query of the block sees (the bounds
  // at the ends of the range of the window's query dim t in the tile, all
  // of t's range where the tile wraps around it), and inner_lo ..
  // inner_hi, the keys all of them see.
  void KeyTiles() {
    const int64_t key_tiles = FlashKeyTiles(a_);
    e_.Line("long long kt_begin = 0, kt_end = " + N(key_tiles) + ";");
    const KeyWindow& w = a_.window;
    if (!w.active()) return;
    // inner_lo .. inner_hi: the keys every query of the block sees.
    e_.Line("long long inner_lo = 0, inner_hi = NK - 1;");
    int64_t inner = 1;
    for (size_t d = static_cast<size_t>(w.query_dim) + 1; d < a_.query_shape.size(); ++d) inner *= a_.query_shape[d];
    const int64_t extent = a_.query_shape[static_cast<size_t>(w.query_dim)];
    e_.Open("");
    e_.Line("const long long lo_q = q0 / " + N(inner) + ", hi_q = min(q0 + " + N(kFlashQueryTile - 1) + ", NQ - 1) / " +
            N(inner) + ";");
    e_.Line("const bool wraps = lo_q / " + N(extent) + " != hi_q / " + N(extent) + ";");
    e_.Line("const long long t0 = wraps ? 0LL : lo_q % " + N(extent) + ", t1 = wraps ? " + N(extent - 1) + " : hi_q % " +
            N(extent) + ";");
    e_.Line("long long key_lo = 0, key_hi = NK - 1;");
    for (const KeyWindow::Bound& b : w.lower) {
      e_.Line("key_lo = max(key_lo, " + N(b.scale) + " * " + (b.scale > 0 ? "t0" : "t1") + " + " + N(b.offset) + ");");
      e_.Line("inner_lo = max(inner_lo, " + N(b.scale) + " * " + (b.scale > 0 ? "t1" : "t0") + " + " + N(b.offset) + ");");
    }
    for (const KeyWindow::Bound& b : w.upper) {
      e_.Line("key_hi = min(key_hi, " + N(b.scale) + " * " + (b.scale > 0 ? "t1" : "t0") + " + " + N(b.offset) + ");");
      e_.Line("inner_hi = min(inner_hi, " + N(b.scale) + " * " + (b.scale > 0 ? "t0" : "t1") + " + " + N(b.offset) + ");");
    }
    e_.Line("if (key_lo <= key_hi) { kt_begin = key_lo / " + N(kFlashKeyTile) + "; kt_end = key_hi / " +
            N(kFlashKeyTile) + " + 1; }");
    e_.Close();
  }

  // s[n][j]: the warp's 16 queries against keys n * 8 .. n * 8 + 7 of the
  // tile (the m16n8 accumulator: j < 2 row g, else g + 8; column tq * 2 + j % 2).
  void Scores(int64_t D, int64_t QP) {
    e_.Line("float s[8][4];");
    e_.Line("#pragma unroll");
    e_.Line("for (int n = 0; n < 8; ++n) s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;");
    e_.Line("const " + elem_ + "* const k_t = k_s + st * " + N(kFlashKeyTile * QP) + ";");
    e_.Line("#pragma unroll");
    if (tf32_) {
      // m16n8k8 on TF32: A (row g, dims tq and tq + 4; row g + 8 the
      // same), B (dims tq and tq + 4 of key g). The low mantissa bits are
      // ignored, as a TF32 library product rounds them away.
      e_.Open("for (int kk = 0; kk < " + std::to_string(D / 8) + "; ++kk)");
      e_.Line("const float* const qa = q_s + (warp * 16 + g) * " + N(QP) + " + kk * 8 + tq;");
      e_.Line("const unsigned a0 = __float_as_uint(qa[0]), a1 = __float_as_uint(qa[" + N(8 * QP) +
              "]), a2 = __float_as_uint(qa[4]), a3 = __float_as_uint(qa[" + N(8 * QP + 4) + "]);");
      e_.Line("#pragma unroll");
      e_.Open("for (int n = 0; n < 8; ++n)");
      e_.Line("const float* const kb = k_t + (n * 8 + g) * " + N(QP) + " + kk * 8 + tq;");
      e_.Line("hlo_fa_mma(s[n], a0, a1, a2, a3, __float_as_uint(kb[0]), __float_as_uint(kb[4]));");
      e_.Close();
      e_.Close();
      return;
    }
    e_.Open("for (int kk = 0; kk < " + std::to_string(D / 16) + "; ++kk)");
    e_.Line("const unsigned short* const qa = q_s + (warp * 16 + g) * " + N(QP) + " + kk * 16 + tq * 2;");
    e_.Line("const unsigned a0 = *(const unsigned*)qa, a1 = *(const unsigned*)(qa + " + N(8 * QP) +
            "), a2 = *(const unsigned*)(qa + 8), a3 = *(const unsigned*)(qa + " + N(8 * QP + 8) + ");");
    // Two key blocks' B fragments a load: lane l gives the address of row
    // l % 8 of matrix l / 8 (keys n * 8 + 8 (l / 16) + l % 8, dims kk * 16
    // + 8 (l / 8 % 2)).
    e_.Line("#pragma unroll");
    e_.Open("for (int n = 0; n < 8; n += 2)");
    e_.Line("unsigned b0, b1, b2, b3;");
    e_.Line("hlo_fa_load4(b0, b1, b2, b3, k_t + (n * 8 + ((lane >> 4) << 3) + (lane & 7)) * " + N(QP) +
            " + kk * 16 + ((lane >> 3) & 1) * 8);");
    e_.Line("hlo_fa_mma(s[n], a0, a1, a2, a3, b0, b1);");
    e_.Line("hlo_fa_mma(s[n + 1], a0, a1, a2, a3, b2, b3);");
    e_.Close();
    e_.Close();
  }

  // S's index (batch dims b_, row h's query dims, key `key`), and the
  // scores product's index of the same element.
  Index ScoreIndex(int h, const std::string& key) const {
    const int rank = static_cast<int>(a_.softmax.s->type().rank());
    Index idx(static_cast<size_t>(rank), "0");
    for (size_t i = 0; i < a_.s_batch_dims.size(); ++i) idx[static_cast<size_t>(a_.s_batch_dims[i])] = b_[i];
    for (size_t i = 0; i < a_.s_query_dims.size(); ++i) {
      idx[static_cast<size_t>(a_.s_query_dims[i])] = rows_[static_cast<size_t>(h)][i];
    }
    idx.back() = key;
    return idx;
  }

  // S's ops on each score (the product rounded to its type first), keys
  // past the end -inf. A tile inside the key window, none of its keys
  // past the end, takes them with the mask known to keep every key.
  Status ScoreOps() {
    e_.Line("const long long tile_key = kt * " + N(kFlashKeyTile) + " + tq * 2;");
    const KeyWindow& w = a_.window;
    std::string inside = "kt * " + N(kFlashKeyTile) + " + " + N(kFlashKeyTile - 1) + " < NK";
    if (w.active()) inside += " && kt * " + N(kFlashKeyTile) + " >= inner_lo && kt * " + N(kFlashKeyTile) + " + " +
                              N(kFlashKeyTile - 1) + " <= inner_hi";
    e_.Open("if (" + inside + ")");
    if (w.active()) e_.BindEverywhere(w.kept, "true");
    HLOGRAPH_TRY(ScoreOpsOfTile(false));
    e_.Close();
    e_.Open("else");
    HLOGRAPH_TRY(ScoreOpsOfTile(true));
    e_.Close();
    return Status::Ok();
  }

  Status ScoreOpsOfTile(bool at_the_end) {
    const SoftmaxAttention& sm = a_.softmax;
    for (int n = 0; n < 8; ++n) {
      for (int c = 0; c < 2; ++c) {
        const std::string at = std::to_string(n * 8 + c);
        const std::string key = e_.Fresh("key");
        e_.Line("const long long " + key + " = " + (at_the_end ? "min(tile_key + " + at + ", NK - 1)" : "tile_key + " + at) +
                ";");
        for (int h = 0; h < 2; ++h) {
          const std::string var = "s[" + std::to_string(n) + "][" + std::to_string(h * 2 + c) + "]";
          const Index s_idx = ScoreIndex(h, key);
          Index dot_idx(s_idx.size());
          for (size_t i = 0; i < s_idx.size(); ++i) dot_idx[static_cast<size_t>(a_.scores_dim_of_s[i])] = s_idx[i];
          e_.BindSum(sm.scores->result(0), dot_idx, var);
          HLOGRAPH_ASSIGN(const std::string s, e_.Emit(sm.s, s_idx));
          e_.Line(var + " = " + (at_the_end ? "tile_key + " + at + " < NK ? " + s + " : neg_inf" : s) + ";");
        }
      }
    }
    return Status::Ok();
  }

  // The running maximum (NaN if any score is: the program's maximum up
  // to the sign of a zero, which only shifts the weights; the row's four
  // threads folded by shuffles), the rescaling of what came before, the
  // weights exp(s - shift) and their sums (per thread until the end).
  Status OnlineSoftmax(int64_t W) {
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h), mx = "mx" + H;
      e_.Line("float " + mx + " = m" + H + ";");
      e_.Line("#pragma unroll");
      e_.Line("for (int n = 0; n < 8; ++n) " + mx + " = hlo_fa_max(" + mx + ", hlo_fa_max(s[n][" + std::to_string(2 * h) +
              "], s[n][" + std::to_string(2 * h + 1) + "]));");
      for (int offset : {1, 2}) {
        e_.Line(mx + " = hlo_fa_max(" + mx + ", __shfl_xor_sync(0xffffffffu, " + mx + ", " + std::to_string(offset) +
                "));");
      }
      // The shift of the weights: the maximum, 0 while every score is -inf.
      e_.Line("const float sh" + H + " = " + mx + " == neg_inf ? 0.f : " + mx + ";");
      e_.Line("const float grow" + H + " = m" + H + " == neg_inf ? 1.f : hlo_fa_exp(m" + H + " - sh" + H + ");");
      e_.Line("m" + H + " = " + mx + ";");
      e_.Line("l" + H + " *= grow" + H + ";");
    }
    e_.Line("#pragma unroll");
    e_.Open("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n)");
    e_.Line("acc[n][0] *= grow0; acc[n][1] *= grow0; acc[n][2] *= grow1; acc[n][3] *= grow1;");
    e_.Close();
    e_.Line("#pragma unroll");
    e_.Open("for (int n = 0; n < 8; ++n)");
    // (s - shift first: a shift near the largest float times log2 e overflows.)
    e_.Line("s[n][0] = hlo_fa_exp(s[n][0] - sh0); s[n][1] = hlo_fa_exp(s[n][1] - sh0);");
    e_.Line("s[n][2] = hlo_fa_exp(s[n][2] - sh1); s[n][3] = hlo_fa_exp(s[n][3] - sh1);");
    e_.Line("l0 += s[n][0] + s[n][1]; l1 += s[n][2] + s[n][3];");
    e_.Close();
    return Status::Ok();
  }

  // acc += P V: the weights of 16 keys as the product's row operand, the
  // values' 16 dims at a time through ldmatrix.trans.
  void WeightedValues(int64_t W, int64_t VP) {
    e_.Line("const " + elem_ + "* const v_t = v_s + st * " + N(kFlashKeyTile * VP) + ";");
    if (tf32_) {
      // m16n8k8 on TF32 over each 8 keys, its k order permuted so that the
      // scores' accumulator is the A operand as it is: this thread's keys
      // 2 tq and 2 tq + 1 are the product's k = tq and tq + 4; the values'
      // rows are read in the same order.
      e_.Line("#pragma unroll");
      e_.Open("for (int j = 0; j < 8; ++j)");
      e_.Line("const unsigned pa0 = __float_as_uint(s[j][0]), pa1 = __float_as_uint(s[j][2]), pa2 = "
              "__float_as_uint(s[j][1]), pa3 = __float_as_uint(s[j][3]);");
      e_.Line("#pragma unroll");
      e_.Open("for (int nn = 0; nn < " + std::to_string(W / 8) + "; ++nn)");
      e_.Line("const float* const vb = v_t + (j * 8 + 2 * tq) * " + N(VP) + " + nn * 8 + g;");
      e_.Line("hlo_fa_mma(acc[nn], pa0, pa1, pa2, pa3, __float_as_uint(vb[0]), __float_as_uint(vb[" + N(VP) + "]));");
      e_.Close();
      e_.Close();
      return;
    }
    e_.Line("#pragma unroll");
    e_.Open("for (int kk = 0; kk < " + std::to_string(kFlashKeyTile / 16) + "; ++kk)");
    e_.Line("const unsigned pa0 = hlo_fa_pack(s[2 * kk][0], s[2 * kk][1]), pa1 = hlo_fa_pack(s[2 * kk][2], s[2 * kk][3]);");
    e_.Line("const unsigned pa2 = hlo_fa_pack(s[2 * kk + 1][0], s[2 * kk + 1][1]), pa3 = hlo_fa_pack(s[2 * kk + 1][2], s[2 * kk + 1][3]);");
    e_.Line("#pragma unroll");
    e_.Open("for (int nn = 0; nn < " + std::to_string(W / 16) + "; ++nn)");
    e_.Line("unsigned b0, b1, b2, b3;");
    e_.Line("hlo_fa_load_t4(b0, b1, b2, b3, v_t + (kk * 16 + (lane & 15)) * " + N(VP) + " + nn * 16 + (lane >> 4) * 8);");
    e_.Line("hlo_fa_mma(acc[2 * nn], pa0, pa1, pa2, pa3, b0, b1);");
    e_.Line("hlo_fa_mma(acc[2 * nn + 1], pa0, pa1, pa2, pa3, b2, b3);");
    e_.Close();
    e_.Close();
  }

  // X and Y of the program from the maximum and the sum, and the stores.
  // A split leaves its maximum, sum and weighted values (relative to its
  // shift) in its slot of s0; the last block of the pair to arrive (s1
  // counts them, back to 0 after) folds the slots in order of split, so
  // every call gives the same bits, and goes on as if it had taken every key.
  void Combine(int64_t W) {
    const std::string row = N(2 + W), S = N(splits());
    e_.Line("float* const parts = (float*)s0 + pair * " + N(splits() * kFlashQueryTile * (2 + W)) + ";");
    e_.Line("const int rr0 = warp * 16 + g, rr1 = rr0 + 8;");
    e_.Open("");
    e_.Line("float* const mine = parts + split * " + N(kFlashQueryTile * (2 + W)) + ";");
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h), at = "(mine + rr" + H + " * " + row + ")";
      e_.Line("if (tq == 0) { " + at + "[0] = m" + H + "; " + at + "[1] = l" + H + "; }");
      e_.Line("#pragma unroll");
      e_.Line("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n) { " + at + "[2 + n * 8 + tq * 2] = acc[n][" +
              std::to_string(2 * h) + "]; " + at + "[3 + n * 8 + tq * 2] = acc[n][" + std::to_string(2 * h + 1) + "]; }");
    }
    e_.Close();
    e_.Line("__threadfence();");
    e_.Line("__syncthreads();");
    e_.Line("__shared__ bool last_block;");
    e_.Open("if (threadIdx.x == 0)");
    e_.Line("unsigned int* const arrivals = (unsigned int*)s1 + pair;");
    e_.Line("last_block = atomicAdd(arrivals, 1u) == " + N(splits() - 1) + ";");
    e_.Line("if (last_block) *arrivals = 0u;");
    e_.Close();
    e_.Line("__syncthreads();");
    e_.Line("if (!last_block) return;");
    e_.Line("__threadfence();");
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h), r = "rr" + H + " * " + row;
      e_.Line("m" + H + " = neg_inf;");
      e_.Line("for (long long sp = 0; sp < " + S + "; ++sp) m" + H + " = hlo_fa_max(m" + H + ", __ldcg(parts + sp * " +
              N(kFlashQueryTile * (2 + W)) + " + " + r + "));");
      e_.Line("l" + H + " = 0.f;");
      e_.Line("#pragma unroll");
      e_.Line("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n) acc[n][" + std::to_string(2 * h) + "] = acc[n][" +
              std::to_string(2 * h + 1) + "] = 0.f;");
      e_.Open("for (long long sp = 0; sp < " + S + "; ++sp)");
      e_.Line("const float* const at = parts + sp * " + N(kFlashQueryTile * (2 + W)) + " + " + r + ";");
      e_.Line("const float ms = __ldcg(at);");
      e_.Line("const float f = ms == neg_inf ? 0.f : hlo_fa_exp(ms - (m" + H + " == neg_inf ? 0.f : m" + H + "));");
      e_.Line("l" + H + " += f * __ldcg(at + 1);");
      e_.Line("#pragma unroll");
      e_.Line("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n) { acc[n][" + std::to_string(2 * h) +
              "] += f * __ldcg(at + 2 + n * 8 + tq * 2); acc[n][" + std::to_string(2 * h + 1) +
              "] += f * __ldcg(at + 3 + n * 8 + tq * 2); }");
      e_.Close();
    }
  }

  Status Finish(int64_t W) {
    const SoftmaxAttention& sm = a_.softmax;
    const ir::ElementType out = f_.output_types[0].element();
    e_.Line("float scale0, scale1;");
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h);
      e_.Open("");
      e_.BindEverywhere(sm.max->result(0), "m" + H);
      HLOGRAPH_ASSIGN(const std::string x, e_.Emit(sm.x, ScoreIndex(h, "0")));
      // The sums were of exp(s - shift); the program's are of exp(s - X).
      e_.Line("const float corr = hlo_fa_exp((m" + H + " == neg_inf ? 0.f : m" + H + ") - " + x + ");");
      e_.Line("const float total = l" + H + " * corr;");
      e_.BindEverywhere(sm.sum->result(0), "total");
      HLOGRAPH_ASSIGN(const std::string y, e_.Emit(sm.y, ScoreIndex(h, "0")));
      e_.Line("scale" + H + " = corr / " + y + ";");
      e_.Close();
    }
    for (int h = 0; h < 2; ++h) {
      const std::string H = std::to_string(h);
      e_.Open("if (r" + H + " < NQ)");
      e_.Line("const long long row_at = o_base + " + Offset(rows_[static_cast<size_t>(h)], a_.out.query) + ";");
      e_.Line("#pragma unroll");
      e_.Open("for (int n = 0; n < " + std::to_string(W / 8) + "; ++n)");
      e_.Line("const long long w = n * 8 + tq * 2;");
      for (int c = 0; c < 2; ++c) {
        const std::string value = "acc[n][" + std::to_string(h * 2 + c) + "] * scale" + H;
        e_.Line("o0[row_at + (w + " + std::to_string(c) + ") * " + N(a_.out_width) + "] = " + StoreExpr(out, value) + ";");
      }
      e_.Close();
      e_.Close();
    }
    return Status::Ok();
  }

  const Fusion& f_;
  const FlashAttention& a_;
  BodyEmitter e_;
  const bool tf32_;     // f32 operands: TF32 products, P kept in f32
  std::string elem_;    // the operands' storage as the kernel copies it
  int64_t per_copy_;    // elements a 16-byte copy moves
  Index b_;
  Index rows_[2];
};

}  // namespace

StatusOr<KernelSource> EmitFlashAttention(const Fusion& f, const EmitOptions& options) {
  (void)options;
  const ir::Operation* values = LastProduct(f);  // the later of the two
  if (values == nullptr) return Status::Error("internal error: an attention kernel without its products");
  std::optional<FlashAttention> a = MatchFlashAttention(*values);
  if (!a) return Status::Error("internal error: a flash attention kernel whose pattern no longer matches");
  // The moves it stores through, from its product's result to its output.
  std::vector<const ir::Operation*> moves;
  for (const ir::Value* v = f.outputs.empty() ? nullptr : f.outputs[0]; v != nullptr && v != values->result(0);) {
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || op->num_operands() != 1 ||
        (op->id() != ir::OpId::kTranspose && op->id() != ir::OpId::kReshape)) {
      return Status::Error("internal error: a flash attention kernel storing other than its product moved");
    }
    moves.insert(moves.begin(), op);
    v = op->operand(0);
  }
  StoreStridesThrough(*a, moves);
  if (f.key_chunk % kFlashKeyTile != 0 || (f.key_chunk > 0 && f.key_chunk < a->softmax.keys && f.scratch_bytes.size() != 2)) {
    return Status::Error("internal error: a flash attention kernel splitting its keys without partial sums");
  }
  std::ostringstream body;
  FlashEmitter emitter(f, *a, body);
  HLOGRAPH_TRY(emitter.Emit());
  if (emitter.blocks() > (int64_t{1} << 31) - 1) return Status::Error("a flash attention kernel of too many blocks");
  LaunchDims launch;
  launch.block = {kFlashThreads, 1, 1};
  launch.grid = {static_cast<uint32_t>(emitter.blocks()), 1, 1};
  launch.shared_bytes = static_cast<uint32_t>(FlashSharedBytes(*a));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, kFlashThreads));
  return KernelSource{f.name, Helpers(a->operand_type) + head + body.str() + "}\n", launch,
                      "flash attention (" + std::to_string(a->queries) + " queries x " + std::to_string(a->softmax.keys) +
                          " keys, " + std::to_string(emitter.blocks()) + " blocks)"};
}

}  // namespace hlograph::gpu::emit

// A product of many rows on the tensor cores (plan/tile_product.h): each
// block sums tiles of the output with mma.sync, its operands computed
// inline a step of the contraction at a time, the epilogue applied as it
// stores.
//
//   operands  `depth` of the contraction a step: each thread computes
//             its share of the lhs and rhs tiles into registers, consecutive
//             threads along the operand's contiguous dim; the block stores
//             them in shared memory (f32), then computes the next step's
//             while its warps multiply these. Elements past the end of the
//             contraction are zero on both sides.
//   fragments per warp 16 * frags_m rows by 8 * frags_n columns: TF32
//             m16n8k8 for f32 operands (their bits as they are, as the
//             flash kernel passes them), m16n8k16 with pairs rounded to
//             bf16/f16 for 16-bit ones (exact: they were 16-bit values).
//   store     the sums through shared memory, then every thread a strided
//             share of the tile, consecutive along the row, each through
//             the fusion's epilogue.
#include <string>

#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/codegen/tensor_core_helpers.h"

namespace hlograph::gpu::emit {

namespace {

std::string N(int64_t x) { return std::to_string(x) + "LL"; }

class TileProductEmitter {
 public:
  TileProductEmitter(const Fusion& f, const ir::Operation& dot, std::ostringstream& body)
      : f_(f), t_(f.tiling), dot_(dot), e_(f, body), dn_(*dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) {
    const ir::Type& lhs = dot.operand(0)->type();
    for (int64_t d : dn_.lhs_batching) batch_shape_.push_back(lhs.dim(d));
    for (int64_t d : t_.dims.lhs_free) m_shape_.push_back(lhs.dim(d));
    for (int64_t d : dn_.lhs_contracting) k_shape_.push_back(lhs.dim(d));
    for (int64_t d : t_.dims.rhs_free) n_shape_.push_back(dot.operand(1)->type().dim(d));
    sixteen_bit_ = lhs.element() != ir::ElementType::kF32;
  }

  std::string Helpers() const {
    if (!sixteen_bit_) return MmaFunction("hlo_tp_mma", "m16n8k8", "tf32");
    const std::string type = dot_.operand(0)->type().element() == ir::ElementType::kBF16 ? "bf16" : "f16";
    return MmaFunction("hlo_tp_mma", "m16n8k16", type) + PackFunction("hlo_tp_pack", type);
  }

  Status Emit() {
    const int64_t BM = t_.tile_m(), BN = t_.tile_n(), BK = t_.depth;
    const int64_t across = (t_.dims.n + BN - 1) / BN, down = (t_.dims.m + BM - 1) / BM;
    e_.Line("const long long M = " + N(t_.dims.m) + ", N = " + N(t_.dims.n) + ", K = " + N(t_.dims.k) +
            ", DOWN = " + N(down) + ", ACROSS = " + N(across) + ", TILES = " + N(t_.tiles) + ";");
    // Rows padded so that a fragment's 32 lanes read 32 banks; the sums
    // stored after the last step reuse the operands' memory.
    e_.Line("__shared__ float staged[" + N(t_.staged_floats()) + "];");
    e_.Line("float (*As)[" + N(BK + 4) + "] = (float (*)[" + N(BK + 4) + "])staged;");
    e_.Line("float (*Bs)[" + N(BN + 8) + "] = (float (*)[" + N(BN + 8) + "])(staged + " + N(BM * (BK + 4)) + ");");
    e_.Line("float (*Cs)[" + N(BN + 4) + "] = (float (*)[" + N(BN + 4) + "])staged;");
    e_.Line("const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;");
    e_.Line("const int wm = warp / " + std::to_string(t_.warps_n) + ", wn = warp % " + std::to_string(t_.warps_n) +
            ";");
    e_.Open("for (long long tile = blockIdx.x; tile < TILES; tile += gridDim.x)");
    e_.Line("const long long b = tile / (DOWN * ACROSS), m0 = tile / ACROSS % DOWN * " + N(BM) +
            ", n0 = tile % ACROSS * " + N(BN) + ";");
    e_.Line("float acc[" + std::to_string(t_.frags_m) + "][" + std::to_string(t_.frags_n) + "][4] = {};");
    e_.Line("float ra[" + N(PerThread(BM)) + "], rb[" + N(PerThread(BN)) + "];");
    e_.Open("");
    HLOGRAPH_TRY(LoadStep("0"));
    e_.Close();
    e_.Open("for (long long k0 = 0; k0 < K; k0 += " + N(BK) + ")");
    StoreStep();
    e_.Line("__syncthreads();");
    e_.Open("if (k0 + " + N(BK) + " < K)");
    HLOGRAPH_TRY(LoadStep("k0 + " + N(BK)));
    e_.Close();
    Multiply();
    e_.Line("__syncthreads();");
    e_.Close();
    return Store();
  }

 private:
  int64_t PerThread(int64_t tile_side) const { return tile_side * t_.depth / t_.threads(); }

  // Whether operand `which` is contiguous along the contraction (its last
  // dim is contracted): its threads then go along k.
  bool AlongK(int which) const {
    const auto& contracting = which == 0 ? dn_.lhs_contracting : dn_.rhs_contracting;
    const int64_t last = dot_.operand(static_cast<size_t>(which))->type().rank() - 1;
    return !contracting.empty() && contracting.back() == last;
  }

  Index OperandIndex(int which, const Index& b, const Index& mn, const Index& k) const {
    const ir::Type& t = dot_.operand(static_cast<size_t>(which))->type();
    const auto& batching = which == 0 ? dn_.lhs_batching : dn_.rhs_batching;
    const auto& contracting = which == 0 ? dn_.lhs_contracting : dn_.rhs_contracting;
    const auto& free = which == 0 ? t_.dims.lhs_free : t_.dims.rhs_free;
    Index idx(static_cast<size_t>(t.rank()));
    for (size_t i = 0; i < batching.size(); ++i) idx[static_cast<size_t>(batching[i])] = b[i];
    for (size_t i = 0; i < free.size(); ++i) idx[static_cast<size_t>(free[i])] = mn[i];
    for (size_t i = 0; i < contracting.size(); ++i) idx[static_cast<size_t>(contracting[i])] = k[i];
    return idx;
  }

  // The thread's share of both operands' tiles at contraction offset
  // `from` into ra and rb (OpenShare's numbering).
  Status LoadStep(const std::string& from) {
    const int64_t BK = t_.depth;
    for (int which : {0, 1}) {
      const int64_t side = OpenShare(which);
      const std::string reg = which == 0 ? "ra" : "rb", origin = which == 0 ? "m0" : "n0";
      const std::string extent = which == 0 ? "M" : "N";
      e_.Line("const long long at = " + origin + " + s, k = " + from + " + kk;");
      // Tiles and steps that divide their dims need no bounds: fewer
      // instructions a load, which is what a step's time goes to.
      const bool whole_side = (which == 0 ? t_.dims.m : t_.dims.n) % side == 0, whole_k = t_.dims.k % BK == 0;
      e_.Line("const long long atc = " + std::string(whole_side ? "at" : "min(at, " + extent + " - 1)") +
              ", kc = " + (whole_k ? "k" : "min(k, K - 1)") + ";");
      const Index bi = e_.Delinearize("b", batch_shape_);
      const Index si = e_.Delinearize("atc", which == 0 ? m_shape_ : n_shape_);
      const Index ki = e_.Delinearize("kc", k_shape_);
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(dot_.operand(static_cast<size_t>(which)), OperandIndex(which, bi, si, ki)));
      std::string inside = whole_side ? "" : "at < " + extent;
      if (!whole_k) inside += std::string(inside.empty() ? "" : " && ") + "k < K";
      e_.Line(reg + "[r] = " + (inside.empty() ? "(float)" + v : inside + " ? (float)" + v + " : 0.f") + ";");
      e_.Close();
    }
    return Status::Ok();
  }

  void StoreStep() {
    for (int which : {0, 1}) {
      OpenShare(which);
      e_.Line(which == 0 ? "As[s][kk] = ra[r];" : "Bs[kk][s] = rb[r];");
      e_.Close();
    }
  }

  // Opens the loop over the thread's share of operand `which`'s tile: its
  // r-th element is the tile's element threadIdx.x + r * threads, at row
  // (or column) s and contraction offset kk, numbered along the operand's
  // contiguous dim. Returns the tile's side.
  int64_t OpenShare(int which) {
    const int64_t side = which == 0 ? t_.tile_m() : t_.tile_n(), BK = t_.depth;
    e_.Line("#pragma unroll");
    e_.Open("for (int r = 0; r < " + std::to_string(PerThread(side)) + "; ++r)");
    e_.Line("const int i = threadIdx.x + r * " + std::to_string(t_.threads()) + ";");
    if (AlongK(which)) {
      e_.Line("const int s = i / " + N(BK) + ", kk = i % " + N(BK) + ";");
    } else {
      e_.Line("const int kk = i / " + N(side) + ", s = i % " + N(side) + ";");
    }
    return side;
  }

  // Fragment layouts of mma.sync (PTX ISA, "Matrix Fragments for mma.m16n8k8"
  // and ".m16n8k16"): lane = 4 g + q; a's rows g and g + 8, b's column g.
  void Multiply() {
    const int64_t BK = t_.depth, step = sixteen_bit_ ? 16 : 8;
    e_.Line("#pragma unroll");
    e_.Open("for (int kk = 0; kk < " + N(BK) + "; kk += " + N(step) + ")");
    e_.Line("#pragma unroll");
    e_.Open("for (int fm = 0; fm < " + std::to_string(t_.frags_m) + "; ++fm)");
    e_.Line("const int r0 = (wm * " + std::to_string(t_.frags_m) + " + fm) * 16 + g;");
    if (sixteen_bit_) {
      e_.Line("const unsigned a0 = hlo_tp_pack(As[r0][kk + 2 * q], As[r0][kk + 2 * q + 1]);");
      e_.Line("const unsigned a1 = hlo_tp_pack(As[r0 + 8][kk + 2 * q], As[r0 + 8][kk + 2 * q + 1]);");
      e_.Line("const unsigned a2 = hlo_tp_pack(As[r0][kk + 2 * q + 8], As[r0][kk + 2 * q + 9]);");
      e_.Line("const unsigned a3 = hlo_tp_pack(As[r0 + 8][kk + 2 * q + 8], As[r0 + 8][kk + 2 * q + 9]);");
    } else {
      e_.Line("const unsigned a0 = __float_as_uint(As[r0][kk + q]), a1 = __float_as_uint(As[r0 + 8][kk + q]);");
      e_.Line("const unsigned a2 = __float_as_uint(As[r0][kk + q + 4]), a3 = __float_as_uint(As[r0 + 8][kk + q + 4]);");
    }
    e_.Line("#pragma unroll");
    e_.Open("for (int fn = 0; fn < " + std::to_string(t_.frags_n) + "; ++fn)");
    e_.Line("const int c0 = (wn * " + std::to_string(t_.frags_n) + " + fn) * 8 + g;");
    if (sixteen_bit_) {
      e_.Line("const unsigned b0 = hlo_tp_pack(Bs[kk + 2 * q][c0], Bs[kk + 2 * q + 1][c0]);");
      e_.Line("const unsigned b1 = hlo_tp_pack(Bs[kk + 2 * q + 8][c0], Bs[kk + 2 * q + 9][c0]);");
    } else {
      e_.Line("const unsigned b0 = __float_as_uint(Bs[kk + q][c0]), b1 = __float_as_uint(Bs[kk + q + 4][c0]);");
    }
    e_.Line("hlo_tp_mma(acc[fm][fn], a0, a1, a2, a3, b0, b1);");
    e_.Close();
    e_.Close();
    e_.Close();
  }

  // c's elements: (g, 2q), (g, 2q + 1), (g + 8, 2q), (g + 8, 2q + 1).
  Status Store() {
    const int64_t BN = t_.tile_n();
    e_.Line("#pragma unroll");
    e_.Open("for (int fm = 0; fm < " + std::to_string(t_.frags_m) + "; ++fm)");
    e_.Line("#pragma unroll");
    e_.Open("for (int fn = 0; fn < " + std::to_string(t_.frags_n) + "; ++fn)");
    e_.Line("const int r0 = (wm * " + std::to_string(t_.frags_m) + " + fm) * 16 + g, c0 = (wn * " +
            std::to_string(t_.frags_n) + " + fn) * 8 + 2 * q;");
    e_.Line("Cs[r0][c0] = acc[fm][fn][0];");
    e_.Line("Cs[r0][c0 + 1] = acc[fm][fn][1];");
    e_.Line("Cs[r0 + 8][c0] = acc[fm][fn][2];");
    e_.Line("Cs[r0 + 8][c0 + 1] = acc[fm][fn][3];");
    e_.Close();
    e_.Close();
    e_.Line("__syncthreads();");
    e_.Open("for (int i = threadIdx.x; i < " + N(t_.tile_m() * BN) + "; i += " + std::to_string(t_.threads()) + ")");
    e_.Line("const int r = i / " + N(BN) + ", c = i % " + N(BN) + ";");
    e_.Line("const long long m = m0 + r, n = n0 + c;");
    e_.Open("if (m < M && n < N)");
    const std::string offset = e_.IndexVar("(b * M + m) * N + n");
    const Index idx = e_.Delinearize(offset, dot_.result(0)->type().shape());
    e_.BindSum(dot_.result(0), idx, "Cs[r][c]");
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(f_.outputs[i], idx));
      e_.Line("o" + std::to_string(i) + "[" + offset + "] = " + StoreExpr(f_.output_types[i].element(), v) + ";");
    }
    e_.Close();
    e_.Close();
    e_.Line("__syncthreads();");
    e_.Close();
    return Status::Ok();
  }

  const Fusion& f_;
  const DotTiling& t_;
  const ir::Operation& dot_;
  BodyEmitter e_;
  const ir::DotDimsAttr dn_;
  std::vector<int64_t> batch_shape_, m_shape_, n_shape_, k_shape_;
  bool sixteen_bit_ = false;
};

}  // namespace

StatusOr<KernelSource> EmitTileProduct(const Fusion& f, const ir::Operation& dot, const EmitOptions& options) {
  const DotTiling& t = f.tiling;
  if (t.lanes != DotTiling::Lanes::kTensorTiles || t.tiles < 1 || t.threads() < 32 ||
      t.depth % 32 != 0 || (t.tile_m() * t.depth) % t.threads() != 0 || (t.tile_n() * t.depth) % t.threads() != 0) {
    return Status::Error("internal error: a tile product kernel of tiling " + t.ToString());
  }
  if (!f.early_inputs.empty() || t.splits != 1) {
    return Status::Error("internal error: a tile product kernel reading inputs before it waits, or split");
  }
  std::ostringstream body;
  TileProductEmitter emitter(f, dot, body);
  HLOGRAPH_TRY(emitter.Emit());
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(t.threads()), 1, 1};
  launch.grid = {static_cast<uint32_t>(std::min<int64_t>(t.tiles, int64_t{options.sm_count} * 64)), 1, 1};
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, t.threads()));
  return KernelSource{f.name, emitter.Helpers() + head + body.str() + "}\n", launch,
                      "product on the tensor cores (" + t.ToString() + ")"};
}

}  // namespace hlograph::gpu::emit

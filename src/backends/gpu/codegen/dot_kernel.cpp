// A product of a few rows (plan/generated_dot.h): operands computed inline,
// f32 accumulation, the epilogue applied before the store.
//
//   lanes over n  a block takes 32 columns of one batch and a chunk of the
//                 contraction; its 8 warps each sum every 8th row of the
//                 chunk, the first 48 rows' weights loaded before the
//                 kernel waits for its producers, and meet in shared
//                 memory. With the contraction split, the tile's blocks
//                 form a cluster and write their sums into the first
//                 block's shared memory (sm_90+), or they leave partial
//                 sums and the last to arrive adds them.
//   lanes over k  a warp takes one column, its lanes every 32nd term of the
//                 sum, folded by shuffles.
#include <optional>
#include <set>
#include <string>

#include "backends/gpu/codegen/body_emitter.h"
#include "ir/fold_body.h"

namespace hlograph::gpu::emit {

namespace {

class DotEmitter {
 public:
  DotEmitter(const Fusion& f, const ir::Operation& dot, std::ostringstream& body)
      : f_(f), dot_(dot), e_(f, body), dn_(*dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) {
    const ir::Type& lhs = dot.operand(0)->type();
    for (int64_t d : dn_.lhs_batching) batch_shape_.push_back(lhs.dim(d));
    for (int64_t d : f.tiling.dims.lhs_free) m_shape_.push_back(lhs.dim(d));
    for (int64_t d : dn_.lhs_contracting) k_shape_.push_back(lhs.dim(d));
    for (int64_t d : f.tiling.dims.rhs_free) n_shape_.push_back(dot.operand(1)->type().dim(d));
  }

  BodyEmitter& e() { return e_; }
  const Fusion& fusion() const { return f_; }
  int64_t rows() const { return f_.tiling.dims.m; }

  // The rhs at (b, k, n) for each k of `ks`, loaded one after another so
  // that their loads are in flight together.
  StatusOr<std::vector<std::string>> LoadRhs(const std::string& b, const std::string& n,
                                             const std::vector<std::string>& ks) {
    const Index bi = e_.Delinearize(b, batch_shape_);
    const Index ni = e_.Delinearize(n, n_shape_);
    std::vector<std::string> rs;
    for (const std::string& k : ks) {
      HLOGRAPH_ASSIGN(std::string r, e_.Emit(dot_.operand(1), OperandIndex(1, bi, ni, e_.Delinearize(k, k_shape_))));
      rs.push_back(r);
    }
    return rs;
  }

  // acc<m> += lhs[b, m, k] * rs[i] for every row m and every k = ks[i] for
  // which the matching `valid` is true (or "" for always); an invalid k
  // must still be a valid index (its terms are skipped). With `staged_lhs`,
  // lhs row m is read from that shared array at k less `staged_from`
  // (StageLhs).
  Status Accumulate(const std::string& b, const std::vector<std::string>& ks, const std::vector<std::string>& rs,
                    const std::vector<std::string>& valid, const std::string& staged_lhs = "",
                    const std::string& staged_from = "") {
    const Index bi = e_.Delinearize(b, batch_shape_);
    for (size_t i = 0; i < ks.size(); ++i) {
      const Index ki = e_.Delinearize(ks[i], k_shape_);
      for (int64_t m = 0; m < rows(); ++m) {
        std::string l;
        if (staged_lhs.empty()) {
          const Index mi = e_.Delinearize(std::to_string(m), m_shape_);
          HLOGRAPH_ASSIGN(l, e_.Emit(dot_.operand(0), OperandIndex(0, bi, mi, ki)));
        } else {
          l = staged_lhs + "[" + std::to_string(m) + "][" + ks[i] + " - " + staged_from + "]";
        }
        const std::string acc = "acc" + std::to_string(m);
        const std::string fma = "fmaf(" + l + ", " + rs[i] + ", " + acc + ")";
        e_.Line(acc + " = " + (valid[i].empty() ? fma : valid[i] + " ? " + fma + " : " + acc) + ";");
      }
    }
    return Status::Ok();
  }

  // Product element (b, m, n): its linear offset (a variable) and index.
  struct Output {
    std::string offset;
    Index idx;
  };
  Output OutputAt(const std::string& b, const std::string& m, const std::string& n) {
    Output out;
    out.offset = e_.IndexVar("((" + b + ") * " + std::to_string(rows()) + "LL + (" + m + ")) * " +
                             std::to_string(f_.tiling.dims.n) + "LL + (" + n + ")");
    out.idx = e_.Delinearize(out.offset, dot_.result(0)->type().shape());
    return out;
  }

  // Loads the epilogue's operands at `out`, the element the thread will
  // store, so that StoreAt finds them computed: before the kernel waits for
  // its producers, those that read only Fusion::early_inputs (a bias);
  // after it, the rest.
  Status LoadEpilogueOperands(const Output& out, bool before_wait) {
    for (const ir::Value* v : EpilogueOperands(f_.ops, dot_)) {
      const std::vector<int> reads = InputsReadFor(v, f_.inputs);
      const bool early = std::all_of(reads.begin(), reads.end(), [&](int i) {
        return std::count(f_.early_inputs.begin(), f_.early_inputs.end(), i) > 0;
      });
      if (early || !before_wait) HLOGRAPH_TRY(e_.Emit(v, v->type().rank() == 0 ? Index{} : out.idx).status());
    }
    return Status::Ok();
  }

  // Stores the fusion's outputs at product element (b, m, n) whose sum is `sum`.
  Status Store(const std::string& b, const std::string& m, const std::string& n, const std::string& sum) {
    return StoreAt(OutputAt(b, m, n), sum);
  }

  Status StoreAt(const Output& out, const std::string& sum) {
    const std::string& o = out.offset;
    const Index& idx = out.idx;
    e_.BindSum(dot_.result(0), idx, sum);
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(f_.outputs[i], idx));
      e_.Line("o" + std::to_string(i) + "[" + o + "] = " + StoreExpr(f_.output_types[i].element(), v) + ";");
    }
    return Status::Ok();
  }

  // Fills `array[m][j]` (float) with lhs[b, m, from + j] for every row m
  // and j < `count` with from + j < `end`, the block's threads sharing the
  // work: each lhs element computed once per block instead of once per
  // lane (a layer norm computed in the lhs costs its arithmetic once).
  Status StageLhs(const std::string& array, const std::string& b, const std::string& from, int64_t count,
                  const std::string& end) {
    const std::string C = std::to_string(count);
    if (staged_at_) {  // PrepareStaging's element
      e_.Open("if (threadIdx.x < " + std::to_string(rows() * count) + " && " + from + " + sj < " + end + ")");
      HLOGRAPH_ASSIGN(std::string l, e_.Emit(dot_.operand(0), *staged_at_));
      e_.Line(array + "[sm][sj] = (float)" + l + ";");
      e_.Close();
      e_.Line("__syncthreads();");
      return Status::Ok();
    }
    const int64_t total = rows() * count;
    const Passes passes = BlockPasses(total);
    const std::string where = "const long long sm = i / " + C + ", sj = i % " + C + ", sk = " + from + " + sj;";
    // The lhs at (b, sm, sk), its index computed where sm and sk are.
    const auto lhs = [&]() -> StatusOr<std::string> {
      const Index bi = e_.Delinearize(b, batch_shape_);
      const Index mi = e_.Delinearize("sm", m_shape_);
      const Index ki = e_.Delinearize("sk", k_shape_);
      return e_.Emit(dot_.operand(0), OperandIndex(0, bi, mi, ki));
    };
    if (passes.rounds > 0) {  // every load first, then every store
      const std::string held = e_.Fresh("staged");
      e_.Line("float " + held + "[" + std::to_string(passes.rounds) + "];");
      OpenPasses(passes, total);
      e_.Line(where);
      e_.Open("if (sk < " + end + ")");
      HLOGRAPH_ASSIGN(std::string l, lhs());
      e_.Line(held + "[r] = (float)" + l + ";");
      ClosePasses();
      e_.Close();
      OpenPasses(passes, total);
      e_.Line(where);
      e_.Line("if (sk < " + end + ") " + array + "[sm][sj] = " + held + "[r];");
      ClosePasses();
      e_.Line("__syncthreads();");
      return Status::Ok();
    }
    e_.Open("for (int i = threadIdx.x; i < " + std::to_string(total) + "; i += blockDim.x)");
    e_.Line(where);
    e_.Open("if (sk < " + end + ")");
    HLOGRAPH_ASSIGN(std::string l, lhs());
    e_.Line(array + "[sm][sj] = (float)" + l + ";");
    e_.Close();
    e_.Close();
    e_.Line("__syncthreads();");
    return Status::Ok();
  }

  // Where StageLhs takes one element a thread (`count` columns of every
  // row fit the block), fixes the thread's element (clamped into the
  // chunk) and emits now what it reads beside the prologue's reductions
  // (ReduceInPrologue), so that those loads are in flight while the
  // reductions are computed; StageLhs then stores that element.
  Status PrepareStaging(const std::string& b, const std::string& from, int64_t count, const std::string& end) {
    if (rows() * count > f_.tiling.threads()) return Status::Ok();
    const std::string C = std::to_string(count);
    e_.Line("const long long sm = min((long long)threadIdx.x / " + C + ", " + std::to_string(rows() - 1) +
            "LL), sj = threadIdx.x % " + C + ", sk = min(" + from + " + sj, " + end + " - 1);");
    const Index bi = e_.Delinearize(b, batch_shape_);
    const Index mi = e_.Delinearize("sm", m_shape_);
    const Index ki = e_.Delinearize("sk", k_shape_);
    staged_at_ = OperandIndex(0, bi, mi, ki);
    std::set<const ir::Value*> reduced;
    for (const ir::Operation* op : f_.ops) {
      if (op->id() == ir::OpId::kReduce) reduced.insert(op->result(0));
    }
    return e_.EmitReadyParts(dot_.operand(0), *staged_at_,
                             [&](const ir::Value* v) { return !e_.ReadsAnyOf(v, reduced); });
  }

  // The fusion's reduces (ProductComputingInItsPrologue in the planner:
  // f32, to one element or one per batch element of the product), each
  // computed by the whole block in program order, at batch element `b`,
  // and bound for the code after: the threads fold strided elements, the
  // warps by shuffles, then every thread folds the warps' results in
  // order, so that all hold the same bits (LoadsTogether::kByWarp: each
  // warp folds the whole row, lanes then butterfly shuffles, the same
  // steps in every warp). A read at another index than the one bound
  // computes the value serially (BodyEmitter::SerialReduce). `scratch` is
  // a __shared__ float array of a slot per warp.
  Status ReduceInPrologue(const std::string& b, const std::string& scratch, int warps) {
    for (const ir::Operation* op : f_.ops) {
      if (op->id() != ir::OpId::kReduce) continue;
      const Index at = op->result(0)->type().NumElements() == 1 ? Index(static_cast<size_t>(op->result(0)->type().rank()), "0")
                                                                 : e_.Delinearize(b, batch_shape_);
      const ir::Block& body = op->region(0).front();
      HLOGRAPH_ASSIGN(std::string init, e_.Emit(op->operand(1), Index{}));
      const std::string a = e_.Fresh("red");
      e_.Line("float " + a + " = " + init + ";");
      const int64_t count = BodyEmitter::ReducedCount(*op);
      // Each warp folds the whole row itself where asked: no barrier. The
      // body one commutative op of its two arguments, the lanes' butterfly
      // shuffles agree bit for bit.
      const ir::Operation* folds = ir::FoldOfBody(*op);
      const bool by_warp = LoadsTogetherWanted() == LoadsTogether::kByWarp && folds != nullptr &&
                           ir::IsCommutativeFold(folds->id()) && count >= 1 && (count + 31) / 32 <= kMaxPassesByWarp;
      const Passes passes = by_warp ? Passes{"threadIdx.x % 32", 32, (count + 31) / 32} : BlockPasses(count);
      // Element i of the row, and its fold into `a`.
      const auto load = [&] { return e_.Emit(op->operand(0), e_.ReducedOperandIndex(*op, at, "i")); };
      const auto fold = [&](const std::string& v) -> Status {
        HLOGRAPH_ASSIGN(std::vector<std::string> folded, e_.EmitRegion(body, {a, v}));
        e_.Line(a + " = " + folded[0] + ";");
        return Status::Ok();
      };
      if (passes.rounds > 0) {  // every load first, then the fold in the same order
        const std::string held = e_.Fresh("held");
        e_.Line("float " + held + "[" + std::to_string(passes.rounds) + "];");
        OpenPasses(passes, count);
        HLOGRAPH_ASSIGN(std::string v, load());
        e_.Line(held + "[r] = " + v + ";");
        ClosePasses();
        OpenPasses(passes, count);
        HLOGRAPH_TRY(fold(held + "[r]"));
        ClosePasses();
      } else {
        e_.Open("for (long long i = threadIdx.x; i < " + std::to_string(count) + "LL; i += blockDim.x)");
        HLOGRAPH_ASSIGN(std::string v, load());
        HLOGRAPH_TRY(fold(v));
        e_.Close();
      }
      HLOGRAPH_ASSIGN(const std::string r,
                      by_warp ? e_.FoldOverWarp(body, a) : e_.FoldOverBlock(body, a, scratch, warps));
      e_.Bind(op->result(0), at, r);
    }
    return Status::Ok();
  }

  void PrefetchRhs(int sm_count) {
    if (f_.tiling.prefetch_l2) PrefetchIntoL2(e_, f_, dot_.operand(1), sm_count);
  }

  void DeclareAccumulators() {
    std::string s = "float acc0 = 0.f";
    for (int64_t m = 1; m < rows(); ++m) s += ", acc" + std::to_string(m) + " = 0.f";
    e_.Line(s + ";");
  }

 private:
  // Strided passes over a row, unrolled: element i = first + r * stride
  // in pass r < rounds (0 rounds: a loop instead, each pass waiting for
  // its own load before the next issues its own).
  struct Passes {
    std::string first;
    int64_t stride = 0;
    int64_t rounds = 0;
  };

  // The block's passes over `count` elements where LoadsTogetherWanted and
  // they are few (kMaxPassesByBlock).
  Passes BlockPasses(int64_t count) const {
    const int64_t threads = f_.tiling.threads();
    const int64_t rounds = threads > 0 ? (count + threads - 1) / threads : 0;
    const bool unrolled = LoadsTogetherWanted() != LoadsTogether::kNo && rounds >= 1 && rounds <= kMaxPassesByBlock;
    return {"threadIdx.x", threads, unrolled ? rounds : 0};
  }

  // Opens `p`'s passes and in each the scope where element `i` is in
  // range; ClosePasses closes both.
  void OpenPasses(const Passes& p, int64_t count) {
    e_.Line("#pragma unroll");
    e_.Open("for (int r = 0; r < " + std::to_string(p.rounds) + "; ++r)");
    e_.Line("const long long i = " + p.first + " + r * " + std::to_string(p.stride) + "LL;");
    e_.Open("if (i < " + std::to_string(count) + "LL)");
  }
  void ClosePasses() {
    e_.Close();
    e_.Close();
  }

  static constexpr int64_t kMaxPassesByBlock = 8;
  static constexpr int64_t kMaxPassesByWarp = 32;  // a row of 1024: 32 loads a lane in flight

  // The index of operand `which` (0 lhs, 1 rhs) at batch b, free index mn, contraction k.
  Index OperandIndex(int which, const Index& b, const Index& mn, const Index& k) const {
    const ir::Type& t = dot_.operand(static_cast<size_t>(which))->type();
    const auto& batching = which == 0 ? dn_.lhs_batching : dn_.rhs_batching;
    const auto& contracting = which == 0 ? dn_.lhs_contracting : dn_.rhs_contracting;
    const auto& free = which == 0 ? f_.tiling.dims.lhs_free : f_.tiling.dims.rhs_free;
    Index idx(static_cast<size_t>(t.rank()));
    for (size_t i = 0; i < batching.size(); ++i) idx[static_cast<size_t>(batching[i])] = b[i];
    for (size_t i = 0; i < free.size(); ++i) idx[static_cast<size_t>(free[i])] = mn[i];
    for (size_t i = 0; i < contracting.size(); ++i) idx[static_cast<size_t>(contracting[i])] = k[i];
    return idx;
  }

  const Fusion& f_;
  const ir::Operation& dot_;
  BodyEmitter e_;
  const ir::DotDimsAttr dn_;
  std::vector<int64_t> batch_shape_, m_shape_, n_shape_, k_shape_;
  std::optional<Index> staged_at_;  // PrepareStaging's
};

Status EmitLanesOverN(DotEmitter& d, const DotTiling& t, int sm_count) {
  BodyEmitter& e = d.e();
  const std::string M = std::to_string(d.rows());
  const std::string W = std::to_string(DotTiling::kTileColumns), S = std::to_string(t.slices);
  e.Line("const long long N = " + std::to_string(t.dims.n) + "LL, K = " + std::to_string(t.dims.k) +
         "LL, NT = " + std::to_string((t.dims.n + DotTiling::kTileColumns - 1) / DotTiling::kTileColumns) +
         "LL, TILES = " + std::to_string(t.tiles) + "LL, SPLITS = " + std::to_string(t.splits) +
         "LL, KCHUNK = " + std::to_string(t.k_chunk) + "LL;");
  e.Line("const int tx = threadIdx.x % " + W + ", ty = threadIdx.x / " + W + ";");
  e.Line("__shared__ float part[" + S + "][" + M + "][" + W + " + 1];");
  if (t.splits > 1) {
    e.Line("__shared__ bool last_block;");
    e.Line("float* const partials = (float*)s0;");
    e.Line("unsigned int* const arrivals = (unsigned int*)s1;");
  }
  if (t.stage_lhs) e.Line("__shared__ float lhs_s[" + M + "][" + std::to_string(t.k_chunk) + "];");
  const bool reduces = std::any_of(d.fusion().ops.begin(), d.fusion().ops.end(),
                                   [](const ir::Operation* op) { return op->id() == ir::OpId::kReduce; });
  if (reduces) e.Line("__shared__ float reduce_s[" + S + "];");
  d.PrefetchRhs(sm_count);
  e.Open("for (long long blk = blockIdx.x; blk < TILES * SPLITS; blk += gridDim.x)");
  e.Line("const long long tile = blk / SPLITS, split = blk % SPLITS;");
  e.Line("const long long b = tile / NT, n0 = (tile % NT) * " + W + ";");
  if (t.cluster_sum) e.Line("#if __CUDA_ARCH__ >= 900\n    hlo_cluster_arrive_relaxed();\n#endif");
  e.Line("const long long kbeg = split * KCHUNK, kend = min(K, kbeg + KCHUNK);");
  // A column past N reads column N - 1 (its sums are never stored), so
  // that every thread reaches the barriers below.
  e.Line("const long long n = min(n0 + tx, N - 1);");
  // Rows k of the chunk a thread sums: ty, ty + S, ... The first pass (up
  // to kFirstPassRows of them) loads its rhs before anything else: before
  // the wait for the kernels this one depends on (the rhs is no producer's,
  // Fusion::early_inputs) and before the lhs is staged, so that the
  // weights are in flight while both happen. The rest go kRowsPerThread a
  // pass. A row past the chunk's end is clamped into it and skipped.
  const int64_t per_thread = t.k_chunk / t.slices;
  const int64_t first = std::min(per_thread, DotTiling::kFirstPassRows);
  const int64_t batch = DotTiling::kRowsPerThread;
  const bool full_chunks = t.dims.k % t.k_chunk == 0;
  const auto rows = [&](const std::string& name, const std::string& from, int64_t count, bool exact,
                        std::vector<std::string>& ks, std::vector<std::string>& valid) {
    for (int64_t r = 0; r < count; ++r) {
      const std::string kr = name + std::to_string(r), at = from + " + " + std::to_string(r) + " * " + S;
      if (exact) {
        e.Line("const long long " + kr + " = " + at + ";");
        valid.push_back("");
      } else {
        e.Line("const long long " + kr + " = min(" + at + ", kend - 1);");
        e.Line("const bool in_" + kr + " = " + at + " < kend;");
        valid.push_back("in_" + kr);
      }
      ks.push_back(kr);
    }
  };
  std::vector<std::string> ks, valid;
  rows("ka", "kbeg + ty", first, full_chunks, ks, valid);
  HLOGRAPH_ASSIGN(std::vector<std::string> rs, d.LoadRhs("b", "n", ks));
  // Thread (mm, x) of the first M warps owns column n0 + x of row mm (the
  // others read a clamped element, as above).
  e.Line("const int mm = threadIdx.x / " + W + ", x = threadIdx.x % " + W + ";");
  const DotEmitter::Output out = d.OutputAt("b", "min(mm, " + M + " - 1)", "min(n0 + x, N - 1)");
  HLOGRAPH_TRY(d.LoadEpilogueOperands(out, /*before_wait=*/true));
  if (!d.fusion().early_inputs.empty()) e.Line("hlo_wait_for_producers();");
  const DotEarlyLoads early = DotLoadsEarlyWanted();
  if (early.epilogue) HLOGRAPH_TRY(d.LoadEpilogueOperands(out, /*before_wait=*/false));
  if (early.staged && t.stage_lhs) HLOGRAPH_TRY(d.PrepareStaging("b", "kbeg", t.k_chunk, "kend"));
  const std::string staged = t.stage_lhs ? "lhs_s" : "";
  if (reduces) HLOGRAPH_TRY(d.ReduceInPrologue("b", "reduce_s", t.slices));
  if (t.stage_lhs) HLOGRAPH_TRY(d.StageLhs("lhs_s", "b", "kbeg", t.k_chunk, "kend"));
  d.DeclareAccumulators();
  HLOGRAPH_TRY(d.Accumulate("b", ks, rs, valid, staged, "kbeg"));
  if (per_thread > first) {
    const bool exact = (per_thread - first) % batch == 0 && full_chunks;
    e.Open("for (long long k = kbeg + ty + " + std::to_string(first) + " * " + S + "; k < kend; k += " +
           std::to_string(batch) + " * " + S + ")");
    std::vector<std::string> more, more_valid;
    rows("k", "k", batch, exact, more, more_valid);
    HLOGRAPH_ASSIGN(std::vector<std::string> more_rs, d.LoadRhs("b", "n", more));
    HLOGRAPH_TRY(d.Accumulate("b", more, more_rs, more_valid, staged, "kbeg"));
    e.Close();
  }
  for (int64_t m = 0; m < d.rows(); ++m) {
    e.Line("part[ty][" + std::to_string(m) + "][tx] = acc" + std::to_string(m) + ";");
  }
  e.Line("__syncthreads();");
  e.Line("float sum = 0.f;");
  e.Open("if (mm < " + M + ")");
  e.Line("#pragma unroll");
  e.Line("for (int s = 0; s < " + S + "; ++s) sum += part[s][mm][x];");
  e.Close();
  if (t.splits == 1) {
    e.Open("if (mm < " + M + " && n0 + x < N)");
    HLOGRAPH_TRY(d.StoreAt(out, "sum"));
    e.Close();
  } else {
    if (t.cluster_sum) {
      // The tile's splits are one cluster, split s its block of rank s:
      // each writes its sums into the first block's row s, which adds the
      // rows in split order (the same order, and so the same bits, as the
      // path below).
      const std::string slots = "[" + std::to_string(t.splits) + "][" + M + " * " + W + "]";
      e.Line("#if __CUDA_ARCH__ >= 900");
      e.Line("__shared__ float cluster_part" + slots + ";");
      e.Line("hlo_cluster_wait();  // every block of the cluster has started");
      e.Line("if (mm < " + M + ") hlo_cluster_store(&cluster_part[split][threadIdx.x], 0u, sum);");
      e.Line("hlo_cluster_arrive_release();");
      e.Open("if (split == 0)");
      e.Line("hlo_cluster_wait();");
      e.Open("if (mm < " + M + " && n0 + x < N)");
      e.Line("float total = 0.f;");
      e.Line("for (int s = 0; s < " + std::to_string(t.splits) + "; ++s) total += cluster_part[s][threadIdx.x];");
      HLOGRAPH_TRY(d.StoreAt(out, "total"));
      e.Close();
      e.Close();
      e.Line("#else");
    }
    const std::string slot = "(split * TILES + tile) * (" + M + " * " + W + ") + threadIdx.x";
    e.Line("if (mm < " + M + ") partials[" + slot + "] = sum;");
    e.Line("__threadfence();");
    e.Line("__syncthreads();");
    e.Line("if (threadIdx.x == 0) last_block = atomicAdd(&arrivals[tile], 1u) == (unsigned int)(SPLITS - 1);");
    e.Line("__syncthreads();");
    e.Open("if (last_block)");
    e.Open("if (mm < " + M + " && n0 + x < N)");
    e.Line("float total = 0.f;");
    e.Line("for (long long s = 0; s < SPLITS; ++s) total += __ldcg(&partials[(s * TILES + tile) * (" + M + " * " + W +
           ") + threadIdx.x]);");
    HLOGRAPH_TRY(d.StoreAt(out, "total"));
    e.Close();
    e.Line("if (threadIdx.x == 0) arrivals[tile] = 0u;  // zero again for the next call");
    e.Close();
    if (t.cluster_sum) e.Line("#endif");
  }
  e.Line("__syncthreads();");
  e.Close();
  return Status::Ok();
}

Status EmitLanesOverK(DotEmitter& d, const DotTiling& t, int sm_count) {
  BodyEmitter& e = d.e();
  const std::string C = std::to_string(DotTiling::kWarpColumns);
  e.Line("const long long N = " + std::to_string(t.dims.n) + "LL, K = " + std::to_string(t.dims.k) +
         "LL, COLUMNS = " + std::to_string(t.dims.batch * t.dims.n) + "LL;");
  e.Line("const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
  d.PrefetchRhs(sm_count);
  e.Open("for (long long col = (long long)blockIdx.x * " + C + " + warp; col < COLUMNS; col += (long long)gridDim.x * " +
         C + ")");
  e.Line("const long long b = col / N, n = col % N;");
  d.DeclareAccumulators();
  e.Line("#pragma unroll 4");
  e.Open("for (long long k = lane; k < K; k += 32)");
  HLOGRAPH_ASSIGN(std::vector<std::string> rs, d.LoadRhs("b", "n", {"k"}));
  HLOGRAPH_TRY(d.Accumulate("b", {"k"}, rs, {""}));
  e.Close();
  for (int64_t m = 0; m < d.rows(); ++m) {
    const std::string acc = "acc" + std::to_string(m);
    e.Line("for (int offset = 16; offset > 0; offset /= 2) " + acc + " += __shfl_down_sync(0xffffffffu, " + acc +
           ", offset);");
  }
  e.Open("if (lane == 0)");
  for (int64_t m = 0; m < d.rows(); ++m) {
    HLOGRAPH_TRY(d.Store("b", std::to_string(m), "n", "acc" + std::to_string(m)));
  }
  e.Close();
  e.Close();
  return Status::Ok();
}

}  // namespace

StatusOr<KernelSource> EmitDot(const Fusion& f, const EmitOptions& options) {
  const ir::Operation* dot = nullptr;
  for (const ir::Operation* op : f.ops) {
    if (op->id() == ir::OpId::kDotGeneral) {
      if (dot != nullptr) return Status::Error("internal error: a product kernel with two products");
      dot = op;
    }
  }
  if (dot == nullptr || !dot->attr("dot_dimension_numbers").as<ir::DotDimsAttr>()) {
    return Status::Error("internal error: a product kernel without its product");
  }
  const DotTiling& t = f.tiling;
  if (t.lanes == DotTiling::Lanes::kTensorTiles) return EmitTileProduct(f, *dot, options);
  if (t.dims.m > kMaxGeneratedDotRows || t.dims.m < 1 || t.dims.m * DotTiling::kTileColumns > t.threads()) {
    return Status::Error("internal error: a product kernel of " + std::to_string(t.dims.m) + " rows");
  }
  if (t.lanes == DotTiling::Lanes::kOverK && !f.early_inputs.empty()) {
    return Status::Error("internal error: a product kernel with lanes over k reading inputs before it waits");
  }
  if (t.splits > 1 && f.scratch_bytes.size() != 2) {
    return Status::Error("internal error: a split product kernel without its scratch buffers");
  }
  std::ostringstream body;
  DotEmitter d(f, *dot, body);
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(t.threads()), 1, 1};
  std::string strategy;
  if (t.lanes == DotTiling::Lanes::kOverN) {
    HLOGRAPH_TRY(EmitLanesOverN(d, t, options.sm_count));
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>(t.blocks(), int64_t{1} << 30)), 1, 1};
    strategy = "product, lanes over n";
  } else {
    HLOGRAPH_TRY(EmitLanesOverK(d, t, options.sm_count));
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>(t.tiles, int64_t{options.sm_count} * 64)), 1, 1};
    strategy = "product, lanes over k";
  }
  // An SM holds 2048 threads: no more blocks than fit.
  const int cap = DotMinBlocksPerSm(dot->operand(1)->type().element());
  const int min_blocks = f.early_inputs.empty() ? 0 : std::min<int>(cap, 2048 / t.threads());
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, t.threads(), t.cluster_sum ? t.splits : 0, min_blocks));
  return KernelSource{f.name, head + body.str() + "}\n", launch, strategy + " (" + t.ToString() + ")"};
}

}  // namespace hlograph::gpu::emit

// Attention of one query per head as one kernel (plan/attention.h).
//
//   block (b, c)  head b, keys [c * CH, (c + 1) * CH): warp w scores keys
//                 w, w + 8, ... (its lanes split the head's dims, all the
//                 keys' and values' loads in flight together), the block
//                 (each warp, for at most 32 keys) folds their maximum m
//                 and, with e = exp(s - m) (m = 0 if -inf), their sum l;
//                 its threads then take the value columns, a quarter of
//                 the keys each (for 64 of them), for u = sum of e * V.
//                 Keys and values a loop state stacks (a scan's KV caches)
//                 are stored there as they are loaded. With
//                 AttentionEarlyLoadsWanted, what they read from the
//                 caches is loaded before the kernel waits for its
//                 producers (they write only this step's row).
//   combine       each block leaves (m, l, u) and the last of the head to
//                 arrive folds the maxima to M (the program's reduce_max),
//                 computes X from it, rescales each chunk by exp(m - X),
//                 folds the sums to L (its reduce_add), computes Y, and
//                 stores (sum of rescaled u) / Y through the values
//                 product's epilogue. The order is fixed: every call gives
//                 the same bits.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/attention.h"

namespace hlograph::gpu::emit {

namespace {

constexpr int kWarps = 8;
// Chunk sums a combining thread loads at once (a memory latency each
// group), and those it loads with the maxima (AttentionEarlyLoadsWanted).
constexpr int kGroup = 8;
constexpr int kEarlyGroup = 16;

class AttentionEmitter {
 public:
  AttentionEmitter(const Fusion& f, const SoftmaxAttention& a, std::ostringstream& body)
      : f_(f), a_(a), e_(f, body), dn1_(Dims(*a.scores)), dn2_(Dims(*a.values)) {
    for (int64_t d : a.batch_shape) batch_ *= d;
    for (int64_t d : a.depth_shape) depth_ *= d;
    for (int64_t d : a.width_shape) width_ *= d;
    chunks_ = (a.keys + f.key_chunk - 1) / f.key_chunk;
    nc_ = std::min<int64_t>(width_, 32 * kWarps);
    parts_ = 32 * kWarps / nc_;
  }

  int64_t blocks() const { return batch_ * chunks_; }

  Status Emit(int sm_count) {
    const std::string CH = std::to_string(f_.key_chunk);
    const bool early = !f_.early_inputs.empty();
    if (early) {
      PrefetchIntoL2(e_, f_, a_.scores->operand(1), sm_count);
      PrefetchIntoL2(e_, f_, a_.values->operand(1), sm_count);
    }
    e_.Line("const long long T = " + std::to_string(a_.keys) + "LL, C = " + std::to_string(chunks_) + "LL;");
    e_.Line("const float neg_inf = __int_as_float(0xff800000);");
    e_.Line("__shared__ float e_s[" + CH + "];");
    e_.Line("__shared__ float fold_s[" + std::to_string(kWarps) + "];");
    e_.Line("__shared__ bool last_block;");
    e_.Line("float* const partials = (float*)s0;");
    e_.Line("unsigned int* const arrivals = (unsigned int*)s1;");
    e_.Line("const long long bl = blockIdx.x / C, c = blockIdx.x % C, first_key = c * " + CH + "LL;");
    e_.Line("const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
    b_ = e_.Delinearize("bl", a_.batch_shape);
    e_.Line("const int col = threadIdx.x % " + std::to_string(nc_) + ", part = threadIdx.x / " + std::to_string(nc_) +
            ";  // of the value columns");
    // The values' loads do not wait for the weights: where one pass takes
    // every column, they are issued with the keys'.
    KeyIndices();
    if (width_ <= nc_) ValueIndices("0LL");
    if (early) {
      // What the keys and values read from the inputs loaded before the
      // wait (the caches a step's row is written into) is in flight while
      // the producers finish.
      if (early_loads_) {
        HLOGRAPH_TRY(e_.LoadScalarInputs(&f_.early_inputs));
        const auto before_wait = [&](const ir::Value* v) { return e_.ReadsOnly(v, f_.early_inputs); };
        for (const Index& at : k_at_) HLOGRAPH_TRY(e_.EmitReadyParts(a_.scores->operand(1), at, before_wait));
        for (const Index& at : v_at_) HLOGRAPH_TRY(e_.EmitReadyParts(a_.values->operand(1), at, before_wait));
      }
      e_.Line("hlo_wait_for_producers();");
    }
    // The producers are done: a later product's weights load into L2
    // while this kernel runs (plan/prefetch_ahead.h).
    for (const ir::Value* v : f_.prefetched_after_wait) PrefetchIntoL2(e_, f_, v, sm_count);
    HLOGRAPH_TRY(e_.LoadScalarInputs());
    HLOGRAPH_TRY(FindStores());
    if (width_ <= nc_) HLOGRAPH_TRY(LoadValues());
    HLOGRAPH_TRY(Scores());
    HLOGRAPH_TRY(Weights());
    HLOGRAPH_TRY(WeightedValues());
    HLOGRAPH_TRY(Combine());
    return Status::Ok();
  }

 private:
  static ir::DotDimsAttr Dims(const ir::Operation& dot) { return *dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>(); }

  // An operand's index from its batch, contracting and free dims' indices.
  static Index OperandIndex(const ir::Type& t, const std::vector<int64_t>& batching, const Index& b,
                            const std::vector<int64_t>& contracting, const Index& k, const std::vector<int64_t>& free,
                            const Index& n) {
    Index idx(static_cast<size_t>(t.rank()), "0");
    for (size_t i = 0; i < batching.size(); ++i) idx[static_cast<size_t>(batching[i])] = b[i];
    for (size_t i = 0; i < contracting.size(); ++i) idx[static_cast<size_t>(contracting[i])] = k[i];
    for (size_t i = 0; i < free.size(); ++i) idx[static_cast<size_t>(free[i])] = n[i];
    return idx;
  }

  // The outputs that updates in place write with the keys or values
  // (StoredByAttention), and their windows' clamped starts.
  struct Store {
    size_t output;
    const ir::Operation* update;
    const ir::Value* stored;  // the keys or the values
    Index starts;
  };

  Status FindStores() {
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      const ir::Operation* op = f_.outputs[i]->defining_op();
      const ir::Value* stored = op != nullptr ? StoredByAttention(*op, a_) : nullptr;
      if (stored == nullptr) continue;
      HLOGRAPH_ASSIGN(Index starts, e_.ClampedStarts(*op, 2, op->operand(0)->type().shape(),
                                                     op->operand(1)->type().shape()));
      stores_.push_back({i, op, stored, std::move(starts)});
    }
    return Status::Ok();
  }

  bool IsStored(size_t output) const {
    return std::any_of(stores_.begin(), stores_.end(), [&](const Store& s) { return s.output == output; });
  }

  // Stores `var`, operand `v` at `idx`, into the outputs whose updates
  // write `v`: the element's place in the update (row-major, as the
  // reshapes between keep it), moved to the window.
  void StoreLoaded(const ir::Value* v, const Index& idx, const std::string& var) {
    for (const Store& s : stores_) {
      if (s.stored != v) continue;
      const ir::Type& big = s.update->operand(0)->type();
      const Index in_update = e_.Reshaped(idx, v->type().shape(), s.update->operand(1)->type().shape());
      Index at(in_update.size());
      for (size_t d = 0; d < at.size(); ++d) at[d] = e_.IndexVar(in_update[d] + " + " + s.starts[d]);
      e_.Line("o" + std::to_string(s.output) + "[" + e_.Linear(at, big.shape()) + "] = " +
              StoreExpr(big.element(), var) + ";");
    }
  }

  // S at (b, t) (t a variable): the index of S's [batch..., keys] shape.
  Index KeyIndex(const std::string& t) const {
    Index idx = b_;
    idx.push_back(t);
    return idx;
  }

  int64_t keys_per_warp() const { return (f_.key_chunk + kWarps - 1) / kWarps; }
  int64_t dims_per_lane() const { return (depth_ + 31) / 32; }

  // Warp w's keys first_key + w + 8 j (key_wJ) and lane l's dims l + 32 r
  // (dR): the index of each key element it loads into k_at_ (r major),
  // of dim R's into d_at_.
  void KeyIndices() {
    const ir::Type& k = a_.scores->operand(1)->type();
    const std::vector<int64_t> k_free = DotDimsOf(*a_.scores).rhs_free;
    for (int64_t j = 0; j < keys_per_warp(); ++j) {
      e_.Line("const long long key_w" + std::to_string(j) + " = min(first_key + warp + " + std::to_string(j * kWarps) +
              "LL, T - 1);");
    }
    for (int64_t r = 0; r < dims_per_lane(); ++r) {
      const std::string d = "d" + std::to_string(r);
      e_.Line("const long long " + d + " = min((long long)lane + " + std::to_string(r * 32) + "LL, " +
              std::to_string(depth_ - 1) + "LL);");
      d_at_.push_back(e_.Delinearize(d, a_.depth_shape));
      for (int64_t j = 0; j < keys_per_warp(); ++j) {
        k_at_.push_back(OperandIndex(k, dn1_.rhs_batching, b_, dn1_.rhs_contracting, d_at_.back(), k_free,
                                     {"key_w" + std::to_string(j)}));
      }
    }
  }

  // Warp w scores keys first_key + w + 8 j into e_s (-inf past the
  // keys): every load first, then each key's sum over the lanes and S.
  Status Scores() {
    const ir::Operation& dot = *a_.scores;
    const ir::Type& q = dot.operand(0)->type();
    const int64_t per_warp = keys_per_warp(), per_lane = dims_per_lane();
    std::vector<std::string> acc;
    for (int64_t j = 0; j < per_warp; ++j) {
      acc.push_back("acc_w" + std::to_string(j));
      e_.Line("float " + acc.back() + " = 0.f;");
    }
    // Every load first (a use right after each would wait for each in turn).
    std::vector<std::string> qs, ks;
    for (int64_t r = 0; r < per_lane; ++r) {
      const Index& di = d_at_[static_cast<size_t>(r)];
      HLOGRAPH_ASSIGN(const std::string qv, e_.Emit(dot.operand(0), OperandIndex(q, dn1_.lhs_batching, b_,
                                                                                   dn1_.lhs_contracting, di, {}, {})));
      qs.push_back(qv);
      for (int64_t j = 0; j < per_warp; ++j) {
        HLOGRAPH_ASSIGN(const std::string kv, e_.Emit(dot.operand(1), k_at_[static_cast<size_t>(r * per_warp + j)]));
        ks.push_back(kv);
      }
    }
    // What S reads besides the product (a mask), loaded with them.
    for (int64_t j = 0; j < per_warp; ++j) {
      std::set<const ir::Value*> done;
      HLOGRAPH_TRY(LoadBesideScores(a_.s, KeyIndex("key_w" + std::to_string(j)), done));
    }
    for (int64_t r = 0; r < per_lane; ++r) {
      const bool ragged = (r + 1) * 32 > depth_;
      for (int64_t j = 0; j < per_warp; ++j) {
        const std::string& x = acc[static_cast<size_t>(j)];
        const std::string fma = "fmaf(" + qs[static_cast<size_t>(r)] + ", " +
                                ks[static_cast<size_t>(r * per_warp + j)] + ", " + x + ")";
        e_.Line(x + " = " +
                (ragged ? "lane + " + std::to_string(r * 32) + " < " + std::to_string(depth_) + " ? " + fma + " : " + x
                        : fma) +
                ";");
      }
    }
    // Clamped keys and dims store the same value twice: harmless.
    for (size_t i = 0; i < ks.size(); ++i) StoreLoaded(dot.operand(1), k_at_[i], ks[i]);
    for (int64_t j = 0; j < per_warp; ++j) {
      const std::string& x = acc[static_cast<size_t>(j)];
      e_.Line("for (int offset = 16; offset > 0; offset /= 2) " + x + " += __shfl_xor_sync(0xffffffffu, " + x +
              ", offset);");
    }
    // Every lane computes S (its loads, a mask's, in flight together);
    // lane 0 stores it.
    for (int64_t j = 0; j < per_warp; ++j) {
      const std::string J = std::to_string(j), i = "warp + " + std::to_string(j * kWarps);
      e_.BindSum(dot.result(0), KeyIndex("key_w" + J), acc[static_cast<size_t>(j)]);
      HLOGRAPH_ASSIGN(const std::string s, e_.Emit(a_.s, KeyIndex("key_w" + J)));
      e_.Line("if (lane == 0 && " + i + " < " + std::to_string(f_.key_chunk) + ") e_s[" + i + "] = first_key + " + i +
              " < T ? " + s + " : neg_inf;");
    }
    e_.Line("__syncthreads();");
    return Status::Ok();
  }

  // Whether computing `v` reads the scores product (remembered: a value
  // may be read many times).
  bool ReadsScores(const ir::Value* v) {
    if (v == a_.scores->result(0)) return true;
    if (const auto known = reads_scores_.find(v); known != reads_scores_.end()) return known->second;
    const ir::Operation* op = v->defining_op();
    const bool reads = op != nullptr && std::find(f_.ops.begin(), f_.ops.end(), op) != f_.ops.end() &&
                       std::any_of(op->operands().begin(), op->operands().end(),
                                   [&](const ir::Value* o) { return ReadsScores(o); });
    reads_scores_[v] = reads;
    return reads;
  }

  // Emits, at S's index `idx`, the operands of S's ops that do not read
  // the scores product (plan/attention.h: those that do are elementwise
  // at S's index), so that their loads start before the product's sums.
  Status LoadBesideScores(const ir::Value* v, const Index& idx, std::set<const ir::Value*>& done) {
    if (v == a_.scores->result(0) || !done.insert(v).second) return Status::Ok();
    if (!ReadsScores(v)) return e_.Emit(v, v->type().rank() == 0 ? Index{} : idx).status();
    for (const ir::Value* o : v->defining_op()->operands()) HLOGRAPH_TRY(LoadBesideScores(o, idx, done));
    return Status::Ok();
  }

  // The chunk's maximum m (reduce_max's body, from its init), the
  // weights e = exp(s - r) with r = m (0 when m is -inf: no key counts),
  // in place, and their sum l (reduce_add's body, from its init).
  Status Weights() {
    const ir::Block& max_body = a_.max->region(0).front();
    const ir::Block& sum_body = a_.sum->region(0).front();
    HLOGRAPH_ASSIGN(const std::string max_init, e_.Emit(a_.max->operand(1), Index{}));
    HLOGRAPH_ASSIGN(const std::string sum_init, e_.Emit(a_.sum->operand(1), Index{}));
    if (weights_in_lanes()) return WeightsInLanes(max_init, sum_init);
    e_.Line("float m = " + max_init + ";");
    e_.Open("for (int i = threadIdx.x; i < " + std::to_string(f_.key_chunk) + "; i += blockDim.x)");
    HLOGRAPH_ASSIGN(std::vector<std::string> folded, e_.EmitRegion(max_body, {"m", "e_s[i]"}));
    e_.Line("m = " + folded[0] + ";");
    e_.Close();
    HLOGRAPH_ASSIGN(const std::string chunk_max, e_.FoldOverBlock(max_body, "m", "fold_s", kWarps));
    e_.Line("const float r = " + chunk_max + " == neg_inf ? 0.f : " + chunk_max + ";");
    e_.Line("float l = " + sum_init + ";");
    e_.Open("for (int i = threadIdx.x; i < " + std::to_string(f_.key_chunk) + "; i += blockDim.x)");
    HLOGRAPH_ASSIGN(const std::string w, ExpOf("e_s[i] - r"));
    e_.Line("e_s[i] = " + w + ";");
    HLOGRAPH_ASSIGN(folded, e_.EmitRegion(sum_body, {"l", "e_s[i]"}));
    e_.Line("l = " + folded[0] + ";");
    e_.Close();
    HLOGRAPH_ASSIGN(const std::string chunk_sum, e_.FoldOverBlock(sum_body, "l", "fold_s", kWarps));
    e_.Line("float* const mine = partials + (bl * C + c) * " + std::to_string(2 + width_) + "LL;");
    e_.Line("if (threadIdx.x == 0) { mine[0] = " + chunk_max + "; mine[1] = " + chunk_sum + "; }");
    return Status::Ok();
  }

  // Weights() for a chunk of at most 32 keys: every warp folds them
  // itself, lane i holding key i's score and then its weight (w_lane), by
  // shuffles: no fold through shared memory and no barrier.
  Status WeightsInLanes(const std::string& max_init, const std::string& sum_init) {
    const ir::Block& max_body = a_.max->region(0).front();
    const ir::Block& sum_body = a_.sum->region(0).front();
    const std::string CH = std::to_string(f_.key_chunk);
    e_.Line("const float s_lane = lane < " + CH + " ? e_s[lane] : " + max_init + ";");
    HLOGRAPH_ASSIGN(std::vector<std::string> folded, e_.EmitRegion(max_body, {max_init, "s_lane"}));
    HLOGRAPH_ASSIGN(const std::string chunk_max, e_.FoldOverWarp(max_body, folded[0]));
    e_.Line("const float r = " + chunk_max + " == neg_inf ? 0.f : " + chunk_max + ";");
    HLOGRAPH_ASSIGN(const std::string w, ExpOf("s_lane - r"));
    e_.Line("const float w_lane = lane < " + CH + " ? " + w + " : 0.f;");
    HLOGRAPH_ASSIGN(folded, e_.EmitRegion(sum_body, {sum_init, "w_lane"}));
    e_.Line("const float l_lane = lane < " + CH + " ? " + folded[0] + " : " + sum_init + ";");
    HLOGRAPH_ASSIGN(const std::string chunk_sum, e_.FoldOverWarp(sum_body, "l_lane"));
    e_.Line("float* const mine = partials + (bl * C + c) * " + std::to_string(2 + width_) + "LL;");
    e_.Line("if (threadIdx.x == 0) { mine[0] = " + chunk_max + "; mine[1] = " + chunk_sum + "; }");
    return Status::Ok();
  }

  // Whether a chunk's keys fit a warp's lanes (WeightsInLanes).
  bool weights_in_lanes() const { return f_.key_chunk <= 32; }

  // The weight of key `at` of the chunk (Weights' or WeightsInLanes').
  std::string WeightOf(const std::string& at) const {
    return weights_in_lanes() ? "__shfl_sync(0xffffffffu, w_lane, " + at + ")" : "e_s[" + at + "]";
  }

  // exp as the program's exponential computes it.
  StatusOr<std::string> ExpOf(const std::string& x) {
    const std::string v = e_.Fresh("x");
    e_.Line("const float " + v + " = " + x + ";");
    HLOGRAPH_ASSIGN(const std::string expr, ElementalExpr(*a_.e->defining_op(), {v}));
    const std::string out = e_.Fresh("e");
    e_.Line("const float " + out + " = " + expr + ";");
    return out;
  }

  // Thread (part, col)'s values of column n = n0 + col (clamped) at keys
  // part, part + PARTS, ... of its chunk (clamped too, so that every
  // thread may load them): their indices into v_at_.
  void ValueIndices(const std::string& n0) {
    const ir::Type& v = a_.values->operand(1)->type();
    const std::vector<int64_t> v_free = DotDimsOf(*a_.values).rhs_free;
    e_.Line("const long long n = min(" + n0 + " + col, " + std::to_string(width_ - 1) + "LL);");
    const Index ni = e_.Delinearize("n", a_.width_shape);
    v_at_.clear();
    for (int64_t j = 0; j < per_part(); ++j) {
      const std::string J = std::to_string(j), i = "part + " + std::to_string(j * parts_);
      e_.Line("const int at_v" + J + " = min(" + i + ", " + std::to_string(f_.key_chunk - 1) + ");");
      e_.Line("const long long key_v" + J + " = min(first_key + at_v" + J + ", T - 1);");
      v_at_.push_back(OperandIndex(v, dn2_.rhs_batching, b_, dn2_.rhs_contracting, {"key_v" + J}, v_free, ni));
    }
  }

  // The values at v_at_ into vals_: every load first, as for the scores.
  Status LoadValues() {
    vals_.clear();
    for (const Index& at : v_at_) {
      HLOGRAPH_ASSIGN(const std::string val, e_.Emit(a_.values->operand(1), at));
      vals_.push_back(val);
    }
    return Status::Ok();
  }

  int64_t per_part() const { return (f_.key_chunk + parts_ - 1) / parts_; }

  // u[n] = sum over the chunk of e * V[t, b, n]: thread (part, col) takes
  // columns col, col + NC, ... and keys part, part + PARTS, ...; the parts
  // meet in shared memory.
  Status WeightedValues() {
    const std::string NC = std::to_string(nc_), PARTS = std::to_string(parts_);
    e_.Line("__shared__ float u_s[" + PARTS + "][" + NC + "];  // also the combine's");
    const bool loaded = width_ <= nc_;  // in Emit, with the keys
    e_.Open("for (long long n0 = 0; n0 < " + std::to_string(width_) + "LL; n0 += " + NC + ")");
    if (!loaded) {
      ValueIndices("n0");
      HLOGRAPH_TRY(LoadValues());
    }
    e_.Line("float u = 0.f;");
    for (int64_t j = 0; j < per_part(); ++j) {  // every lane, for the shuffles
      const std::string J = std::to_string(j);
      e_.Line("const float weight_v" + J + " = " + WeightOf("at_v" + J) + ";");
    }
    e_.Open("if (part < " + PARTS + ")");
    for (int64_t j = 0; j < per_part(); ++j) {
      const std::string J = std::to_string(j), i = "part + " + std::to_string(j * parts_);
      e_.Line("if (" + i + " < " + std::to_string(f_.key_chunk) + " && first_key + " + i + " < T) u = fmaf(weight_v" +
              J + ", " + vals_[static_cast<size_t>(j)] + ", u);");
    }
    e_.Line("u_s[part][col] = u;");
    e_.Close();
    for (size_t j = 0; j < vals_.size(); ++j) StoreLoaded(a_.values->operand(1), v_at_[j], vals_[j]);
    OpenPartsTotal(parts_);
    e_.Line("mine[2 + n0 + col] = total;");
    e_.Close();
    e_.Line("__syncthreads();");
    e_.Close();
    return Status::Ok();
  }

  // Once every part has left its sum of column n0 + col in u_s: opens the
  // scope where part 0's thread of a column in range holds `total`, the
  // parts' sums added in order.
  void OpenPartsTotal(int64_t parts) {
    e_.Line("__syncthreads();");
    e_.Open("if (part == 0 && n0 + col < " + std::to_string(width_) + "LL)");
    e_.Line("float total = u_s[0][col];");
    e_.Line("for (int p = 1; p < " + std::to_string(parts) + "; ++p) total += u_s[p][col];");
  }

  // The last block of the head to arrive folds the chunks, every read of
  // the others' partials issued together (a chain of them would cost a
  // memory latency each).
  Status Combine() {
    const std::string S = std::to_string(2 + width_) + "LL", C = std::to_string(chunks_);
    e_.Line("__threadfence();");
    e_.Line("__syncthreads();");
    e_.Line("if (threadIdx.x == 0) last_block = atomicAdd(&arrivals[bl], 1u) == (unsigned int)(C - 1);");
    e_.Line("__syncthreads();");
    e_.Open("if (last_block)");
    e_.Line("const float* const head = partials + bl * C * " + S + ";");
    // Where one pass takes every column, a thread's first kEarlyGroup chunk sums
    // (below) are loaded now, in flight with the maxima and sums.
    const std::string NC = std::to_string(nc_), PARTS = std::to_string(parts_);
    const bool early_sums = early_loads_ && width_ <= nc_;
    if (early_sums) {
      e_.Line("const long long n_first = min((long long)col, " + std::to_string(width_ - 1) + "LL);");
      for (int g = 0; g < kEarlyGroup; ++g) {
        const std::string G = std::to_string(g);
        e_.Line("const long long first_c" + G + " = min(part + " + G + "LL * " + PARTS + ", C - 1);");
        e_.Line("const float first_u" + G + " = __ldcg(&head[first_c" + G + " * " + S + " + 2 + n_first]);");
      }
    }
    // Each chunk's max and sum into shared memory.
    e_.Line("__shared__ float m_s[" + C + "], w_s[" + C + "];");
    e_.Open("for (long long i = threadIdx.x; i < C; i += blockDim.x)");
    e_.Line("m_s[i] = __ldcg(&head[i * " + S + "]);");
    e_.Line("w_s[i] = __ldcg(&head[i * " + S + " + 1]);");
    e_.Close();
    e_.Line("__syncthreads();");
    // M: reduce_max's body over the chunks' maxima (the block's fold).
    const ir::Block& max_body = a_.max->region(0).front();
    const ir::Block& sum_body = a_.sum->region(0).front();
    HLOGRAPH_ASSIGN(const std::string max_init, e_.Emit(a_.max->operand(1), Index{}));
    e_.Line("float mc = " + max_init + ";");
    e_.Open("for (long long i = threadIdx.x; i < C; i += blockDim.x)");
    HLOGRAPH_ASSIGN(std::vector<std::string> folded, e_.EmitRegion(max_body, {"mc", "m_s[i]"}));
    e_.Line("mc = " + folded[0] + ";");
    e_.Close();
    HLOGRAPH_ASSIGN(const std::string M, e_.FoldOverBlock(max_body, "mc", "fold_s", kWarps));
    e_.BindEverywhere(a_.max->result(0), M);
    HLOGRAPH_ASSIGN(const std::string x, e_.Emit(a_.x, KeyIndex("0")));
    // Chunk i's weights times exp(r_i - X) are exp(s - X), the program's
    // E: w_s becomes each chunk's scale, and L folds the scaled sums.
    HLOGRAPH_ASSIGN(const std::string sum_init, e_.Emit(a_.sum->operand(1), Index{}));
    e_.Line("float lc = " + sum_init + ";");
    e_.Open("for (long long i = threadIdx.x; i < C; i += blockDim.x)");
    e_.Line("const float mi = m_s[i], li = w_s[i];");
    HLOGRAPH_ASSIGN(const std::string scale, ExpOf("(mi == neg_inf ? 0.f : mi) - " + x));
    e_.Line("const float wi = li == 0.f ? 0.f : " + scale + ";  // a chunk of no weight adds nothing, NaN stays");
    e_.Line("w_s[i] = wi;");
    HLOGRAPH_ASSIGN(folded, e_.EmitRegion(sum_body, {"lc", "li * wi"}));
    e_.Line("lc = " + folded[0] + ";");
    e_.Close();
    HLOGRAPH_ASSIGN(const std::string L, e_.FoldOverBlock(sum_body, "lc", "fold_s", kWarps));  // syncs: w_s is complete
    e_.BindEverywhere(a_.sum->result(0), L);
    HLOGRAPH_ASSIGN(const std::string y, e_.Emit(a_.y, KeyIndex("0")));
    // o[n]: thread (part, col) sums chunks part, part + PARTS, ... of
    // columns col, col + NC, ..., kGroup loads at a time; the parts meet
    // in u_s (WeightedValues's) in order.
    e_.Open("for (long long n0 = 0; n0 < " + std::to_string(width_) + "LL; n0 += " + NC + ")");
    e_.Line("const long long n = min(n0 + col, " + std::to_string(width_ - 1) + "LL);");
    e_.Line("float o = 0.f;");
    e_.Open("if (part < " + PARTS + ")");
    if (early_sums) {
      for (int g = 0; g < kEarlyGroup; ++g) {
        const std::string G = std::to_string(g);
        e_.Line("if (part + " + G + "LL * " + PARTS + " < C) o = fmaf(first_u" + G + ", w_s[first_c" + G + "], o);");
      }
    }
    const std::string first = early_sums ? "part + " + std::to_string(kEarlyGroup) + "LL * " + PARTS : "part";
    e_.Open("for (long long i0 = " + first + "; i0 < C; i0 += " + std::to_string(kGroup) + "LL * " + PARTS + ")");
    for (int g = 0; g < kGroup; ++g) {
      const std::string G = std::to_string(g), i = "i0 + " + std::to_string(g) + "LL * " + PARTS;
      e_.Line("const long long c" + G + " = min(" + i + ", C - 1);");
      e_.Line("const float u" + G + " = __ldcg(&head[c" + G + " * " + S + " + 2 + n]);");
    }
    for (int g = 0; g < kGroup; ++g) {
      const std::string G = std::to_string(g);
      e_.Line("if (i0 + " + G + "LL * " + PARTS + " < C) o = fmaf(u" + G + ", w_s[c" + G + "], o);");
    }
    e_.Close();
    e_.Line("u_s[part][col] = o;");
    e_.Close();
    OpenPartsTotal(parts_);
    e_.Line("total = total / " + y + ";");
    const Index ni = e_.Delinearize("n", a_.width_shape);
    Index out = b_;
    out.insert(out.end(), ni.begin(), ni.end());
    e_.BindSum(a_.values->result(0), out, "total");
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      if (IsStored(i)) continue;
      HLOGRAPH_ASSIGN(const std::string v, e_.Emit(f_.outputs[i], out));
      e_.Line("o" + std::to_string(i) + "[bl * " + std::to_string(width_) + "LL + n] = " +
              StoreExpr(f_.output_types[i].element(), v) + ";");
    }
    e_.Close();
    e_.Line("__syncthreads();");
    e_.Close();
    e_.Line("if (threadIdx.x == 0) arrivals[bl] = 0u;  // zero again for the next call");
    e_.Close();
    return Status::Ok();
  }

  const Fusion& f_;
  const SoftmaxAttention& a_;
  BodyEmitter e_;
  const ir::DotDimsAttr dn1_, dn2_;
  int64_t batch_ = 1, depth_ = 1, width_ = 1, chunks_ = 1;
  int64_t nc_ = 1, parts_ = 1;  // value columns a pass, parts of the keys each column's threads take
  const bool early_loads_ = AttentionEarlyLoadsWanted();
  std::vector<Index> d_at_, k_at_;  // KeyIndices'
  std::vector<Index> v_at_;         // ValueIndices'
  std::vector<std::string> vals_;   // LoadValues'
  Index b_;
  std::map<const ir::Value*, bool> reads_scores_;
  std::vector<Store> stores_;
};

}  // namespace

StatusOr<KernelSource> EmitAttention(const Fusion& f, const EmitOptions& options) {
  const ir::Operation* values = LastProduct(f);  // the later of the two
  if (values == nullptr) return Status::Error("internal error: an attention kernel without its products");
  const std::optional<SoftmaxAttention> a = MatchSoftmaxAttention(*values);
  if (!a || f.key_chunk < 1 || f.scratch_bytes.size() != 2) {
    return Status::Error("internal error: an attention kernel whose pattern no longer matches");
  }
  std::ostringstream body;
  AttentionEmitter emitter(f, *a, body);
  HLOGRAPH_TRY(emitter.Emit(options.sm_count));
  if (emitter.blocks() > (int64_t{1} << 31) - 1) return Status::Error("an attention kernel of too many blocks");
  LaunchDims launch;
  launch.block = {32 * kWarps, 1, 1};
  launch.grid = {static_cast<uint32_t>(emitter.blocks()), 1, 1};
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, 32 * kWarps));
  return KernelSource{f.name, head + body.str() + "}\n", launch,
                      "attention (" + std::to_string(f.key_chunk) + " keys a block, " +
                          std::to_string(emitter.blocks()) + " blocks)"};
}

}  // namespace hlograph::gpu::emit

// stablehlo.reduce (one, or several siblings folding the same extent of
// one shape) in the layout plan/reduction_layout.h chose: a block covers
// `outputs_per_block` outputs with `lanes_per_output` lanes each, the
// lanes folded by shuffles then in shared memory, each fold in a fixed
// order; with splits, the last block of a group to arrive folds the
// groups' partials in split order. Same bits every call.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/reduction_layout.h"

namespace hlograph::gpu::emit {

namespace {

// Shuffles for any compute type (bool and narrow integers go as int,
// complex numbers part by part); loads that skip L1 for any type (the
// partials other blocks wrote while this SM may hold stale lines).
const char* const kReductionHelpers = R"(
template <typename T>
__device__ __forceinline__ T hlo_shfl_down(T v, int offset) {
  if constexpr (sizeof(T) < 4) {
    return (T)__shfl_down_sync(0xffffffffu, (int)v, offset);
  } else {
    return __shfl_down_sync(0xffffffffu, v, offset);
  }
}
template <typename R>
__device__ __forceinline__ hlo_complex<R> hlo_shfl_down(hlo_complex<R> v, int offset) {
  return hlo_cplx<R>(__shfl_down_sync(0xffffffffu, v.re, offset), __shfl_down_sync(0xffffffffu, v.im, offset));
}
template <typename T, typename B>
__device__ __forceinline__ T hlo_ldcg_as(const T* p) {
  union { B bits; T value; } u;
  u.bits = __ldcg((const B*)p);
  return u.value;
}
template <typename T>
__device__ __forceinline__ T hlo_ldcg(const T* p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "accumulators are 1, 2, 4, 8 or 16 bytes");
  if constexpr (sizeof(T) == 1) return hlo_ldcg_as<T, unsigned char>(p);
  else if constexpr (sizeof(T) == 2) return hlo_ldcg_as<T, unsigned short>(p);
  else if constexpr (sizeof(T) == 4) return hlo_ldcg_as<T, unsigned int>(p);
  else if constexpr (sizeof(T) == 8) return hlo_ldcg_as<T, unsigned long long>(p);
  else return hlo_ldcg_as<T, ulonglong2>(p);
}
)";

// One accumulator: result `result` of `reduce`, stored to output `output`.
struct Accumulator {
  const ir::Operation* reduce = nullptr;
  size_t result = 0;
  int output = -1;
  std::string name, type;
  ir::ElementType element = ir::ElementType::kF32;
};

// The reduces a kReduction fusion stores (all results of each), checked
// to fold the same dims of operands of one shape.
StatusOr<std::vector<const ir::Operation*>> Reduces(const Fusion& f) {
  std::vector<const ir::Operation*> reduces;
  for (const ir::Value* v : f.outputs) {
    const ir::Operation* op = v->defining_op();
    if (op == nullptr || op->id() != ir::OpId::kReduce) {
      return Status::Error("a reduction kernel stores a value that no stablehlo.reduce computes");
    }
    if (std::find(reduces.begin(), reduces.end(), op) == reduces.end()) reduces.push_back(op);
  }
  if (reduces.empty()) return Status::Error("a reduction kernel without a stablehlo.reduce");
  const ir::Operation& first = *reduces[0];
  std::vector<int64_t> dims = I64s(first, "dimensions");
  std::sort(dims.begin(), dims.end());
  for (const ir::Operation* r : reduces) {
    const size_t n = r->num_operands() / 2;
    if (n == 0 || r->num_operands() != 2 * n || r->num_results() != n || r->num_regions() != 1 ||
        r->region(0).empty()) {
      return Status::Error("'stablehlo.reduce' op expects N operands, N init values, N results and a body");
    }
    std::vector<int64_t> d = I64s(*r, "dimensions");
    std::sort(d.begin(), d.end());
    for (size_t j = 0; j < n; ++j) {
      if (r->operand(j)->type().shape() != first.operand(0)->type().shape() || d != dims) {
        return Status::Error(
            "'stablehlo.reduce' op: the reduces of one kernel must fold the same dims of operands "
            "of one shape");
      }
    }
  }
  return reduces;
}

// Bytes the kernel's inputs hold (for a layout the planner did not choose).
int64_t InputBytes(const Fusion& f) {
  int64_t bytes = 0;
  for (const ir::Type& t : f.input_types) bytes += t.NumElements() * ir::StorageBytes(t.element());
  return bytes;
}

// Whether the kernel's scratch holds the partials and counters of `layout`.
bool ScratchHolds(const Fusion& f, const ReductionLayout& layout) {
  if (layout.splits <= 1) return true;
  if (f.scratch_bytes.size() != 2) return false;
  std::vector<ir::ElementType> elements;
  for (const ir::Type& t : f.output_types) elements.push_back(t.element());
  return ReductionPartialOffsets(layout, elements).back() <= f.scratch_bytes[0] &&
         layout.counter_bytes() <= f.scratch_bytes[1];
}

class ReductionEmitter {
 public:
  // `vector_loads`: the inputs that may be read four at a time (all
  // inputs shaped like the operand when null).
  ReductionEmitter(const Fusion& f, const ReductionLayout& l, std::vector<const ir::Operation*> reduces,
                   const std::set<int>* vector_loads = nullptr)
      : f_(f), l_(l), reduces_(std::move(reduces)), vector_loads_(vector_loads), e_(f, body_) {}

  // The inputs loaded four at a time, and those of them the kernel read
  // from those registers (after Emit).
  std::set<int> vector_inputs() const {
    std::set<int> s;
    for (const auto& [k, st] : vector_inputs_) s.insert(static_cast<int>(k));
    return s;
  }
  const std::set<int>& read_from_vectors() const { return e_.own_reads(); }

  StatusOr<KernelSource> Emit() {
    const ir::Operation& first = *reduces_[0];
    in_type_ = first.operand(0)->type();
    out_shape_ = first.result(0)->type().shape();
    reduced_ = I64s(first, "dimensions");
    std::sort(reduced_.begin(), reduced_.end());
    for (int64_t d = 0; d < in_type_.rank(); ++d) {
      if (!std::binary_search(reduced_.begin(), reduced_.end(), d)) kept_.push_back(d);
    }
    for (int64_t d : reduced_) reduced_shape_.push_back(in_type_.dim(d));
    for (const ir::Operation* r : reduces_) {
      for (size_t j = 0; j < r->num_results(); ++j) {
        Accumulator a;
        a.reduce = r;
        a.result = j;
        a.element = r->result(j)->type().element();
        const auto at = std::find(f_.outputs.begin(), f_.outputs.end(), r->result(j));
        if (at == f_.outputs.end()) return Status::Error("a reduce result the kernel does not store");
        a.output = static_cast<int>(at - f_.outputs.begin());
        HLOGRAPH_ASSIGN(a.type, ComputeType(a.element));
        a.name = "acc" + std::to_string(accs_.size());
        accs_.push_back(a);
      }
    }
    row_ = l_.lanes == ReductionLayout::Lanes::kAlongReduced;
    const int tc = l_.outputs_per_block, sl = l_.lanes_per_output;
    // Shared slots of the lanes' fold: rows: a slot per warp; columns: a
    // row of outputs per warp (fewer than 32 outputs a block: folded
    // within each warp first) or per slice.
    slot_rows_ = row_ ? (sl > 32 ? sl / 32 : 0) : (sl > 1 ? (tc < 32 ? ReductionLayout::kThreads / 32 : sl) : 0);
    const bool split = l_.splits > 1;

    e_.Line("const long long OUTPUTS = " + std::to_string(l_.outputs) + "LL, REDUCED = " + std::to_string(l_.reduced) +
            "LL, GROUPS = " + std::to_string(l_.groups()) + "LL, SPLITS = " + std::to_string(l_.splits) +
            "LL, CHUNK = " + std::to_string(l_.chunk) + "LL;");
    if (slot_rows_ > 0) {
      const int slots = slot_rows_ * tc;
      for (const Accumulator& a : accs_) {
        e_.Line("__shared__ " + a.type + " slots_" + a.name + "[" + std::to_string(slots) + "];");
      }
    }
    if (split) {
      std::vector<ir::ElementType> elements;
      for (const Accumulator& a : accs_) elements.push_back(a.element);
      const std::vector<int64_t> offsets = ReductionPartialOffsets(l_, elements);
      e_.Line("__shared__ bool last_block;");
      for (size_t i = 0; i < accs_.size(); ++i) {
        e_.Line(accs_[i].type + "* const part_" + accs_[i].name + " = (" + accs_[i].type + "*)((char*)s0 + " +
                std::to_string(offsets[i]) + "LL);");
      }
      e_.Line("unsigned int* const arrivals = (unsigned int*)s1;");
    }
    e_.Line("const int t = threadIdx.x, lane = t % 32, warp = t / 32;");
    if (row_) {
      e_.Line("const int c = t / " + std::to_string(sl) + ", sl = t % " + std::to_string(sl) + ";");
    } else {
      e_.Line("const int c = t % " + std::to_string(tc) + ", sl = t / " + std::to_string(tc) + ";");
    }
    e_.Line("(void)lane; (void)warp; (void)c; (void)sl;");
    e_.Open("for (long long blk = blockIdx.x; blk < GROUPS * SPLITS; blk += gridDim.x)");
    e_.Line("const long long g = blk / SPLITS, split = blk % SPLITS;");
    e_.Line("const long long out_raw = g * " + std::to_string(tc) + "LL + c;");
    e_.Line("const bool valid = out_raw < OUTPUTS;");
    // A lane past the last output folds the last one again (never stored),
    // so that every thread reaches the shuffles and barriers.
    e_.Line("const long long out = min(out_raw, OUTPUTS - 1);");
    e_.Line("const long long rbeg = split * CHUNK, rend = min(REDUCED, rbeg + CHUNK);");
    const Index out_idx = e_.Delinearize("out", out_shape_);
    HLOGRAPH_TRY(Init(/*declare=*/true));
    HLOGRAPH_TRY(FoldOwnElements(out_idx));
    HLOGRAPH_TRY(FoldLanes());
    if (!split) {
      e_.Open("if (sl == 0 && valid)");
      Store();
      e_.Close();
    } else {
      e_.Open("if (sl == 0 && valid)");
      for (const Accumulator& a : accs_) e_.Line("part_" + a.name + "[split * OUTPUTS + out] = " + a.name + ";");
      e_.Close();
      e_.Line("__threadfence();  // the partials are visible before the arrival is counted");
      e_.Line("__syncthreads();");
      e_.Line("if (t == 0) last_block = atomicAdd(&arrivals[g], 1u) == (unsigned int)(SPLITS - 1);");
      e_.Line("__syncthreads();");
      e_.Open("if (last_block)");
      HLOGRAPH_TRY(Init(/*declare=*/false));
      e_.Open("for (long long s = sl; s < SPLITS; s += " + std::to_string(sl) + ")");
      HLOGRAPH_TRY(
          CombineFrom([](const Accumulator& a) { return "hlo_ldcg(&part_" + a.name + "[s * OUTPUTS + out])"; }));
      e_.Close();
      HLOGRAPH_TRY(FoldLanes());
      e_.Open("if (sl == 0 && valid)");
      Store();
      e_.Close();
      e_.Line("if (t == 0) arrivals[g] = 0u;  // zero again for the next call");
      e_.Close();
    }
    if (slot_rows_ > 0 || split) e_.Line("__syncthreads();  // the slots are free again");
    e_.Close();

    KernelSource k;
    k.name = f_.name;
    HLOGRAPH_ASSIGN(std::string head, KernelOpening(f_));
    k.code = std::string(kReductionHelpers) + (vectorized_ ? kVec4 : "") + head + body_text() + "}\n";
    k.launch.block = {static_cast<uint32_t>(ReductionLayout::kThreads), 1, 1};
    k.launch.grid = {static_cast<uint32_t>(std::min<int64_t>(l_.blocks(), int64_t{1} << 30)), 1, 1};
    if (l_.outputs == 0) k.launch.grid = {0, 1, 1};
    k.strategy = l_.ToString(vectorized_);
    return k;
  }

 private:
  std::string body_text() const { return body_.str(); }

  // acc = init (declared once per output group).
  Status Init(bool declare) {
    for (const Accumulator& a : accs_) {
      const size_t n = a.reduce->num_operands() / 2;
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(a.reduce->operand(n + a.result), Index{}));
      e_.Line((declare ? a.type + " " : std::string()) + a.name + " = " + v + ";");
    }
    return Status::Ok();
  }

  // Each reduce's accumulators = its body applied to them and `others`
  // (an expression per accumulator, made a variable first).
  Status CombineFrom(const std::function<std::string(const Accumulator&)>& other) {
    std::vector<std::string> values;
    for (const Accumulator& a : accs_) {
      const std::string v = e_.Fresh("other");
      e_.Line("const " + a.type + " " + v + " = " + other(a) + ";");
      values.push_back(v);
    }
    return Combine(values);
  }

  Status Combine(const std::vector<std::string>& others) {
    size_t at = 0;
    for (const ir::Operation* r : reduces_) {
      const size_t n = r->num_results();
      std::vector<std::string> args;
      for (size_t j = 0; j < n; ++j) args.push_back(accs_[at + j].name);
      for (size_t j = 0; j < n; ++j) args.push_back(others[at + j]);
      HLOGRAPH_ASSIGN(std::vector<std::string> next, e_.EmitRegion(r->region(0).front(), args));
      if (next.size() != n) {
        return Status::Error("'stablehlo.reduce' op expects its body to return " + std::to_string(n) + " values");
      }
      for (size_t j = 0; j < n; ++j) e_.Line(accs_[at + j].name + " = " + next[j] + ";");
      at += n;
    }
    return Status::Ok();
  }

  // Folds the operands at reduced element `r_var` of output `out_idx`
  // into the accumulators; with `lane`, inputs read at that element come
  // from vector registers.
  Status Accumulate(const Index& out_idx, const std::string& r_var, const std::string& lane = "") {
    const Index red_idx = e_.Delinearize(r_var, reduced_shape_);
    const Index full = Full(out_idx, red_idx);
    if (!lane.empty()) e_.ReadOwnElementFromRegisters(full, in_type_.shape(), lane);
    std::vector<std::string> xs;
    for (const Accumulator& a : accs_) {
      auto x = e_.Emit(a.reduce->operand(a.result), full);
      if (!x.ok()) {
        e_.ReadOwnElementFromRegisters({}, {}, "");
        return x.status();
      }
      xs.push_back(*x);
    }
    e_.ReadOwnElementFromRegisters({}, {}, "");
    return Combine(xs);
  }

  Index Full(const Index& out_idx, const Index& red_idx) const {
    Index full(static_cast<size_t>(in_type_.rank()));
    for (size_t i = 0; i < kept_.size(); ++i) full[static_cast<size_t>(kept_[i])] = out_idx[i];
    for (size_t i = 0; i < reduced_.size(); ++i) full[static_cast<size_t>(reduced_[i])] = red_idx[i];
    return full;
  }

  // The thread's own elements of [rbeg, rend): every lanes_per_output-th
  // from its lane. Rows read four at a time where every input shaped like
  // the operand is aligned (the chunks and the innermost reduced run are
  // multiples of 4, so four neighbouring reduced elements are neighbours
  // in memory).
  Status FoldOwnElements(const Index& out_idx) {
    const std::string step = std::to_string(l_.lanes_per_output);
    std::string aligned;
    if (row_ && l_.vector_loads) {
      for (size_t k = 0; k < f_.inputs.size(); ++k) {
        const ir::Type& t = f_.input_types[k];
        if (t.shape() != in_type_.shape() || !IsVectorizable(t.element())) continue;
        if (vector_loads_ != nullptr && vector_loads_->count(static_cast<int>(k)) == 0) continue;
        HLOGRAPH_ASSIGN(std::string st, StorageType(t.element()));
        const std::string p = "p" + std::to_string(k);
        aligned += " | (unsigned long long)" + p + " % " + std::to_string(4 * ir::StorageBytes(t.element()));
        vector_inputs_.push_back({k, st});
      }
    }
    vectorized_ = !vector_inputs_.empty();
    if (vectorized_) {
      e_.Open("if ((0ULL" + aligned + ") == 0)");
      e_.Line("#pragma unroll 2");
      e_.Open("for (long long r4 = rbeg / 4 + sl; r4 < rend / 4; r4 += " + step + ")");
      const Index first = Full(out_idx, e_.Delinearize("r4 * 4", reduced_shape_));
      const std::string at = e_.IndexVar("(" + e_.Linear(first, in_type_.shape()) + ") / 4");
      for (const auto& [k, st] : vector_inputs_) {
        e_.Line("const hlo_vec4<" + st + "> q" + std::to_string(k) + " = ((const hlo_vec4<" + st + ">*)p" +
                std::to_string(k) + ")[" + at + "];");
      }
      e_.Line("#pragma unroll");
      e_.Open("for (int u = 0; u < 4; ++u)");
      e_.Line("const long long r = r4 * 4 + u;");
      HLOGRAPH_TRY(Accumulate(out_idx, "r", "u"));
      e_.Close();
      e_.Close();
      e_.Close();
      e_.Open("else");
    }
    e_.Line("#pragma unroll 4");
    e_.Open("for (long long r = rbeg + sl; r < rend; r += " + step + ")");
    HLOGRAPH_TRY(Accumulate(out_idx, "r"));
    e_.Close();
    if (vectorized_) e_.Close();
    return Status::Ok();
  }

  // Folds the lanes of each output into its lane sl == 0, in a fixed order.
  Status FoldLanes() {
    const int tc = l_.outputs_per_block, sl = l_.lanes_per_output;
    // Within warps: rows fold all 32 lanes (one output); columns fold the
    // lanes tc apart (the same output) while there are several per warp.
    const int lowest = row_ ? 1 : tc;
    if ((row_ || tc < 32) && sl > 1) {
      e_.Open("for (int offset = 16; offset >= " + std::to_string(lowest) + "; offset /= 2)");
      HLOGRAPH_TRY(CombineFrom([](const Accumulator& a) { return "hlo_shfl_down(" + a.name + ", offset)"; }));
      e_.Close();
    }
    if (slot_rows_ == 0) return Status::Ok();
    if (row_) {
      // Warp w of output c holds slot w; the output's first warp folds them.
      e_.Open("if (lane == 0)");
      for (const Accumulator& a : accs_) e_.Line("slots_" + a.name + "[warp] = " + a.name + ";");
      e_.Close();
      e_.Line("__syncthreads();");
      e_.Open("if (sl == 0)");
      e_.Open("for (int w = 1; w < " + std::to_string(slot_rows_) + "; ++w)");
      HLOGRAPH_TRY(CombineFrom(
          [&](const Accumulator& a) { return "slots_" + a.name + "[c * " + std::to_string(slot_rows_) + " + w]"; }));
      e_.Close();
      e_.Close();
      return Status::Ok();
    }
    // Columns: row i of the slots holds warp i's (fewer than 32 outputs)
    // or slice i's partials of the block's outputs; slice 0 folds them.
    const std::string row = tc < 32 ? "warp" : "sl";
    if (tc < 32) e_.Open("if (lane < " + std::to_string(tc) + ")");
    for (const Accumulator& a : accs_) {
      e_.Line("slots_" + a.name + "[" + row + " * " + std::to_string(tc) + " + c] = " + a.name + ";");
    }
    if (tc < 32) e_.Close();
    e_.Line("__syncthreads();");
    e_.Open("if (sl == 0)");
    e_.Open("for (int i = 1; i < " + std::to_string(slot_rows_) + "; ++i)");
    HLOGRAPH_TRY(
        CombineFrom([&](const Accumulator& a) { return "slots_" + a.name + "[i * " + std::to_string(tc) + " + c]"; }));
    e_.Close();
    e_.Close();
    return Status::Ok();
  }

  void Store() {
    for (const Accumulator& a : accs_) {
      e_.Line("o" + std::to_string(a.output) + "[out] = " + StoreExpr(a.element, a.name) + ";");
    }
  }

  const Fusion& f_;
  const ReductionLayout l_;
  std::vector<const ir::Operation*> reduces_;
  const std::set<int>* vector_loads_;
  std::ostringstream body_;  // declared before e_, which writes into it
  BodyEmitter e_;
  ir::Type in_type_;
  std::vector<int64_t> out_shape_, reduced_, kept_, reduced_shape_;
  std::vector<Accumulator> accs_;
  bool row_ = false;
  int slot_rows_ = 0;
  bool vectorized_ = false;
  std::vector<std::pair<size_t, std::string>> vector_inputs_;  // (input, storage type)
};

}  // namespace

StatusOr<KernelSource> EmitReduction(const Fusion& f, const EmitOptions& options) {
  HLOGRAPH_ASSIGN(std::vector<const ir::Operation*> reduces, Reduces(f));
  // The layout for this device's SMs where the scratch the planner gave
  // the kernel (for kPlannedSmCount) holds its partials and counters; else
  // the planned one; no splits without scratch.
  ReductionLayout layout = PlanReductionLayout(*reduces[0], InputBytes(f), options.sm_count);
  if (!ScratchHolds(f, layout)) {
    if (f.reduction.planned && ScratchHolds(f, f.reduction)) {
      layout = f.reduction;
    } else {
      layout.splits = 1;
      layout.chunk = layout.reduced;
    }
  }
  // An input loaded four at a time but never read at the element the
  // thread folds (read through a transpose, say) would be read twice:
  // emitted again without it.
  ReductionEmitter first(f, layout, reduces);
  HLOGRAPH_ASSIGN(KernelSource k, first.Emit());
  const std::set<int> used = first.read_from_vectors();
  if (first.vector_inputs() == used) return k;
  return ReductionEmitter(f, layout, reduces, &used).Emit();
}

}  // namespace hlograph::gpu::emit

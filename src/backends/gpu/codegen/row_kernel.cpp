// Row kernels (plan/row_fusion.h): a block per row of the outputs. The
// block folds each row reduction of the fusion in program order (every
// thread loads its few elements, then folds them in order; the warps by
// shuffles, then the warps' results in order: the same bits every call),
// binds the result at the row, then computes the row's output elements.
// A later pass reads the row again from cache, not from HBM, or, when
// each thread's share of the row fits its registers, from the registers
// it loaded once (RowKernelLayout::resident_vectors), or from the shared
// memory the block copied it into (RowKernelLayout::stage_in_shared).
//
// Inputs shaped like the output are read four elements at a time (and the
// outputs written so) when the row length is a multiple of 4 and every
// such pointer is aligned for it (checked when the kernel runs); otherwise
// element by element. The two orders of folding give different last bits;
// each is the same every call.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/row_fusion.h"

namespace hlograph::gpu::emit {
namespace {

class RowEmitter {
 public:
  RowEmitter(const Fusion& f, const RowKernelLayout& l, std::vector<const ir::Operation*> reduces, size_t row_rank)
      : f_(f), l_(l), reduces_(std::move(reduces)), e_(f, body_) {
    shape_ = f.output_types[0].shape();
    row_shape_.assign(shape_.begin(), shape_.begin() + static_cast<std::ptrdiff_t>(row_rank));
    col_shape_.assign(shape_.begin() + static_cast<std::ptrdiff_t>(row_rank), shape_.end());
    for (size_t k = 0; k < f.inputs.size(); ++k) {
      if (f.input_types[k].shape() == shape_ && IsVectorizable(f.input_types[k].element())) vector_inputs_.push_back(k);
    }
    bool outputs_vectorizable = true;
    for (const ir::Type& t : f.output_types) outputs_vectorizable &= IsVectorizable(t.element());
    vectorized_ = l.cols % 4 == 0 && !vector_inputs_.empty() && outputs_vectorizable;
    // Registers for the held vectors: at most 32 a thread over all inputs.
    int64_t held_registers = 0;
    for (size_t k : vector_inputs_) held_registers += l.resident_vectors * ir::StorageBytes(f.input_types[k].element());
    resident_ = vectorized_ && l.resident_vectors > 0 && held_registers <= 32;
    for (size_t k : vector_inputs_) {
      cache_offsets_.push_back(staged_bytes_);
      staged_bytes_ += l.cols * ir::StorageBytes(f.input_types[k].element());
    }
    staged_ = vectorized_ && !resident_ && l.stage_in_shared && staged_bytes_ <= kMaxStagedBytes;
  }

  StatusOr<KernelSource> Emit() {
    const std::string T = std::to_string(l_.threads);
    e_.Line("const long long ROWS = " + std::to_string(l_.rows) + "LL, COLS = " + std::to_string(l_.cols) + "LL;");
    e_.Line("__shared__ float row_slots[" + std::to_string(l_.threads / 32) + "];");
    if (staged_) {
      e_.Line("extern __shared__ __align__(16) unsigned char row_cache[];");
      for (size_t j = 0; j < vector_inputs_.size(); ++j) {
        const std::string K = std::to_string(vector_inputs_[j]);
        HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.input_types[vector_inputs_[j]].element()));
        e_.Line("hlo_vec4<" + st + ">* const cache" + K + " = (hlo_vec4<" + st + ">*)(row_cache + " +
                std::to_string(cache_offsets_[j]) + ");");
      }
    }
    if (vectorized_) {
      std::string misaligned = "0ULL";
      for (size_t k : vector_inputs_) {
        misaligned += " | (unsigned long long)p" + std::to_string(k) + " % " + Bytes4(f_.input_types[k]);
      }
      for (size_t i = 0; i < f_.outputs.size(); ++i) {
        misaligned += " | (unsigned long long)o" + std::to_string(i) + " % " + Bytes4(f_.output_types[i]);
      }
      e_.Line("const bool by_vectors = (" + misaligned + ") == 0;");
    }
    e_.Open("for (long long row = blockIdx.x; row < ROWS; row += gridDim.x)");
    at_ = e_.Delinearize("row", row_shape_);
    if (staged_) {
      // The row's vectors, copied into shared memory once for every pass.
      e_.Open("if (by_vectors)");
      for (size_t j = 0; j < vector_inputs_.size(); ++j) {
        const std::string K = std::to_string(vector_inputs_[j]);
        HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.input_types[vector_inputs_[j]].element()));
        e_.Line("for (long long c4 = threadIdx.x; c4 < COLS / 4; c4 += " + T + "LL) cache" + K + "[c4] = ((const hlo_vec4<" +
                st + ">*)p" + K + ")[row * (COLS / 4) + c4];");
      }
      e_.Close();
      e_.Line("__syncthreads();");
    }
    if (resident_) {
      // The thread's share of the row, loaded once for every pass.
      e_.Line("const long long c = threadIdx.x;");
      HLOGRAPH_TRY(DeclareVectors(l_.resident_vectors));
      e_.Open("if (by_vectors)");
      HLOGRAPH_TRY(LoadVectors(l_.resident_vectors));
      e_.Close();
    }
    for (const ir::Operation* r : reduces_) HLOGRAPH_TRY(Reduce(*r));
    if (vectorized_) {
      e_.Open("if (by_vectors)");
      HLOGRAPH_TRY(StoreByVectors());
      e_.Close();
      e_.Open("else");
    }
    HLOGRAPH_TRY(StoreByElements());
    if (vectorized_) e_.Close();
    if (staged_) e_.Line("__syncthreads();  // the next row overwrites the cache");
    e_.Close();

    KernelSource k;
    k.name = f_.name;
    // Several blocks an SM (registers for 1024 threads): a block's passes
    // over its row wait at barriers, and the others' loads fill that time.
    HLOGRAPH_ASSIGN(const std::string head, KernelOpening(f_, l_.threads, 0, std::max(1, 1024 / l_.threads)));
    k.code = std::string(vectorized_ ? kVec4 : "") + head + body_.str() + "}\n";
    k.launch.block = {static_cast<uint32_t>(l_.threads), 1, 1};
    k.launch.grid = {static_cast<uint32_t>(std::min<int64_t>(l_.rows, int64_t{1} << 30)), 1, 1};
    if (staged_) k.launch.shared_bytes = static_cast<uint32_t>(staged_bytes_);
    if (l_.rows == 0 || l_.cols == 0) k.launch.grid = {0, 1, 1};
    k.strategy = l_.ToString() + (resident_ ? ", held" : staged_ ? ", staged" : vectorized_ ? ", 4-element vectors" : "");
    return k;
  }

 private:
  static std::string Bytes4(const ir::Type& t) { return std::to_string(4 * ir::StorageBytes(t.element())); }

  // Element `i` of the row (a column index `i` names).
  Index ElementIndex(const std::string& i) {
    Index idx = at_;
    const Index cols = e_.Delinearize(i, col_shape_);
    idx.insert(idx.end(), cols.begin(), cols.end());
    return idx;
  }

  // Folds `v` into `acc` with the reduce's body.
  Status Fold(const ir::Operation& r, const std::string& acc, const std::string& v) {
    HLOGRAPH_ASSIGN(const std::vector<std::string> folded, e_.EmitRegion(r.region(0).front(), {acc, v}));
    e_.Line(acc + " = " + folded[0] + ";");
    return Status::Ok();
  }

  // acc = the fold of the row's elements of r's operand, over the block;
  // bound as r's value at this row.
  Status Reduce(const ir::Operation& r) {
    HLOGRAPH_ASSIGN(const std::string init, e_.Emit(r.operand(1), Index{}));
    const std::string acc = e_.Fresh("acc");
    e_.Line("float " + acc + " = " + init + ";");
    if (vectorized_) {
      e_.Open("if (by_vectors)");
      HLOGRAPH_TRY(FoldByVectors(r, acc));
      e_.Close();
      e_.Open("else");
    }
    HLOGRAPH_TRY(FoldByElements(r, acc));
    if (vectorized_) e_.Close();
    HLOGRAPH_ASSIGN(const std::string total, e_.FoldOverBlock(r.region(0).front(), acc, "row_slots", l_.threads / 32));
    e_.Bind(r.result(0), at_, total);
    return Status::Ok();
  }

  // U elements a thread loaded before any is folded, in chunks of U * T.
  Status FoldByElements(const ir::Operation& r, const std::string& acc) {
    const std::string T = std::to_string(l_.threads), U = std::to_string(l_.loads_in_flight);
    e_.Open("for (long long base = threadIdx.x; base < COLS; base += " + U + "LL * " + T + "LL)");
    const std::string held = e_.Fresh("held");
    e_.Line("float " + held + "[" + U + "];");
    e_.Line("#pragma unroll");
    e_.Open("for (int u = 0; u < " + U + "; ++u)");
    e_.Line("const long long i = base + (long long)u * " + T + "LL;");
    e_.Open("if (i < COLS)");
    HLOGRAPH_ASSIGN(const std::string v, e_.Emit(r.operand(0), ElementIndex("i")));
    e_.Line(held + "[u] = " + v + ";");
    e_.Close();
    e_.Close();
    e_.Line("#pragma unroll");
    e_.Open("for (int u = 0; u < " + U + "; ++u)");
    e_.Open("if (base + (long long)u * " + T + "LL < COLS)");
    HLOGRAPH_TRY(Fold(r, acc, held + "[u]"));
    e_.Close();
    e_.Close();
    e_.Close();
    return Status::Ok();
  }

  // loaded<k>[V]: the vector inputs' 4-element vectors c + w * T, w < V.
  Status DeclareVectors(int vectors) {
    for (size_t k : vector_inputs_) {
      HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.input_types[k].element()));
      e_.Line("hlo_vec4<" + st + "> loaded" + std::to_string(k) + "[" + std::to_string(vectors) + "];");
    }
    return Status::Ok();
  }

  // Loads the vectors DeclareVectors declared.
  Status LoadVectors(int vectors) {
    const std::string T = std::to_string(l_.threads), V = std::to_string(vectors);
    e_.Line("#pragma unroll");
    e_.Open("for (int w = 0; w < " + V + "; ++w)");
    e_.Line("const long long c4 = c + (long long)w * " + T + "LL;");
    e_.Open("if (c4 < COLS / 4)");
    for (size_t k : vector_inputs_) {
      const std::string K = std::to_string(k);
      HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.input_types[k].element()));
      e_.Line("loaded" + K + "[w] = " +
              (staged_ ? "cache" + K + "[c4];" : "((const hlo_vec4<" + st + ">*)p" + K + ")[row * (COLS / 4) + c4];"));
    }
    e_.Close();
    e_.Close();
    return Status::Ok();
  }

  // Opens the scope of vector w of the chunk (q<k> its inputs' vectors).
  void OpenVector() {
    e_.Line("const long long c4 = c + (long long)w * " + std::to_string(l_.threads) + "LL;");
    e_.Open("if (c4 < COLS / 4)");
    for (size_t k : vector_inputs_) {
      const std::string K = std::to_string(k);
      e_.Line("const auto& q" + K + " = loaded" + K + "[w];");
    }
  }

  // Opens the loop over its four elements: lane u is element i, and the
  // inputs read there come from lane u of their vectors. Returns i's index.
  Index OpenLanes() {
    e_.Line("#pragma unroll");
    e_.Open("for (int u = 0; u < 4; ++u)");
    e_.Line("const long long i = c4 * 4 + u;");
    const Index idx = ElementIndex("i");
    e_.ReadOwnElementFromRegisters(idx, shape_, "u");
    return idx;
  }

  void CloseLanes() {
    e_.ReadOwnElementFromRegisters({}, {}, "");
    e_.Close();
  }

  // Opens the loop over the row's chunks of VectorsInFlight() vectors a
  // thread, loads them, and opens vector w's scope (OpenVector): three
  // scopes for the caller to close.
  Status OpenChunkVectors() {
    const int vectors = resident_ ? l_.resident_vectors : VectorsInFlight();
    if (resident_) {
      e_.Open("");  // one chunk: the vectors loaded at the row's start
    } else {
      e_.Open("for (long long c = threadIdx.x; c < COLS / 4; c += " + std::to_string(vectors) + "LL * " +
              std::to_string(l_.threads) + "LL)");
      HLOGRAPH_TRY(DeclareVectors(vectors));
      HLOGRAPH_TRY(LoadVectors(vectors));
    }
    e_.Line("#pragma unroll");
    e_.Open("for (int w = 0; w < " + std::to_string(vectors) + "; ++w)");
    OpenVector();
    return Status::Ok();
  }

  Status FoldByVectors(const ir::Operation& r, const std::string& acc) {
    HLOGRAPH_TRY(OpenChunkVectors());
    const Index idx = OpenLanes();
    auto v = e_.Emit(r.operand(0), idx);
    if (v.ok()) {
      const Status folded = Fold(r, acc, *v);
      if (!folded.ok()) v = folded;
    }
    CloseLanes();
    if (!v.ok()) return v.status();
    e_.Close();
    e_.Close();
    e_.Close();
    return Status::Ok();
  }

  Status StoreByVectors() {
    HLOGRAPH_TRY(OpenChunkVectors());
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.output_types[i].element()));
      e_.Line("hlo_vec4<" + st + "> stored" + std::to_string(i) + ";");
    }
    const Index idx = OpenLanes();
    Status status = Status::Ok();
    for (size_t i = 0; i < f_.outputs.size() && status.ok(); ++i) {
      auto v = e_.Emit(f_.outputs[i], idx);
      if (!v.ok()) {
        status = v.status();
        break;
      }
      e_.Line("stored" + std::to_string(i) + ".v[u] = " + StoreExactExpr(f_.output_types[i].element(), *v) + ";");
    }
    CloseLanes();
    HLOGRAPH_TRY(status);
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(const std::string st, StorageType(f_.output_types[i].element()));
      const std::string I = std::to_string(i);
      e_.Line("((hlo_vec4<" + st + ">*)o" + I + ")[row * (COLS / 4) + c4] = stored" + I + ";");
    }
    e_.Close();
    e_.Close();
    e_.Close();
    return Status::Ok();
  }

  Status StoreByElements() {
    e_.Line("#pragma unroll " + std::to_string(l_.loads_in_flight));
    e_.Open("for (long long i = threadIdx.x; i < COLS; i += " + std::to_string(l_.threads) + "LL)");
    const Index idx = ElementIndex("i");
    for (size_t i = 0; i < f_.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(const std::string v, e_.Emit(f_.outputs[i], idx));
      e_.Line("o" + std::to_string(i) + "[row * COLS + i] = " + StoreExactExpr(f_.output_types[i].element(), v) + ";");
    }
    e_.Close();
    return Status::Ok();
  }

  // Vectors of 4 a thread has in flight: about loads_in_flight elements'
  // worth, at most what its share of the row holds.
  int VectorsInFlight() const {
    const int64_t per_thread = (l_.cols / 4 + l_.threads - 1) / l_.threads;
    return static_cast<int>(std::clamp<int64_t>(per_thread, 1, std::max(1, l_.loads_in_flight / 2)));
  }

  const Fusion& f_;
  const RowKernelLayout l_;
  const std::vector<const ir::Operation*> reduces_;
  std::ostringstream body_;  // declared before e_, which writes into it
  BodyEmitter e_;
  std::vector<int64_t> shape_, row_shape_, col_shape_;
  Index at_;
  std::vector<size_t> vector_inputs_;
  bool vectorized_ = false;
  bool resident_ = false;  // vectors held in registers for the whole row (RowKernelLayout::resident_vectors)
  // The row's vectors in shared memory (RowKernelLayout::stage_in_shared):
  // each vector input's at its offset, at most kMaxStagedBytes in all.
  static constexpr int64_t kMaxStagedBytes = 96 << 10;
  bool staged_ = false;
  int64_t staged_bytes_ = 0;
  std::vector<int64_t> cache_offsets_;
};

}  // namespace

StatusOr<KernelSource> EmitRows(const Fusion& f, const EmitOptions& options) {
  (void)options;
  std::vector<const ir::Operation*> reduces;
  for (const ir::Operation* op : f.ops) {
    if (op->id() == ir::OpId::kReduce) reduces.push_back(op);
  }
  if (reduces.empty() || f.outputs.empty()) return Status::Error(f.name + ": a row kernel without a row reduction");
  const std::optional<RowShape> shape = RowReductionShape(*reduces[0]);
  if (!shape) return Status::Error(f.name + ": its first reduce does not fold the trailing dims of one float operand");
  const std::vector<int64_t>& out_shape = f.output_types[0].shape();
  for (const ir::Operation* r : reduces) {
    const std::optional<RowShape> s = RowReductionShape(*r);
    if (!s || s->rows != shape->rows || s->cols != shape->cols || r->operand(0)->type().shape() != out_shape) {
      return Status::Error(f.name + ": its reduces must fold the rows of its output's shape");
    }
  }
  for (const ir::Type& t : f.output_types) {
    if (t.shape() != out_shape) return Status::Error(f.name + ": a row kernel's outputs share one shape");
  }
  RowEmitter emitter(f, PlanRowKernel(shape->rows, shape->cols), std::move(reduces),
                     static_cast<size_t>(shape->row_rank));
  return emitter.Emit();
}

}  // namespace hlograph::gpu::emit

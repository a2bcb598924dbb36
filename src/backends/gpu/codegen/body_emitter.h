// What the kernel emitters share (codegen/*_kernel.cpp): attribute
// readers, the expression emitter that writes a kernel body (BodyEmitter)
// and the kernel signature. Internal to the code generator.
#pragma once

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/gpu/codegen/elemental.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/scatter_plan.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu::emit {

constexpr int kThreads = 256;  // block size of loop and reduction kernels

inline std::vector<int64_t> I64s(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::DenseArrayAttr>();
  return a ? a->values : std::vector<int64_t>{};
}

inline int64_t IntAttrOf(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : 0;
}

inline std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

using Index = std::vector<std::string>;

// Elements a kernel may load and store four at a time, as one hlo_vec4
// (kVec4 defines it in the kernels that use it).
inline bool IsVectorizable(ir::ElementType t) {
  const int bytes = ir::StorageBytes(t);
  return !ir::IsComplex(t) && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
}
inline constexpr const char* kVec4 = "template <typename T> struct alignas(4 * sizeof(T)) hlo_vec4 { T v[4]; };\n";

// Writes the statements of one kernel body: values are computed into
// local variables, each once per (value, index) within a scope.
class BodyEmitter {
 public:
  BodyEmitter(const Fusion& fusion, std::ostringstream& out, int indent = 2);

  void Line(const std::string& s) { out_ << std::string(static_cast<size_t>(indent_), ' ') << s << "\n"; }
  void Open(const std::string& head);
  void Close(const std::string& tail = "");
  std::string Fresh(const std::string& prefix) { return prefix + std::to_string(counter_++); }

  // An index expression as a variable, unless it is one already.
  std::string IndexVar(const std::string& expr);

  // Linear offset of `idx` in a row-major array of `shape`.
  std::string Linear(const Index& idx, const std::vector<int64_t>& shape);

  // Splits a linear offset into the index of `shape`.
  Index Delinearize(const std::string& linear, const std::vector<int64_t>& shape);

  // The index into `from` of element `idx` of its reshape to `to`. The dims
  // split into the shortest runs whose sizes multiply to the same on both
  // sides, and only runs of several dims go through a linear offset: a
  // reshape that adds or drops dims of size 1, or splits one dim, costs no
  // division on the dims it leaves alone.
  Index Reshaped(const Index& idx, const std::vector<int64_t>& to, const std::vector<int64_t>& from);

  StatusOr<std::string> CType(const ir::Value* v) { return ComputeType(v->type().element()); }

  // The index into a single-operand reduce's operand of the `reduced`-th
  // element (row-major over the reduced dims) folded into result `idx`.
  Index ReducedOperandIndex(const ir::Operation& reduce, const Index& idx, const std::string& reduced);

  // The operand elements a single-operand reduce folds into each result.
  static int64_t ReducedCount(const ir::Operation& reduce);

  // The compute-type variable holding `v` at `idx`.
  StatusOr<std::string> Emit(const ir::Value* v, const Index& idx);

  // Emits now the parts of `v` at `idx` that `ready` says can be computed
  // now (a kernel's loads before it waits for its producers, or before its
  // prologue's reductions): `v` itself if it is, else, through elementwise
  // ops, their operands', and, `v` a dynamic_update_slice, its array's
  // element where that is an input's elements moved (a cache this step's
  // row is written into). A later Emit of `v` at the same index finds them
  // (the same scope or one inside it).
  Status EmitReadyParts(const ir::Value* v, const Index& idx, const std::function<bool(const ir::Value*)>& ready);

  // Whether computing `v` reads any of `values`.
  bool ReadsAnyOf(const ir::Value* v, const std::set<const ir::Value*>& values) const;

  // Whether computing `v` reads no input but those `inputs` lists.
  bool ReadsOnly(const ir::Value* v, const std::vector<int>& inputs) const;

  // Makes `var` the value of `v` at `idx` in the current scope (a product
  // computed by the kernel itself, read by the ops of its epilogue).
  void Bind(const ir::Value* v, const Index& idx, const std::string& var) { scopes_.back()[Key(v, idx)] = var; }
  // Binds a float the kernel summed (a product's f32 accumulator) to `v`:
  // an f16/bf16 result is rounded once from it first, as XLA does, so that
  // the epilogue's ops see a value of the format (elemental.cpp's packed
  // bf16 ops read only its high half).
  void BindSum(const ir::Value* v, const Index& idx, const std::string& sum);

  // Loads the kernel's single-element inputs (a loop counter, a
  // position) in the current scope, so that the scopes inside (a
  // dynamic_update_slice's branches) read them from there: a load under
  // each branch would put a memory latency before each of theirs.
  // With `only`, just those inputs (by position).
  Status LoadScalarInputs(const std::vector<int>* only = nullptr);

  // Makes `var` the value of `v` at every index in the current scope (a
  // reduction a block computed for the one element of it the block reads).
  void BindEverywhere(const ir::Value* v, const std::string& var) { fixed_.back()[v] = var; }

  // Folds `value` (a float each thread holds) over the block with the
  // reduction body `body`: strided per thread already, then the warps by
  // shuffles, then every thread folds the warps' results (in `scratch`, a
  // __shared__ float array of a slot per warp) in order, so that all hold
  // the same bits. Returns the variable holding the result.
  StatusOr<std::string> FoldOverBlock(const ir::Block& body, const std::string& value, const std::string& scratch,
                                      int warps);

  // Folds `value` over the lanes of each warp with the reduction body
  // `body` by butterfly shuffles: every lane ends with the same bits where
  // the body is commutative (a maximum, an add). Returns the variable.
  StatusOr<std::string> FoldOverWarp(const ir::Block& body, const std::string& value);

  // `value` folded with the lane `offset` away by `shuffle` (down: lane 0
  // ends with the warp's fold; xor: every lane does), offsets 16 to 1.
  StatusOr<std::string> ShuffleFold(const ir::Block& body, const std::string& value, const std::string& shuffle);

  // Emits `v` at `idx` into the already declared variable `var`.
  Status EmitInto(const std::string& var, const ir::Value* v, const Index& idx);

  // The value of the reduction body (or any scalar region) applied to
  // `args`: returns the variables holding its results.
  StatusOr<std::vector<std::string>> EmitRegion(const ir::Block& block, const std::vector<std::string>& args);

  // Vectorised kernels: an input of `shape` read at `own` (the element the
  // thread computes) comes from lane `lane` of register vector q<input>,
  // loaded by the kernel beforehand. own_reads() says which inputs did.
  void ReadOwnElementFromRegisters(const Index& own, const std::vector<int64_t>& shape, const std::string& lane);
  const std::set<int>& own_reads() const { return own_reads_; }
  // And an input read at the own element's innermost index alone (a
  // vector broadcast along rows: a bias, a norm's scale) comes from lane
  // `lane` of register vector r<input>, loaded once for the lanes, when
  // the rows' length is a multiple of the lanes (they then share a row).
  void ReadRowVectorsFromRegisters() { row_vectors_ = true; }
  const std::set<int>& row_reads() const { return row_reads_; }

  static StatusOr<std::string> SplatLiteral(const ir::Operation& op);

  // Start indices of dynamic_slice / dynamic_update_slice, clamped so a
  // window of `sizes` fits in `shape`.
  StatusOr<Index> ClampedStarts(const ir::Operation& op, size_t first, const std::vector<int64_t>& shape,
                                const std::vector<int64_t>& sizes);

  // The address (a const char* expression) of the input element that `v`
  // at `idx` reads, where `v` only moves elements of one input: reshape,
  // transpose, slice, dynamic_slice, broadcast_in_dim and convert, and a
  // dynamic_update_slice's array (its update is elsewhere: the address
  // is the one the element had before). An error for anything else. Each
  // of these keeps an element's offset non-decreasing in every index, so
  // the all-zero and the last index bound the bytes `v` reads.
  StatusOr<std::string> AddressOf(const ir::Value* v, const Index& idx);

  // The index into `op`'s first operand of its element at `idx`, for an op
  // that moves elements (MovesElements) other than convert.
  StatusOr<Index> MovedFrom(const ir::Operation& op, const Index& idx);

 private:
  static std::string Key(const ir::Value* v, const Index& idx);

  StatusOr<std::string> Load(int input, const ir::Value* v, const Index& idx);

  // The expression (not yet a variable) for `v` at `idx`.
  StatusOr<std::string> Compute(const ir::Value* v, const Index& idx);

  // A single-operand reduce computed by one thread, in row-major order of
  // the reduced dims: what a kernel falls back to where a value its blocks
  // reduced together is read at an index they did not compute.
  StatusOr<std::string> SerialReduce(const ir::Operation& op, const Index& idx);

  // bitcast_convert between widths, little-endian as XLA: a narrower result
  // has one more dimension indexing the pieces of an operand element (the
  // least significant first); a wider one consumes the operand's last one.
  StatusOr<std::string> BitcastResize(const ir::Operation& op, const Index& idx);

  // A dot_general whose contraction holds one element (IsOuterProduct):
  // the product of the lhs and rhs elements the result's batch and free
  // dims pick, in the result's compute type, rounded to the result's
  // format once (as a sum of one product would be).
  StatusOr<std::string> OuterProduct(const ir::Operation& op, const Index& idx);

  // gather: the output index splits into batch dims (which pick a start
  // vector from the indices) and offset dims (the position in the slice);
  // starts are clamped so the slice fits, as for dynamic_slice.
  StatusOr<std::string> Gather(const ir::Operation& op, const Index& idx);

  // A scatter whose windows are picked by batching dims alone
  // (IsElementMapScatter): the element at `idx` is the operand's, combined
  // with the update of the one window at its batch coordinates when that
  // window fits and covers it. The update is read at an index clamped into
  // its window, so that the read is in bounds either way.
  StatusOr<std::string> ScatterElement(const ir::Operation& op, const Index& idx);

  // reduce_window: the body folded over the window, in row-major window
  // order; positions in the padding or between dilated elements contribute
  // the init value, as the spec's padded input does. With several inputs
  // (argmax) the accumulators of every result are computed together, and
  // the results not asked for are remembered for their own reads.
  StatusOr<std::string> ReduceWindow(const ir::Operation& op, const ir::Value* asked, const Index& idx);

  // select_and_scatter, gathered per output element: of the windows that
  // contain this element (visited in row-major order, as the interpreter
  // scatters them), each one whose selection picks it folds its source
  // value in. A window's selection scans it in row-major order, skipping
  // padding, and keeps the current pick while select(pick, next) holds.
  StatusOr<std::string> SelectAndScatter(const ir::Operation& op, const Index& idx);

  // concatenate, pad and dynamic_update_slice pick their value per element:
  // each case is emitted in its own scope.
  StatusOr<std::string> Conditional(const ir::Operation& op, const Index& idx);

  // Whether `v` is an input's elements moved (MovesElements: a
  // dynamic_slice's start indices are scalars): cheap to read where it is
  // not needed.
  bool OnlyMovesAnInput(const ir::Value* v) const;

  std::ostringstream& out_;
  Index own_;
  std::vector<int64_t> own_shape_;
  std::string lane_;
  std::set<int> own_reads_;
  bool row_vectors_ = false;
  std::set<int> row_reads_;
  std::unordered_map<const ir::Value*, int> inputs_;
  std::vector<std::map<std::string, std::string>> scopes_;
  std::vector<std::map<const ir::Value*, std::string>> fixed_;  // BindEverywhere's, a map per scope
  int indent_;
  int counter_ = 0;
};

// The kernel's declaration and opening: parameters (const inputs, outputs,
// then scratch), the brace, and the wait for the kernels it depends on
// (kernel prelude: programmatic dependent launch) unless it has
// Fusion::early_inputs. `max_threads` is the
// block size it is launched with (at most); `cluster_blocks` > 0 makes its
// blocks thread-block clusters of that many on sm_90+ (fixed at compile time,
// so every launch of it, graph nodes included, forms them);
// `min_blocks_per_sm` > 0 caps its registers so that many blocks fit an SM.
inline StatusOr<std::string> KernelOpening(const Fusion& f, int max_threads = kThreads, int64_t cluster_blocks = 0,
                                           int min_blocks_per_sm = 0) {
  std::string s = "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(max_threads) +
                  (min_blocks_per_sm > 0 ? ", " + std::to_string(min_blocks_per_sm) : "") + ")";
  if (cluster_blocks > 0) {
    s += "\n#if __CUDA_ARCH__ >= 900\n__cluster_dims__(" + std::to_string(cluster_blocks) + ", 1, 1)\n#endif\n";
  }
  s += " " + f.name + "(";
  for (size_t i = 0; i < f.input_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.input_types[i].element()));
    s += (i ? ", const " : "const ") + t + "* __restrict__ p" + std::to_string(i);
  }
  for (size_t i = 0; i < f.output_types.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string t, StorageType(f.output_types[i].element()));
    s += (f.input_types.empty() && i == 0 ? "" : ", ") + t + "* __restrict__ o" + std::to_string(i);
  }
  for (size_t i = 0; i < f.scratch_bytes.size(); ++i) s += ", void* __restrict__ s" + std::to_string(i);
  s += ") {\n";
  if (f.dependents_at_start) s += "  hlo_start_dependents();\n";
  // A kernel reading inputs before it waits places the wait itself.
  return s + (f.early_inputs.empty() ? "  hlo_wait_for_producers();\n" : "");
}

// Has the first `sm_count` blocks ask for the bytes `v` reads in L2
// (hlo_prefetch_l2) where `v` only moves an input's elements
// (BodyEmitter::AddressOf); emits nothing otherwise.
inline void PrefetchIntoL2(BodyEmitter& e, const Fusion& f, const ir::Value* v, int sm_count) {
  if (AddressingInputs({v}, f.inputs).empty()) return;  // AddressOf would fail
  Index first(static_cast<size_t>(v->type().rank()), "0"), last;
  for (int64_t d : v->type().shape()) last.push_back(std::to_string(d - 1));
  e.Open("if (blockIdx.x < " + std::to_string(sm_count) + ")");
  const std::string lo = *e.AddressOf(v, first), hi = *e.AddressOf(v, last);
  // A range of more than twice v's bytes at the widest element is mostly
  // bytes it skips.
  e.Line("hlo_prefetch_l2(" + lo + ", " + hi + ", " + std::to_string(v->type().NumElements() * 16) + "ULL, " +
         std::to_string(sm_count) + "u);");
  e.Close();
}

inline LaunchDims GridStride(int64_t n, const EmitOptions& options) {
  LaunchDims d;
  d.block = {kThreads, 1, 1};
  const int64_t blocks = std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t{options.sm_count} * 16);
  d.grid = {static_cast<uint32_t>(std::max<int64_t>(blocks, 0)), 1, 1};
  return d;
}

inline const char* const kGridStrideLoop =
    "for (long long lin = (long long)blockIdx.x * blockDim.x + threadIdx.x; lin < N; "
    "lin += (long long)gridDim.x * blockDim.x)";

// One function per kernel kind.
StatusOr<KernelSource> EmitLoop(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitTranspose(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitReduction(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitScatter(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitConvolution(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitDirectDot(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitTopK(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitFft(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitRngBitGenerator(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitUpdateSliceInPlace(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitDot(const Fusion& f, const EmitOptions& options);
// EmitDot's products on the tensor cores (DotTiling::Lanes::kTensorTiles).
StatusOr<KernelSource> EmitTileProduct(const Fusion& f, const ir::Operation& dot, const EmitOptions& options);
StatusOr<KernelSource> EmitAttention(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitFlashAttention(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitScan(const Fusion& f, const EmitOptions& options);
StatusOr<KernelSource> EmitRows(const Fusion& f, const EmitOptions& options);

}  // namespace hlograph::gpu::emit

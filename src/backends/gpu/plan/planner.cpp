// The planner lowers each block to steps in program order: kernels for
// the fusions plan/fusion_decisions.h decided for the block (what is
// materialised, which kernel computes what), library calls, loops,
// conditionals, copies; then buffers, donations and the graph's shape.
#include "backends/gpu/plan/planner.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "backends/gpu/plan/attention.h"
#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/convolution_epilogue.h"
#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/donation.h"
#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/epilogue_patterns.h"
#include "backends/gpu/plan/fft_config.h"
#include "backends/gpu/plan/flash_attention.h"
#include "backends/gpu/plan/fusion_decisions.h"
#include "backends/gpu/plan/gemm_epilogue.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/op_classes.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/prefetch_ahead.h"
#include "backends/gpu/plan/prefix_scan.h"
#include "backends/gpu/plan/row_fusion.h"
#include "backends/gpu/plan/sibling_reductions.h"
#include "backends/gpu/plan/side_by_side.h"
#include "backends/gpu/plan/sort_lowering.h"
#include "backends/gpu/plan/trip_count.h"
#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/verify/verify_util.h"
#include "passes/device_ids.h"
#include "passes/inline_calls.h"
#include "passes/lower_quantized.h"
#include "passes/raise_scan_composites.h"
#include "passes/reuse_finer_reductions.h"
#include "passes/sink_constants.h"
#include "passes/split_inverse_real_ffts.h"
#include "passes/sums_of_outer_products.h"

namespace hlograph::gpu {
namespace {

// Nested calls and regions deeper than this are refused rather than risk
// the stack.
constexpr int kMaxDepth = 64;

std::string OpError(const ir::Operation& op, const std::string& message) {
  std::string s = op.pos().ToString() + ": error: '" + op.name() + "' op " + message;
  if (op.loc()) {
    const std::string where = op.loc()->Describe();
    if (!where.empty()) s += "\n  note: the op comes from " + where;
  }
  return s;
}

class Planner {
 public:
  Planner(const ir::Module& module, const DevicePlace& place) : module_(module), place_(place) {}

  StatusOr<GpuProgram> Run() {
    program_.options = PlanOptions::FromEnvironment();
    const ScopedPlanOptions options(program_.options);
    HLOGRAPH_TRY(place_.Verify());
    program_.place = place_;
    std::shared_ptr<ir::Module> inlined = ir::CloneModule(module_);
    // This device's ids are known: constants computed inside the kernels
    // that read them.
    passes::ReplaceDeviceIds(*inlined, place_.replica, place_.partition);
    // Quantized tensors become their storage integers, the ops on them the
    // integer and float ops computing what the interpreter computes (an op
    // that cannot be reproduced exactly is refused by name).
    HLOGRAPH_TRY(passes::LowerQuantized(*inlined));
    // Scans JAX exported as composites, before inlining makes them loops.
    passes::RaiseScanComposites(*inlined, [](const ir::Operation& scan) { return MatchPrefixScan(scan).has_value(); });
    HLOGRAPH_TRY(passes::InlineCalls(*inlined));
    passes::SinkConstantsIntoBodies(*inlined);
    // Sums are reordered here anyway (split over blocks): a sum of outer
    // products is a product, a reduction of a finer one's result reads less.
    if (program_.options.outer_product_sums) passes::SumOuterProductsAsProducts(*inlined);
    passes::ReuseFinerReductions(*inlined);
    // A multi-dim C2R transform cuFFT refused (it fails to execute some
    // that it plans, where its C2C and 1-D C2R run) as those two parts
    // rather than the direct DFT.
    passes::SplitInverseRealFfts(*inlined, [](const ir::Operation& fft) {
      const StatusOr<FftConfig> config = FftConfigOf(fft);
      return config.ok() && LibraryRefusal(config->ToString()).has_value();
    });
    program_.module = inlined;
    const ir::Operation* entry = inlined->EntryFunction();
    if (!entry) return Status::Error("the module has no entry function (@main, or a single function)");
    if (entry->num_regions() != 1 || entry->region(0).empty()) {
      return Status::Error(OpError(*entry, "has no body"));
    }
    const ir::Block& body = entry->region(0).front();
    const ir::FunctionType sig = ir::FunctionSignature(*entry);
    for (size_t i = 0; i < body.num_arguments(); ++i) {
      const ir::Value* arg = body.argument(i);
      if (!arg->type().IsTensor() || !IsSupportedElementType(arg->type().element())) {
        return Status::Error(OpError(*entry, "argument " + std::to_string(i) + " has type " +
                                                 arg->type().ToString() + ", which the GPU backend does not handle"));
      }
      Buffer b;
      b.kind = BufferKind::kParameter;
      b.index = static_cast<int>(i);
      b.bytes = arg->type().StorageBytes();
      b.label = "arg " + std::to_string(i);
      const BufferId id = program_.AddBuffer(std::move(b));
      buffers_[arg] = id;
      program_.parameters.push_back(id);
      program_.parameter_types.push_back(arg->type());
    }
    top_level_ = true;
    std::vector<BufferId> returned;
    HLOGRAPH_TRY(PlanBlock(body, program_.main, &returned, 0));
    HLOGRAPH_TRY(BindResults(body, returned));
    KeepQuantizedSignature();
    PlaceSideBySide(program_);
    PrefetchAhead(program_);
    HLOGRAPH_TRY(PlanBuffers(program_));
    PlanDonations(*entry, program_);
    HLOGRAPH_TRY(program_.Verify());
    return std::move(program_);
  }

 private:
  // Plans the ops of `block` (its arguments already have buffers) into
  // `seq`; `returned` receives the buffers of its terminator's operands.
  Status PlanBlock(const ir::Block& block, Sequence& seq, std::vector<BufferId>* returned, int depth) {
    if (depth > kMaxDepth) return Status::Error("regions or calls nested deeper than " + std::to_string(kMaxDepth));
    const bool was_top = top_level_;
    top_level_ = depth == 0;
    HLOGRAPH_TRY(DecideFusion(
        block, [&](const ir::Value* v) { return buffers_.count(v) > 0; }, update_in_place_, fused_));
    for (const auto& op_ptr : block.operations()) {
      const ir::Operation& op = *op_ptr;
      // Computed by another kernel: a GEMM's epilogue, an attention kernel.
      if (absorbed_.count(&op) || fused_.in_attention.count(&op) || fused_.in_sort.count(&op)) continue;
      const OpClass cls = ClassifyOp(op);
      switch (cls) {
        case OpClass::kFusible:
          if (op.id() == ir::OpId::kConstant && !IsSplatConstant(op)) {
            // A dense constant lives in its own buffer, read where needed.
            Buffer b;
            b.kind = BufferKind::kConstant;
            b.constant = &op;
            b.bytes = op.result(0)->type().StorageBytes();
            b.label = "constant " + op.result(0)->type().ToString();
            buffers_[op.result(0)] = program_.AddBuffer(std::move(b));
          } else if (fused_.exit_dot.count(&op)) {
            HLOGRAPH_TRY(EmitFusion(op, FusionKind::kDot, seq));
          } else if (fused_.flash_exit.count(&op)) {
            HLOGRAPH_TRY(EmitFusion(op, FusionKind::kFlashAttention, seq));
          } else if (const auto in_place = update_in_place_.find(&op); in_place != update_in_place_.end()) {
            HLOGRAPH_TRY(EmitFusion(op, FusionKind::kUpdateSliceInPlace, seq, {in_place->second}));
          } else if (fused_.materialized.count(op.result(0)) && !buffers_.count(op.result(0))) {
            // (Not again when a step computed it early: a GEMM's scale.)
            HLOGRAPH_TRY(EmitFusion(op, fused_.row_roots.count(&op) ? FusionKind::kRows : FusionKind::kLoop, seq));
          }
          break;
        case OpClass::kReduce:
          if (!fused_.prologue_reduces.count(&op) && !sibling_reduces_.count(&op) && !fused_.row_reduces.count(&op)) {
            HLOGRAPH_TRY(EmitFusion(op, FusionKind::kReduction, seq));
          }
          break;
        case OpClass::kScan:
          HLOGRAPH_TRY(EmitFusion(op, FusionKind::kScan, seq));
          break;
        case OpClass::kSort:
          HLOGRAPH_TRY(EmitSort(op, seq));
          break;
        case OpClass::kScatter:
          HLOGRAPH_TRY(EmitScatter(op, seq));
          break;
        case OpClass::kRng:
          HLOGRAPH_TRY(EmitFusion(op, FusionKind::kRng, seq));
          break;
        case OpClass::kHost:
          HLOGRAPH_TRY(EmitHost(op, seq));
          break;
        case OpClass::kCollective:
          HLOGRAPH_TRY(EmitCollective(op, seq));
          break;
        case OpClass::kConvolution:
          HLOGRAPH_TRY(EmitFusion(op, FusionKind::kConvolution, seq));
          break;
        case OpClass::kDirectDot:
          HLOGRAPH_TRY(EmitFusion(op, FusionKind::kDirectDot, seq));
          break;
        case OpClass::kCudnnConvolution:
          HLOGRAPH_TRY(EmitCudnnConvolution(op, seq));
          break;
        case OpClass::kFft:
          HLOGRAPH_TRY(EmitFusion(op, FusionKind::kFft, seq));
          break;
        case OpClass::kCufft:
          HLOGRAPH_TRY(EmitCufft(op, seq));
          break;
        case OpClass::kDot:
        case OpClass::kGeneratedDot:
          if (fused_.flash.count(&op)) {
            // (With moves after it, where the last of them is.)
            if (!fused_.StoresThroughMoves(op)) HLOGRAPH_TRY(EmitFusion(op, FusionKind::kFlashAttention, seq));
          } else if (cls == OpClass::kDot) {
            HLOGRAPH_TRY(EmitDot(op, seq));
          } else if (!fused_.dot_exit.count(&op)) {
            // With an epilogue the kernel is emitted where its last op is.
            HLOGRAPH_TRY(EmitFusion(op, FusionKind::kDot, seq));
          }
          break;
        case OpClass::kWhile:
          HLOGRAPH_TRY(EmitWhile(op, seq, depth));
          break;
        case OpClass::kCase:
          HLOGRAPH_TRY(EmitCase(op, seq, depth));
          break;
        case OpClass::kAlias:
          for (size_t i = 0; i < op.num_results(); ++i) {
            HLOGRAPH_ASSIGN(buffers_[op.result(i)], BufferOf(op.operand(i), seq));
          }
          break;
        case OpClass::kReturn:
          for (const ir::Value* v : op.operands()) {
            HLOGRAPH_ASSIGN(BufferId id, BufferOf(v, seq));
            returned->push_back(id);
          }
          break;
        case OpClass::kUnsupported:
          return Status::Error(OpError(op, Unsupported(op)));
      }
    }
    top_level_ = was_top;
    return Status::Ok();
  }

  static std::string Unsupported(const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) {
      if (v->type().IsTensor() && !IsSupportedElementType(v->type().element())) {
        return "has an operand of type " + v->type().ToString() + ", which the GPU backend does not handle yet";
      }
    }
    for (const auto& r : op.results()) {
      if (!r->type().IsTensor() || !IsSupportedElementType(r->type().element())) {
        return "has a result of type " + r->type().ToString() + ", which the GPU backend does not handle yet";
      }
    }
    if (const auto* target = op.attr("call_target_name").as<ir::StringAttr>()) {
      return "calls @" + target->value + ", which is not supported by the GPU backend yet";
    }
    return "is not supported by the GPU backend yet";
  }


  // The buffer holding `v`, materialising it if it is computed inline so
  // far (a splat constant read by a GEMM, say).
  StatusOr<BufferId> BufferOf(const ir::Value* v, Sequence& seq) {
    auto it = buffers_.find(v);
    if (it != buffers_.end()) return it->second;
    const ir::Operation* op = v->defining_op();
    if (!op || ClassifyOp(*op) != OpClass::kFusible) {
      return Status::Error("internal error: a value without a buffer is read by a step");
    }
    fused_.materialized.insert(v);
    HLOGRAPH_TRY(EmitFusion(*op, FusionKind::kLoop, seq));
    return buffers_.at(v);
  }

  BufferId NewTemp(const ir::Type& type, std::string label) { return NewTemp(type.StorageBytes(), std::move(label)); }
  BufferId NewTemp(int64_t bytes, std::string label) {
    Buffer b;
    b.kind = BufferKind::kTemp;
    b.bytes = bytes;
    b.label = std::move(label);
    const BufferId id = program_.AddBuffer(std::move(b));
    if (top_level_) top_level_temps_.insert(id);
    return id;
  }

  static std::string Describe(const ir::Operation& op) {
    std::string s = op.name();
    if (op.pos().valid()) s += " at line " + std::to_string(op.pos().line);
    return s;
  }

  // A kernel computing `root` (and the inline values it reads).
  // `into`: the buffers the root's results are written to (an update in
  // place), instead of new ones.
  Status EmitFusion(const ir::Operation& root, FusionKind kind, Sequence& seq, const std::vector<BufferId>& into = {}) {
    Fusion f;
    f.kind = kind;
    f.name = "fusion_" + std::to_string(program_.fusions.size());
    // kDot: the product, computed inline when the root is its epilogue's end.
    const ir::Operation* dot = nullptr;
    if (kind == FusionKind::kDot) dot = fused_.exit_dot.count(&root) ? fused_.exit_dot.at(&root) : &root;
    if (kind == FusionKind::kFlashAttention) dot = fused_.flash_exit.count(&root) ? fused_.flash_exit.at(&root) : &root;
    const auto attention = dot != nullptr ? fused_.attention.find(dot) : fused_.attention.end();
    if (attention != fused_.attention.end()) f.kind = FusionKind::kAttention;
    // Depth first from the root, operands in order, so that the kernel's
    // inputs come in the order the ops read them.
    // An attention kernel also stores the keys or values that updates in
    // place write (fused_.attention_stores): those are roots too.
    std::vector<const ir::Operation*> stores;
    if (attention != fused_.attention.end() && fused_.attention_stores.count(dot)) stores = fused_.attention_stores.at(dot);
    std::set<const ir::Operation*> in_kernel = {&root};
    in_kernel.insert(stores.begin(), stores.end());
    // A reduction kernel computes its siblings too (plan/sibling_reductions.h).
    const std::vector<const ir::Operation*> siblings =
        kind == FusionKind::kReduction ? SiblingsOf(root) : std::vector<const ir::Operation*>{};
    in_kernel.insert(siblings.begin(), siblings.end());
    std::vector<const ir::Value*> inputs;
    std::set<const ir::Value*> input_set;
    std::vector<std::pair<const ir::Operation*, size_t>> stack;  // the root's operands first
    for (auto it = stores.rbegin(); it != stores.rend(); ++it) stack.emplace_back(*it, 0);
    for (auto it = siblings.rbegin(); it != siblings.rend(); ++it) stack.emplace_back(*it, 0);
    stack.emplace_back(&root, 0);
    while (!stack.empty()) {
      auto& [op, next] = stack.back();
      if (next == op->num_operands()) {
        stack.pop_back();
        continue;
      }
      const ir::Value* v = op->operand(next++);
      // An update in place does not read the arrays it updates (a
      // scatter's first half of operands).
      const bool in_place = (kind == FusionKind::kUpdateSliceInPlace && op == &root) ||
                            std::find(stores.begin(), stores.end(), op) != stores.end();
      if (in_place && next == 1) continue;
      if (kind == FusionKind::kScatter && op == &root && next <= op->num_operands() / 2) continue;
      const ir::Operation* def = v->defining_op();
      const bool inline_value = def && !buffers_.count(v) && !fused_.materialized.count(v) &&
                                (ClassifyOp(*def) == OpClass::kFusible || def == dot ||
                                 (dot != nullptr && fused_.prologue_reduces.count(def) && fused_.prologue_reduces.at(def) == dot) ||
                                 (fused_.row_reduces.count(def) && fused_.row_reduces.at(def) == &root) ||
                                 (dot != nullptr && fused_.in_attention.count(def) && fused_.in_attention.at(def) == dot)) &&
                                def->parent_block() == root.parent_block() &&
                                !(def->id() == ir::OpId::kConstant && !IsSplatConstant(*def));
      if (inline_value) {
        if (in_kernel.insert(def).second) stack.emplace_back(def, 0);
      } else if (input_set.insert(v).second) {
        inputs.push_back(v);
      }
    }
    // Program order within the block.
    for (const auto& op : root.parent_block()->operations()) {
      if (in_kernel.count(op.get())) f.ops.push_back(op.get());
    }
    Step step;
    step.op = &root;
    KernelStep k;
    k.fusion = static_cast<int>(program_.fusions.size());
    for (const ir::Value* v : inputs) {
      HLOGRAPH_ASSIGN(BufferId id, BufferOf(v, seq));
      k.inputs.push_back(id);
      f.inputs.push_back(v);
      f.input_types.push_back(v->type());
    }
    for (const auto& r : root.results()) {
      const size_t i = k.outputs.size();
      const BufferId id = i < into.size() ? into[i] : NewTemp(r->type(), Describe(root));
      buffers_[r.get()] = id;
      k.outputs.push_back(id);
      f.outputs.push_back(r.get());
      f.output_types.push_back(r->type());
    }
    for (const ir::Operation* sibling : siblings) {
      sibling_reduces_.insert(sibling);
      for (const auto& r : sibling->results()) {
        const BufferId id = NewTemp(r->type(), Describe(*sibling));
        buffers_[r.get()] = id;
        k.outputs.push_back(id);
        f.outputs.push_back(r.get());
        f.output_types.push_back(r->type());
      }
    }
    for (const ir::Operation* u : stores) {
      const BufferId id = update_in_place_.at(u);
      buffers_[u->result(0)] = id;
      k.outputs.push_back(id);
      f.outputs.push_back(u->result(0));
      f.output_types.push_back(u->result(0)->type());
    }
    if (attention != fused_.attention.end()) {
      const SoftmaxAttention& at = attention->second;
      f.key_chunk = AttentionChunk(at, kPlannedSmCount);
      // The keys and values are prefetched before the wait where their
      // addresses are known then.
      if (PrefetchIntoL2Wanted()) {
        f.early_inputs = AddressingInputs({at.scores->operand(1), at.values->operand(1)}, f.inputs);
        // With its early loads, the attention reads before the wait its
        // scalars held in arguments or constants too (the position of this
        // step's row, which its loads of that row wait for).
        if (!f.early_inputs.empty() && AttentionEarlyLoadsWanted()) AddHeldScalars(f, k);
      }
      const int64_t cache_bytes =
          at.scores->operand(1)->type().StorageBytes() + at.values->operand(1)->type().StorageBytes();
      f.dependents_at_start = !f.early_inputs.empty() && cache_bytes >= kDependentsAtStartBytes;
      int64_t batch = 1, width = 1;
      for (int64_t d : at.batch_shape) batch *= d;
      for (int64_t d : at.width_shape) width *= d;
      const int64_t chunks = (at.keys + f.key_chunk - 1) / f.key_chunk;
      AddPartialSums(f, k, batch * chunks * (2 + width) * 4, batch * 4, "partial softmax sums", *dot);
    } else if (kind == FusionKind::kFlashAttention) {
      const FlashAttention& a = fused_.flash.at(dot);
      f.key_chunk = FlashKeyChunk(a, kPlannedSmCount);
      if (f.key_chunk < a.softmax.keys) {
        AddPartialSums(f, k, FlashPartialBytes(a, f.key_chunk), FlashCounterBytes(a), "partial softmax sums", *dot);
      }
    } else if (dot != nullptr) {
      f.tiling = PlanDotTiling(*dot, kPlannedSmCount);
      if (f.tiling.lanes == DotTiling::Lanes::kOverN) f.early_inputs = EarlyInputs(f, k, *dot);
      f.dependents_at_start =
          !f.early_inputs.empty() && dot->operand(1)->type().StorageBytes() >= kDependentsAtStartBytes;
      if (f.tiling.splits > 1) {
        AddPartialSums(f, k, f.tiling.partial_bytes(), f.tiling.counter_bytes(), "partial sums", *dot);
      }
    } else if (kind == FusionKind::kReduction) {
      PlanReduction(f, k, root);
    } else if (kind == FusionKind::kScan) {
      PlanScan(f, k, root);
    }
    if (f.kind == FusionKind::kLoop) AsTransposeIfOnlyMoving(f);
    step.action = std::move(k);
    program_.fusions.push_back(std::move(f));
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // A loop kernel that only transposes its one input (transposes in a
  // row, composed; its result maybe reshaped: row-major, the same bytes)
  // becomes a transpose kernel, tiled in shared memory where the
  // contiguous dim moves (a loop kernel reads or writes one element per
  // sector on one side).
  static void AsTransposeIfOnlyMoving(Fusion& f) {
    if (f.inputs.size() != 1 || f.outputs.size() != 1 || f.ops.empty()) return;
    bool reshaped = false;
    for (size_t i = 0; i < f.ops.size(); ++i) {
      const ir::Operation& op = *f.ops[i];
      if (op.num_operands() != 1 || op.operand(0) != (i == 0 ? f.inputs[0] : f.ops[i - 1]->result(0))) return;
      const bool transpose = op.id() == ir::OpId::kTranspose;
      if ((!transpose && op.id() != ir::OpId::kReshape) || (transpose && reshaped) || (i == 0 && !transpose)) return;
      reshaped = !transpose;
    }
    if (f.ops.back()->result(0) != f.outputs[0]) return;
    f.kind = FusionKind::kTranspose;
    f.permutation = ComposedTransposes(f.ops);
  }

  // Adds to f's early inputs its single-element inputs held in arguments
  // or constants (the graph plan keeps a writer of them from running then).
  void AddHeldScalars(Fusion& f, const KernelStep& k) const {
    std::set<int> early(f.early_inputs.begin(), f.early_inputs.end());
    for (size_t i = 0; i < f.inputs.size(); ++i) {
      const BufferKind held = program_.buffers[static_cast<size_t>(k.inputs[i])].kind;
      if (f.input_types[i].NumElements() == 1 && (held == BufferKind::kParameter || held == BufferKind::kConstant)) {
        early.insert(static_cast<int>(i));
      }
    }
    f.early_inputs.assign(early.begin(), early.end());
  }

  // A scan kernel's layout (plan/scan_layout.h); one whose axis is split
  // gets slots for its chunks' totals, then tickets and flags.
  void PlanScan(Fusion& f, KernelStep& k, const ir::Operation& op) {
    const std::optional<PrefixScan> scan = MatchPrefixScan(op);
    if (!scan) return;  // the emitter says why
    const ir::Type& x = scan->input->type();
    f.scan = PlanScanLayout(x.shape(), scan->axis, scan->associative, ir::StorageBytes(x.element()), kPlannedSmCount);
    if (f.scan.chunks > 1) AddPartialSums(f, k, f.scan.partial_bytes(), f.scan.counter_bytes(), "chunk totals", op);
  }

  // The reduces after `reduce` its kernel computes too, reading their
  // common arrays once (HLOGRAPH_GPU_SIBLING_REDUCTIONS=0: none).
  std::vector<const ir::Operation*> SiblingsOf(const ir::Operation& reduce) const {
    if (!PlanOptions::Current().sibling_reductions) return {};
    const auto source = [&](const ir::Value* v) {
      if (buffers_.count(v)) return ValueSource::kMemory;
      const ir::Operation* def = v->defining_op();
      const bool inline_value = def && !fused_.materialized.count(v) && ClassifyOp(*def) == OpClass::kFusible &&
                                def->parent_block() == reduce.parent_block() &&
                                !(def->id() == ir::OpId::kConstant && !IsSplatConstant(*def));
      return inline_value ? ValueSource::kInline : ValueSource::kNotYet;
    };
    const auto candidate = [&](const ir::Operation& op) {
      return ClassifyOp(op) == OpClass::kReduce && !fused_.prologue_reduces.count(&op) && !fused_.in_attention.count(&op) &&
             !sibling_reduces_.count(&op) && !fused_.row_reduces.count(&op);
    };
    return SiblingReductions(reduce, source, candidate);
  }

  // A reduction kernel's layout (plan/reduction_layout.h), from the bytes
  // it reads; a split one gets its partials and arrival counters.
  void PlanReduction(Fusion& f, KernelStep& k, const ir::Operation& reduce) {
    int64_t bytes = 0;
    for (const ir::Type& t : f.input_types) bytes += t.StorageBytes();
    f.reduction = PlanReductionLayout(reduce, bytes, kPlannedSmCount);
    if (f.reduction.splits <= 1) return;
    std::vector<ir::ElementType> elements;
    for (const ir::Type& t : f.output_types) elements.push_back(t.element());
    AddPartialSums(f, k, ReductionPartialOffsets(f.reduction, elements).back(), f.reduction.counter_bytes(),
                   "partial results", reduce);
  }

  // The scratch of a kernel whose blocks leave partial sums for the last
  // to arrive: the sums, then arrival counters (zero between calls).
  void AddPartialSums(Fusion& f, KernelStep& k, int64_t partial_bytes, int64_t counter_bytes, const std::string& sums,
                      const ir::Operation& of) {
    f.scratch_bytes = {partial_bytes, counter_bytes};
    Buffer partials, counters;
    partials.bytes = partial_bytes;
    partials.label = sums + " of " + Describe(of);
    counters.bytes = counter_bytes;
    counters.label = "arrival counters of " + Describe(of);
    counters.zero_at_rest = true;
    k.scratch = {program_.AddBuffer(std::move(partials)), program_.AddBuffer(std::move(counters))};
  }

  // The inputs product kernel `f` (lanes over n) reads before it waits for
  // its producers (Fusion::early_inputs): the weights, and what the
  // epilogue reads from arguments and constants (a bias) or from what the
  // weights' indices read.
  std::vector<int> EarlyInputs(const Fusion& f, const KernelStep& k, const ir::Operation& dot) const {
    const std::vector<int> weights = InputsReadFor(dot.operand(1), f.inputs);
    std::set<int> early(weights.begin(), weights.end());
    for (const ir::Value* v : EpilogueOperands(f.ops, dot)) {
      const std::vector<int> reads = InputsReadFor(v, f.inputs);
      const bool before_waiting = std::all_of(reads.begin(), reads.end(), [&](int i) {
        const BufferKind held = program_.buffers[static_cast<size_t>(k.inputs[static_cast<size_t>(i)])].kind;
        return early.count(i) || held == BufferKind::kParameter || held == BufferKind::kConstant;
      });
      if (before_waiting) early.insert(reads.begin(), reads.end());
    }
    return {early.begin(), early.end()};
  }

  // A buffer holding `id`'s bytes permuted by `perm` (and the dims of the
  // result in `reversed` read backwards): a transpose kernel.
  BufferId EmitTranspose(BufferId id, const ir::Type& type, const std::vector<int64_t>& perm, Sequence& seq,
                         const ir::Operation& op, const std::vector<int64_t>& reversed = {}) {
    std::vector<int64_t> shape;
    for (int64_t p : perm) shape.push_back(type.dim(p));
    const ir::Type out_type = ir::Type::Tensor(type.element(), shape);
    Fusion f;
    f.kind = FusionKind::kTranspose;
    f.name = "fusion_" + std::to_string(program_.fusions.size());
    f.input_types = {type};
    f.output_types = {out_type};
    f.permutation = perm;
    f.reversed = reversed;
    const BufferId out = NewTemp(out_type, "transposed operand of " + Describe(op));
    Step step;
    step.op = &op;
    KernelStep k;
    k.fusion = static_cast<int>(program_.fusions.size());
    k.inputs = {id};
    k.outputs = {out};
    step.action = std::move(k);
    program_.fusions.push_back(std::move(f));
    seq.steps.push_back(std::move(step));
    return out;
  }

  // A sort or top_k: its kernel as for any op, split into the passes of
  // its plan (plan/sort_lowering.h); slices it is read through get the
  // results' buffers.
  Status EmitSort(const ir::Operation& op, Sequence& seq) {
    const auto read = fused_.sort_slices.find(&op);
    const SortSlices* slices = read == fused_.sort_slices.end() ? nullptr : &read->second;
    HLOGRAPH_TRY(EmitFusion(op, op.id() == ir::OpId::kChloTopK ? FusionKind::kTopK : FusionKind::kSort, seq));
    auto passes = LowerSort(program_, seq.steps.back(), slices, kPlannedSmCount);
    if (!passes.ok()) return Status::Error(OpError(op, passes.status().message()));
    if (slices != nullptr) {
      for (size_t i = 0; i < op.num_results(); ++i) {
        for (const ir::Operation* slice : slices->slices[i]) buffers_[slice->result(0)] = buffers_.at(op.result(i));
      }
    }
    for (Step& step : *passes) seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  Status EmitHost(const ir::Operation& op, Sequence& seq) {
    HostStep h;
    for (const ir::Value* v : op.operands()) {
      HLOGRAPH_ASSIGN(BufferId id, BufferOf(v, seq));
      h.inputs.push_back(id);
    }
    for (const auto& r : op.results()) {
      h.outputs.push_back(NewTemp(r->type(), Describe(op)));
      buffers_[r.get()] = h.outputs.back();
    }
    Step step;
    step.op = &op;
    step.action = std::move(h);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // A collective through NCCL: its operands in memory, a temp per result,
  // and a staging temp for each operand whose pieces NCCL cannot read or
  // write in place (plan/collective_plan.h).
  Status EmitCollective(const ir::Operation& op, Sequence& seq) {
    auto config = PlanCollective(op, *program_.module, place_);
    if (!config.ok()) return Status::Error(OpError(op, config.status().message()));
    CollectiveStep c;
    for (size_t i = 0; i < op.num_operands(); ++i) {
      const CollectiveOperand& o = config->operands[i];
      HLOGRAPH_ASSIGN(BufferId in, BufferOf(op.operand(i), seq));
      c.inputs.push_back(in);
      c.outputs.push_back(NewTemp(op.result(i)->type(), Describe(op)));
      buffers_[op.result(i)] = c.outputs.back();
      const auto staging = [&](const PieceLayout& layout, int64_t bytes, const char* what) {
        return layout.contiguous() ? BufferId{-1} : NewTemp(bytes, std::string(what) + " of " + Describe(op));
      };
      c.send_staging.push_back(staging(o.send, o.bytes, "pieces to send"));
      c.receive_staging.push_back(staging(o.receive, o.result_bytes, "pieces received"));
    }
    c.config = std::move(*config);
    Step step;
    step.op = &op;
    step.action = std::move(c);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  Status EmitDot(const ir::Operation& op, Sequence& seq) {
    auto lowered = LowerDot(op);
    if (!lowered.ok()) return Status::Error(OpError(op, lowered.status().message()));
    DotLowering& lowering = *lowered;
    HLOGRAPH_ASSIGN(BufferId lhs, BufferOf(op.operand(0), seq));
    HLOGRAPH_ASSIGN(BufferId rhs, BufferOf(op.operand(1), seq));
    if (!lowering.lhs_permutation.empty()) {
      lhs = EmitTranspose(lhs, op.operand(0)->type(), lowering.lhs_permutation, seq, op);
    }
    if (!lowering.rhs_permutation.empty()) {
      rhs = EmitTranspose(rhs, op.operand(1)->type(), lowering.rhs_permutation, seq, op);
    }
    GemmStep g;
    g.config = lowering.config;
    g.lhs = lhs;
    g.rhs = rhs;
    const ir::Operation* transpose = TransposeOfFreeDims(op);
    GemmConfig swapped = g.config;
    if (transpose != nullptr) {
      // Read only transposed: C^T = B^T A^T, the operands swapping roles
      // (still both along k for the 8-bit products, whose alignment rules
      // the swapped shape must meet too).
      std::swap(swapped.lhs_type, swapped.rhs_type);
      std::swap(swapped.m, swapped.n);
      std::swap(swapped.lhs_broadcast, swapped.rhs_broadcast);
      swapped.lhs_transposed = !g.config.rhs_transposed;
      swapped.rhs_transposed = !g.config.lhs_transposed;
      if (!IsSupportedByCublasLt(swapped)) transpose = nullptr;
    }
    if (transpose != nullptr) {
      // Written straight into the transpose's result (no transpose kernel).
      std::swap(g.lhs, g.rhs);
      g.config = swapped;
      g.out = NewTemp(transpose->result(0)->type(), Describe(*transpose));
      buffers_[transpose->result(0)] = g.out;
      absorbed_.insert(transpose);
      Step step;
      step.op = &op;
      step.action = std::move(g);
      seq.steps.push_back(std::move(step));
      return Status::Ok();
    }
    // Only a bias already in memory: computing it first would cost the
    // kernel the epilogue saves. A scale (a scalar) is computed first when
    // it can be, even if the program computes it later: its kernel is
    // tiny, the product's pass saved is not.
    const EpilogueMatch epilogue = MatchEpilogue(op, g.config);
    GemmConfig with_epilogue = g.config;
    with_epilogue.epilogue = epilogue.epilogue;
    if (epilogue.result != nullptr) with_epilogue.out_type = epilogue.result->type().element();
    const bool take = epilogue.epilogue != GemmEpilogue::kNone && IsSupportedByCublasLt(with_epilogue) &&
                      (buffers_.count(epilogue.bias) ||
                       (epilogue.epilogue == GemmEpilogue::kScale && ComputableBefore(epilogue.bias, op, 0, true)));
    g.out = NewTemp(take ? epilogue.result->type() : op.result(0)->type(), Describe(op));
    buffers_[op.result(0)] = g.out;
    if (take) {
      HLOGRAPH_ASSIGN(g.bias, BufferOf(epilogue.bias, seq));
      g.config = with_epilogue;
      for (const ir::Operation* absorbed : epilogue.absorbed) {
        absorbed_.insert(absorbed);
        buffers_[absorbed->result(0)] = g.out;
      }
    }
    Step step;
    step.op = &op;
    step.action = std::move(g);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // The transpose that alone reads product `dot` and swaps its one lhs free
  // dim with its one rhs free dim, batch dims staying first; else null.
  static const ir::Operation* TransposeOfFreeDims(const ir::Operation& dot) {
    const ir::Operation* user = SoleUser(dot.result(0));
    const auto* dims = dot.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
    if (user == nullptr || dims == nullptr || user->id() != ir::OpId::kTranspose) return nullptr;
    const int64_t batch = static_cast<int64_t>(dims->lhs_batching.size());
    if (dot.result(0)->type().rank() != batch + 2) return nullptr;
    std::vector<int64_t> swap_free;
    for (int64_t d = 0; d < batch; ++d) swap_free.push_back(d);
    swap_free.push_back(batch + 1);
    swap_free.push_back(batch);
    return ir::verify::I64ArrayAttr(*user, "permutation") == swap_free ? user : nullptr;
  }

  // A convolution through cuDNN, its operands and result transposed where
  // they are not laid out as cuDNN reads them (convolution_lowering.h).
  Status EmitCudnnConvolution(const ir::Operation& op, Sequence& seq) {
    auto lowered = LowerConvolution(op);
    if (!lowered.ok()) return Status::Error(OpError(op, lowered.status().message()));
    // The ops after it that cuDNN applies before storing (a channel vector
    // computed here if it is not yet: it is small).
    const ConvEpilogueMatch epilogue = MatchConvEpilogue(op, *lowered, [&](const ir::Value* v, bool vector) {
      return buffers_.count(v) > 0 || (vector && ComputableBefore(v, op, 0));
    });
    ConvolutionStep c;
    c.config = std::move(lowered->config);
    HLOGRAPH_ASSIGN(c.lhs, BufferOf(op.operand(0), seq));
    HLOGRAPH_ASSIGN(c.rhs, BufferOf(lowered->rhs, seq));
    // An operand packed once serves every convolution of the sequence that
    // reads it so (a filter read by the forward and backward-data ones).
    auto pack = [&](BufferId id, const ir::Type& type, const std::vector<int64_t>& perm,
                    const std::vector<int64_t>& reversed) {
      if (perm.empty()) return id;
      const PackedKey key{&seq, id, perm, reversed};
      if (const auto it = packed_operands_.find(key); it != packed_operands_.end()) return it->second;
      return packed_operands_[key] = EmitTranspose(id, type, perm, seq, op, reversed);
    };
    c.lhs = pack(c.lhs, op.operand(0)->type(), lowered->lhs_permutation, {});
    c.rhs = pack(c.rhs, lowered->rhs->type(), lowered->rhs_permutation, lowered->rhs_reversed);
    c.config.epilogue = epilogue.ops;
    for (const ir::Value* v : epilogue.operands) {
      HLOGRAPH_ASSIGN(BufferId id, BufferOf(v, seq));
      c.epilogue_operands.push_back(id);
    }
    const ir::Type& type = op.result(0)->type();
    const std::vector<int64_t>& to_packed = lowered->result_permutation;
    std::vector<int64_t> packed_shape, from_packed(to_packed.size());
    for (size_t i = 0; i < to_packed.size(); ++i) {
      packed_shape.push_back(type.dim(to_packed[i]));
      from_packed[static_cast<size_t>(to_packed[i])] = static_cast<int64_t>(i);
    }
    const ir::Type packed = to_packed.empty() ? type : ir::Type::Tensor(type.element(), packed_shape);
    const BufferId written = NewTemp(packed, Describe(epilogue.absorbed.empty() ? op : *epilogue.absorbed.back()));
    c.out = written;
    buffers_[op.result(0)] = written;
    for (const ir::Operation* absorbed : epilogue.absorbed) {
      absorbed_.insert(absorbed);
      buffers_[absorbed->result(0)] = written;
    }
    Step step;
    step.op = &op;
    step.action = std::move(c);
    seq.steps.push_back(std::move(step));
    if (!to_packed.empty()) buffers_[op.result(0)] = EmitTranspose(written, packed, from_packed, seq, op);
    return Status::Ok();
  }

  // An fft through cuFFT, reading its operand from a buffer.
  Status EmitCufft(const ir::Operation& op, Sequence& seq) {
    auto config = FftConfigOf(op);
    if (!config.ok()) return Status::Error(OpError(op, config.status().message()));
    FftStep f;
    f.config = std::move(*config);
    HLOGRAPH_ASSIGN(f.in, BufferOf(op.operand(0), seq));
    f.out = NewTemp(op.result(0)->type(), Describe(op));
    buffers_[op.result(0)] = f.out;
    Step step;
    step.op = &op;
    step.action = std::move(f);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // Whether `v` has a buffer or is computed, by ops before `op` in its
  // block, from values that have (so that computing it now does not run
  // anything early). `any_order`: also ops after `op` (pure ops of values
  // already computed: a buffer is only updated in place by its last
  // reader, so their inputs still hold the same values).
  bool ComputableBefore(const ir::Value* v, const ir::Operation& op, int depth, bool any_order = false) const {
    if (buffers_.count(v)) return true;
    const ir::Operation* def = v->defining_op();
    if (def == nullptr || depth > 16 || def->parent_block() != op.parent_block() ||
        ClassifyOp(*def) != OpClass::kFusible || absorbed_.count(def) ||
        (def->id() == ir::OpId::kConstant && !IsSplatConstant(*def))) {
      return false;
    }
    for (const auto& o : op.parent_block()->operations()) {
      if (any_order) break;
      if (o.get() == &op) return false;  // def comes after op
      if (o.get() == def) break;
    }
    for (const ir::Value* operand : def->operands()) {
      if (!ComputableBefore(operand, op, depth + 1, any_order)) return false;
    }
    return true;
  }

  static Status CheckLoopValueType(const ir::Operation& op, const ir::Value* v) {
    if (!v->type().IsTensor() || !IsSupportedElementType(v->type().element())) {
      return Status::Error(OpError(op, "carries a value of type " + v->type().ToString() +
                                           ", which the GPU backend does not handle yet"));
    }
    return Status::Ok();
  }

  // A scatter: its operands written into its results (computed there by
  // the loop kernel that would compute them only for it, else copied),
  // then a kernel updating the results in place (plan/scatter_plan.h).
  Status EmitScatter(const ir::Operation& op, Sequence& seq) {
    const size_t n = op.num_operands() / 2;
    std::vector<BufferId> results;
    for (size_t j = 0; j < n; ++j) {
      const ir::Value* v = op.operand(j);
      HLOGRAPH_ASSIGN(BufferId init, BufferOf(v, seq));
      const BufferId result = NewTemp(op.result(j)->type(), Describe(op));
      // Computing v into the result is safe only when nothing else reads v
      // (the scatter reads it once, as this operand).
      if (!ComputeInto(v, init, result, seq, op)) HLOGRAPH_TRY(EmitCopy(init, result, seq, &op));
      results.push_back(result);
    }
    HLOGRAPH_ASSIGN(const ScatterPlan plan, PlanScatter(op));
    if (plan.order != ScatterOrder::kLastWins) return EmitFusion(op, FusionKind::kScatter, seq, results);
    // Claim, update, release: three kernels sharing the slot table, which
    // is zero between calls (the last one zeroes what the first set).
    Buffer table;
    table.bytes = plan.slot_table_bytes();
    table.label = "slot table of " + Describe(op);
    table.zero_at_rest = true;
    const BufferId table_id = program_.AddBuffer(std::move(table));
    for (ScatterPass pass : {ScatterPass::kClaim, ScatterPass::kUpdate, ScatterPass::kRelease}) {
      HLOGRAPH_TRY(EmitFusion(op, FusionKind::kScatter, seq, results));
      Fusion& f = program_.fusions.back();
      f.scatter_pass = pass;
      f.scratch_bytes = {plan.slot_table_bytes()};
      std::get<KernelStep>(seq.steps.back().action).scratch = {table_id};
    }
    return Status::Ok();
  }

  Status EmitCopy(BufferId src, BufferId dst, Sequence& seq, const ir::Operation* op) {
    if (src == dst) return Status::Ok();
    Step step;
    step.op = op;
    step.action = CopyStep{src, dst, program_.buffers[static_cast<size_t>(dst)].bytes};
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // A loop's initial value that only the loop reads, computed by a loop
  // kernel just for it (the zeros a scan's stacked outputs start from, say),
  // is computed into the loop's state buffer instead of a temp then copied:
  // the temp's memory and the copy are saved. Whether it did that.
  bool ComputeInto(const ir::Value* v, BufferId init, BufferId state, Sequence& seq, const ir::Operation& loop) {
    if (SoleUser(v) != &loop || program_.buffers[static_cast<size_t>(init)].kind != BufferKind::kTemp) return false;
    for (auto it = seq.steps.rbegin(); it != seq.steps.rend(); ++it) {
      auto* k = std::get_if<KernelStep>(&it->action);
      if (k == nullptr || k->outputs.size() != 1 || k->outputs[0] != init) continue;
      if (program_.fusions[static_cast<size_t>(k->fusion)].kind != FusionKind::kLoop) return false;
      k->outputs[0] = state;
      buffers_[v] = state;
      return true;
    }
    return false;
  }

  // WhileStep::counter_values: a constant per iteration holding the
  // counter's value then, where the IR proves the counter.
  void AddCounterValues(const ir::Operation& op, WhileStep& w) {
    const std::optional<CountedLoop> loop = CountLoop(op);
    if (!loop || loop->trips < 1 || loop->trips > kMaxCounterConstants || loop->index >= w.state.size()) return;
    const ir::Type& type = op.operand(loop->index)->type();
    const int bytes = ir::BitWidth(type.element()) / 8;
    if (type.rank() != 0 || bytes < 1 || bytes > 8) return;
    // A body reading it only to count needs none (its kernels are dead once unrolled).
    const ir::Block& body = op.region(1).front();
    const ir::Operation* only = SoleUser(body.argument(loop->index));
    if (only != nullptr && only->id() == ir::OpId::kAdd) return;
    w.counter = loop->index;
    for (int64_t i = 0; i < loop->trips; ++i) {
      Buffer b;
      b.kind = BufferKind::kConstant;
      b.bytes = bytes;
      // Two's complement, little-endian, in the counter's width.
      const uint64_t v = static_cast<uint64_t>(loop->start + i * loop->step);
      for (int k = 0; k < bytes; ++k) b.value.push_back(static_cast<uint8_t>(v >> (8 * k)));
      b.label = "counter of " + Describe(op) + " in iteration " + std::to_string(i);
      w.counter_values.push_back(program_.AddBuffer(std::move(b)));
    }
  }

  Status EmitWhile(const ir::Operation& op, Sequence& seq, int depth) {
    if (op.num_regions() != 2 || op.region(0).empty() || op.region(1).empty()) {
      return Status::Error(OpError(op, "expects a cond and a body region"));
    }
    WhileStep w;
    w.known_trip_count = KnownTripCount(op);
    const ir::Block& cond = op.region(0).front();
    const ir::Block& body = op.region(1).front();
    const ir::Operation* next = body.terminator();
    if (!next || next->num_operands() != op.num_operands() || body.num_arguments() != op.num_operands()) {
      return Status::Error(OpError(op, "expects its body to return one value per loop operand"));
    }
    for (size_t i = 0; i < op.num_operands(); ++i) {
      HLOGRAPH_TRY(CheckLoopValueType(op, op.operand(i)));
      // An initial value the loop never reads (the zeros a scan's stacked
      // outputs start from) is neither copied in nor, when only the loop
      // wanted it, computed (DecideFusion counts no use of it).
      const bool overwritten = InitialValueOverwritten(op, i);
      BufferId init = -1;
      if (!overwritten) {
        HLOGRAPH_ASSIGN(init, BufferOf(op.operand(i), seq));
      }
      // A value the body passes through unchanged (the stacked weights of a
      // scan) is read where it is: nothing writes it during the loop.
      if (next->operand(i) == body.argument(i)) {
        w.state.push_back(init);
        continue;
      }
      const BufferId state = NewTemp(op.operand(i)->type(), "loop state " + std::to_string(i) + " of " + Describe(op));
      if (!overwritten && !ComputeInto(op.operand(i), init, state, seq, op)) {
        HLOGRAPH_TRY(EmitCopy(init, state, seq, &op));
      }
      w.state.push_back(state);
      // A state that only feeds one dynamic_update_slice, whose result is
      // its next value (the stacked outputs of a scan, a KV cache), is
      // updated in place: only the window is written, nothing is copied.
      const ir::Operation* user = SoleUser(body.argument(i));
      if (user && user->id() == ir::OpId::kDynamicUpdateSlice && user->operand(0) == body.argument(i) &&
          SoleUser(user->result(0)) == next &&
          std::count(next->operands().begin(), next->operands().end(), user->result(0)) == 1 &&
          next->operand(i) == user->result(0) && ClassifyOp(*user) == OpClass::kFusible) {
        update_in_place_[user] = state;
      }
    }
    if (cond.num_arguments() != w.state.size() || body.num_arguments() != w.state.size()) {
      return Status::Error(OpError(op, "has regions whose arguments do not match its operands"));
    }
    AddCounterValues(op, w);
    for (size_t i = 0; i < w.state.size(); ++i) {
      buffers_[cond.argument(i)] = w.state[i];
      buffers_[body.argument(i)] = w.state[i];
    }
    std::vector<BufferId> pred;
    HLOGRAPH_TRY(PlanBlock(cond, w.cond, &pred, depth + 1));
    if (pred.size() != 1) return Status::Error(OpError(op, "expects its cond region to return one predicate"));
    w.pred = pred[0];
    HLOGRAPH_TRY(PlanBlock(body, w.body, &w.next, depth + 1));
    if (w.next.size() != w.state.size()) {
      return Status::Error(OpError(op, "expects its body to return one value per loop operand"));
    }
    // (A loop of known trip count is unrolled where the node budget allows,
    // its next and state buffers swapping roles: no copy either, and the
    // iterations' kernels keep their independence.)
    if (w.known_trip_count < 0) {
      for (size_t i = 0; i < w.next.size(); ++i) WriteNextInPlace(w, i);
    }
    // The next values are copied into the state one by one; one that is
    // another state buffer (a swap) is first copied aside so no copy reads a
    // buffer an earlier copy wrote.
    for (size_t i = 0; i < w.next.size(); ++i) {
      const auto is_state = std::find(w.state.begin(), w.state.end(), w.next[i]);
      if (is_state != w.state.end() && *is_state != w.state[i]) {
        const BufferId aside = NewTemp(op.operand(i)->type(), "next loop state " + std::to_string(i));
        HLOGRAPH_TRY(EmitCopy(w.next[i], aside, w.body, &op));
        w.next[i] = aside;
      }
    }
    for (size_t i = 0; i < op.num_results(); ++i) buffers_[op.result(i)] = w.state[i];
    Step step;
    step.op = &op;
    step.action = std::move(w);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // A next loop value made by a kernel of the body that reads the state,
  // if at all, only at the element it writes (a loop kernel:
  // plan/donation.h, ReadsInPlace), when no later step of the body touches
  // the state and nothing else reads the kernel's result, is written into
  // the state buffer itself: no copy each iteration (a conditional WHILE
  // node cannot swap buffers as an unrolled loop does; its iterations do
  // not overlap).
  void WriteNextInPlace(WhileStep& w, size_t i) {
    const BufferId state = w.state[i], next = w.next[i];
    if (next == state || program_.buffers[static_cast<size_t>(next)].kind != BufferKind::kTemp ||
        std::count(w.next.begin(), w.next.end(), next) != 1 ||
        std::count(w.next.begin(), w.next.end(), state) != 0) {
      return;
    }
    int writer = -1;
    for (size_t s = 0; s < w.body.steps.size(); ++s) {
      std::set<BufferId> ids;
      CollectBuffers(w.body.steps[s], ids);
      const auto* k = std::get_if<KernelStep>(&w.body.steps[s].action);
      const bool writes_next = k != nullptr && std::count(k->outputs.begin(), k->outputs.end(), next) == 1;
      if (writes_next && writer < 0) {
        writer = static_cast<int>(s);
        continue;
      }
      // Any other step touching the result, or the state after the writer.
      if (ids.count(next) || (writer >= 0 && ids.count(state))) return;
    }
    if (writer < 0) return;
    KernelStep& k = std::get<KernelStep>(w.body.steps[static_cast<size_t>(writer)].action);
    const Fusion& f = program_.fusions[static_cast<size_t>(k.fusion)];
    for (size_t in = 0; in < k.inputs.size(); ++in) {
      if (k.inputs[in] == state && !ReadsInPlace(f, in)) return;
    }
    if (std::count(k.outputs.begin(), k.outputs.end(), state) != 0) return;
    *std::find(k.outputs.begin(), k.outputs.end(), next) = state;
    w.next[i] = state;
    for (auto& [value, id] : buffers_) {
      if (id == next) id = state;
    }
  }

  Status EmitCase(const ir::Operation& op, Sequence& seq, int depth) {
    CaseStep c;
    c.index_is_pred = op.id() == ir::OpId::kIf;
    HLOGRAPH_ASSIGN(c.index, BufferOf(op.operand(0), seq));
    for (size_t i = 0; i < op.num_results(); ++i) {
      HLOGRAPH_TRY(CheckLoopValueType(op, op.result(i)));
      const BufferId r = NewTemp(op.result(i)->type(), "result " + std::to_string(i) + " of " + Describe(op));
      c.results.push_back(r);
      buffers_[op.result(i)] = r;
    }
    for (size_t b = 0; b < op.num_regions(); ++b) {
      if (op.region(b).empty()) return Status::Error(OpError(op, "has an empty branch"));
      Sequence branch;
      std::vector<BufferId> returned;
      HLOGRAPH_TRY(PlanBlock(op.region(b).front(), branch, &returned, depth + 1));
      if (returned.size() != c.results.size()) {
        return Status::Error(OpError(op, "expects every branch to return one value per result"));
      }
      c.branches.push_back(std::move(branch));
      c.branch_results.push_back(std::move(returned));
    }
    Step step;
    step.op = &op;
    step.action = std::move(c);
    seq.steps.push_back(std::move(step));
    return Status::Ok();
  }

  // Callers pass and receive quantized tensors as the module declares them:
  // the bytes of their storage integers, which the lowered program reads
  // and writes.
  void KeepQuantizedSignature() {
    const ir::Operation* entry = module_.EntryFunction();
    if (!entry) return;
    const ir::FunctionType sig = ir::FunctionSignature(*entry);
    auto keep = [](const std::vector<ir::Type>& declared, std::vector<ir::Type>& planned) {
      for (size_t i = 0; i < declared.size() && i < planned.size(); ++i) {
        if (declared[i].IsQuantized() && declared[i].StorageType() == planned[i]) planned[i] = declared[i];
      }
    };
    keep(sig.inputs, program_.parameter_types);
    keep(sig.results, program_.result_types);
  }

  // Results of the entry function: a temp made at the top level for the
  // value becomes the result buffer itself; anything else (an argument, a
  // constant, a value returned twice) is copied into one.
  Status BindResults(const ir::Block& body, const std::vector<BufferId>& returned) {
    std::set<BufferId> taken;
    const ir::Operation* ret = body.terminator();
    for (size_t i = 0; i < returned.size(); ++i) {
      const ir::Type& type = ret->operand(i)->type();
      program_.result_types.push_back(type);
      Buffer& b = program_.buffers[static_cast<size_t>(returned[i])];
      if (b.kind == BufferKind::kTemp && top_level_temps_.count(returned[i]) && taken.insert(returned[i]).second) {
        b.kind = BufferKind::kOutput;
        b.index = static_cast<int>(i);
        program_.results.push_back(returned[i]);
        continue;
      }
      Buffer out;
      out.kind = BufferKind::kOutput;
      out.index = static_cast<int>(i);
      out.bytes = type.StorageBytes();
      out.label = "result " + std::to_string(i);
      const BufferId id = program_.AddBuffer(std::move(out));
      HLOGRAPH_TRY(EmitCopy(returned[i], id, program_.main, ret));
      program_.results.push_back(id);
    }
    return Status::Ok();
  }

  const ir::Module& module_;
  const DevicePlace place_;
  GpuProgram program_;
  std::unordered_map<const ir::Value*, BufferId> buffers_;
  // Convolution operands transposed into the layout cuDNN reads, by
  // sequence, buffer and permutation.
  struct PackedKey {
    const Sequence* seq;
    BufferId id;
    std::vector<int64_t> perm, reversed;
    bool operator<(const PackedKey& o) const {
      return std::tie(seq, id, perm, reversed) < std::tie(o.seq, o.id, o.perm, o.reversed);
    }
  };
  std::map<PackedKey, BufferId> packed_operands_;
  std::set<BufferId> top_level_temps_;
  // dynamic_update_slices written into their operand's buffer: a loop's
  // state updated by one DUS whose result is that state's next value.
  std::map<const ir::Operation*, BufferId> update_in_place_;
  std::set<const ir::Operation*> absorbed_;  // bias adds and relus in a GEMM's epilogue
  // Reduces computed by an earlier reduce's kernel (SiblingsOf).
  std::set<const ir::Operation*> sibling_reduces_;
  // What each block's kernels compute (DecideFusion), the blocks so far.
  FusionDecisions fused_;
  bool top_level_ = true;
};

}  // namespace

StatusOr<GpuProgram> PlanProgram(const ir::Module& module, const DevicePlace& place) {
  return Planner(module, place).Run();
}

}  // namespace hlograph::gpu

// The GPU program: what runs, in which order, reading and writing which
// buffers. It is plain data built from the IR before any CUDA call
// (planner.h), printed by `hlograph explain` and unit-tested without a GPU.
// Stream mode walks it (runtime/stream_runner.h); graph mode will turn the
// same steps into graph nodes.
//
//   Buffer    a device allocation: an argument, a constant, a result, or a
//             temp at a fixed offset of the executable's arena.
//   Fusion    one generated kernel: a loop over an output shape, or a
//             reduction, computing several IR ops without going to memory.
//   Step      kernel launch | GEMM | convolution | collective | copy | host op | while loop | case.
//   Sequence  steps in order; loops and cases hold nested sequences.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "backends/gpu/plan/collective_plan.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/reduction_layout.h"
#include "backends/gpu/plan/scan_layout.h"
#include "backends/gpu/plan/scatter_plan.h"
#include "backends/gpu/plan/sort_plan.h"
#include "backends/gpu/plan/conv_config.h"
#include "backends/gpu/plan/fft_config.h"
#include "backends/gpu/plan/gemm_config.h"
#include "ir/module.h"
#include "ir/operation.h"
#include "ir/type.h"

namespace hlograph::gpu {

using BufferId = int32_t;

enum class BufferKind {
  kParameter,  // an argument of the entry function (index = its number)
  kOutput,     // a result of the entry function (index = its number)
  kConstant,   // a dense constant, uploaded once at compile time
  kTemp,       // a fixed offset of the arena (assigned by the buffer plan)
};
const char* BufferKindName(BufferKind kind);

struct Buffer {
  BufferKind kind = BufferKind::kTemp;
  int64_t bytes = 0;
  int index = -1;                            // kParameter / kOutput: its number
  const ir::Operation* constant = nullptr;   // kConstant: the stablehlo.constant, or
  std::vector<uint8_t> value;                // its bytes where the planner made it (a loop counter's value)
  std::string label;                         // what it holds, for people
  // kTemp, filled by the buffer plan: the byte offset in the arena and the
  // step interval [first, last] (in program order) during which it is live.
  int64_t offset = -1;
  int first_use = -1, last_use = -1;
  // kTemp: zero whenever no call runs (arrival counters that the kernel
  // using them resets): live for the whole program, zeroed with the arena.
  bool zero_at_rest = false;
  // kTemp, filled by the buffer plan: the input of the loop kernel that
  // writes this buffer whose memory it takes (the kernel reads each element
  // before writing it; the input's life ends there).
  BufferId in_place_of = -1;
};

enum class FusionKind {
  kLoop,       // one thread per output element (all outputs share a shape)
  kReduction,  // stablehlo.reduce ops (siblings: plan/sibling_reductions.h), operands computed in the kernel
  kTranspose,  // inputs[0] permuted by `permutation` (feeds a GEMM)
  kSort,       // a stablehlo.sort: one pass of its plan (plan/sort_plan.h)
  kScatter,    // a stablehlo.scatter updating its results in place (plan/scatter_plan.h)
  kConvolution,  // a stablehlo.convolution: a thread (or warp) per output element
  kTopK,       // a chlo.top_k: one pass of its plan (plan/sort_plan.h)
  kFft,        // a stablehlo.fft: a thread per output element sums the DFT
  kRng,        // a stablehlo.rng_bit_generator: a thread per output word
  kUpdateSliceInPlace,  // a dynamic_update_slice writing only its window into its operand's buffer
  kDot,        // a stablehlo.dot_general of a few rows, its operands and epilogue inline (plan/generated_dot.h)
  kAttention,  // scores, softmax and values of one query per head (plan/attention.h)
  kFlashAttention,  // the same for many queries, on the tensor cores (plan/flash_attention.h)
  kScan,       // a chlo.scan or prefix-scan reduce_window (plan/prefix_scan.h, plan/scan_layout.h)
  kRows,       // a loop over rows computing the reductions of its row it reads first (plan/row_fusion.h)
  kDirectDot,  // a stablehlo.dot_general cuBLASLt does not take: a thread (or warp) per output element
};
const char* FusionKindName(FusionKind kind);

struct Fusion {
  std::string name;   // the kernel's name, "fusion_3"
  FusionKind kind = FusionKind::kLoop;
  // The IR ops the kernel computes, in program order. For kReduction the
  // reduces are its outputs' ops (sort, scatter: the last op for those kinds).
  std::vector<const ir::Operation*> ops;
  // Values read from memory, in kernel parameter order, then the values
  // written (kernel parameters after the inputs). For kTranspose the
  // single input and output are given by type only (no IR op makes them).
  std::vector<const ir::Value*> inputs;
  std::vector<const ir::Value*> outputs;
  std::vector<ir::Type> input_types, output_types;
  std::vector<int64_t> permutation;  // kTranspose: output dim i is input dim permutation[i]
  std::vector<int64_t> reversed;     // kTranspose: output dims read from the input's far end
  DotTiling tiling;                  // kDot
  ScatterPass scatter_pass = ScatterPass::kUpdate;  // kScatter: which of its kernels (plan/scatter_plan.h)
  ReductionLayout reduction;         // kReduction (plan/reduction_layout.h)
  ScanLayout scan;                   // kScan (plan/scan_layout.h)
  SortPass sort;                     // kSort, kTopK: which pass of the op's plan (plan/sort_plan.h)
  int64_t key_chunk = 0;             // k(Flash)Attention: the keys a block takes (AttentionChunk, FlashKeyChunk)
  // Inputs (by position) the kernel reads before it waits for the kernels
  // it depends on (programmatic dependent launch): a product's rhs, the
  // weights, loaded while the kernel before it finishes. The graph plan
  // launches a kernel early only behind kernels that write none of them.
  std::vector<int> early_inputs;
  // It lets the kernels launched early behind it launch as it starts, not
  // once it has waited for its own producers: they then load their
  // weights while it waits and runs, not only while it runs. Products and
  // attention loading at least kDependentsAtStartBytes before waiting (a
  // transformer layer's, whose successors load as much): faster there,
  // slower for chains of small products (docs/PERF.md, "Dependents launched
  // as a big kernel starts").
  bool dependents_at_start = false;
  // kLoop: how many independent loop kernels this one computes side by
  // side (plan/side_by_side.h), each output over its own shape.
  int side_by_side = 1;
  // Working memory the kernel takes after its outputs (kDot with a split
  // contraction, kAttention: partial sums, then arrival counters).
  std::vector<int64_t> scratch_bytes;
  // Values (a later kernel's weights, moved from an input) whose bytes the
  // kernel's first blocks ask L2 for once it has waited for its producers
  // (plan/prefetch_ahead.h).
  std::vector<const ir::Value*> prefetched_after_wait;
};

constexpr int64_t kDependentsAtStartBytes = int64_t{2} << 20;

struct KernelStep {
  int fusion = -1;
  std::vector<BufferId> inputs, outputs;  // parallel to the fusion's
  std::vector<BufferId> scratch;          // parallel to the fusion's scratch_bytes
};

struct GemmStep {
  GemmConfig config;
  BufferId lhs = -1, rhs = -1, out = -1;
  BufferId bias = -1;  // the bias vector of a bias epilogue
};

// A convolution run by cuDNN (plan/convolution_lowering.h).
struct ConvolutionStep {
  ConvConfig config;
  BufferId lhs = -1, rhs = -1, out = -1;  // rhs: the filter before its reversal for backward data
  std::vector<BufferId> epilogue_operands;  // config.epilogue's, in order
};

// An fft through cuFFT (plan/fft_config.h): `in` is read (for C2R, a
// copy of it: cuFFT overwrites its input), `out` written, then scaled.
struct FftStep {
  FftConfig config;
  BufferId in = -1, out = -1;
};

// A collective run by NCCL (plan/collective_plan.h), one operand after the
// other inside one NCCL group. Staging buffers (-1 where a piece layout is
// contiguous) hold an operand's pieces rank after rank before it is sent,
// or the pieces received before they are laid into the result.
struct CollectiveStep {
  CollectiveConfig config;
  std::vector<BufferId> inputs, outputs;      // parallel to config.operands
  std::vector<BufferId> send_staging, receive_staging;  // likewise
};

struct CopyStep {
  BufferId src = -1, dst = -1;
  int64_t bytes = 0;
};

// An op the device does not run, computed on the host by the CPU
// interpreter's kernel (jaxlib's LAPACK custom calls): the operands are
// copied to the host and the results back, in stream order.
struct HostStep {
  std::vector<BufferId> inputs, outputs;  // the op's operands and results
};

struct Step;
struct Sequence {
  std::vector<Step> steps;
};

// while: `state` holds the loop-carried values (the loop's operands are
// copied in before the step, its results are read from there after it).
// cond computes the predicate into `pred`; body computes the next values
// into `next`, which are then copied into `state` (equal ids: no copy).
struct WhileStep {
  std::vector<BufferId> state;
  Sequence cond;
  BufferId pred = -1;
  Sequence body;
  std::vector<BufferId> next;
  // The trip count when the planner can prove it (a counter from a constant
  // to a constant bound by a constant step), else -1.
  int64_t known_trip_count = -1;
  // With a known trip count of at most kMaxCounterConstants and a body
  // reading the counter beyond counting: state `counter` holds the
  // counter, and counter_values[i] a constant of its value in iteration
  // i. An unrolled iteration reads it there
  // (GraphOptions::counters_from_constants): a kernel indexing stacked
  // weights by the counter before it waits then launches early behind
  // anything, and the kernels counting become dead.
  size_t counter = 0;
  std::vector<BufferId> counter_values;
};
constexpr int64_t kMaxCounterConstants = 2048;

// case / if: `index` (i32, or i1 for if: true is branch 0) picks a branch;
// out-of-range indices run the last branch, as the spec says. Each branch
// computes into its `branch_results`, copied into `results`.
struct CaseStep {
  BufferId index = -1;
  bool index_is_pred = false;
  std::vector<Sequence> branches;
  std::vector<std::vector<BufferId>> branch_results;
  std::vector<BufferId> results;
};

struct Step {
  std::variant<KernelStep, GemmStep, ConvolutionStep, FftStep, CopyStep, WhileStep, CaseStep, HostStep,
               CollectiveStep>
      action;
  const ir::Operation* op = nullptr;  // the IR op it comes from (null for copies the planner adds)
};

// Argument `parameter` donated for result `result` (plan/donation.h):
// in_place says whether the result may be written into the argument's
// memory; if not, `why` says what prevents it.
struct Donation {
  int parameter = -1, result = -1;
  bool in_place = false;
  std::string why;
};

struct GpuProgram {
  // The module the program was planned from, with its calls inlined: the
  // fusions and steps point into it.
  std::shared_ptr<const ir::Module> module;
  std::vector<Buffer> buffers;
  std::vector<Fusion> fusions;
  Sequence main;
  std::vector<BufferId> parameters;  // per entry-function argument
  std::vector<BufferId> results;     // per entry-function result
  std::vector<ir::Type> parameter_types, result_types;
  std::vector<Donation> donations;   // filled by PlanDonations
  int64_t arena_bytes = 0;           // filled by the buffer plan
  // The switches and tuning values the plan was made with, in effect
  // again while its kernels are emitted.
  PlanOptions options;
  // The device of the grid it was planned for: its collectives' groups and
  // ranks, the values of replica_id and partition_id.
  DevicePlace place;

  BufferId AddBuffer(Buffer buffer);
  // Human-readable listing: buffers, fusions, then the steps (nested).
  std::string ToString() const;
  // Structural checks: ids in range, fusion parameters match step buffers,
  // temps placed without overlap while both are live. Errors say what broke.
  Status Verify() const;
};

// The buffers a step reads and writes, for the steps without nested
// sequences (kernel, GEMM, convolution, collective, copy, host); empty for while and
// case, whose buffers their own fields and sequences name.
std::vector<BufferId> StepReads(const Step& step);
std::vector<BufferId> StepWrites(const Step& step);
// A GEMM, convolution, fft or collective: a library's call, captured into a
// child graph.
bool IsLibraryCall(const Step& step);
// Every buffer a step reads or writes, its nested sequences included.
void CollectBuffers(const Step& step, std::set<BufferId>& ids);

// Visits every step of `seq` and of the sequences nested in it, in program
// order, with its depth of nesting.
template <typename Fn>
void ForEachStep(const Sequence& seq, Fn&& fn, int depth = 0);

// How many kernel steps of the program run each fusion (by index).
std::vector<int> FusionUses(const GpuProgram& program);

// The last dot_general of `f`'s ops in program order (an attention
// kernel's values product), or null.
const ir::Operation* LastProduct(const Fusion& f);

}  // namespace hlograph::gpu

#include "backends/gpu/plan/program_inl.h"

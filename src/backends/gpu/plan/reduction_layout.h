// How a reduction kernel covers its input: plain data chosen from the
// shape, printed by `explain` (the kernel's strategy) and unit-tested
// without a GPU. codegen/reduction_kernel.cpp emits the kernel.
//
// The input is viewed as runs of reduced and kept dims (dims of size 1
// dropped, neighbours of one kind merged). A block of 256 threads covers
// `outputs_per_block` consecutive outputs with `lanes_per_output` threads
// each; a thread folds every lanes_per_output-th element of its output's
// reduced extent (of its split), then the lanes are folded together in a
// fixed order (shuffles, then shared memory).
//
//   row     the innermost dim is reduced, in runs of at least 32 (a row
//           reduction; or mixed, reduced dims outside kept ones too, as a
//           variance over (0, 2)): a lane's neighbours read its neighbour
//           elements; a warp or a whole block per output; 4-element vector
//           loads where the innermost reduced run is a multiple of 4.
//   column  otherwise (the innermost dim kept: a bias gradient's sum over
//           the batch; or short reduced runs): a lane's neighbours take the
//           neighbouring outputs, so a warp reads contiguous memory; the
//           block's slices of the reduced extent are folded in shared
//           memory. One slice (a thread per output) where the reduced
//           extent is short.
//   splits  with too few outputs to fill the device (a scalar, a handful of
//           rows or columns), the reduced extent is cut into `splits`
//           chunks, a block each: each writes its partial results to
//           scratch, and the last block of an output group to arrive (an
//           arrival counter, zero between calls) folds the partials in
//           split order and stores the result: deterministic, one kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "ir/type.h"

namespace hlograph::gpu {

struct ReductionLayout {
  enum class Lanes {
    kAlongReduced,  // row: an output's lanes take neighbouring reduced elements
    kAlongOutputs,  // column: a warp's lanes take neighbouring outputs
  };
  static constexpr int kThreads = 256;
  bool planned = false;
  Lanes lanes = Lanes::kAlongOutputs;
  int64_t outputs = 0;    // elements of each result
  int64_t reduced = 0;    // elements folded into each output
  int64_t inner_run = 1;  // the innermost run's elements (reduced for rows, kept for columns)
  int outputs_per_block = kThreads;
  int lanes_per_output = 1;  // outputs_per_block * lanes_per_output == kThreads
  int64_t splits = 1;        // blocks per output group, each folding `chunk` reduced elements
  int64_t chunk = 0;
  bool vector_loads = false;  // rows: the innermost reduced run is a multiple of 4

  int64_t groups() const { return outputs_per_block > 0 ? (outputs + outputs_per_block - 1) / outputs_per_block : 0; }
  int64_t blocks() const { return groups() * splits; }
  // splits > 1: one arrival counter (u32) per output group.
  int64_t counter_bytes() const { return splits > 1 ? groups() * 4 : 0; }
  // "row reduction (block per output, ...)" and so on; `vectorized`: the
  // kernel reads four elements at a time (it knows whether its inputs allow).
  std::string ToString(bool vectorized = false) const;
};

// The blocks a reduction aims for per SM before it splits the reduced
// extent: 4 blocks of 256 threads are 32 resident warps an SM (half of
// an H100/H200's 64), each with several loads in flight: enough to keep
// HBM busy for a streaming fold. (Reasoned, not yet measured.)
constexpr int kReductionBlocksPerSm = 4;
// A split is worth its partial write, fence and arrival only if each of
// its lanes reads at least this many bytes (16 f32: a bias gradient of
// 4096 x 512 splits 32 ways). (Reasoned, not yet measured.)
constexpr int64_t kReductionMinBytesPerLane = 64;
// Column layout: slices of the reduced extent only where each gets at
// least this many elements.
constexpr int64_t kReductionMinElementsPerSlice = 8;
constexpr int64_t kReductionMaxSplits = 1024;

// The layout for reducing `shape` over `reduced_dims`, the kernel reading
// `bytes_per_element` bytes of memory per element of the reduced operand
// (its inputs' bytes over the operand's elements), on `sm_count` SMs.
// The decision: rows when the innermost dim is reduced in runs of >= 32
// (a block per output when an output folds >= 2048 elements, or >= 512
// and a warp each would make fewer blocks than the target below; else a
// warp); columns
// otherwise, a warp's lanes on 32 outputs (or the innermost kept run's
// size rounded up to a power of two, if smaller), the block's other
// threads on slices of the reduced extent (a power of two of them, each
// of >= kReductionMinElementsPerSlice elements); then, when the output
// groups are fewer than kReductionBlocksPerSm * sm_count blocks, as many
// splits as make up the difference, at most as many as leave each lane
// kReductionMinBytesPerLane bytes, at most kReductionMaxSplits.
ReductionLayout PlanReductionLayout(const std::vector<int64_t>& shape, const std::vector<int64_t>& reduced_dims,
                                    double bytes_per_element, int sm_count);

// The same for a stablehlo.reduce whose kernel reads `bytes_read` bytes.
ReductionLayout PlanReductionLayout(const ir::Operation& reduce, int64_t bytes_read, int sm_count);

// Bytes of an accumulator of element type `t` in a kernel (f16, bf16 and
// f8 accumulate as float; bool as one byte).
int ReductionAccumulatorBytes(ir::ElementType t);

// Byte offsets, in the partials scratch, of each accumulator's array of
// splits * outputs values (`element_types`: the results' element types,
// in kernel order), 16-aligned; the last entry is the total size.
std::vector<int64_t> ReductionPartialOffsets(const ReductionLayout& layout,
                                             const std::vector<ir::ElementType>& element_types);

}  // namespace hlograph::gpu

// A collective (all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute, collective_broadcast) as the GPU runs it through
// NCCL, decided before any CUDA call: which devices it spans (the group,
// in rank order, and this device's rank), what it reduces with, and how
// each operand's bytes move.
//
// NCCL gathers and scatters n contiguous pieces, rank after rank. A piece
// along dim d of the program's tensor is contiguous only when the dims
// before d are 1: otherwise the tensor holds [outer][n][chunk] and the
// pieces are staged through a buffer laid out [n][outer][chunk], copied
// with one strided copy per piece (PieceLayout).
//
// Every collective runs through NCCL, on one device too (a communicator of
// one rank): the same path, exercised by a single GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hlograph/status.h"
#include "ir/element_type.h"
#include "ir/module.h"
#include "ir/operation.h"

namespace hlograph::gpu {

// Where a program runs: device (replica, partition) of a grid of
// replicas x partitions (logical id replica * partitions + partition).
struct DevicePlace {
  int64_t replicas = 1, partitions = 1;
  int64_t replica = 0, partition = 0;
  int64_t id() const { return replica * partitions + partition; }
  int64_t devices() const { return replicas * partitions; }
  std::string ToString() const;  // "replica 0 of 1, partition 0 of 1"
  Status Verify() const;         // within the grid, the grid not empty
};

enum class CollectiveKind { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kPermute, kBroadcast };
const char* CollectiveKindName(CollectiveKind kind);  // as the op is named: "all_reduce"

// The reduction of all_reduce and reduce_scatter (their body's one op).
enum class CollectiveReduction { kNone, kSum, kProduct, kMax, kMin };
const char* CollectiveReductionName(CollectiveReduction r);

// The element types NCCL reduces (f32, f16, bf16, f64, i8, i32, i64, ui8,
// ui32, ui64; i1 as bytes, or as max and and as min). Collectives that only
// move data take every type, as bytes.
bool NcclReduces(ir::ElementType e, CollectiveReduction r);

// n pieces interleaved in a tensor as [outer][n][chunk_bytes]; outer 1:
// contiguous, NCCL reads or writes the tensor itself.
struct PieceLayout {
  int64_t outer = 1;
  int64_t chunk_bytes = 0;
  bool contiguous() const { return outer <= 1; }
};

struct CollectiveOperand {
  ir::ElementType element = ir::ElementType::kF32;
  int64_t elements = 0;         // the operand's
  int64_t bytes = 0;            // the operand's
  int64_t result_bytes = 0;     // its result's
  // reduce_scatter, all_to_all: the operand's pieces (one per rank) along
  // the scatter or split dim; staged into [n][...] first unless contiguous.
  PieceLayout send;
  // all_gather, all_to_all: the pieces received (one per rank) as they lie
  // in the result along the gather or concat dim; received into a staging
  // buffer [n][...] first unless contiguous.
  PieceLayout receive;
};

struct CollectiveConfig {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveReduction reduction = CollectiveReduction::kNone;
  // The logical device ids of its communicator, in rank order; this
  // device is group[rank]. Empty (and rank -1): this device is in no group
  // (a collective_broadcast's results are then zeros).
  std::vector<int64_t> group;
  int rank = -1;
  // collective_permute (group: the devices it pairs within): the rank this
  // device sends to and the one it receives from, -1 for none (its result
  // is then zeros).
  int send_to = -1, receive_from = -1;
  std::vector<CollectiveOperand> operands;

  int64_t bytes() const;  // the operands' bytes
  // "all_reduce sum f32 over [0] (rank 0 of 1), 4096 bytes".
  std::string ToString() const;
};

bool IsCollective(const ir::Operation& op);

// How the GPU runs collective `op` (in `module`) on the device at `place`,
// or an error saying why it cannot (a body NCCL has no reduction for, an
// element type it does not reduce, a group naming a device outside the
// grid, a dynamic broadcast root).
StatusOr<CollectiveConfig> PlanCollective(const ir::Operation& op, const ir::Module& module,
                                          const DevicePlace& place);

}  // namespace hlograph::gpu

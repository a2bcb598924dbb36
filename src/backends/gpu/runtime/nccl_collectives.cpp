#include "backends/gpu/runtime/nccl_collectives.h"

#include <string>

#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device_memory.h"

#if HLOGRAPH_HAVE_NCCL
#include <nccl.h>
#endif

namespace hlograph::gpu {

#if HLOGRAPH_HAVE_NCCL

namespace {

Status NcclStatus(ncclResult_t r, ncclComm_t comm, const std::string& call) {
  if (r == ncclSuccess) return Status::Ok();
  const char* last = ncclGetLastError(comm);
  return Status::Error(call + " failed: " + ncclGetErrorString(r) +
                       (last != nullptr && *last != '\0' ? std::string(" (") + last + ")" : std::string()));
}
#define HLOGRAPH_NCCL(call, comm) HLOGRAPH_TRY(NcclStatus((call), (comm), #call))

ncclDataType_t TypeOf(ir::ElementType e) {
  using E = ir::ElementType;
  switch (e) {
    case E::kF32: return ncclFloat32;
    case E::kF16: return ncclFloat16;
    case E::kBF16: return ncclBfloat16;
    case E::kF64: return ncclFloat64;
    case E::kI8: return ncclInt8;
    case E::kI32: return ncclInt32;
    case E::kI64: return ncclInt64;
    case E::kU32: return ncclUint32;
    case E::kU64: return ncclUint64;
    default: return ncclUint8;  // u8, and i1 (bytes of 0 and 1; the plan allows only max and min)
  }
}

ncclRedOp_t OpOf(CollectiveReduction r) {
  switch (r) {
    case CollectiveReduction::kProduct: return ncclProd;
    case CollectiveReduction::kMax: return ncclMax;
    case CollectiveReduction::kMin: return ncclMin;
    default: return ncclSum;
  }
}

char* At(const std::vector<void*>& ptrs, BufferId id) {
  return id < 0 ? nullptr : static_cast<char*>(ptrs[static_cast<size_t>(id)]);
}

// [outer][n][chunk] (the program's tensor) into [n][outer][chunk] (NCCL's
// pieces, rank after rank): one strided copy per piece.
Status ToRanked(const PieceLayout& p, int64_t n, const char* interleaved, char* ranked, cudaStream_t stream) {
  const auto chunk = static_cast<size_t>(p.chunk_bytes);
  for (int64_t k = 0; k < n && chunk > 0; ++k) {
    HLOGRAPH_CUDA(cudaMemcpy2DAsync(ranked + k * p.outer * p.chunk_bytes, chunk, interleaved + k * p.chunk_bytes,
                                    chunk * static_cast<size_t>(n), chunk, static_cast<size_t>(p.outer),
                                    cudaMemcpyDeviceToDevice, stream));
  }
  return Status::Ok();
}

// The reverse: NCCL's pieces laid into the program's tensor.
Status FromRanked(const PieceLayout& p, int64_t n, const char* ranked, char* interleaved, cudaStream_t stream) {
  const auto chunk = static_cast<size_t>(p.chunk_bytes);
  for (int64_t k = 0; k < n && chunk > 0; ++k) {
    HLOGRAPH_CUDA(cudaMemcpy2DAsync(interleaved + k * p.chunk_bytes, chunk * static_cast<size_t>(n),
                                    ranked + k * p.outer * p.chunk_bytes, chunk, chunk, static_cast<size_t>(p.outer),
                                    cudaMemcpyDeviceToDevice, stream));
  }
  return Status::Ok();
}

// Operand i's NCCL calls (inside the step's group).
Status Issue(const CollectiveStep& step, size_t i, ncclComm_t comm, const std::vector<void*>& ptrs,
             cudaStream_t stream) {
  const CollectiveConfig& c = step.config;
  const CollectiveOperand& o = c.operands[i];
  const char* in = At(ptrs, step.inputs[i]);
  char* out = At(ptrs, step.outputs[i]);
  const char* send = step.send_staging[i] >= 0 ? At(ptrs, step.send_staging[i]) : in;
  char* receive = step.receive_staging[i] >= 0 ? At(ptrs, step.receive_staging[i]) : out;
  const auto n = static_cast<int64_t>(c.group.size());
  const int64_t width = ir::StorageBytes(o.element);
  const auto bytes = static_cast<size_t>(o.bytes);
  switch (c.kind) {
    case CollectiveKind::kAllReduce:
      HLOGRAPH_NCCL(ncclAllReduce(in, out, static_cast<size_t>(o.elements), TypeOf(o.element), OpOf(c.reduction),
                                  comm, stream), comm);
      break;
    case CollectiveKind::kReduceScatter:
      HLOGRAPH_NCCL(ncclReduceScatter(send, out, static_cast<size_t>(o.result_bytes / width), TypeOf(o.element),
                                      OpOf(c.reduction), comm, stream), comm);
      break;
    case CollectiveKind::kAllGather:
      HLOGRAPH_NCCL(ncclAllGather(in, receive, bytes, ncclUint8, comm, stream), comm);
      break;
    case CollectiveKind::kBroadcast:  // the root is the group's first
      HLOGRAPH_NCCL(ncclBroadcast(in, out, bytes, ncclUint8, 0, comm, stream), comm);
      break;
    case CollectiveKind::kAllToAll: {
      const int64_t piece_out = o.bytes / n, piece_in = o.result_bytes / n;
      for (int64_t peer = 0; peer < n; ++peer) {
        HLOGRAPH_NCCL(ncclSend(send + peer * piece_out, static_cast<size_t>(piece_out), ncclUint8,
                               static_cast<int>(peer), comm, stream), comm);
        HLOGRAPH_NCCL(ncclRecv(receive + peer * piece_in, static_cast<size_t>(piece_in), ncclUint8,
                               static_cast<int>(peer), comm, stream), comm);
      }
      break;
    }
    case CollectiveKind::kPermute:
      if (c.send_to >= 0) HLOGRAPH_NCCL(ncclSend(in, bytes, ncclUint8, c.send_to, comm, stream), comm);
      if (c.receive_from >= 0) {
        HLOGRAPH_NCCL(ncclRecv(out, static_cast<size_t>(o.result_bytes), ncclUint8, c.receive_from, comm, stream),
                      comm);
      }
      break;
  }
  return Status::Ok();
}

}  // namespace

Status QueueCollective(const CollectiveStep& step, ncclComm* comm, const std::vector<void*>& ptrs,
                       cudaStream_t stream) {
  const CollectiveConfig& c = step.config;
  const auto n = static_cast<int64_t>(c.group.size());
  // Results no device sends to are zeros: a broadcast outside every group,
  // a permute's target of no pair.
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const bool zeros = (c.kind == CollectiveKind::kBroadcast && c.group.empty()) ||
                       (c.kind == CollectiveKind::kPermute && c.receive_from < 0);
    if (zeros) HLOGRAPH_TRY(MemsetDevice(At(ptrs, step.outputs[i]), 0, c.operands[i].result_bytes, stream));
  }
  if (c.group.empty()) return Status::Ok();
  if (comm == nullptr) return Status::Error("internal error: " + c.ToString() + " has no communicator");
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (step.send_staging[i] >= 0) {
      HLOGRAPH_TRY(ToRanked(c.operands[i].send, n, At(ptrs, step.inputs[i]), At(ptrs, step.send_staging[i]), stream));
    }
  }
  // One group: NCCL runs the operands' calls together (and a device's sends
  // and receives of one step cannot wait for each other).
  HLOGRAPH_NCCL(ncclGroupStart(), comm);
  Status issued = Status::Ok();
  for (size_t i = 0; i < c.operands.size() && issued.ok(); ++i) {
    if (c.operands[i].bytes == 0 && c.operands[i].result_bytes == 0) continue;
    issued = Issue(step, i, comm, ptrs, stream);
  }
  const ncclResult_t ended = ncclGroupEnd();  // even after an error: the group must be closed
  HLOGRAPH_TRY(issued);
  HLOGRAPH_TRY(NcclStatus(ended, comm, "ncclGroupEnd() for " + c.ToString()));
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (step.receive_staging[i] >= 0) {
      HLOGRAPH_TRY(FromRanked(c.operands[i].receive, n, At(ptrs, step.receive_staging[i]), At(ptrs, step.outputs[i]),
                              stream));
    }
  }
  return Status::Ok();
}

#else  // built without nccl.h

Status QueueCollective(const CollectiveStep& step, ncclComm*, const std::vector<void*>&, cudaStream_t) {
  HLOGRAPH_TRY(NcclUsable());
  return Status::Error(step.config.ToString() + " needs NCCL");
}

#endif

}  // namespace hlograph::gpu

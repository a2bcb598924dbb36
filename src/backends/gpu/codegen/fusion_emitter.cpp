#include "backends/gpu/codegen/fusion_emitter.h"

#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu {

StatusOr<KernelSource> EmitKernel(const Fusion& fusion, const EmitOptions& options) {
  StatusOr<KernelSource> k = Status::Error("unknown fusion kind");
  switch (fusion.kind) {
    case FusionKind::kLoop: k = emit::EmitLoop(fusion, options); break;
    case FusionKind::kReduction: k = emit::EmitReduction(fusion, options); break;
    case FusionKind::kTranspose: k = emit::EmitTranspose(fusion, options); break;
    case FusionKind::kSort: k = emit::EmitSort(fusion, options); break;
    case FusionKind::kScatter: k = emit::EmitScatter(fusion, options); break;
    case FusionKind::kConvolution: k = emit::EmitConvolution(fusion, options); break;
    case FusionKind::kTopK: k = emit::EmitTopK(fusion, options); break;
    case FusionKind::kFft: k = emit::EmitFft(fusion, options); break;
    case FusionKind::kRng: k = emit::EmitRngBitGenerator(fusion, options); break;
    case FusionKind::kUpdateSliceInPlace: k = emit::EmitUpdateSliceInPlace(fusion, options); break;
    case FusionKind::kDot: k = emit::EmitDot(fusion, options); break;
    case FusionKind::kAttention: k = emit::EmitAttention(fusion, options); break;
    case FusionKind::kFlashAttention: k = emit::EmitFlashAttention(fusion, options); break;
    case FusionKind::kScan: k = emit::EmitScan(fusion, options); break;
    case FusionKind::kRows: k = emit::EmitRows(fusion, options); break;
    case FusionKind::kDirectDot: k = emit::EmitDirectDot(fusion, options); break;
  }
  if (!k.ok()) return Status::Error(fusion.name + ": " + k.status().message());
  k->code = KernelPrelude() + "\n" + k->code;
  return k;
}

}  // namespace hlograph::gpu

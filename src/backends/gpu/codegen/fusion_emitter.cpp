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
  }
  if (!k.ok()) return Status::Error(fusion.name + ": " + k.status().message());
  k->code = KernelPrelude() + "\n" + k->code;
  return k;
}

}  // namespace hlograph::gpu

// Loop kernels (one thread per output element) and GEMM-operand transposes.
#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

StatusOr<KernelSource> EmitLoop(const Fusion& f, const EmitOptions& options) {
  const ir::Type& type = f.output_types[0];
  for (const ir::Type& t : f.output_types) {
    if (t.shape() != type.shape()) return Status::Error("internal error: a loop kernel's outputs differ in shape");
  }
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = type.NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  const Index idx = e.Delinearize("lin", type.shape());
  for (size_t i = 0; i < f.outputs.size(); ++i) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(f.outputs[i], idx));
    e.Line("o" + std::to_string(i) + "[lin] = " + StoreExpr(f.output_types[i].element(), v) + ";");
  }
  e.Close();
  HLOGRAPH_ASSIGN(std::string sig, Signature(f));
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", GridStride(n, options), "loop"};
  return k;
}

StatusOr<KernelSource> EmitTranspose(const Fusion& f, const EmitOptions& options) {
  const ir::Type& in = f.input_types[0];
  const ir::Type& out = f.output_types[0];
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = out.NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  const Index idx = e.Delinearize("lin", out.shape());
  Index src(idx.size());
  for (size_t i = 0; i < f.permutation.size(); ++i) src[static_cast<size_t>(f.permutation[i])] = idx[i];
  e.Line("o0[lin] = p0[" + e.Linear(src, in.shape()) + "];");
  e.Close();
  HLOGRAPH_ASSIGN(std::string sig, Signature(f));
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", GridStride(n, options), "transpose"};
  return k;
}

}  // namespace hlograph::gpu::emit

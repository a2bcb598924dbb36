// stablehlo.scatter: one block, update windows applied in order.
#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

// stablehlo.scatter in one block: the operands are copied into the
// results, then the update windows are applied one after another (a window
// that does not fit entirely is skipped, as XLA does); the elements of one
// window are disjoint, so the block's threads apply them together. Windows
// run in order, so duplicate indices combine exactly as the spec's serial
// semantics say, whatever the update body.
StatusOr<KernelSource> EmitScatter(const Fusion& f, const EmitOptions& options) {
  (void)options;
  constexpr int kBlock = 1024;
  const ir::Operation& op = *f.ops.back();
  const auto* dn = op.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>();
  if (!dn) return Status::Error("scatter without scatter_dimension_numbers");
  const size_t n = (op.num_operands() - 1) / 2;
  const ir::Value* indices = op.operand(n);
  const ir::Type& out_type = op.result(0)->type();
  const ir::Type& upd_type = op.operand(n + 1)->type();
  const int64_t ivd = dn->index_vector_dim;
  const auto contains = [](const std::vector<int64_t>& v, int64_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  std::vector<int64_t> scatter_dims, window_dims, window_shape, scatter_shape, idx_batch_dims, operand_window_dims;
  for (int64_t d = 0; d < upd_type.rank(); ++d) {
    if (contains(dn->update_window_dims, d)) {
      window_dims.push_back(d);
      window_shape.push_back(upd_type.dim(d));
    } else {
      scatter_dims.push_back(d);
      scatter_shape.push_back(upd_type.dim(d));
    }
  }
  for (int64_t d = 0; d < indices->type().rank(); ++d) {
    if (d != ivd) idx_batch_dims.push_back(d);
  }
  for (int64_t d = 0; d < out_type.rank(); ++d) {
    if (!contains(dn->inserted_window_dims, d) && !contains(dn->input_batching_dims, d)) operand_window_dims.push_back(d);
  }
  int64_t windows = 1, window_elems = 1;
  for (int64_t s : scatter_shape) windows *= s;
  for (int64_t s : window_shape) window_elems *= s;

  std::ostringstream body;
  BodyEmitter e(f, body);
  std::vector<std::string> ct(n);
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(op.result(j)->type().element()));
  }
  // Copy the operands.
  e.Open("for (long long lin = threadIdx.x; lin < " + std::to_string(out_type.NumElements()) +
         "LL; lin += blockDim.x)");
  const Index all = e.Delinearize("lin", out_type.shape());
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(op.operand(j), all));
    e.Line("o" + std::to_string(j) + "[lin] = " + StoreExpr(op.result(j)->type().element(), v) + ";");
  }
  e.Close();
  e.Line("__syncthreads();");
  e.Open("for (long long s = 0; s < " + std::to_string(windows) + "LL; ++s)");
  const Index sidx = e.Delinearize("s", scatter_shape);
  // The window's start in the operand; out of bounds skips the window.
  Index start(static_cast<size_t>(out_type.rank()), "0");
  const auto batch_index = [&](int64_t indices_dim) {
    const auto at = std::find(idx_batch_dims.begin(), idx_batch_dims.end(), indices_dim) - idx_batch_dims.begin();
    return sidx[static_cast<size_t>(at)];
  };
  for (size_t c = 0; c < dn->scatter_dims_to_operand_dims.size(); ++c) {
    Index at(static_cast<size_t>(indices->type().rank()));
    for (int64_t k = 0; k < indices->type().rank(); ++k) {
      at[static_cast<size_t>(k)] = k == ivd ? std::to_string(c) : batch_index(k);
    }
    HLOGRAPH_ASSIGN(std::string v, e.Emit(indices, at));
    start[static_cast<size_t>(dn->scatter_dims_to_operand_dims[c])] = e.IndexVar("(long long)(" + v + ")");
  }
  for (size_t i = 0; i < dn->input_batching_dims.size(); ++i) {
    start[static_cast<size_t>(dn->input_batching_dims[i])] = batch_index(dn->scatter_indices_batching_dims[i]);
  }
  std::vector<int64_t> extent(static_cast<size_t>(out_type.rank()), 1);  // the window's size per operand dim
  for (size_t i = 0; i < operand_window_dims.size() && i < window_shape.size(); ++i) {
    extent[static_cast<size_t>(operand_window_dims[i])] = window_shape[i];
  }
  std::string fits = "true";
  for (size_t d = 0; d < extent.size(); ++d) {
    fits += " && " + start[d] + " >= 0 && " + start[d] + " <= " +
            std::to_string(out_type.dim(static_cast<int64_t>(d)) - extent[d]) + "LL";
  }
  e.Open("if (" + fits + ")");
  e.Open("for (long long w = threadIdx.x; w < " + std::to_string(window_elems) + "LL; w += blockDim.x)");
  const Index widx = e.Delinearize("w", window_shape);
  Index uidx(static_cast<size_t>(upd_type.rank()));
  for (size_t i = 0; i < scatter_dims.size(); ++i) uidx[static_cast<size_t>(scatter_dims[i])] = sidx[i];
  for (size_t i = 0; i < window_dims.size(); ++i) uidx[static_cast<size_t>(window_dims[i])] = widx[i];
  Index target = start;
  for (size_t i = 0; i < operand_window_dims.size(); ++i) {
    const size_t d = static_cast<size_t>(operand_window_dims[i]);
    target[d] = e.IndexVar(start[d] + " + " + widx[i]);
  }
  const std::string t = e.IndexVar(e.Linear(target, out_type.shape()));
  std::vector<std::string> args;
  for (size_t j = 0; j < n; ++j) {
    const std::string cur = e.Fresh("cur");
    e.Line("const " + ct[j] + " " + cur + " = " +
           LoadExpr(op.result(j)->type().element(), "o" + std::to_string(j) + "[" + t + "]") + ";");
    args.push_back(cur);
  }
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(std::string u, e.Emit(op.operand(n + 1 + j), uidx));
    args.push_back(u);
  }
  HLOGRAPH_ASSIGN(std::vector<std::string> next, e.EmitRegion(op.region(0).front(), args));
  for (size_t j = 0; j < n; ++j) {
    e.Line("o" + std::to_string(j) + "[" + t + "] = " + StoreExpr(op.result(j)->type().element(), next[j]) + ";");
  }
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, kBlock));
  LaunchDims launch;
  launch.block = {kBlock, 1, 1};
  launch.grid = {1, 1, 1};
  KernelSource k{f.name, head + body.str() + "}\n", launch, "scatter (one block, windows in order)"};
  return k;
}

}  // namespace hlograph::gpu::emit

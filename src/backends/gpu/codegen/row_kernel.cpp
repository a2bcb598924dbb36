// Row kernels (plan/row_fusion.h): a block per row of the outputs. The
// block folds each row reduction of the fusion in program order (every
// thread loads its few elements, then folds them in order; the warps by
// shuffles, then the warps' results in order: the same bits every call),
// binds the result at the row, then computes the row's output elements.
// A later pass reads the row again from cache, not from HBM.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/row_fusion.h"

namespace hlograph::gpu::emit {

StatusOr<KernelSource> EmitRows(const Fusion& f, const EmitOptions& options) {
  (void)options;
  std::vector<const ir::Operation*> reduces;
  for (const ir::Operation* op : f.ops) {
    if (op->name() == "stablehlo.reduce") reduces.push_back(op);
  }
  if (reduces.empty() || f.outputs.empty()) return Status::Error(f.name + ": a row kernel without a row reduction");
  const std::optional<RowShape> shape = RowReductionShape(*reduces[0]);
  if (!shape) return Status::Error(f.name + ": its first reduce does not fold the trailing dims of one float operand");
  const std::vector<int64_t>& out_shape = f.output_types[0].shape();
  for (const ir::Operation* r : reduces) {
    const std::optional<RowShape> s = RowReductionShape(*r);
    if (!s || s->rows != shape->rows || s->cols != shape->cols || r->operand(0)->type().shape() != out_shape) {
      return Status::Error(f.name + ": its reduces must fold the rows of its output's shape");
    }
  }
  for (const ir::Type& t : f.output_types) {
    if (t.shape() != out_shape) return Status::Error(f.name + ": a row kernel's outputs share one shape");
  }
  const RowKernelLayout l = PlanRowKernel(shape->rows, shape->cols);
  const size_t row_rank = static_cast<size_t>(shape->row_rank);
  const std::vector<int64_t> row_shape(out_shape.begin(), out_shape.begin() + static_cast<std::ptrdiff_t>(row_rank));
  const std::vector<int64_t> col_shape(out_shape.begin() + static_cast<std::ptrdiff_t>(row_rank), out_shape.end());
  const int warps = l.threads / 32;
  const std::string T = std::to_string(l.threads), U = std::to_string(l.loads_in_flight);

  std::ostringstream body;
  BodyEmitter e(f, body);
  e.Line("const long long ROWS = " + std::to_string(l.rows) + "LL, COLS = " + std::to_string(l.cols) + "LL;");
  e.Line("__shared__ float row_slots[" + std::to_string(warps) + "];");
  e.Open("for (long long row = blockIdx.x; row < ROWS; row += gridDim.x)");
  const Index at = e.Delinearize("row", row_shape);
  for (const ir::Operation* r : reduces) {
    const ir::Block& fold_body = r->region(0).front();
    HLOGRAPH_ASSIGN(const std::string init, e.Emit(r->operand(1), Index{}));
    const std::string acc = e.Fresh("acc");
    e.Line("float " + acc + " = " + init + ";");
    // U elements a thread loaded before any is folded, in chunks of U * T.
    e.Open("for (long long base = threadIdx.x; base < COLS; base += " + U + "LL * " + T + "LL)");
    const std::string held = e.Fresh("held");
    e.Line("float " + held + "[" + U + "];");
    e.Line("#pragma unroll");
    e.Open("for (int u = 0; u < " + U + "; ++u)");
    e.Line("const long long i = base + (long long)u * " + T + "LL;");
    e.Open("if (i < COLS)");
    HLOGRAPH_ASSIGN(const std::string v, e.Emit(r->operand(0), e.ReducedOperandIndex(*r, at, "i")));
    e.Line(held + "[u] = " + v + ";");
    e.Close();
    e.Close();
    e.Line("#pragma unroll");
    e.Open("for (int u = 0; u < " + U + "; ++u)");
    e.Open("if (base + (long long)u * " + T + "LL < COLS)");
    HLOGRAPH_ASSIGN(const std::vector<std::string> folded, e.EmitRegion(fold_body, {acc, held + "[u]"}));
    e.Line(acc + " = " + folded[0] + ";");
    e.Close();
    e.Close();
    e.Close();
    HLOGRAPH_ASSIGN(const std::string total, e.FoldOverBlock(fold_body, acc, "row_slots", warps));
    e.Bind(r->result(0), at, total);
  }
  // The row's elements, U a thread at a time.
  e.Line("#pragma unroll " + U);
  e.Open("for (long long i = threadIdx.x; i < COLS; i += " + T + "LL)");
  Index idx = at;
  const Index cols = e.Delinearize("i", col_shape);
  idx.insert(idx.end(), cols.begin(), cols.end());
  for (size_t i = 0; i < f.outputs.size(); ++i) {
    HLOGRAPH_ASSIGN(const std::string v, e.Emit(f.outputs[i], idx));
    e.Line("o" + std::to_string(i) + "[row * COLS + i] = " + StoreExactExpr(f.output_types[i].element(), v) + ";");
  }
  e.Close();
  e.Close();

  KernelSource k;
  k.name = f.name;
  HLOGRAPH_ASSIGN(const std::string head, KernelOpening(f, l.threads));
  k.code = head + body.str() + "}\n";
  k.launch.block = {static_cast<uint32_t>(l.threads), 1, 1};
  k.launch.grid = {static_cast<uint32_t>(std::min<int64_t>(l.rows, int64_t{1} << 30)), 1, 1};
  if (l.rows == 0 || l.cols == 0) k.launch.grid = {0, 1, 1};
  k.strategy = l.ToString();
  return k;
}

}  // namespace hlograph::gpu::emit

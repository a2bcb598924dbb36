// stablehlo.sort: a bitonic network per row in shared memory.
#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

namespace {

// Bytes of one element of the compute type (what shared memory holds).
int ComputeBytes(ir::ElementType e) {
  switch (e) {
    case ir::ElementType::kF16:
    case ir::ElementType::kBF16: return 4;
    default: return ir::StorageBytes(e);
  }
}

}  // namespace

// stablehlo.sort: one block per row (all dims but the sorted one), a
// bitonic network in shared memory over the row padded to a power of two.
// Ties under the comparator keep their original order (the original index
// breaks them), so the sort is stable whether or not is_stable asks.
StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options) {
  constexpr int64_t kSharedLimit = 48 * 1024;
  const ir::Operation& sort = *f.ops.back();
  const size_t n_ops = sort.num_operands();
  const ir::Type& type = sort.operand(0)->type();
  const int64_t dim = IntAttrOf(sort, "dimension");
  const int64_t n = type.dim(dim);
  int64_t padded = 1;
  while (padded < n) padded *= 2;
  int64_t row_bytes = 4;  // the original index
  for (size_t j = 0; j < n_ops; ++j) row_bytes += ComputeBytes(sort.operand(j)->type().element());
  if (padded * row_bytes > kSharedLimit) {
    return Status::Error("sorting rows of " + std::to_string(n) + " elements of " + std::to_string(n_ops) +
                         " operands is not supported on the GPU yet (a row must fit in 48 KiB of shared memory)");
  }
  std::vector<int64_t> row_shape;
  for (int64_t d = 0; d < type.rank(); ++d) {
    if (d != dim) row_shape.push_back(type.dim(d));
  }
  const int64_t rows = n == 0 ? 0 : type.NumElements() / n;

  std::ostringstream body;
  BodyEmitter e(f, body);
  std::vector<std::string> ct(n_ops);
  for (size_t j = 0; j < n_ops; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(sort.operand(j)->type().element()));
    e.Line("__shared__ " + ct[j] + " s" + std::to_string(j) + "[" + std::to_string(padded) + "];");
  }
  e.Line("__shared__ int order[" + std::to_string(padded) + "];");
  e.Line("const int N = " + std::to_string(n) + ", P = " + std::to_string(padded) + ";");
  e.Open("for (long long row = blockIdx.x; row < " + std::to_string(rows) + "LL; row += gridDim.x)");
  // The element at position `pos` of this row, as an index of the operand.
  auto full_index = [&](const std::string& pos) {
    const Index r = e.Delinearize("row", row_shape);
    Index idx;
    for (int64_t d = 0, k = 0; d < type.rank(); ++d) idx.push_back(d == dim ? pos : r[static_cast<size_t>(k++)]);
    return idx;
  };
  e.Open("for (int i = threadIdx.x; i < P; i += blockDim.x)");
  e.Open("if (i < N)");
  const Index at = full_index("i");
  for (size_t j = 0; j < n_ops; ++j) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(sort.operand(j), at));
    e.Line("s" + std::to_string(j) + "[i] = " + v + ";");
  }
  e.Close();
  e.Line("order[i] = i;  // positions past N are padding, sorted last");
  e.Close();
  e.Line("__syncthreads();");
  e.Open("for (int k = 2; k <= P; k <<= 1)");
  e.Open("for (int j = k >> 1; j > 0; j >>= 1)");
  e.Open("for (int i = threadIdx.x; i < P; i += blockDim.x)");
  e.Line("const int partner = i ^ j;");
  e.Open("if (partner > i)");
  e.Line("const bool ascending = (i & k) == 0;");
  e.Line("const int a = ascending ? partner : i, b = ascending ? i : partner;");
  e.Line("// swap when the element in slot a goes before the one in slot b");
  e.Line("bool before;");
  e.Open("if (order[a] >= N || order[b] >= N)");
  e.Line("before = order[b] >= N && order[a] < N;");
  e.Close();
  e.Open("else");
  auto compare = [&](const std::string& x, const std::string& y) -> StatusOr<std::string> {
    std::vector<std::string> args;
    for (size_t j = 0; j < n_ops; ++j) {
      args.push_back("s" + std::to_string(j) + "[" + x + "]");
      args.push_back("s" + std::to_string(j) + "[" + y + "]");
    }
    HLOGRAPH_ASSIGN(std::vector<std::string> r, e.EmitRegion(sort.region(0).front(), args));
    return r[0];
  };
  HLOGRAPH_ASSIGN(std::string ab, compare("a", "b"));
  HLOGRAPH_ASSIGN(std::string ba, compare("b", "a"));
  e.Line("before = (bool)(" + ab + ") || (!(bool)(" + ba + ") && order[a] < order[b]);");
  e.Close();
  e.Open("if (before)");
  for (size_t j = 0; j < n_ops; ++j) {
    const std::string s_j = "s" + std::to_string(j);
    e.Line("{ const " + ct[j] + " t = " + s_j + "[i]; " + s_j + "[i] = " + s_j + "[partner]; " + s_j +
           "[partner] = t; }");
  }
  e.Line("{ const int t = order[i]; order[i] = order[partner]; order[partner] = t; }");
  e.Close();
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  e.Close();
  e.Open("for (int i = threadIdx.x; i < N; i += blockDim.x)");
  const Index out_at = full_index("i");
  for (size_t j = 0; j < n_ops; ++j) {
    e.Line("o" + std::to_string(j) + "[" + e.Linear(out_at, type.shape()) + "] = " +
           StoreExpr(sort.result(j)->type().element(), "s" + std::to_string(j) + "[i]") + ";");
  }
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  const int threads = static_cast<int>(std::min<int64_t>(std::max<int64_t>(padded / 2, 32), 1024));
  HLOGRAPH_ASSIGN(std::string sig, Signature(f, threads));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {static_cast<uint32_t>(std::min<int64_t>(rows, int64_t{1} << 30)), 1, 1};
  KernelSource k{f.name, sig + " {\n" + body.str() + "}\n", launch, "sort (block per row, bitonic)"};
  return k;
}

}  // namespace hlograph::gpu::emit

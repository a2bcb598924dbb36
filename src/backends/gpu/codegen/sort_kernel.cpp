// stablehlo.sort: a bitonic network per row in shared memory.
#include <functional>

#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

namespace {

// Bytes of one element of the compute type (what shared memory holds).
int ComputeBytes(ir::ElementType e) {
  switch (e) {
    case ir::ElementType::kF16:
    case ir::ElementType::kBF16: return 4;
    default: return ir::IsFloat(e) && ir::StorageBytes(e) < 4 ? 4 : ir::StorageBytes(e);  // f8 computes in float
  }
}

}  // namespace

namespace {

// A bitonic sort of each row of `values` (all of one shape; the row runs
// along `dim`) in shared memory, one block per row, the row padded to a
// power of two. `before(a, b)` is the C expression "slot a goes strictly
// before slot b"; order[] holds each slot's original position, so it can
// break ties. `write(i)` stores the outputs for sorted position i < `keep`.
struct RowSort {
  std::vector<const ir::Value*> values;
  int64_t dim = 0;
  int64_t keep = 0;
  std::function<StatusOr<std::string>(BodyEmitter&, const std::string&, const std::string&)> before;
  std::function<Status(BodyEmitter&, const Index& out_at)> write;
  std::vector<int64_t> out_shape;
  std::string strategy;
};

StatusOr<KernelSource> EmitRowSort(const Fusion& f, const RowSort& spec) {
  constexpr int64_t kSharedLimit = 48 * 1024;
  const size_t n_ops = spec.values.size();
  const ir::Type& type = spec.values[0]->type();
  const int64_t dim = spec.dim;
  const int64_t n = type.dim(dim);
  int64_t padded = 1;
  while (padded < n) padded *= 2;
  int64_t row_bytes = 4;  // the original index
  for (size_t j = 0; j < n_ops; ++j) row_bytes += ComputeBytes(spec.values[j]->type().element());
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
  for (size_t j = 0; j < n_ops; ++j) {
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(spec.values[j]->type().element()));
    e.Line("__shared__ " + ct + " s" + std::to_string(j) + "[" + std::to_string(padded) + "];");
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
    HLOGRAPH_ASSIGN(std::string v, e.Emit(spec.values[j], at));
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
  HLOGRAPH_ASSIGN(std::string before, spec.before(e, "a", "b"));
  e.Line("before = " + before + ";");
  e.Close();
  e.Open("if (before)");
  for (size_t j = 0; j < n_ops; ++j) {
    const std::string s_j = "s" + std::to_string(j);
    e.Line("{ const auto t = " + s_j + "[i]; " + s_j + "[i] = " + s_j + "[partner]; " + s_j + "[partner] = t; }");
  }
  e.Line("{ const int t = order[i]; order[i] = order[partner]; order[partner] = t; }");
  e.Close();
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  e.Close();
  e.Open("for (int i = threadIdx.x; i < " + std::to_string(spec.keep) + "; i += blockDim.x)");
  HLOGRAPH_TRY(spec.write(e, full_index("i")));
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  const int threads = static_cast<int>(std::min<int64_t>(std::max<int64_t>(padded / 2, 32), 1024));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, threads));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(threads), 1, 1};
  launch.grid = {static_cast<uint32_t>(std::min<int64_t>(rows, int64_t{1} << 30)), 1, 1};
  return KernelSource{f.name, head + body.str() + "}\n", launch, spec.strategy};
}

}  // namespace

// stablehlo.sort: ties under the comparator keep their original order (the
// original index breaks them), so the sort is stable whether or not
// is_stable asks.
StatusOr<KernelSource> EmitSort(const Fusion& f, const EmitOptions& options) {
  (void)options;
  const ir::Operation& sort = *f.ops.back();
  RowSort spec;
  for (const ir::Value* v : sort.operands()) spec.values.push_back(v);
  const ir::Type& type = sort.operand(0)->type();
  spec.dim = IntAttrOf(sort, "dimension");
  spec.keep = type.dim(spec.dim);
  spec.strategy = "sort (block per row, bitonic)";
  const size_t n_ops = sort.num_operands();
  spec.before = [&](BodyEmitter& e, const std::string& a, const std::string& b) -> StatusOr<std::string> {
    auto compare = [&](const std::string& x, const std::string& y) -> StatusOr<std::string> {
      std::vector<std::string> args;
      for (size_t j = 0; j < n_ops; ++j) {
        args.push_back("s" + std::to_string(j) + "[" + x + "]");
        args.push_back("s" + std::to_string(j) + "[" + y + "]");
      }
      HLOGRAPH_ASSIGN(std::vector<std::string> r, e.EmitRegion(sort.region(0).front(), args));
      return r[0];
    };
    HLOGRAPH_ASSIGN(std::string ab, compare(a, b));
    HLOGRAPH_ASSIGN(std::string ba, compare(b, a));
    return "(bool)(" + ab + ") || (!(bool)(" + ba + ") && order[" + a + "] < order[" + b + "])";
  };
  spec.write = [&](BodyEmitter& e, const Index& out_at) {
    for (size_t j = 0; j < n_ops; ++j) {
      e.Line("o" + std::to_string(j) + "[" + e.Linear(out_at, type.shape()) + "] = " +
             StoreExpr(sort.result(j)->type().element(), "s" + std::to_string(j) + "[i]") + ";");
    }
    return Status::Ok();
  };
  return EmitRowSort(f, spec);
}

// chlo.top_k: the row sorted largest first (floats in IEEE total order,
// ties to the lower index, as the interpreter), the first k kept with
// their original positions.
StatusOr<KernelSource> EmitTopK(const Fusion& f, const EmitOptions& options) {
  (void)options;
  const ir::Operation& op = *f.ops.back();
  const ir::Type& type = op.operand(0)->type();
  const ir::ElementType element = type.element();
  if (type.rank() < 1) return Status::Error("top_k of a scalar");
  RowSort spec;
  spec.values = {op.operand(0)};
  spec.dim = type.rank() - 1;
  spec.keep = op.result(0)->type().shape().back();
  spec.strategy = "top_k (block per row, bitonic)";
  const bool is_float = ir::IsFloat(element);
  spec.before = [&](BodyEmitter&, const std::string& a, const std::string& b) -> StatusOr<std::string> {
    auto key = [&](const std::string& slot) {
      const std::string v = "s0[" + slot + "]";
      // The total-order key is unsigned; as signed, negative floats flip.
      return is_float ? "hlo_total_order_key(" + v + ")" : v;
    };
    return "(" + key(a) + " != " + key(b) + " ? " + key(a) + " > " + key(b) + " : order[" + a + "] < order[" + b +
           "])";
  };
  const ir::Type& out_type = op.result(0)->type();
  spec.write = [&](BodyEmitter& e, const Index& out_at) {
    const std::string at = e.Linear(out_at, out_type.shape());
    e.Line("o0[" + at + "] = " + StoreExpr(element, "s0[i]") + ";");
    e.Line("o1[" + at + "] = order[i];");
    return Status::Ok();
  };
  return EmitRowSort(f, spec);
}

}  // namespace hlograph::gpu::emit

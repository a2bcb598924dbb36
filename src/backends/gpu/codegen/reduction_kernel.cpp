// stablehlo.reduce: thread, warp or block per output element.
#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

namespace {

// Shuffles for any compute type (bool and narrow integers go as int,
// complex numbers part by part).
const char* const kReductionHelpers = R"(
template <typename T>
__device__ __forceinline__ T hlo_shfl_down(T v, int offset) {
  if constexpr (sizeof(T) < 4) {
    return (T)__shfl_down_sync(0xffffffffu, (int)v, offset);
  } else {
    return __shfl_down_sync(0xffffffffu, v, offset);
  }
}
template <typename R>
__device__ __forceinline__ hlo_complex<R> hlo_shfl_down(hlo_complex<R> v, int offset) {
  return hlo_cplx<R>(__shfl_down_sync(0xffffffffu, v.re, offset), __shfl_down_sync(0xffffffffu, v.im, offset));
}
)";

}  // namespace

StatusOr<KernelSource> EmitReduction(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& reduce = *f.ops.back();
  const size_t n = reduce.num_operands() / 2;
  const ir::Type& in_type = reduce.operand(0)->type();
  const ir::Type& out_type = reduce.result(0)->type();
  std::vector<int64_t> reduced = I64s(reduce, "dimensions");
  std::sort(reduced.begin(), reduced.end());
  std::vector<int64_t> kept, reduced_shape;
  for (int64_t d = 0; d < in_type.rank(); ++d) {
    if (!std::binary_search(reduced.begin(), reduced.end(), d)) kept.push_back(d);
  }
  for (int64_t d : reduced) reduced_shape.push_back(in_type.dim(d));
  int64_t rows = out_type.NumElements(), cols = 1;
  for (int64_t s : reduced_shape) cols *= s;
  // Row-like when the reduced dims are the innermost ones: a row is
  // contiguous and threads of a warp read neighbouring elements.
  bool trailing = true;
  for (size_t i = 0; i < reduced.size(); ++i) {
    if (reduced[i] != in_type.rank() - static_cast<int64_t>(reduced.size() - i)) trailing = false;
  }
  enum class Strategy { kThread, kWarp, kBlock };
  Strategy strategy = Strategy::kThread;
  // A block per row also when the rows are too few to fill the device with
  // warps (a layer norm's one row, softmax over a dozen heads): each thread
  // then reads a few elements instead of each lane a long serial run.
  if (trailing && (cols >= 2048 || (cols >= 512 && rows < options.sm_count))) {
    strategy = Strategy::kBlock;
  } else if (trailing && cols >= 64) {
    strategy = Strategy::kWarp;
  }

  std::ostringstream body;
  BodyEmitter e(f, body);
  const ir::Block& region = reduce.region(0).front();
  std::vector<std::string> acc(n), ct(n);
  for (size_t j = 0; j < n; ++j) {
    HLOGRAPH_ASSIGN(ct[j], ComputeType(reduce.result(j)->type().element()));
    acc[j] = "acc" + std::to_string(j);
  }
  auto combine = [&](const std::vector<std::string>& others) -> Status {
    std::vector<std::string> args = acc;
    args.insert(args.end(), others.begin(), others.end());
    HLOGRAPH_ASSIGN(std::vector<std::string> next, e.EmitRegion(region, args));
    for (size_t j = 0; j < n; ++j) e.Line(acc[j] + " = " + next[j] + ";");
    return Status::Ok();
  };
  // acc = body(acc, operands at the element r of output `out`); with a
  // `lane`, inputs read at that element come from vector registers.
  auto accumulate = [&](const std::string& out_var, const std::string& r_var, const std::string& lane = "") -> Status {
    const Index out_idx = e.Delinearize(out_var, out_type.shape());
    const Index red_idx = e.Delinearize(r_var, reduced_shape);
    Index full(static_cast<size_t>(in_type.rank()));
    for (size_t i = 0; i < kept.size(); ++i) full[static_cast<size_t>(kept[i])] = out_idx[i];
    for (size_t i = 0; i < reduced.size(); ++i) full[static_cast<size_t>(reduced[i])] = red_idx[i];
    if (!lane.empty()) e.ReadOwnElementFromRegisters(full, in_type.shape(), lane);
    std::vector<std::string> xs;
    for (size_t j = 0; j < n; ++j) {
      HLOGRAPH_ASSIGN(std::string x, e.Emit(reduce.operand(j), full));
      xs.push_back(x);
    }
    e.ReadOwnElementFromRegisters({}, {}, "");
    return combine(xs);
  };
  auto init = [&]() -> Status {
    for (size_t j = 0; j < n; ++j) {
      HLOGRAPH_ASSIGN(std::string v, e.Emit(reduce.operand(n + j), Index{}));
      e.Line(ct[j] + " " + acc[j] + " = " + v + ";");
    }
    return Status::Ok();
  };
  auto store = [&](const std::string& out_var) {
    for (size_t j = 0; j < n; ++j) {
      e.Line("o" + std::to_string(j) + "[" + out_var + "] = " +
             StoreExpr(reduce.result(j)->type().element(), acc[j]) + ";");
    }
  };
  // Folds lanes [0, 2 * first_offset) of each warp into lane 0.
  auto warp_reduce = [&](int first_offset) -> Status {
    e.Open("for (int offset = " + std::to_string(first_offset) + "; offset > 0; offset /= 2)");
    std::vector<std::string> others;
    for (size_t j = 0; j < n; ++j) {
      const std::string o = e.Fresh("other");
      e.Line("const " + ct[j] + " " + o + " = hlo_shfl_down(" + acc[j] + ", offset);");
      others.push_back(o);
    }
    HLOGRAPH_TRY(combine(others));
    e.Close();
    return Status::Ok();
  };

  LaunchDims launch;
  std::string strategy_name;
  bool vectorized = false;
  e.Line("const long long ROWS = " + std::to_string(rows) + "LL, COLS = " + std::to_string(cols) + "LL;");
  if (strategy == Strategy::kThread) {
    strategy_name = "reduction (thread per output)";
    launch = GridStride(rows, options);
    e.Open("for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < ROWS; "
           "row += (long long)gridDim.x * blockDim.x)");
    HLOGRAPH_TRY(init());
    e.Open("for (long long col = 0; col < COLS; ++col)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    store("row");
    e.Close();
  } else if (strategy == Strategy::kWarp) {
    strategy_name = "row reduction (warp per row)";
    const int64_t warps = kThreads / 32;
    launch.block = {kThreads, 1, 1};
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>((rows + warps - 1) / warps, int64_t{1} << 30)), 1, 1};
    e.Line("const int lane = threadIdx.x % 32;");
    e.Open("for (long long row = (long long)blockIdx.x * " + std::to_string(warps) +
           " + threadIdx.x / 32; row < ROWS; row += (long long)gridDim.x * " + std::to_string(warps) + ")");
    HLOGRAPH_TRY(init());
    e.Line("#pragma unroll 4");
    e.Open("for (long long col = lane; col < COLS; col += 32)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    HLOGRAPH_TRY(warp_reduce(16));
    e.Open("if (lane == 0)");
    store("row");
    e.Close();
    e.Close();
  } else {
    strategy_name = "row reduction (block per row)";
    launch.block = {kThreads, 1, 1};
    launch.grid = {static_cast<uint32_t>(std::min<int64_t>(rows, int64_t{1} << 30)), 1, 1};
    for (size_t j = 0; j < n; ++j) e.Line("__shared__ " + ct[j] + " partial" + std::to_string(j) + "[32];");
    e.Line("const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;");
    e.Open("for (long long row = blockIdx.x; row < ROWS; row += gridDim.x)");
    HLOGRAPH_TRY(init());
    // Inputs shaped like the reduced operand are read four elements at a
    // time when the rows allow it (a row a multiple of 4, aligned pointers).
    std::string aligned, loads;
    for (size_t k = 0; k < f.inputs.size(); ++k) {
      const ir::Type& t = f.input_types[k];
      if (t.shape() != in_type.shape() || !IsVectorizable(t.element())) continue;
      HLOGRAPH_ASSIGN(std::string st, StorageType(t.element()));
      const std::string p = "p" + std::to_string(k);
      aligned += " | (unsigned long long)" + p + " % " + std::to_string(4 * ir::StorageBytes(t.element()));
      loads += "const hlo_vec4<" + st + "> q" + std::to_string(k) + " = ((const hlo_vec4<" + st + ">*)" + p +
               ")[row * (COLS / 4) + c4];";
    }
    vectorized = cols % 4 == 0 && !aligned.empty();
    if (vectorized) {
      e.Open("if ((0" + aligned + ") == 0)");
      e.Line("#pragma unroll 2");
      e.Open("for (long long c4 = threadIdx.x; c4 < COLS / 4; c4 += blockDim.x)");
      e.Line(loads);
      e.Line("#pragma unroll");
      e.Open("for (int u = 0; u < 4; ++u)");
      e.Line("const long long col = c4 * 4 + u;");
      HLOGRAPH_TRY(accumulate("row", "col", "u"));
      e.Close();
      e.Close();
      e.Close();
      e.Open("else");
    }
    e.Line("#pragma unroll 4");
    e.Open("for (long long col = threadIdx.x; col < COLS; col += blockDim.x)");
    HLOGRAPH_TRY(accumulate("row", "col"));
    e.Close();
    if (vectorized) e.Close();
    HLOGRAPH_TRY(warp_reduce(16));
    e.Open("if (lane == 0)");
    for (size_t j = 0; j < n; ++j) e.Line("partial" + std::to_string(j) + "[warp] = " + acc[j] + ";");
    e.Close();
    e.Line("__syncthreads();");
    e.Open("if (warp == 0)");
    e.Open("if (lane < " + std::to_string(kThreads / 32) + ")");
    for (size_t j = 0; j < n; ++j) e.Line(acc[j] + " = partial" + std::to_string(j) + "[lane];");
    e.Close();
    HLOGRAPH_TRY(warp_reduce(kThreads / 64));  // one partial per warp
    e.Open("if (lane == 0)");
    store("row");
    e.Close();
    e.Close();
    e.Line("__syncthreads();");
    e.Close();
  }
  if (vectorized) strategy_name += ", 4-element vector loads";
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  KernelSource k{f.name, std::string(kReductionHelpers) + (vectorized ? kVec4 : "") + head + body.str() + "}\n", launch, strategy_name};
  if (rows == 0) k.launch.grid = {0, 1, 1};
  return k;
}

}  // namespace hlograph::gpu::emit

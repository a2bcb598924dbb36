// Loop kernels (one thread per output element) and GEMM-operand transposes.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/plan_options.h"

#include <cstdlib>

namespace hlograph::gpu::emit {

namespace {

// Large loop kernels move four elements per load and store where they can:
// inputs read at the element being computed and the outputs go through
// 4-element vectors (hlo_vec4, e.g. one 16-byte access for f32) when every
// such pointer is aligned for it (checked when the kernel runs; buffers are
// 256-byte aligned, but a caller's argument need not be). Otherwise each
// thread takes four elements a block apart per step, so that several loads
// are in flight: one load per thread does not cover HBM latency.
constexpr int kUnroll = 4;
constexpr int64_t kUnrollMinElements = int64_t{1} << 20;
constexpr size_t kUnrollMaxBodyBytes = 6000;  // long bodies (window loops) stay rolled

// Loop kernels side by side (Fusion::side_by_side): outputs of different
// shapes, each computed by the threads below its element count, one
// thread's elements of every output in one pass.
StatusOr<KernelSource> EmitSideBySide(const Fusion& f, const EmitOptions& options) {
  std::vector<const ir::Type*> shapes;  // an output of each shape, in order of first appearance
  int64_t n = 0;
  for (const ir::Type& t : f.output_types) {
    const auto same = [&](const ir::Type* s) { return s->shape() == t.shape(); };
    if (std::none_of(shapes.begin(), shapes.end(), same)) shapes.push_back(&t);
    n = std::max(n, t.NumElements());
  }
  std::ostringstream body;
  BodyEmitter e(f, body);
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  for (const ir::Type* shape : shapes) {
    e.Open(shape->NumElements() < n ? "if (lin < " + std::to_string(shape->NumElements()) + "LL)" : "");
    const Index idx = e.Delinearize("lin", shape->shape());
    for (size_t i = 0; i < f.outputs.size(); ++i) {
      if (f.output_types[i].shape() != shape->shape()) continue;
      HLOGRAPH_ASSIGN(std::string v, e.Emit(f.outputs[i], idx));
      e.Line("o" + std::to_string(i) + "[lin] = " + StoreExactExpr(f.output_types[i].element(), v) + ";");
    }
    e.Close();
  }
  e.Close();
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  return KernelSource{f.name, head + body.str() + "}\n", GridStride(n, options),
                      "loop (" + std::to_string(f.side_by_side) + " kernels side by side)"};
}

}  // namespace

StatusOr<KernelSource> EmitLoop(const Fusion& f, const EmitOptions& options) {
  if (f.side_by_side > 1) return EmitSideBySide(f, options);
  const ir::Type& type = f.output_types[0];
  for (const ir::Type& t : f.output_types) {
    if (t.shape() != type.shape()) return Status::Error("internal error: a loop kernel's outputs differ in shape");
  }
  const int64_t n = type.NumElements();
  // The body for the element at `lin`, emitted into its own stream; with a
  // `lane`, inputs read at that element and the outputs use registers.
  std::set<int> vector_inputs, row_inputs;
  auto element = [&](int indent, const std::string& lane = "") -> StatusOr<std::string> {
    std::ostringstream out;
    BodyEmitter e(f, out, indent);
    const Index idx = e.Delinearize("lin", type.shape());
    if (!lane.empty()) {
      e.ReadOwnElementFromRegisters(idx, type.shape(), lane);
      // HLOGRAPH_GPU_ROW_VECTORS=0: row vectors read element by element.
      if (PlanOptions::Current().row_vectors) e.ReadRowVectorsFromRegisters();
    }
    for (size_t i = 0; i < f.outputs.size(); ++i) {
      HLOGRAPH_ASSIGN(std::string v, e.Emit(f.outputs[i], idx));
      const std::string dst = lane.empty() ? "o" + std::to_string(i) + "[lin]" : "w" + std::to_string(i) + ".v[" + lane + "]";
      e.Line(dst + " = " + StoreExactExpr(f.output_types[i].element(), v) + ";");
    }
    if (!lane.empty()) {
      vector_inputs = e.own_reads();
      row_inputs = e.row_reads();
    }
    return out.str();
  };
  std::ostringstream body;
  body << "  const long long N = " << n << "LL;\n";
  HLOGRAPH_ASSIGN(std::string one, element(4));
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  if (n < kUnrollMinElements || one.size() > kUnrollMaxBodyBytes) {
    body << "  " << kGridStrideLoop << " {\n" << one << "  }\n";
    return KernelSource{f.name, head + body.str() + "}\n", GridStride(n, options), "loop"};
  }
  const bool vectorize = std::all_of(f.output_types.begin(), f.output_types.end(),
                                     [](const ir::Type& t) { return IsVectorizable(t.element()); });
  std::string strategy = "loop (4 elements per thread, a block apart)";
  if (vectorize) {
    HLOGRAPH_ASSIGN(std::string lanes, element(10, "u"));
    std::string aligned;
    std::ostringstream loads, picks, stores, declare;
    auto add = [&](const std::string& ptr, ir::ElementType t) -> Status {
      HLOGRAPH_ASSIGN(std::string st, StorageType(t));
      aligned += (aligned.empty() ? "" : " | ") + std::string("(unsigned long long)") + ptr + " % " +
                 std::to_string(4 * ir::StorageBytes(t));
      return Status::Ok();
    };
    // Each thread loads the vectors of two steps before computing either:
    // one vector in flight per thread does not cover HBM latency (8-byte
    // vectors of 16-bit types least).
    for (int k : vector_inputs) {
      const ir::ElementType t = f.input_types[static_cast<size_t>(k)].element();
      HLOGRAPH_ASSIGN(std::string st, StorageType(t));
      HLOGRAPH_TRY(add("p" + std::to_string(k), t));
      const std::string q = "q" + std::to_string(k), vec = "hlo_vec4<" + st + ">";
      loads << "      " << vec << " " << q << "_pair[2];\n"
            << "#pragma unroll\n"
            << "      for (int r = 0; r < 2; ++r) {\n"
            << "        if (pair[r] < N / 4) " << q << "_pair[r] = ((const " << vec << "*)p" << k << ")[pair[r]];\n"
            << "      }\n";
      picks << "        const " << vec << "& " << q << " = " << q << "_pair[r];\n";
    }
    // A row vector's four elements for the four lanes, one load (without
    // it, two scalar loads per element of a bias and scale bound a bf16
    // loop by its load instructions: docs/PERF.md).
    const std::string row_length = type.shape().empty() ? "1" : std::to_string(type.shape().back());
    for (int k : row_inputs) {
      const ir::ElementType t = f.input_types[static_cast<size_t>(k)].element();
      HLOGRAPH_ASSIGN(std::string st, StorageType(t));
      HLOGRAPH_TRY(add("p" + std::to_string(k), t));
      const std::string vec = "hlo_vec4<" + st + ">";
      picks << "        const " << vec << " r" << k << " = ((const " << vec << "*)p" << k << ")[v * 4 % " << row_length
            << "LL / 4];\n";
    }
    for (size_t i = 0; i < f.output_types.size(); ++i) {
      const ir::ElementType t = f.output_types[i].element();
      HLOGRAPH_ASSIGN(std::string st, StorageType(t));
      HLOGRAPH_TRY(add("o" + std::to_string(i), t));
      declare << "        hlo_vec4<" << st << "> w" << i << ";\n";
      stores << "        ((hlo_vec4<" << st << ">*)o" << i << ")[v] = w" << i << ";\n";
    }
    body << "  if (((" << aligned << ")) == 0) {\n"
         << "    const long long stride = (long long)gridDim.x * blockDim.x;\n"
         << "    for (long long v0 = (long long)blockIdx.x * blockDim.x + threadIdx.x; v0 < N / 4; v0 += 2 * stride) {\n"
         << "      const long long pair[2] = {v0, v0 + stride};\n"
         << loads.str() << "#pragma unroll\n"
         << "      for (int r = 0; r < 2; ++r) {\n"
         << "        const long long v = pair[r];\n"
         << "        if (v >= N / 4) break;\n"
         << picks.str() << declare.str() << "#pragma unroll\n"
         << "        for (int u = 0; u < 4; ++u) {\n"
         << "          const long long lin = v * 4 + u;\n"
         << lanes << "        }\n"
         << stores.str() << "      }\n"
         << "    }\n"
         << "    // The last N % 4 elements.\n"
         << "    for (long long lin = N / 4 * 4 + (long long)blockIdx.x * blockDim.x + threadIdx.x; lin < N; "
            "lin += (long long)gridDim.x * blockDim.x) {\n"
         << one << "    }\n"
         << "    return;\n"
         << "  }\n";
    strategy = "loop (4-element vectors, two in flight per thread; 4 a block apart when unaligned)";
  }
  HLOGRAPH_ASSIGN(std::string inner, element(8));
  const std::string u = std::to_string(kUnroll);
  body << "  const long long step = (long long)blockDim.x * " << u << ";\n"
       << "  for (long long base = (long long)blockIdx.x * step + threadIdx.x; base < N; base += (long long)gridDim.x * step) {\n"
       << "    if (base + " << kUnroll - 1 << "LL * blockDim.x < N) {\n"
       << "#pragma unroll\n"
       << "      for (int u = 0; u < " << u << "; ++u) {\n"
       << "        const long long lin = base + (long long)u * blockDim.x;\n"
       << inner << "      }\n"
       << "    } else {\n"
       << "      for (int u = 0; u < " << u << "; ++u) {\n"
       << "        const long long lin = base + (long long)u * blockDim.x;\n"
       << "        if (lin >= N) break;\n"
       << inner << "      }\n"
       << "    }\n"
       << "  }\n";
  return KernelSource{f.name, std::string(vectorize ? kVec4 : "") + head + body.str() + "}\n",
                      GridStride((n + kUnroll - 1) / kUnroll, options), strategy};
}

// A dynamic_update_slice written into its operand's buffer (a loop's state
// that nothing else reads): one thread per element of the update.
StatusOr<KernelSource> EmitUpdateSliceInPlace(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& op = *f.ops.back();
  const ir::Type& big = op.operand(0)->type();
  const ir::Value* update = op.operand(1);
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = update->type().NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  HLOGRAPH_ASSIGN(const Index starts, e.ClampedStarts(op, 2, big.shape(), update->type().shape()));
  const Index idx = e.Delinearize("lin", update->type().shape());
  Index at(idx.size());
  for (size_t d = 0; d < idx.size(); ++d) at[d] = e.IndexVar(idx[d] + " + " + starts[d]);
  HLOGRAPH_ASSIGN(std::string v, e.Emit(update, idx));
  e.Line("o0[" + e.Linear(at, big.shape()) + "] = " + StoreExpr(big.element(), v) + ";");
  e.Close();
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  return KernelSource{f.name, head + body.str() + "}\n", GridStride(n, options),
                      "dynamic_update_slice in place (thread per updated element)"};
}

namespace {

// A transpose that moves the input's contiguous dim `a` away from the
// output's contiguous dim (input dim `b`), as a tiled copy: a block reads a
// 32 x 32 tile along a (coalesced), stages it in shared memory, and writes it
// along b (coalesced), for each combination of the other dims. The naive
// loop reads one element per 32-byte sector on one side (5% of HBM for an
// int8 matrix).
// The input permuted: the layout the kernel writes (its output may be a
// row-major reshape of it).
ir::Type PermutedInput(const Fusion& f) {
  const ir::Type& in = f.input_types[0];
  std::vector<int64_t> shape;
  for (int64_t d : f.permutation) shape.push_back(in.dim(d));
  return ir::Type::Tensor(in.element(), shape);
}

StatusOr<KernelSource> EmitTiledTranspose(const Fusion& f, const EmitOptions& options) {
  const ir::Type& in = f.input_types[0];
  const ir::Type out = PermutedInput(f);
  const int64_t rank = in.rank();
  const int64_t a = rank - 1, b = f.permutation.back();
  std::vector<int64_t> in_stride(static_cast<size_t>(rank), 1), out_stride(static_cast<size_t>(rank), 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    in_stride[static_cast<size_t>(d)] = in_stride[static_cast<size_t>(d + 1)] * in.dim(d + 1);
    out_stride[static_cast<size_t>(d)] = out_stride[static_cast<size_t>(d + 1)] * out.dim(d + 1);
  }
  // Input dim d lands at output dim pos[d]; its stride there.
  std::vector<int64_t> to_out(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) {
    to_out[static_cast<size_t>(f.permutation[static_cast<size_t>(i)])] = out_stride[static_cast<size_t>(i)];
  }
  constexpr int64_t kTile = 32, kRowsPerPass = 8;
  const int64_t A = in.dim(a), B = in.dim(b), TA = (A + kTile - 1) / kTile, TB = (B + kTile - 1) / kTile;
  int64_t rest = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != a && d != b) rest *= in.dim(d);
  }
  const int64_t tiles = TA * TB * rest;
  HLOGRAPH_ASSIGN(const std::string st, StorageType(in.element()));
  const auto L = [](int64_t v) { return std::to_string(v) + "LL"; };
  std::ostringstream body;
  body << "  __shared__ " << st << " tile[" << kTile << "][" << kTile + 1 << "];\n";
  body << "  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;\n";
  body << "  for (long long t = blockIdx.x; t < " << L(tiles) << "; t += gridDim.x) {\n";
  body << "    const long long ta = t % " << L(TA) << ", tb = (t / " << L(TA) << ") % " << L(TB)
       << ", r = t / " << L(TA * TB) << ";\n";
  // The other dims from r (row-major over them, in input order): their
  // offsets in the input and in the output.
  body << "    long long in_base = 0, out_base = 0, rr = r;\n";
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (d == a || d == b) continue;
    body << "    { const long long i = rr % " << L(in.dim(d)) << "; rr /= " << L(in.dim(d)) << "; in_base += i * "
         << L(in_stride[static_cast<size_t>(d)]) << "; out_base += i * " << L(to_out[static_cast<size_t>(d)]) << "; }\n";
  }
  body << "    #pragma unroll\n";
  body << "    for (int j = 0; j < " << kTile << "; j += " << kRowsPerPass << ") {\n";
  body << "      const long long ia = ta * 32 + tx, ib = tb * 32 + ty + j;\n";
  body << "      if (ia < " << L(A) << " && ib < " << L(B) << ") tile[ty + j][tx] = p0[in_base + ib * "
       << L(in_stride[static_cast<size_t>(b)]) << " + ia];\n";
  body << "    }\n";
  body << "    __syncthreads();\n";
  body << "    #pragma unroll\n";
  body << "    for (int j = 0; j < " << kTile << "; j += " << kRowsPerPass << ") {\n";
  body << "      const long long ib = tb * 32 + tx, ia = ta * 32 + ty + j;\n";
  body << "      if (ia < " << L(A) << " && ib < " << L(B) << ") o0[out_base + ia * "
       << L(to_out[static_cast<size_t>(a)]) << " + ib] = tile[tx][ty + j];\n";
  body << "    }\n";
  body << "    __syncthreads();\n";
  body << "  }\n";
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, static_cast<int>(kTile * kRowsPerPass)));
  LaunchDims launch;
  launch.block = {static_cast<uint32_t>(kTile * kRowsPerPass), 1, 1};
  launch.grid = {static_cast<uint32_t>(std::min<int64_t>(tiles, int64_t{options.sm_count} * 64)), 1, 1};
  if (tiles == 0) launch.grid = {0, 1, 1};
  return KernelSource{f.name, head + body.str() + "}\n", launch, "transpose (32 x 32 tiles in shared memory)"};
}

}  // namespace

StatusOr<KernelSource> EmitTranspose(const Fusion& f, const EmitOptions& options) {
  const ir::Type& in = f.input_types[0];
  const ir::Type out = PermutedInput(f);
  // Tiles pay when both the read and the write dims are long enough to
  // fill a tile's rows.
  if (f.reversed.empty() && in.rank() >= 2 && f.permutation.back() != in.rank() - 1 &&
      in.dim(in.rank() - 1) >= 16 && in.dim(f.permutation.back()) >= 16) {
    return EmitTiledTranspose(f, options);
  }
  std::ostringstream body;
  BodyEmitter e(f, body);
  const int64_t n = out.NumElements();
  e.Line("const long long N = " + std::to_string(n) + "LL;");
  e.Open(kGridStrideLoop);
  const Index idx = e.Delinearize("lin", out.shape());
  Index src(idx.size());
  for (size_t i = 0; i < f.permutation.size(); ++i) src[static_cast<size_t>(f.permutation[i])] = idx[i];
  for (int64_t d : f.reversed) {
    const int64_t from = f.permutation[static_cast<size_t>(d)];
    src[static_cast<size_t>(from)] = "(" + std::to_string(in.dim(from) - 1) + "LL - " + idx[static_cast<size_t>(d)] + ")";
  }
  e.Line("o0[lin] = p0[" + e.Linear(src, in.shape()) + "];");
  e.Close();
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  KernelSource k{f.name, head + body.str() + "}\n", GridStride(n, options), "transpose"};
  return k;
}

}  // namespace hlograph::gpu::emit

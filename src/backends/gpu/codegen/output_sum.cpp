#include "backends/gpu/codegen/output_sum.h"

#include <algorithm>

namespace hlograph::gpu::emit {
namespace {

constexpr const char* kWrapped = "unsigned long long";
// Integer operands into a result of at most 32 bits: the low 32 bits of
// the sum are the same, at half the multiply's cost.
constexpr const char* kWrapped32 = "unsigned int";

bool IsWrapped(const std::string& acc_type) { return acc_type == kWrapped || acc_type == kWrapped32; }

const char* const kFloatToWrapped = R"(
__device__ __forceinline__ unsigned long long hlo_conv_to_wrapped(double v) {
  if (!(v == v)) return 0ULL;
  if (v >= 9.2233720368547758e18) return 0x7fffffffffffffffULL;
  if (v <= -9.2233720368547758e18) return 0x8000000000000000ULL;
  return (unsigned long long)(long long)v;
}
)";

std::string AccumulatorType(ir::ElementType result, const std::vector<ir::ElementType>& operands) {
  if (result == ir::ElementType::kF64) return "double";
  if (ir::IsFloat(result)) return "float";
  const bool integers = std::all_of(operands.begin(), operands.end(), [](ir::ElementType t) {
    return ir::IsInteger(t) || ir::IsBool(t);
  });
  return integers && ir::BitWidth(result) <= 32 ? kWrapped32 : kWrapped;
}

StatusOr<std::string> FromAccumulator(ir::ElementType result, const std::string& acc) {
  if (ir::IsBool(result)) return "(" + acc + " != 0)";
  HLOGRAPH_ASSIGN(std::string ct, ComputeType(result));
  return "(" + ct + ")(" + acc + ")";
}

}  // namespace

std::string ToAccumulator(ir::ElementType t, const std::string& value, const std::string& acc_type) {
  const StatusOr<std::string> ct = ComputeType(t);
  if (ct.ok() && ct.value() == acc_type) return value;
  if (!IsWrapped(acc_type)) return "(" + acc_type + ")(" + value + ")";
  if (ir::IsFloat(t)) return "hlo_conv_to_wrapped((double)(" + value + "))";
  return "(" + acc_type + ")(long long)(" + value + ")";
}

StatusOr<KernelSource> EmitOutputSums(
    const Fusion& f, const OutputSum& sum, const EmitOptions& options,
    const std::function<Status(BodyEmitter& e, const Index& out, const std::string& acc_type)>& add_product) {
  const int64_t n = sum.out_type.NumElements();
  const bool per_warp = sum.terms >= 128 && n < int64_t{options.sm_count} * 2048;
  constexpr int64_t kWarps = kThreads / 32;
  const std::string acc_type = AccumulatorType(sum.out_type.element(), sum.operand_types);
  std::ostringstream body;
  BodyEmitter e(f, body);
  if (n > 0) {  // (no index to split by a zero extent otherwise)
    e.Line("const long long N = " + std::to_string(n) + "LL;");
    if (per_warp) {
      e.Line("const int lane = threadIdx.x % 32;");
      e.Open("for (long long lin = (long long)blockIdx.x * " + std::to_string(kWarps) +
             " + threadIdx.x / 32; lin < N; lin += (long long)gridDim.x * " + std::to_string(kWarps) + ")");
    } else {
      e.Open(kGridStrideLoop);
    }
    const Index out = e.Delinearize("lin", sum.out_type.shape());
    e.Line(acc_type + " acc = 0;");
    if (sum.terms > 0) {
      e.Open(per_warp ? "for (long long r = lane; r < " + std::to_string(sum.terms) + "LL; r += 32)"
                      : "for (long long r = 0; r < " + std::to_string(sum.terms) + "LL; ++r)");
      HLOGRAPH_TRY(add_product(e, out, acc_type));
      e.Close();
    }
    HLOGRAPH_ASSIGN(std::string result, FromAccumulator(sum.out_type.element(), "acc"));
    const std::string store = "o0[lin] = " + StoreExpr(sum.out_type.element(), result) + ";";
    if (per_warp) {
      e.Line("for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);");
      e.Line("if (lane == 0) " + store);
    } else {
      e.Line(store);
    }
    e.Close();
  }

  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  const bool float_into_integers =
      IsWrapped(acc_type) &&
      std::any_of(sum.operand_types.begin(), sum.operand_types.end(), [](ir::ElementType t) { return ir::IsFloat(t); });
  LaunchDims launch = GridStride(n, options);
  if (per_warp) {
    const int64_t blocks = std::min<int64_t>((n + kWarps - 1) / kWarps, int64_t{options.sm_count} * 16);
    launch.grid = {static_cast<uint32_t>(blocks), 1, 1};
  }
  const std::string what = sum.what;
  return KernelSource{f.name, std::string(float_into_integers ? kFloatToWrapped : "") + head + body.str() + "}\n",
                      launch, what + (per_warp ? " (warp per output)" : " (thread per output)")};
}

}  // namespace hlograph::gpu::emit

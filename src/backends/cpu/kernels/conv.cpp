// convolution and dynamic_conv, per the StableHLO spec: any dimension
// numbers, strides, (negative) padding, lhs/rhs dilation, window reversal,
// feature groups and batch groups, and mixed element types (i8 x i8 -> i32)
// with the accumulation rules of dot_general.
//
// The input is brought to [N, C, spatial...] and the kernel to
// [O, Ci, kernel spatial...] (reversed where asked). Each group is then an
// im2col GEMM: rows are (output batch, output position), columns are
// (input feature in the group, kernel position), built in bounded chunks of
// rows. The output is produced as [N/batch_groups, output spatial..., O]
// and permuted into the result's layout.
#include <cstring>  // element_types.h uses std::memcpy
#include <algorithm>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/linalg_internal.h"
#include "ir/verify/verify_util.h"

namespace hlograph::cpu::linalg {
namespace {

// The elements of one im2col chunk are bounded so large convolutions do not
// materialise the whole patch matrix.
constexpr int64_t kPatchBudget = int64_t{1} << 22;

struct ConvParams {
  std::vector<int64_t> strides, lhs_dilation, rhs_dilation;
  std::vector<std::pair<int64_t, int64_t>> padding;
  std::vector<bool> reversal;
  int64_t feature_groups = 1, batch_groups = 1;
};

StatusOr<ConvParams> ReadWindow(const ir::Operation& op, int64_t spatial) {
  ConvParams p;
  HLOGRAPH_ASSIGN(p.strides, ir::verify::WindowAttr(op, "window_strides", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(p.lhs_dilation, ir::verify::WindowAttr(op, "lhs_dilation", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(p.rhs_dilation, ir::verify::WindowAttr(op, "rhs_dilation", spatial, "the spatial rank"));
  const std::vector<int64_t> reversal = I64Array(op, "window_reversal");
  p.reversal.assign(static_cast<size_t>(spatial), false);
  for (size_t i = 0; i < reversal.size() && i < p.reversal.size(); ++i) p.reversal[i] = reversal[i] != 0;
  p.feature_groups = IntAttr(op, "feature_group_count", 1);
  p.batch_groups = IntAttr(op, "batch_group_count", 1);
  return p;
}

template <typename A>
void RunConv(const Tensor& lhs, const Tensor& rhs, const ir::ConvDimsAttr& dn, const ConvParams& p, Tensor& result) {
  const size_t s_rank = dn.input_spatial.size();
  const std::vector<int64_t>& ls = lhs.shape();
  const std::vector<int64_t>& ks = rhs.shape();
  const std::vector<int64_t>& rs = result.shape();
  const int64_t batch = ls[static_cast<size_t>(dn.input_batch)];
  const int64_t features = ls[static_cast<size_t>(dn.input_feature)];
  const int64_t out_features = ks[static_cast<size_t>(dn.kernel_output_feature)];
  const int64_t kernel_in = ks[static_cast<size_t>(dn.kernel_input_feature)];
  const int64_t groups = p.feature_groups * p.batch_groups;
  const int64_t out_batch = batch / p.batch_groups;
  const int64_t group_out = out_features / groups;

  std::vector<int64_t> in_sp(s_rank), k_sp(s_rank), out_sp(s_rank);
  for (size_t d = 0; d < s_rank; ++d) {
    in_sp[d] = ls[static_cast<size_t>(dn.input_spatial[d])];
    k_sp[d] = ks[static_cast<size_t>(dn.kernel_spatial[d])];
    out_sp[d] = rs[static_cast<size_t>(dn.output_spatial[d])];
  }
  int64_t in_vol = 1, k_vol = 1, out_vol = 1;
  for (size_t d = 0; d < s_rank; ++d) {
    in_vol *= in_sp[d];
    k_vol *= k_sp[d];
    out_vol *= out_sp[d];
  }
  const std::vector<int64_t> in_strides = RowMajorStrides(in_sp);

  // Canonical layouts in the accumulator type.
  std::vector<int64_t> in_perm = {dn.input_batch, dn.input_feature};
  in_perm.insert(in_perm.end(), dn.input_spatial.begin(), dn.input_spatial.end());
  const std::vector<A> in = GatherAs<A>(lhs, in_perm);
  std::vector<int64_t> k_perm = {dn.kernel_output_feature, dn.kernel_input_feature};
  k_perm.insert(k_perm.end(), dn.kernel_spatial.begin(), dn.kernel_spatial.end());
  std::vector<bool> k_reverse(ks.size(), false);
  for (size_t d = 0; d < s_rank; ++d) k_reverse[static_cast<size_t>(dn.kernel_spatial[d])] = p.reversal[d];
  const std::vector<A> kernel = GatherAs<A>(rhs, k_perm, k_reverse);

  // tap[d][o * k + kk]: the input index output position o reads through
  // kernel tap kk along spatial dim d, times that dim's stride; -1 where it
  // falls into padding or between dilated input elements.
  std::vector<std::vector<int64_t>> tap(s_rank);
  for (size_t d = 0; d < s_rank; ++d) {
    const int64_t dilated = in_sp[d] == 0 ? 0 : (in_sp[d] - 1) * p.lhs_dilation[d] + 1;
    tap[d].resize(static_cast<size_t>(out_sp[d] * k_sp[d]));
    for (int64_t o = 0; o < out_sp[d]; ++o) {
      for (int64_t kk = 0; kk < k_sp[d]; ++kk) {
        const int64_t pos = o * p.strides[d] + kk * p.rhs_dilation[d] - p.padding[d].first;
        int64_t v = -1;
        if (pos >= 0 && pos < dilated && pos % p.lhs_dilation[d] == 0) v = pos / p.lhs_dilation[d] * in_strides[d];
        tap[d][static_cast<size_t>(o * k_sp[d] + kk)] = v;
      }
    }
  }

  const int64_t cols = kernel_in * k_vol;
  const int64_t rows = out_batch * out_vol;
  const int64_t chunk = std::clamp<int64_t>(kPatchBudget / std::max<int64_t>(cols, 1), 1, std::max<int64_t>(rows, 1));
  std::vector<A> out(static_cast<size_t>(rows * out_features));
  std::vector<A> patches(static_cast<size_t>(chunk * cols));
  std::vector<int64_t> offsets(static_cast<size_t>(chunk * k_vol));
  std::vector<int64_t> opos(s_rank), kpos(s_rank);

  for (int64_t r0 = 0; r0 < rows; r0 += chunk) {
    const int64_t nrows = std::min(chunk, rows - r0);
    // Input spatial offsets of every (row, kernel position) of the chunk.
    for (int64_t rr = 0; rr < nrows; ++rr) {
      int64_t pos = (r0 + rr) % out_vol;
      for (size_t d = s_rank; d-- > 0;) {
        opos[d] = pos % out_sp[d];
        pos /= out_sp[d];
      }
      std::fill(kpos.begin(), kpos.end(), 0);
      int64_t* row_off = offsets.data() + rr * k_vol;
      for (int64_t kp = 0; kp < k_vol; ++kp) {
        int64_t off = 0;
        for (size_t d = 0; d < s_rank; ++d) {
          const int64_t v = tap[d][static_cast<size_t>(opos[d] * k_sp[d] + kpos[d])];
          if (v < 0) {
            off = -1;
            break;
          }
          off += v;
        }
        row_off[kp] = off;
        for (size_t d = s_rank; d-- > 0;) {
          if (++kpos[d] < k_sp[d]) break;
          kpos[d] = 0;
        }
      }
    }
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t batch_base = p.batch_groups > 1 ? g * out_batch : 0;
      const int64_t feature_base = p.feature_groups > 1 ? g * kernel_in : 0;
      for (int64_t rr = 0; rr < nrows; ++rr) {
        const int64_t n = (r0 + rr) / out_vol;
        const int64_t* row_off = offsets.data() + rr * k_vol;
        A* prow = patches.data() + rr * cols;
        for (int64_t ci = 0; ci < kernel_in; ++ci) {
          const A* plane = in.data() + ((batch_base + n) * features + feature_base + ci) * in_vol;
          A* dst = prow + ci * k_vol;
          for (int64_t kp = 0; kp < k_vol; ++kp) dst[kp] = row_off[kp] >= 0 ? plane[row_off[kp]] : A{};
        }
      }
      Gemm<A>(nrows, group_out, cols, patches.data(), cols, false, kernel.data() + g * group_out * cols, cols, true,
              out.data() + r0 * out_features + g * group_out, out_features);
    }
  }

  // [out batch, out spatial..., O] -> the result's layout.
  std::vector<int64_t> canon_shape = {out_batch};
  canon_shape.insert(canon_shape.end(), out_sp.begin(), out_sp.end());
  canon_shape.push_back(out_features);
  std::vector<int64_t> perm(rs.size());
  perm[static_cast<size_t>(dn.output_batch)] = 0;
  for (size_t d = 0; d < s_rank; ++d) perm[static_cast<size_t>(dn.output_spatial[d])] = static_cast<int64_t>(d + 1);
  perm[static_cast<size_t>(dn.output_feature)] = static_cast<int64_t>(s_rank + 1);
  ScatterFromAcc<A>(out.data(), canon_shape, perm, result);
}

Status ConvImpl(KernelContext& ctx, ConvParams params) {
  const auto* dn = ctx.op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!dn) return ctx.Error("requires dimension_numbers");
  const Tensor& lhs = ctx.operand(0);
  const Tensor& rhs = ctx.operand(1);
  Tensor result(ctx.result_type(0));
  const size_t s_rank = dn->input_spatial.size();
  if (params.padding.size() != s_rank || params.strides.size() != s_rank || dn->kernel_spatial.size() != s_rank ||
      dn->output_spatial.size() != s_rank) {
    return ctx.Error("window attributes do not match the number of spatial dimensions");
  }
  const int64_t groups = params.feature_groups * params.batch_groups;
  const int64_t out_features = rhs.shape()[static_cast<size_t>(dn->kernel_output_feature)];
  if (params.feature_groups < 1 || params.batch_groups < 1 || out_features % groups != 0 ||
      lhs.shape()[static_cast<size_t>(dn->input_batch)] % params.batch_groups != 0 ||
      lhs.shape()[static_cast<size_t>(dn->input_feature)] !=
          rhs.shape()[static_cast<size_t>(dn->kernel_input_feature)] * params.feature_groups) {
    return ctx.Error("operand shapes do not agree with feature_group_count and batch_group_count");
  }
  if (result.shape()[static_cast<size_t>(dn->output_batch)] !=
          lhs.shape()[static_cast<size_t>(dn->input_batch)] / params.batch_groups ||
      result.shape()[static_cast<size_t>(dn->output_feature)] != out_features) {
    return ctx.Error("the result shape does not agree with the operands");
  }
  // Empty inputs contribute nothing: the zero-filled result stands.
  if (result.num_elements() > 0 && lhs.num_elements() > 0 && rhs.num_elements() > 0) {
    DispatchAcc(AccKindFor(result.element()), [&](auto acc_tag) {
      using A = typename decltype(acc_tag)::type;
      RunConv<A>(lhs, rhs, *dn, params, result);
    });
  }
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

Status Convolution(KernelContext& ctx) {
  const auto* dn = ctx.op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!dn) return ctx.Error("requires dimension_numbers");
  const int64_t spatial = static_cast<int64_t>(dn->input_spatial.size());
  HLOGRAPH_ASSIGN(ConvParams params, ReadWindow(ctx.op, spatial));
  HLOGRAPH_ASSIGN(params.padding, ir::verify::PaddingAttr(ctx.op, "padding", spatial));
  return ConvImpl(ctx, std::move(params));
}

// dynamic_conv takes its padding as a [spatial, 2] integer operand.
Status DynamicConv(KernelContext& ctx) {
  const auto* dn = ctx.op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!dn) return ctx.Error("requires dimension_numbers");
  const int64_t spatial = static_cast<int64_t>(dn->input_spatial.size());
  HLOGRAPH_ASSIGN(ConvParams params, ReadWindow(ctx.op, spatial));
  const Tensor& pad = ctx.operand(2);
  if (pad.num_elements() != 2 * spatial || !(ir::IsInteger(pad.element()))) {
    return ctx.Error("expects the padding operand to be an integer tensor of shape [" + std::to_string(spatial) +
                     ", 2], got " + pad.type().ToString());
  }
  for (int64_t d = 0; d < spatial; ++d) params.padding.emplace_back(ReadInt(pad, 2 * d), ReadInt(pad, 2 * d + 1));
  // Padding so negative that no output exists is caught by the result shape;
  // the window arithmetic itself is bounds-checked.
  return ConvImpl(ctx, std::move(params));
}

}  // namespace

void RegisterConvKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kConvolution, &Convolution);
  r.Register(ir::OpId::kDynamicConv, &DynamicConv);
}

}  // namespace hlograph::cpu::linalg

#include "backends/gpu/plan/convolution_lowering.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

// The window attributes of a convolution, per spatial dim.
struct Window {
  std::vector<int64_t> strides, lhs_dilation, rhs_dilation, pad_low, pad_high;
  std::vector<bool> reversed;
};

StatusOr<Window> WindowOf(const ir::Operation& op, int64_t spatial) {
  namespace v = ir::verify;
  Window w;
  HLOGRAPH_ASSIGN(w.strides, v::WindowAttr(op, "window_strides", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(w.lhs_dilation, v::WindowAttr(op, "lhs_dilation", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(w.rhs_dilation, v::WindowAttr(op, "rhs_dilation", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", spatial));
  for (const auto& [low, high] : padding) {
    w.pad_low.push_back(low);
    w.pad_high.push_back(high);
  }
  w.reversed.assign(static_cast<size_t>(spatial), false);
  if (const auto* reversal = op.attr("window_reversal").as<ir::DenseArrayAttr>()) {
    for (size_t i = 0; i < reversal->values.size() && i < w.reversed.size(); ++i) w.reversed[i] = reversal->values[i] != 0;
  }
  return w;
}

bool AllOnes(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
}

int64_t IntAttr(const ir::Operation& op, const char* name) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : 1;
}

// The dims of a tensor whose roles are `outer` (batch or output feature),
// `inner` (feature or input feature) and `spatial`, outermost first, as
// cuDNN's layout family wants them in memory.
std::vector<int64_t> FamilyOrder(int64_t outer, int64_t inner, const std::vector<int64_t>& spatial, bool channels_last) {
  std::vector<int64_t> order = {outer};
  if (!channels_last) order.push_back(inner);
  order.insert(order.end(), spatial.begin(), spatial.end());
  if (channels_last) order.push_back(inner);
  return order;
}

// Whether `t`'s own row-major layout is `order` (dims of size 1 may sit anywhere).
bool IsLaidOut(const ir::Type& t, const std::vector<int64_t>& order) {
  int64_t last = -1;
  for (int64_t d : order) {
    if (t.dim(d) == 1) continue;
    if (d < last) return false;
    last = d;
  }
  return true;
}

// What cuDNN sees of an operand with those roles: packed in the family's
// order, in cuDNN's dim order (outer, inner, spatial...). `permutation`
// gets the transpose that packs it so, or stays empty when `t` already is.
ConvTensor Packed(const ir::Type& t, int64_t outer, int64_t inner, const std::vector<int64_t>& spatial,
                  std::vector<int64_t>& permutation, bool channels_last) {
  const std::vector<int64_t> order = FamilyOrder(outer, inner, spatial, channels_last);
  permutation.clear();
  if (!IsLaidOut(t, order)) permutation = order;
  std::vector<int64_t> stride_of(static_cast<size_t>(t.rank()), 1);
  int64_t s = 1;
  for (size_t i = order.size(); i-- > 0;) {
    stride_of[static_cast<size_t>(order[i])] = s;
    s *= t.dim(order[i]);
  }
  ConvTensor c;
  c.type = t.element();
  std::vector<int64_t> dims = {outer, inner};
  dims.insert(dims.end(), spatial.begin(), spatial.end());
  for (int64_t d : dims) {
    c.dims.push_back(t.dim(d));
    c.strides.push_back(stride_of[static_cast<size_t>(d)]);
  }
  return c;
}

// An operand's roles in cuDNN's terms: which of its dims is the outer one
// (batch or output feature), the inner one (feature or input feature), and
// the spatial ones.
struct Roles {
  int64_t outer, inner;
  const std::vector<int64_t>& spatial;
};

// Describes the convolution's lhs, rhs and result in the tensors `c.kind`
// reads and writes them as, packed in the family of the lhs's layout;
// whether that family is channels-last.
bool PackAll(ConvLowering& r, const ir::Type& lhs, Roles lhs_roles, const ir::Type& rhs, Roles rhs_roles,
             const ir::Type& out, Roles out_roles) {
  ConvConfig& c = r.config;
  ConvTensor& lhs_slot = c.kind == ConvKind::kBackwardData ? c.y : c.x;
  ConvTensor& rhs_slot = c.kind == ConvKind::kBackwardFilter ? c.y : c.w;
  ConvTensor& out_slot = c.kind == ConvKind::kForward ? c.y : c.kind == ConvKind::kBackwardData ? c.x : c.w;
  const bool last = !IsLaidOut(lhs, FamilyOrder(lhs_roles.outer, lhs_roles.inner, lhs_roles.spatial, false));
  lhs_slot = Packed(lhs, lhs_roles.outer, lhs_roles.inner, lhs_roles.spatial, r.lhs_permutation, last);
  rhs_slot = Packed(rhs, rhs_roles.outer, rhs_roles.inner, rhs_roles.spatial, r.rhs_permutation, last);
  out_slot = Packed(out, out_roles.outer, out_roles.inner, out_roles.spatial, r.result_permutation, last);
  return last;
}

int64_t Product(const ir::Type& t, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= t.dim(d);
  return n;
}

// cuDNN's size rule for the forward convolution's output, which all three
// directions check: y = (x + pads - dilation * (w - 1) - 1) / stride + 1.
Status CheckSizes(const ConvConfig& c) {
  for (int d = 0; d < c.spatial_rank(); ++d) {
    const size_t i = static_cast<size_t>(d) + 2;
    const int64_t extent = c.x.dims[i] + c.pre_padding[d] + c.post_padding[d] - c.dilations[d] * (c.w.dims[i] - 1) - 1;
    if (extent < 0 || extent / c.strides[d] + 1 != c.y.dims[i]) {
      return Status::Error(std::string("its sizes are not those of a ") + ConvKindName(c.kind) +
                           " convolution (spatial dim " + std::to_string(d) + ")");
    }
  }
  return Status::Ok();
}

// cuDNN convolves 2 or 3 spatial dims: a 1-D convolution gets a unit
// height in front of its width (its stride as if the tensor were packed).
void AddUnitHeight(ConvConfig& c) {
  for (ConvTensor* t : {&c.x, &c.w, &c.y}) {
    t->dims.insert(t->dims.begin() + 2, 1);
    t->strides.insert(t->strides.begin() + 2, t->strides[2] * t->dims[3]);
  }
  c.pre_padding.insert(c.pre_padding.begin(), 0);
  c.post_padding.insert(c.post_padding.begin(), 0);
  c.strides.insert(c.strides.begin(), 1);
  c.dilations.insert(c.dilations.begin(), 1);
}

bool FitsInt(const ConvTensor& t) {
  return t.span() <= std::numeric_limits<int32_t>::max() && t.elements() > 0;
}

// The filter that a kernel is the spatial reversal of: window_reversal on
// every spatial dim (the kernel itself), or a stablehlo.reverse of exactly
// the kernel's spatial dims (its operand).
const ir::Value* UnreversedFilter(const ir::Operation& op, const Window& w, const std::vector<int64_t>& kernel_spatial) {
  const ir::Value* kernel = op.operand(1);
  if (std::all_of(w.reversed.begin(), w.reversed.end(), [](bool r) { return r; })) return kernel;
  if (std::any_of(w.reversed.begin(), w.reversed.end(), [](bool r) { return r; })) return nullptr;
  const ir::Operation* producer = kernel->defining_op();
  if (producer == nullptr || producer->id() != ir::OpId::kReverse) return nullptr;
  std::vector<int64_t> dims = ir::verify::I64ArrayAttr(*producer, "dimensions");
  std::vector<int64_t> want = kernel_spatial;
  std::sort(dims.begin(), dims.end());
  std::sort(want.begin(), want.end());
  return dims == want ? producer->operand(0) : nullptr;
}

}  // namespace

void RefuseConvolution(const ConvConfig& config, const std::string& why) { RefuseLibraryCall(config.ToString(), why); }

bool ConvolutionRefused(const ConvConfig& config) { return LibraryRefusal(config.ToString()).has_value(); }

bool CudnnConvolutionReads(const ir::Operation& op, const ir::Value* v) {
  if (v == op.operand(0)) return true;
  auto lowered = LowerConvolution(op);
  return !lowered.ok() || lowered->rhs == v;
}

StatusOr<ConvLowering> LowerConvolution(const ir::Operation& op) {
  if (!PlanOptions::Current().cudnn) return Status::Error("HLOGRAPH_GPU_CUDNN=0");
  const auto* dn = op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!dn || op.num_operands() != 2 || op.num_results() != 1) return Status::Error("not a convolution");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& out = op.result(0)->type();
  const ElementType in = lhs.element();
  if (in != ElementType::kF32 && in != ElementType::kF64 && in != ElementType::kF16 && in != ElementType::kBF16) {
    return Status::Error("cuDNN does not convolve " + std::string(ir::ElementTypeName(in)));
  }
  if (rhs.element() != in) return Status::Error("operands of different element types");
  const bool widened = (in == ElementType::kF16 || in == ElementType::kBF16) && out.element() == ElementType::kF32;
  if (out.element() != in && !widened) {
    return Status::Error("a " + std::string(ir::ElementTypeName(out.element())) + " result of " +
                         std::string(ir::ElementTypeName(in)) + " operands");
  }
  const int64_t spatial = static_cast<int64_t>(dn->input_spatial.size());
  if (spatial < 1 || spatial > 3) return Status::Error("cuDNN convolves 1 to 3 spatial dims");
  if (lhs.NumElements() == 0 || rhs.NumElements() == 0 || out.NumElements() == 0) {
    return Status::Error("an empty operand or result");
  }
  HLOGRAPH_ASSIGN(const Window win, WindowOf(op, spatial));
  const int64_t feature_groups = IntAttr(op, "feature_group_count");
  const int64_t batch_groups = IntAttr(op, "batch_group_count");
  const bool reversed = std::any_of(win.reversed.begin(), win.reversed.end(), [](bool r) { return r; });

  ConvLowering result;
  result.rhs = op.operand(1);
  ConvConfig& c = result.config;
  c.allow_tf32 = PrecisionOf(op) == GemmPrecision::kDefault;
  // Every tensor in the family of the activations the convolution reads:
  // NCHW when they are laid out so, else NHWC (the tensor cores' own).
  if (!AllOnes(win.lhs_dilation)) {
    // Backward data: dx = conv(dy dilated by the stride, reverse(w)).
    if (!AllOnes(win.strides)) return Status::Error("lhs dilation with window strides");
    if (feature_groups != 1 || batch_groups != 1) return Status::Error("lhs dilation with groups");
    result.rhs = UnreversedFilter(op, win, dn->kernel_spatial);
    const bool reverse_copy = result.rhs == nullptr;  // reversed while packed
    if (reverse_copy && reversed) return Status::Error("lhs dilation with a window reversed in some dims");
    if (reverse_copy) result.rhs = op.operand(1);
    c.kind = ConvKind::kBackwardData;
    const bool last = PackAll(result, lhs, {dn->input_batch, dn->input_feature, dn->input_spatial}, rhs,
                              {dn->kernel_input_feature, dn->kernel_output_feature, dn->kernel_spatial}, out,
                              {dn->output_batch, dn->output_feature, dn->output_spatial});
    if (reverse_copy) {
      const std::vector<int64_t> order =
          FamilyOrder(dn->kernel_input_feature, dn->kernel_output_feature, dn->kernel_spatial, last);
      result.rhs_permutation = order;
      for (size_t i = 0; i < order.size(); ++i) {
        if (std::count(dn->kernel_spatial.begin(), dn->kernel_spatial.end(), order[i]) > 0) {
          result.rhs_reversed.push_back(static_cast<int64_t>(i));
        }
      }
    }
    c.strides = win.lhs_dilation;
    c.dilations = win.rhs_dilation;
    for (size_t d = 0; d < static_cast<size_t>(spatial); ++d) {
      const int64_t reach = (c.w.dims[d + 2] - 1) * c.dilations[d];
      c.pre_padding.push_back(reach - win.pad_low[d]);
      c.post_padding.push_back(reach - win.pad_high[d]);
    }
  } else if (reversed) {
    return Status::Error("window reversal");
  } else if (batch_groups > 1 ||
             (feature_groups == 1 && (dn->input_feature < dn->input_batch ||
                                      Product(rhs, dn->kernel_spatial) > Product(out, dn->output_spatial)))) {
    // Backward filter: dw = conv(x with batch and feature swapped, dy).
    // Chosen when the lhs's feature dim is its outermost (the batch of the
    // activations it is) or the window outgrows the result.
    if (feature_groups != 1) return Status::Error("feature groups with batch groups");
    c.kind = ConvKind::kBackwardFilter;
    PackAll(result, lhs, {dn->input_feature, dn->input_batch, dn->input_spatial}, rhs,
            {dn->kernel_input_feature, dn->kernel_output_feature, dn->kernel_spatial}, out,
            {dn->output_feature, dn->output_batch, dn->output_spatial});
    c.strides = win.rhs_dilation;
    c.dilations = win.strides;
    c.pre_padding = win.pad_low;
    c.post_padding = win.pad_high;
  } else {
    if (batch_groups != 1) return Status::Error("batch groups");
    c.kind = ConvKind::kForward;
    PackAll(result, lhs, {dn->input_batch, dn->input_feature, dn->input_spatial}, rhs,
            {dn->kernel_output_feature, dn->kernel_input_feature, dn->kernel_spatial}, out,
            {dn->output_batch, dn->output_feature, dn->output_spatial});
    c.strides = win.strides;
    c.dilations = win.rhs_dilation;
    c.pre_padding = win.pad_low;
    c.post_padding = win.pad_high;
  }
  // Negative high padding leaves the input's last elements unread (the
  // windows do not reach them): cuDNN's size rule rounds them off by itself.
  for (size_t d = 0; d < static_cast<size_t>(spatial); ++d) {
    if (c.pre_padding[d] < 0) return Status::Error("negative low padding");
    c.post_padding[d] = std::max<int64_t>(c.post_padding[d], 0);
  }
  HLOGRAPH_TRY(CheckSizes(c));
  if (spatial == 1) AddUnitHeight(c);
  if (!FitsInt(c.x) || !FitsInt(c.w) || !FitsInt(c.y)) return Status::Error("sizes beyond cuDNN's 32-bit dims");
  if (const auto why = LibraryRefusal(c.ToString())) return Status::Error("cuDNN on this GPU: " + *why);
  return result;
}

}  // namespace hlograph::gpu

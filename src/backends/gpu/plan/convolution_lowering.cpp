#include "backends/gpu/plan/convolution_lowering.h"

#include <cstdlib>
#include <limits>

#include "backends/gpu/plan/dot_lowering.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

std::vector<int64_t> RowMajorStrides(const ir::Type& t) {
  std::vector<int64_t> strides(static_cast<size_t>(t.rank()), 1);
  for (int64_t d = t.rank() - 2; d >= 0; --d) strides[static_cast<size_t>(d)] = strides[d + 1] * t.dim(d + 1);
  return strides;
}

// An operand's dims and strides in cuDNN's order: `outer` (batch or output
// feature), `inner` (feature or input feature), then the spatial dims.
void Describe(const ir::Type& t, int64_t outer, int64_t inner, const std::vector<int64_t>& spatial,
              std::vector<int64_t>& dims, std::vector<int64_t>& strides) {
  const std::vector<int64_t> row_major = RowMajorStrides(t);
  dims = {t.dim(outer), t.dim(inner)};
  strides = {row_major[static_cast<size_t>(outer)], row_major[static_cast<size_t>(inner)]};
  for (int64_t d : spatial) {
    dims.push_back(t.dim(d));
    strides.push_back(row_major[static_cast<size_t>(d)]);
  }
}

// Whether a tensor's dims are [batch, feature, spatial...] (channels first)
// or [batch, spatial..., feature] (channels last) in that order.
bool IsChannelsFirst(int64_t batch, int64_t feature, const std::vector<int64_t>& spatial) {
  if (batch != 0 || feature != 1) return false;
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (spatial[i] != static_cast<int64_t>(i) + 2) return false;
  }
  return true;
}
bool IsChannelsLast(int64_t batch, int64_t feature, const std::vector<int64_t>& spatial) {
  if (batch != 0 || feature != static_cast<int64_t>(spatial.size()) + 1) return false;
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (spatial[i] != static_cast<int64_t>(i) + 1) return false;
  }
  return true;
}

// cuDNN convolves 2 or 3 spatial dims: a 1-D convolution gets a unit
// height in front of its width (its stride as if the tensor were packed).
void AddUnitHeight(std::vector<int64_t>& dims, std::vector<int64_t>& strides) {
  dims.insert(dims.begin() + 2, 1);
  strides.insert(strides.begin() + 2, strides[2] * dims[3]);
}

bool FitsInt(const std::vector<int64_t>& v) {
  for (int64_t x : v) {
    if (x < 0 || x > std::numeric_limits<int32_t>::max()) return false;
  }
  return true;
}

}  // namespace

StatusOr<ConvConfig> LowerConvolution(const ir::Operation& op) {
  if (const char* cudnn = std::getenv("HLOGRAPH_GPU_CUDNN"); cudnn && std::string(cudnn) == "0") {
    return Status::Error("HLOGRAPH_GPU_CUDNN=0");
  }
  const auto* dn = op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!dn || op.num_operands() != 2 || op.num_results() != 1) return Status::Error("not a convolution");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& out = op.result(0)->type();
  ConvConfig c;
  c.type = lhs.element();
  if (rhs.element() != c.type || out.element() != c.type) return Status::Error("mixed element types");
  if (c.type != ElementType::kF32 && c.type != ElementType::kF64 && c.type != ElementType::kF16 &&
      c.type != ElementType::kBF16) {
    return Status::Error("cuDNN does not convolve " + std::string(ir::ElementTypeName(c.type)));
  }
  const int64_t spatial = static_cast<int64_t>(dn->input_spatial.size());
  if (spatial < 1 || spatial > 3) return Status::Error("cuDNN convolves 1 to 3 spatial dims");
  namespace v = ir::verify;
  HLOGRAPH_ASSIGN(c.window_strides, v::WindowAttr(op, "window_strides", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> lhs_dilation,
                  v::WindowAttr(op, "lhs_dilation", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(c.dilations, v::WindowAttr(op, "rhs_dilation", spatial, "the spatial rank"));
  HLOGRAPH_ASSIGN(const v::Padding padding, v::PaddingAttr(op, "padding", spatial));
  for (int64_t d : lhs_dilation) {
    if (d != 1) return Status::Error("lhs dilation (a transposed convolution)");
  }
  if (const auto* reversal = op.attr("window_reversal").as<ir::DenseArrayAttr>()) {
    for (int64_t r : reversal->values) {
      if (r != 0) return Status::Error("window reversal");
    }
  }
  bool even = true;
  for (const auto& [low, high] : padding) {
    if (low < 0 || high < 0) return Status::Error("negative padding");
    even = even && low == high;
    c.padding.push_back(low);
  }
  if (!even) {  // padded by a copy, then convolved without padding
    for (const auto& [low, high] : padding) {
      c.explicit_padding_low.push_back(low);
      c.explicit_padding_high.push_back(high);
    }
    c.padding.assign(padding.size(), 0);
  }
  const auto* batch_groups = op.attr("batch_group_count").as<ir::IntegerAttr>();
  if (batch_groups && batch_groups->value != 1) return Status::Error("batch groups");
  const auto* feature_groups = op.attr("feature_group_count").as<ir::IntegerAttr>();
  c.groups = feature_groups ? feature_groups->value : 1;

  const bool first = IsChannelsFirst(dn->input_batch, dn->input_feature, dn->input_spatial) &&
                     IsChannelsFirst(dn->output_batch, dn->output_feature, dn->output_spatial);
  const bool last = IsChannelsLast(dn->input_batch, dn->input_feature, dn->input_spatial) &&
                    IsChannelsLast(dn->output_batch, dn->output_feature, dn->output_spatial);
  if (!first && !last) return Status::Error("input and output neither both channels-first nor both channels-last");
  c.channels_last = last;
  c.allow_tf32 = PrecisionOf(op) == GemmPrecision::kDefault;
  Describe(lhs, dn->input_batch, dn->input_feature, dn->input_spatial, c.input_dims, c.input_strides);
  Describe(out, dn->output_batch, dn->output_feature, dn->output_spatial, c.output_dims, c.output_strides);
  Describe(rhs, dn->kernel_output_feature, dn->kernel_input_feature, dn->kernel_spatial, c.filter_dims,
           c.filter_strides);
  if (lhs.NumElements() == 0 || rhs.NumElements() == 0 || out.NumElements() == 0) {
    return Status::Error("an empty operand or result");
  }
  if (spatial == 1) {
    AddUnitHeight(c.input_dims, c.input_strides);
    AddUnitHeight(c.output_dims, c.output_strides);
    AddUnitHeight(c.filter_dims, c.filter_strides);
    c.padding.insert(c.padding.begin(), 0);
    if (!c.explicit_padding_low.empty()) {
      c.explicit_padding_low.insert(c.explicit_padding_low.begin(), 0);
      c.explicit_padding_high.insert(c.explicit_padding_high.begin(), 0);
    }
    c.window_strides.insert(c.window_strides.begin(), 1);
    c.dilations.insert(c.dilations.begin(), 1);
  }
  if (!FitsInt(c.input_strides) || !FitsInt(c.output_strides) || !FitsInt(c.filter_strides) ||
      !FitsInt({lhs.NumElements(), rhs.NumElements(), out.NumElements()}) || !FitsInt(c.padding) ||
      !FitsInt(c.explicit_padding_low) || !FitsInt(c.explicit_padding_high)) {
    return Status::Error("sizes beyond cuDNN's 32-bit dims");
  }
  return c;
}

}  // namespace hlograph::gpu

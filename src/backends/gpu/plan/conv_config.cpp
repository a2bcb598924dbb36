#include "backends/gpu/plan/conv_config.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace hlograph::gpu {
namespace {

using ir::ElementType;

std::string List(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

const char* PointwiseName(ConvPointwise op) {
  switch (op) {
    case ConvPointwise::kAdd: return "add";
    case ConvPointwise::kSubtract: return "subtract";
    case ConvPointwise::kMultiply: return "multiply";
    case ConvPointwise::kRelu: return "relu";
  }
  return "?";
}

const char* ConvKindName(ConvKind kind) {
  switch (kind) {
    case ConvKind::kForward: return "forward";
    case ConvKind::kBackwardData: return "backward data";
    case ConvKind::kBackwardFilter: return "backward filter";
  }
  return "?";
}

int64_t ConvTensor::elements() const {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

int64_t ConvTensor::span() const {
  int64_t last = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 0) return 0;
    last += (dims[d] - 1) * strides[d];
  }
  return last + 1;
}

std::string ConvTensor::Layout(const std::string& letters) const {
  std::vector<size_t> order(dims.size());
  std::iota(order.begin(), order.end(), 0);
  // Outermost first; ties (unit dims) in cuDNN's order.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return strides[a] > strides[b]; });
  std::string s;
  for (size_t d : order) s += d < letters.size() ? letters[d] : '?';
  return s;
}

double ConvConfig::flops() const {
  // Every element of y takes c / groups x window multiply-adds.
  double window = 1;
  for (size_t d = 2; d < w.dims.size(); ++d) window *= static_cast<double>(w.dims[d]);
  return 2.0 * static_cast<double>(y.elements()) * static_cast<double>(w.dims.size() > 1 ? w.dims[1] : 1) * window;
}

std::string ConvConfig::ToString() const {
  const bool three = spatial_rank() == 3;
  const std::string act = three ? "NCDHW" : "NCHW", fil = three ? "KCTRS" : "KCRS";
  const auto tensor = [&](const char* name, const ConvTensor& t, const std::string& letters) {
    std::string s = std::string(name) + " " + List(t.dims, "x") + " " + t.Layout(letters);
    if (t.type != x.type && &t != &x) s += " " + std::string(ir::ElementTypeName(t.type));
    return s;
  };
  std::string s = std::string("cudnn conv ") + ConvKindName(kind) + " " + std::string(ir::ElementTypeName(x.type)) + " ";
  switch (kind) {
    case ConvKind::kForward:
      s += tensor("x", x, act) + " w " + tensor("", w, fil).substr(1) + " -> " + tensor("y", y, act);
      break;
    case ConvKind::kBackwardData:
      s += tensor("dy", y, act) + " w " + tensor("", w, fil).substr(1) + " -> " + tensor("dx", x, act);
      break;
    case ConvKind::kBackwardFilter:
      s += tensor("x", x, act) + " dy " + tensor("", y, act).substr(1) + " -> " + tensor("dw", w, fil);
      break;
  }
  s += " pad [" + List(pre_padding, ",") + "]";
  if (post_padding != pre_padding) s += "-[" + List(post_padding, ",") + "]";
  s += " stride [" + List(strides, ",") + "] dilation [" + List(dilations, ",") + "]";
  if (groups() != 1) s += " groups " + std::to_string(groups());
  if (x.type == ElementType::kF32) s += allow_tf32 ? " tf32" : " highest";
  for (size_t i = 0; i < epilogue.size(); ++i) {
    const ConvEpilogueOp& e = epilogue[i];
    s += i == 0 ? " then " : " ";
    s += PointwiseName(e.op);
    if (e.operand != ConvOperand::kNone) {
      s += std::string(e.operand == ConvOperand::kChannels ? "(channels" : "(tensor") +
           (e.type != y.type ? " " + std::string(ir::ElementTypeName(e.type)) : "") + ")";
    }
  }
  return s;
}

}  // namespace hlograph::gpu

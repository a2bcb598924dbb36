// Quantized types of the public API, spelled as the IR prints them so that
// messages show a parameter's type as its program does.
#include "runtime/quantization.h"

#include <memory>

#include "runtime/conversions.h"

namespace hlograph {
namespace runtime {

ir::QuantParamsPtr ToIr(ElementType storage, const Quantization& quantization) {
  auto params = std::make_shared<ir::QuantParams>();
  params->storage = ToIr(storage);
  const bool full_range = quantization.storage_min == 0 && quantization.storage_max == 0;
  params->storage_min = full_range ? ir::QuantParams::DefaultMin(params->storage) : quantization.storage_min;
  params->storage_max = full_range ? ir::QuantParams::DefaultMax(params->storage) : quantization.storage_max;
  params->expressed = ToIr(quantization.expressed);
  params->scales = quantization.scales;
  params->zero_points = quantization.zero_points;
  params->quantized_dimension = quantization.axis;
  return params;
}

Quantization FromIr(const ir::QuantParams& params) {
  Quantization q;
  q.expressed = FromIr(params.expressed).value_or(ElementType::kF32);  // a float type: every one is public
  q.scales = params.scales;
  q.zero_points = params.zero_points;
  q.axis = params.quantized_dimension;
  if (params.HasCustomRange()) {
    q.storage_min = params.storage_min;
    q.storage_max = params.storage_max;
  }
  return q;
}

}  // namespace runtime

std::string TypeString(ElementType type, const std::vector<int64_t>& shape, const Quantization* quantization) {
  if (quantization == nullptr) return TypeString(type, shape);
  return ir::Type::QuantizedTensor(runtime::ToIr(type, *quantization), shape).ToString();
}

}  // namespace hlograph

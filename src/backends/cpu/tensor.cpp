#include "backends/cpu/tensor.h"

namespace hlograph::cpu {

Tensor::Tensor(ir::Type type) : type_(std::move(type)) {
  if (type_.IsTuple()) {
    for (const ir::Type& t : type_.tuple_elements()) tuple_.emplace_back(t);
    return;
  }
  if (type_.IsToken()) return;
  num_elements_ = type_.NumElements();
  storage_ = std::make_shared<std::vector<uint8_t>>(
      static_cast<size_t>(num_elements_) * static_cast<size_t>(ir::StorageBytes(type_.element())));
}

Tensor Tensor::Tuple(std::vector<Tensor> elements) {
  std::vector<ir::Type> types;
  for (const Tensor& t : elements) types.push_back(t.type());
  Tensor result;
  result.type_ = ir::Type::Tuple(std::move(types));
  result.tuple_ = std::move(elements);
  return result;
}

Tensor Tensor::Reshaped(ir::Type type) const {
  Tensor t = *this;
  t.type_ = std::move(type);
  return t;
}

Tensor Tensor::Clone() const {
  Tensor t = *this;
  if (storage_) t.storage_ = std::make_shared<std::vector<uint8_t>>(*storage_);
  return t;
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

}  // namespace hlograph::cpu

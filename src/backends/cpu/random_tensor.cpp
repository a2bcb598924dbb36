#include "backends/cpu/random_tensor.h"

#include "backends/cpu/element_types.h"

namespace hlograph::cpu {

StatusOr<Tensor> RandomTensor(const ir::Type& type, std::mt19937_64& rng) {
  if (!type.IsTensor()) return Status::Error("cannot make a random " + type.ToString() + ": only tensors");
  Tensor t(type);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  // [0, 8), or what a 2-bit integer holds: [0, 2) signed, [0, 4) unsigned.
  const int width = ir::BitWidth(type.element());
  const int top = width > 2 ? 7 : (ir::IsSignedInteger(type.element()) ? 1 : 3);
  std::uniform_int_distribution<int> small(0, top);
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = t.mutable_data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        data[i] = real(rng) < 0;
      } else if constexpr (kIsComplex<T>) {
        using R = typename T::value_type;
        const R re = static_cast<R>(real(rng));
        data[i] = T(re, static_cast<R>(real(rng)));
      } else if constexpr (kIsFloat<T>) {
        data[i] = Store<T>(static_cast<ComputeType<T>>(real(rng)));
      } else {
        data[i] = static_cast<T>(small(rng));
      }
    }
  });
  return t;
}

StatusOr<std::vector<Tensor>> RandomTensors(const std::vector<ir::Type>& types, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Tensor> tensors;
  for (size_t i = 0; i < types.size(); ++i) {
    auto t = RandomTensor(types[i], rng);
    if (!t.ok()) return Status::Error("argument " + std::to_string(i) + ": " + t.status().message());
    tensors.push_back(std::move(*t));
  }
  return tensors;
}

}  // namespace hlograph::cpu

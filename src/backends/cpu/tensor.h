// Host tensors for the CPU interpreter: a type and a dense row-major byte
// buffer (StorageBytes(element) per element; complex: real then imaginary;
// i1 one byte 0/1; sub-byte integers one byte each). Tuples hold elements.
//
// Tensors are values: the buffer is shared between copies and never written
// once the producing kernel returns, so passing tensors around is cheap.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "ir/type.h"

namespace hlograph::cpu {

class Tensor {
 public:
  Tensor() = default;
  // A zero-filled tensor (or token) of `type`; tuples get default elements.
  explicit Tensor(ir::Type type);
  static Tensor Tuple(std::vector<Tensor> elements);

  const ir::Type& type() const { return type_; }
  ir::ElementType element() const { return type_.element(); }
  const std::vector<int64_t>& shape() const { return type_.shape(); }
  int64_t rank() const { return type_.rank(); }
  int64_t num_elements() const { return num_elements_; }
  size_t byte_size() const { return storage_ ? storage_->size() : 0; }

  const uint8_t* bytes() const { return storage_ ? storage_->data() : nullptr; }
  // Writable bytes: only for the kernel that is producing this tensor.
  uint8_t* mutable_bytes() { return storage_ ? storage_->data() : nullptr; }
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(bytes());
  }
  template <typename T>
  T* mutable_data() {
    return reinterpret_cast<T*>(mutable_bytes());
  }

  const std::vector<Tensor>& tuple_elements() const { return tuple_; }

  // Same bytes, another shape with the same element count (reshape).
  Tensor Reshaped(ir::Type type) const;
  // A private copy of the bytes, safe to modify.
  Tensor Clone() const;

 private:
  ir::Type type_;
  int64_t num_elements_ = 0;
  std::shared_ptr<std::vector<uint8_t>> storage_;
  std::vector<Tensor> tuple_;
};

// Row-major strides, in elements.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape);

// Calls fn(index) for every multi-index of `shape` in row-major order.
template <typename Fn>
void ForEachIndex(const std::vector<int64_t>& shape, Fn&& fn) {
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  std::vector<int64_t> index(shape.size(), 0);
  while (true) {
    fn(index);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace hlograph::cpu

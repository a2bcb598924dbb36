#include "pjrt/gpu/result_pool.h"

#include <utility>

namespace hlograph::pjrt {

ResultPool::ResultPool(size_t outputs, Free free) : free_(std::move(free)), spare_(outputs, nullptr) {}

ResultPool::~ResultPool() { Release(); }

void* ResultPool::Take(size_t output) {
  std::lock_guard<std::mutex> lock(mu_);
  if (output >= spare_.size() || spare_[output] == nullptr) return nullptr;
  void* data = spare_[output];
  spare_[output] = nullptr;
  ++taken_;
  return data;
}

bool ResultPool::Keep(size_t output, void* data) {
  std::lock_guard<std::mutex> lock(mu_);
  if (data == nullptr || output >= spare_.size() || spare_[output] != nullptr) return false;
  spare_[output] = data;
  return true;
}

void ResultPool::Release() {
  std::vector<std::pair<void*, size_t>> freed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t output = 0; output < spare_.size(); ++output) {
      if (spare_[output] != nullptr) freed.emplace_back(spare_[output], output);
      spare_[output] = nullptr;
    }
  }
  for (const auto& [data, output] : freed) free_(data, output);
}

}  // namespace hlograph::pjrt

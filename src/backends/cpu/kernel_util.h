// Small helpers shared by the CPU kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/kernel.h"
#include "ir/attribute.h"

namespace hlograph::cpu {

// Returns the operands as the results (collectives and sharding annotations
// on one device), each result of its operand's type; else an error saying
// the program was exported for more devices (kernels/misc.cpp).
Status OperandsAsResults(KernelContext& ctx);

// array<i64: ...> attribute `name` (empty when absent).
inline std::vector<int64_t> I64Array(const ir::Operation& op, const std::string& name) {
  const auto* a = op.attr(name).as<ir::DenseArrayAttr>();
  return a ? a->values : std::vector<int64_t>{};
}

// Integer attribute `name`, or `fallback` when absent.
inline int64_t IntAttr(const ir::Operation& op, const std::string& name, int64_t fallback = 0) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : fallback;
}

// Element `i` of an integer (or bool) tensor as int64.
inline int64_t ReadInt(const Tensor& t, int64_t i) {
  return DispatchElementType(t.element(), [&](auto tag) -> int64_t {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      return static_cast<int64_t>(t.data<T>()[i]);
    } else {
      return 0;
    }
  });
}

}  // namespace hlograph::cpu

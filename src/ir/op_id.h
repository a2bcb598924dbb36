// Ops by id: one enumerator per op hlograph knows, from the declarations in
// ir/ops/elementwise_ops.def and ir/ops/op_ids.def. Layers compare and key
// their tables by id (`op.id() == OpId::kAdd`); names are for text.
#pragma once

#include <cstdint>
#include <string_view>

namespace hlograph::ir {

enum class OpId : uint16_t {
#define HLOGRAPH_ELEMENTWISE(id, name, ...) id,
#define HLOGRAPH_OP(id, name) id,
#include "ir/ops/elementwise_ops.def"
#include "ir/ops/op_ids.def"
#undef HLOGRAPH_OP
#undef HLOGRAPH_ELEMENTWISE
  kNumOps,
};

constexpr int kNumOpIds = static_cast<int>(OpId::kNumOps);

// "stablehlo.add" for OpId::kAdd.
std::string_view OpIdName(OpId id);
// The id of an op name; OpId::kNumOps for a name hlograph does not know.
OpId OpIdOf(std::string_view name);

}  // namespace hlograph::ir

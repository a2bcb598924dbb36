// What the lookups into and the scatters into an operand cut along the dim
// their indices select (gather_rule.cpp, scatter_rule.cpp) share: which
// dim that is, and the indices shifted into this device's piece.
#include <algorithm>

#include "passes/op_builder.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes::spmd {

std::optional<size_t> IndexedCutDim(const DeviceSharding& operand, const std::vector<int64_t>& index_map,
                                    const std::vector<int64_t>& one_element_dims, const ir::Type& indices,
                                    int64_t index_vector_dim) {
  const std::vector<size_t> cut = operand.CutDims();
  const auto vector_dim = static_cast<size_t>(index_vector_dim);
  const bool one_component = vector_dim >= indices.shape().size() || indices.dim(index_vector_dim) == 1;
  if (cut.size() != 1 || index_map.size() != 1 || index_map[0] != static_cast<int64_t>(cut[0]) || !one_component ||
      !ir::IsInteger(indices.element()) ||
      std::find(one_element_dims.begin(), one_element_dims.end(), static_cast<int64_t>(cut[0])) ==
          one_element_dims.end()) {
    return std::nullopt;
  }
  return cut[0];
}

ir::Value* ShiftedIntoPiece(Emitter& e, ir::Value* indices, const DeviceSharding& pieces, size_t dim,
                            int64_t local_size) {
  ir::Value* offset = e.Offset(pieces, dim, local_size);
  OpBuilder b = e.Here();  // after the offset's ops
  const ir::Type& type = indices->type();
  ir::Value* shifted =
      b.Binary(ir::OpId::kSubtract, indices, b.BroadcastInDim(b.Convert(offset, type.element()), type, {}));
  e.SetSharding(shifted, e.ShardingOf(indices));
  return shifted;
}

}  // namespace hlograph::passes::spmd

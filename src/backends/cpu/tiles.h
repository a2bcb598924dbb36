// The pieces of a tensor cut into equal tiles (counts[d] along dimension
// d), as the devices of a sharded value hold them.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/cpu/tensor.h"

namespace hlograph::cpu {

// The tile at `tile` (one index per dimension) of `whole`; every dimension
// must divide by its count.
Tensor CutTile(const Tensor& whole, const std::vector<int64_t>& counts, const std::vector<int64_t>& tile);

// Writes `piece` as the tile at `tile` of `whole` (being produced).
void PlaceTile(Tensor& whole, const std::vector<int64_t>& counts, const std::vector<int64_t>& tile,
               const Tensor& piece);

}  // namespace hlograph::cpu
